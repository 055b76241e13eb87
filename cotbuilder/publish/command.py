"""`cotbuilder push`: publish verified, clean, deduplicated rows to the Hub or a local folder."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..cli_common import EXIT_USAGE, console, open_store
from .stage import PushConfig


def command(
    ctx: typer.Context,
    repo_id: Optional[str] = typer.Option(None, "--repo-id", help="Hub dataset repo ORG/NAME (token: HF_TOKEN or "
                                          "`huggingface-cli login`)."),
    local_dir: Optional[Path] = typer.Option(None, "--local-dir", help="Write the dataset folder here instead."),
    private: bool = typer.Option(False, "--private", help="Create the Hub repo as private."),
    revision: Optional[str] = typer.Option(None, "--revision", help="Hub branch to commit to (created if missing)."),
    fmt: str = typer.Option("messages", "--format", help="messages | alpaca | sharegpt"),
    licenses: Optional[list[str]] = typer.Option(None, "--licenses", help="SPDX ids to publish (repeatable). "
                                                 "Default: Apache-2.0, MIT, BSD-2-Clause, BSD-3-Clause."),
    allow_cann_license: bool = typer.Option(False, "--allow-cann-license",
                                            help="Also publish CANN Open Software License code (stated in the card)."),
    recipe: Optional[Path] = typer.Option(None, "--recipe", help="Pipeline recipe to ship with the data."),
) -> None:
    """Publish rows from units that passed verification and the annotation gates, are cluster representatives and are
    clean: parquet shards data/<format>/train-*.parquet, a dataset card README.md, and the recipe. Refuses (exit 2)
    when dedup or decontaminate have not run on the current data or a row fails its schema."""
    from .select import RefusedError
    from .stage import PushError, run

    config = PushConfig(repo_id=repo_id, local_dir=str(local_dir) if local_dir else None, private=private,
                        revision=revision, format=fmt, licenses=licenses or None,
                        allow_cann_license=allow_cann_license, recipe=str(recipe) if recipe else None)
    store = open_store(ctx)
    with store:
        try:
            stats = run(store, config)
        except (RefusedError, PushError) as exc:
            console.print(f"[red]push refused:[/red] {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
    stats.render(console)
    where = config.local_dir or f"https://huggingface.co/datasets/{config.repo_id}"
    console.print(f"published {stats.counts['kept']} rows to {where}")
