"""What every verb shares: the workspace option's value, the store, the console, exit codes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import typer
from rich.console import Console

from .store import Store, StoreError

# Exit codes (documented in `cotbuilder --help`): 0 all good, 1 some items/sources failed, 2 bad usage or a stage that
# cannot run here (missing toolkit, not built).
EXIT_OK = 0
EXIT_PARTIAL = 1
EXIT_USAGE = 2

console = Console(stderr=True)  # progress and tables go to stderr; stdout stays for data (query results)
out = Console()


@dataclass
class CliState:
    workspace: Path | None


def get_state(ctx: typer.Context) -> CliState:
    root = ctx.find_root()
    if not isinstance(root.obj, CliState):
        root.obj = CliState(None)
    return root.obj


def open_store(ctx: typer.Context, *, read_only: bool = False) -> Store:
    """Open the workspace store, turning a store problem into one clear line and exit 2."""
    try:
        return Store(get_state(ctx).workspace, read_only=read_only)
    except StoreError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(EXIT_USAGE) from exc


def usage_error(message: str) -> typer.Exit:
    console.print(f"[red]error:[/red] {message}")
    return typer.Exit(EXIT_USAGE)


def not_built(verb: str, issue: str) -> None:
    """A verb whose stage is not built yet says so in one line and exits 2 (never fake output)."""
    console.print(f"cotbuilder {verb}: this stage is not built yet ({issue}).")
    raise typer.Exit(EXIT_USAGE)
