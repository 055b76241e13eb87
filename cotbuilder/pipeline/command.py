"""`cotbuilder run [RECIPE.toml]`."""

from __future__ import annotations

from pathlib import Path

import typer

from ..cli_common import EXIT_OK, EXIT_PARTIAL, EXIT_USAGE, console, get_state, open_store


def command(
    ctx: typer.Context,
    recipe: Path | None = typer.Argument(
        None,
        help="Pipeline recipe (TOML). Default: the embedded pipelines/demo.toml (offline demo).",
        show_default=False,
    ),
) -> None:
    """Run a whole pipeline recipe: crawl, verify, annotate, dedup, decontaminate, push — the stages the recipe
    names, in that order. Each stage only does what is missing, so a re-run is cheap. Ends with a summary table.
    Exit 0 all stages ok; 1 some items failed or a stage crashed; 2 a bad recipe, or a stage refused its settings
    or cannot run on this machine."""
    from ..paths import data_dir
    from ..store import resolve_workspace
    from .recipe import RecipeError, load_recipe
    from .runner import run_recipe, summary_table

    path = recipe or data_dir("pipelines") / "demo.toml"
    workspace = resolve_workspace(get_state(ctx).workspace)
    try:
        loaded = load_recipe(path, workspace)
    except RecipeError as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(EXIT_USAGE) from exc
    console.print(f"pipeline [bold]{loaded.name}[/bold] ({path}) → workspace {workspace}")
    store = open_store(ctx)
    with store:
        results = run_recipe(store, loaded, console)
    console.print(summary_table(loaded, results))
    if any(r.refused for r in results):
        raise typer.Exit(EXIT_USAGE)
    crashed = any(r.stats is None for r in results)
    partial = any(r.stats is not None and r.stats.derived_status != "ok" for r in results)
    raise typer.Exit(EXIT_PARTIAL if crashed or partial else EXIT_OK)
