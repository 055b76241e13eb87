"""Running a stage's CLI verb: options (and `--config FILE`) -> config -> check -> store -> run -> stats table -> exit.

Exit status, the same for every verb: 0 all good; 1 some items failed (the stats table and the `runs` table say which
and why), or an outside service failed (one line); 2 the stage refused its settings or cannot run on this machine (one
line; refused by `check()`, nothing is stored).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from ..cli_common import EXIT_OK, EXIT_PARTIAL, EXIT_USAGE, console, get_state, open_store
from .base import StageRefused
from .command import CONFIG_FILE, EXECUTOR, RAY_ADDRESS
from .driver import check, run_stage
from .options import OptionField
from .registry import StageEntry


def _refused(verb: str, message: str) -> typer.Exit:
    console.print(f"{verb} refused: {message}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(EXIT_USAGE)


def build_config(ctx: typer.Context, entry: StageEntry, fields: list[OptionField], values: dict[str, Any]) -> Any:
    """The config from `--config FILE` (if any) overlaid with the options given on the command line."""
    from ..pipeline.recipe import RecipeError, config_from_table, expand, read_toml
    from ..store import resolve_workspace

    table: dict[str, Any] = {}
    config_file: Path | None = values.get(CONFIG_FILE)
    try:
        if config_file is not None:
            data = read_toml(config_file, "config file")
            table = data.get(entry.verb, data)
            table = expand(table, config_file.parent.resolve(), resolve_workspace(get_state(ctx).workspace))
        for field in fields:
            source = ctx.get_parameter_source(field.name)
            if source is not None and source.name != "DEFAULT":
                table[field.name] = field.to_field(values[field.name])
        return config_from_table(entry, table)
    except (RecipeError, ValueError) as exc:
        raise _refused(entry.verb, str(exc)) from None


def choose_executor(kind: str | None, ray_address: str | None) -> Any:
    """The executor `--executor` / `--ray-address` ask for (ValueError: a bad combination; StageRefused: Ray missing)."""
    from .executors import EXECUTORS, make_executor

    kind = kind or "local"
    if kind not in EXECUTORS:
        raise ValueError(f"--executor must be one of {', '.join(EXECUTORS)}, not {kind!r}")
    if ray_address and kind != "ray":
        raise ValueError("--ray-address is for --executor ray")
    return make_executor(kind, ray_address=ray_address, announce=_announce)


def _announce(line: str) -> None:
    console.print(line, markup=False, highlight=False, soft_wrap=True)


def run_verb(ctx: typer.Context, entry: StageEntry, fields: list[OptionField], values: dict[str, Any]) -> None:
    from .rich_progress import RichProgress

    config = build_config(ctx, entry, fields, values)
    stage = entry.stage_type()(config)
    try:
        executor = choose_executor(values.get(EXECUTOR), values.get(RAY_ADDRESS))
        check(stage)  # before the store is opened: settings that cannot work store nothing
    except (StageRefused, ValueError) as exc:
        raise _refused(entry.verb, str(exc)) from None
    store = open_store(ctx)
    with store:
        try:
            stats = run_stage(
                stage, store, executor=executor, progress=RichProgress(console, live=stage.wants_progress())
            )
        except StageRefused as exc:
            raise _refused(entry.verb, str(exc)) from None
        except Exception as exc:
            line = stage.explain_failure(exc)
            if line is None:
                raise
            console.print(f"{entry.verb} failed: {line}", markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(EXIT_PARTIAL) from None
    stats.render(console)
    for line in stage.closing_lines(stats):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_PARTIAL if stats.counts["failed"] else EXIT_OK)
