"""The `cotbuilder` command line: one verb per registered stage (declared from its config, see stages/command.py),
plus `run`, `status`, `query`, `tasks` (import task.toml folders) and `serve` (the reward over HTTP). Nothing here imports a stage's implementation: `cotbuilder --help` reads only the
registry and the stages' config modules."""

from __future__ import annotations

from pathlib import Path

import typer

from . import __version__
from .cli_common import EXIT_OK, EXIT_PARTIAL, EXIT_USAGE, CliState, get_state, open_store, usage_error
from .stages.command import EXECUTOR_HELP, RAY_ADDRESS_HELP, stage_command
from .stages.registry import STAGES, Registry

HELP = """Build verified AscendC chain-of-thought training data.

Flow: {flow} (or all at once: run PIPELINE.toml).
Every stage is resumable: a re-run does only what is missing.

Exit status: 0 all good; 1 some sources or items failed (see the stage's stats table and the `runs` table);
2 bad usage, or a stage that cannot run on this machine.
"""


def _version(value: bool) -> None:
    if value:
        print(f"cotbuilder {__version__}")
        raise typer.Exit()


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
    ctx.obj = CliState(workspace, ctx.obj if isinstance(ctx.obj, Registry) else STAGES)


def run(
    ctx: typer.Context,
    recipe: Path | None = typer.Argument(
        None,
        help="Pipeline recipe (TOML). Default: the embedded pipelines/demo.toml (offline demo).",
        show_default=False,
    ),
    executor: str | None = typer.Option(
        None,
        "--executor",
        help=EXECUTOR_HELP + " Default: the recipe's [pipeline] executor, else local.",
        show_default=False,
    ),
    ray_address: str | None = typer.Option(None, "--ray-address", metavar="ADDR", help=RAY_ADDRESS_HELP),
) -> None:
    """Run a whole pipeline recipe: the stages the recipe names, in the registry's order. Each stage only does what
    is missing, so a re-run is cheap. Ends with a summary table. Exit 0 all stages ok; 1 some items failed or a stage
    crashed; 2 a bad recipe, or a stage refused its settings or cannot run on this machine."""
    from .cli_common import console
    from .paths import data_dir
    from .pipeline.recipe import RecipeError, load_recipe
    from .pipeline.runner import run_recipe, summary_table
    from .stages.base import StageRefused
    from .stages.rich_progress import RichProgress
    from .stages.verb import choose_executor
    from .store import resolve_workspace

    registry = get_state(ctx).registry
    path = recipe or data_dir("pipelines") / "demo.toml"
    workspace = resolve_workspace(get_state(ctx).workspace)
    try:
        loaded = load_recipe(path, workspace, registry)
    except RecipeError as exc:
        console.print(f"[red]error:[/red] {exc}", markup=True, highlight=False, soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from exc
    chosen = None
    try:
        if executor is not None:
            chosen = choose_executor(executor, ray_address)
        elif ray_address is not None:
            loaded.ray_address = ray_address
    except (StageRefused, ValueError) as exc:
        console.print(f"[red]error:[/red] {exc}", markup=True, highlight=False, soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from exc
    console.print(f"pipeline [bold]{loaded.name}[/bold] ({path}) → workspace {workspace}")
    store = open_store(ctx)
    with store:
        results = run_recipe(
            store, loaded, console, progress=lambda live: RichProgress(console, live=live), executor=chosen
        )
    console.print(summary_table(loaded, results))
    if any(r.refused for r in results):
        raise typer.Exit(EXIT_USAGE)
    crashed = any(r.stats is None for r in results)
    partial = any(r.stats is not None and r.stats.derived_status != "ok" for r in results)
    raise typer.Exit(EXIT_PARTIAL if crashed or partial else EXIT_OK)


def status(ctx: typer.Context) -> None:
    """Counts per table, the last run of each stage, and each stage's own section (e.g. verification outcomes,
    teacher tokens and cost)."""
    from .cli_common import out
    from .status import render_status

    registry = get_state(ctx).registry
    store = open_store(ctx, read_only=True)
    with store:
        render_status(store, out, registry)


def query(
    ctx: typer.Context,
    sql: str = typer.Argument(
        ..., help='Read-only SQL over the store, e.g. "SELECT layout, count(*) FROM units GROUP BY 1"'
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per row (JSON lines)."),
) -> None:
    """Run read-only SQL over the store (every table and column: docs/tables.md). Write statements are refused."""
    import json

    from .cli_common import console, out
    from .store import ReadOnlyQueryError

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


def tasks(
    ctx: typer.Context,
    folder: Path = typer.Argument(..., help="A folder of task.toml files (searched recursively), e.g. examples/tasks"),
    check: bool = typer.Option(False, "--check", help="Only read and validate the files; store nothing."),
    kind: str = typer.Option(
        "toml",
        "--from",
        help="toml: a folder of task.toml files; npukernelbench: an NPUKernelBench tree; multikernelbench: a "
        "MultiKernelBench tree.",
    ),
    mode: str = typer.Option("full", "--mode", help="npukernelbench: full (answer = op project) or kernel_only."),
) -> None:
    """Import tasks ("a kernel to write": statement, cases, reference, tolerance, layout) from a folder of task.toml
    files, or an NPUKernelBench or MultiKernelBench tree (--from npukernelbench | multikernelbench), into the `tasks` table (format: docs/tasks.md). A bad file is named with its problem and not stored; the
    others are (exit 1). Re-importing an unchanged task writes the same row."""
    from rich.markup import escape

    from .cli_common import console, out
    from .tasks.toml_loader import TaskError, load_folder

    if kind not in ("toml", "npukernelbench", "multikernelbench"):
        raise usage_error(f"--from must be toml, npukernelbench or multikernelbench (got {kind!r})")
    try:
        if kind == "toml":
            loaded, errors = load_folder(folder)
        else:
            from .tasks.multikernelbench import load_multikernelbench
            from .tasks.npukernelbench import load_npukernelbench

            if not folder.is_dir():
                raise TaskError(f"{folder}: not a folder")
            if kind == "multikernelbench":
                loaded, errors = load_multikernelbench(folder)
            else:
                loaded, errors = load_npukernelbench(folder, mode)
    except (TaskError, ValueError) as exc:
        raise usage_error(str(exc)) from exc
    for err in errors:
        console.print(f"[red]bad task:[/red] {escape(err.message)}", soft_wrap=True, highlight=False)
    if loaded and not check:
        from .tasks.stored import save

        store = open_store(ctx)
        with store:
            save(store, loaded)
    from rich.table import Table

    table = Table("task", "layout", "cases", "task_id", title=f"tasks {'checked' if check else 'stored'}")
    for t in loaded:
        table.add_row(t.name, t.layout, str(len(t.cases)), t.task_id[:12])
    out.print(table)
    raise typer.Exit(EXIT_PARTIAL if errors else EXIT_OK)


def serve(
    ctx: typer.Context,
    port: int = typer.Option(8765, "--port", help="TCP port to listen on (0: any free port, printed)."),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Address to bind; keep 127.0.0.1 unless a trainer elsewhere needs it."
    ),
    task_dirs: list[Path] = typer.Option(
        [], "--tasks", help="Also serve the tasks of this task.toml folder (repeatable)."
    ),
    concurrency: int = typer.Option(
        2, "--concurrency", help="Scores computed at once (each one g++ + sandboxed runs)."
    ),
    max_body: int = typer.Option(1_000_000, "--max-body", help="Largest request body in bytes (413 above)."),
    max_batch: int = typer.Option(256, "--max-batch", help="Most items in one /score_batch request."),
    soc: str = typer.Option("ascend910b", "--soc", help="SoC the kernels are built for."),
    allow_weak_sandbox: bool = typer.Option(
        False, "--allow-weak-sandbox", help="Serve even if this machine lacks an isolation feature (as verify)."
    ),
) -> None:
    """Serve the reward over HTTP for RL trainers: POST /score {"task", "code"} and POST /score_batch {"items": [...]}
    return Score JSON (docs/reward.md); GET /health, GET /tasks. Tasks come from the workspace's `tasks` table and
    --tasks folders. Ctrl-C / SIGTERM: stop accepting, finish what runs, exit 0."""
    from .cli_common import console
    from .reward.server import ServeError, serve_forever

    try:
        serve_forever(
            get_state(ctx).workspace,
            host,
            port,
            task_dirs,
            concurrency,
            max_body,
            max_batch,
            soc,
            allow_weak_sandbox,
            log=lambda line: console.print(line, markup=False, highlight=False),
        )
    except ServeError as exc:
        raise usage_error(str(exc)) from exc


def build_app(registry: Registry = STAGES) -> typer.Typer:
    """The CLI for a registry: one verb per stage, then run, status, query."""
    app = typer.Typer(
        help=HELP.format(flow=" -> ".join(registry.verbs())),
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"], "obj": registry},  # _root keeps it in CliState
    )
    app.callback()(_root)
    for entry in registry:
        app.command(entry.verb, help=entry.help(), no_args_is_help=False)(stage_command(entry))
    app.command("run")(run)
    app.command("status")(status)
    app.command("query")(query)
    app.command("tasks")(tasks)
    app.command("serve")(serve)
    return app


def main() -> None:
    build_app()(prog_name="cotbuilder")


if __name__ == "__main__":
    main()
