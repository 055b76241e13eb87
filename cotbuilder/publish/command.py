"""`cotbuilder push`: publish verified, clean, deduplicated rows to the Hub or a local folder."""

from __future__ import annotations

from pathlib import Path

import typer

from ..cli_common import EXIT_PARTIAL, EXIT_USAGE, console, open_store
from .stage import PushConfig


def is_hub_failure(exc: BaseException) -> bool:
    """Network, auth and HTTP errors from talking to the Hub (not bugs in cotbuilder)."""
    import importlib

    from huggingface_hub.errors import HfHubHTTPError

    kinds: list[type[BaseException]] = [HfHubHTTPError, OSError]
    # huggingface_hub's HTTP client changed over releases (requests, httpx, now httpx2): whichever is installed
    for module, name in (("httpx2", "HTTPError"), ("httpx", "HTTPError"), ("requests", "RequestException")):
        try:
            kinds.append(getattr(importlib.import_module(module), name))
        except (ImportError, AttributeError):
            pass
    return isinstance(exc, tuple(kinds))


def hub_failure_line(exc: BaseException, repo_id: str) -> str:
    """One line: what failed, the repo, the HTTP status if any. The token never appears (scrubbed if a message
    echoes a header)."""
    import re

    def attr(obj: object, name: str) -> object:
        try:
            return getattr(obj, name, None)
        except RuntimeError:  # httpx's `.request` raises when unset
            return None

    response = attr(exc, "response")
    status = attr(response, "status_code")
    request = attr(exc, "request") or attr(response, "request")
    what = f"{request.method} {str(request.url).split('?', 1)[0]}" if request is not None else ""
    detail = (str(exc).strip().splitlines() or [""])[0]
    line = f"upload of dataset {repo_id} failed: {type(exc).__name__}"
    if status is not None:
        line += f" (HTTP {status})"
    if what:
        line += f" on {what}"
    if detail:
        line += f": {detail}"
    from huggingface_hub import get_token

    token = get_token()
    if token:
        line = line.replace(token, "***")
    return re.sub(r"hf_[A-Za-z0-9]{6,}", "hf_***", line)


def command(
    ctx: typer.Context,
    repo_id: str | None = typer.Option(
        None, "--repo-id", help="Hub dataset repo ORG/NAME (token: HF_TOKEN or `huggingface-cli login`)."
    ),
    local_dir: Path | None = typer.Option(None, "--local-dir", help="Write the dataset folder here instead."),
    private: bool = typer.Option(False, "--private", help="Create the Hub repo as private."),
    revision: str | None = typer.Option(None, "--revision", help="Hub branch to commit to (created if missing)."),
    fmt: str = typer.Option("messages", "--format", help="messages | alpaca | sharegpt"),
    licenses: list[str] | None = typer.Option(
        None,
        "--licenses",
        help="SPDX ids to publish (repeatable). Default: Apache-2.0, MIT, BSD-2-Clause, BSD-3-Clause.",
    ),
    allow_cann_license: bool = typer.Option(
        False, "--allow-cann-license", help="Also publish CANN Open Software License code (stated in the card)."
    ),
    recipe: Path | None = typer.Option(None, "--recipe", help="Pipeline recipe to ship with the data."),
    rows_per_shard: int = typer.Option(5000, "--rows-per-shard", min=1, help="Rows per parquet shard."),
) -> None:
    """Publish rows from units that passed verification (latest result per backend) and the annotation gates, are clean
    and under an allowed licence, one per dedup cluster (the best such member): parquet shards
    data/<format>/train-*.parquet, a dataset card README.md, and the recipe. Refuses (exit 2)
    when dedup or decontaminate have not run on the current data, a row fails its schema, or --local-dir holds files
    push did not write. A Hub failure (network, auth, HTTP error) is one line and exit 1."""
    from .select import RefusedError
    from .stage import PushError, run

    config = PushConfig(
        repo_id=repo_id,
        local_dir=str(local_dir) if local_dir else None,
        private=private,
        revision=revision,
        format=fmt,
        licenses=licenses or None,
        allow_cann_license=allow_cann_license,
        recipe=str(recipe) if recipe else None,
        rows_per_shard=rows_per_shard,
    )
    store = open_store(ctx)
    with store:
        try:
            stats = run(store, config)
        except (RefusedError, PushError) as exc:
            console.print(f"[red]push refused:[/red] {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
        except Exception as exc:
            if not config.repo_id or not is_hub_failure(exc):
                raise
            console.print(f"[red]push failed:[/red] {hub_failure_line(exc, config.repo_id)}", soft_wrap=True)
            raise typer.Exit(EXIT_PARTIAL) from None
    stats.render(console)
    where = config.local_dir or f"https://huggingface.co/datasets/{config.repo_id}"
    console.print(f"published {stats.counts['kept']} rows to {where}")
