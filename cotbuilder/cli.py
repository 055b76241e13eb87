"""The `cotbuilder` command line. This file only wires verbs to their stage modules; each stage's options live in
`cotbuilder/<stage>/command.py` (imported lazily in spirit: those modules keep heavy imports inside the function)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import typer

from . import __version__
from .cli_common import EXIT_USAGE, CliState, console, open_store, out
from .store import ReadOnlyQueryError

HELP = """Build verified AscendC chain-of-thought training data.

Flow: crawl -> verify -> annotate -> dedup -> decontaminate -> push (or all at once: run PIPELINE.toml).
Every stage is resumable: a re-run does only what is missing.

Exit status: 0 all good; 1 some sources or items failed (see the stage's stats table and the `runs` table);
2 bad usage, or a stage that cannot run on this machine.
"""

app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# verb -> module whose `command` function implements it
STAGE_COMMANDS = {
    "crawl": "cotbuilder.crawl.command",
    "annotate": "cotbuilder.annotate.command",
    "verify": "cotbuilder.verify.command",
    "dedup": "cotbuilder.dedup.command",
    "decontaminate": "cotbuilder.decontam.command",
    "push": "cotbuilder.publish.command",
    "run": "cotbuilder.pipeline.command",
}


def _version(value: bool) -> None:
    if value:
        out.print(f"cotbuilder {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    workspace: Path | None = typer.Option(
        None,
        "--workspace",
        "-w",
        envvar="COTBUILDER_WORKSPACE",
        help="Workspace directory (store + cache). Default: ./cotbuilder-work",
        show_default=False,
    ),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    ctx.obj = CliState(workspace)


for _verb, _module in STAGE_COMMANDS.items():
    _mod = importlib.import_module(_module)
    app.command(_verb, help=_mod.command.__doc__, no_args_is_help=False)(_mod.command)


@app.command("status")
def status(ctx: typer.Context) -> None:
    """Counts per stage and the last run of each stage."""
    from .status import render_status

    store = open_store(ctx, read_only=True)
    with store:
        render_status(store, out)


@app.command("query")
def query(
    ctx: typer.Context,
    sql: str = typer.Argument(
        ..., help='Read-only SQL over the store, e.g. "SELECT layout, count(*) FROM units GROUP BY 1"'
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per row (JSON lines)."),
) -> None:
    """Run read-only SQL over the store (tables: see README). Write statements are refused."""
    store = open_store(ctx, read_only=True)
    with store:
        try:
            names, rows, json_columns = store.query_readonly(sql)
        except ReadOnlyQueryError as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
        except Exception as exc:  # duckdb errors: bad SQL, unknown table...
            console.print(f"[red]error:[/red] {type(exc).__name__}: {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
    if as_json:
        for row in rows:
            record = {
                n: (json.loads(v) if n in json_columns and isinstance(v, str) else v)
                for n, v in zip(names, row, strict=False)
            }
            print(json.dumps(record, default=str, ensure_ascii=False))
        return
    from rich.table import Table

    table = Table(*names)
    for row in rows:
        table.add_row(*["" if v is None else str(v) for v in row])
    out.print(table)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
