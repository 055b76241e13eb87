"""What every verb shares: the workspace option's value, the store, the consoles, exit codes.

Imported by `cotbuilder --help`, so rich and the store (DuckDB) are imported only when first used: `console` and `out`
are module attributes made on first access.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from .store import Store

# Exit codes (documented in `cotbuilder --help`): 0 all good, 1 some items/sources failed, 2 bad usage or a stage that
# cannot run here (missing toolkit, not built).
EXIT_OK = 0
EXIT_PARTIAL = 1
EXIT_USAGE = 2

_consoles: dict[str, Any] = {}


def __getattr__(name: str) -> Any:
    """`console`: progress and tables, on stderr (stdout stays for data, e.g. query results); `out`: stdout."""
    if name in ("console", "out"):
        if name not in _consoles:
            from rich.console import Console

            _consoles[name] = Console(stderr=name == "console")
        return _consoles[name]
    raise AttributeError(name)


@dataclass
class CliState:
    workspace: Path | None
    registry: Any = None  # the stage registry the CLI was built from (default: stages.registry.STAGES)

    def __post_init__(self) -> None:
        if self.registry is None:
            from .stages.registry import STAGES

            self.registry = STAGES


def get_state(ctx: typer.Context) -> CliState:
    root = ctx.find_root()
    if not isinstance(root.obj, CliState):
        root.obj = CliState(None)
    return root.obj


def open_store(ctx: typer.Context, *, read_only: bool = False) -> Store:
    """Open the workspace store, turning a store problem into one clear line and exit 2."""
    from .store import Store, StoreError

    try:
        return Store(get_state(ctx).workspace, read_only=read_only)
    except StoreError as exc:
        raise usage_error(str(exc)) from exc


def usage_error(message: str) -> typer.Exit:
    from rich.markup import escape

    __getattr__("console").print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)
    return typer.Exit(EXIT_USAGE)
