"""`cotbuilder crawl`: the CLI of the crawl stage (arguments in, stats table out)."""

from __future__ import annotations

import re

import typer
from rich.markup import escape

from ..cli_common import EXIT_OK, EXIT_PARTIAL, console, open_store, usage_error
from .stage import CrawlConfig

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmg]i?b?|b)?\s*$", re.I)
_UNITS = {
    "b": 1,
    "k": 1000,
    "kb": 1000,
    "ki": 1024,
    "kib": 1024,
    "m": 1000**2,
    "mb": 1000**2,
    "mi": 1024**2,
    "mib": 1024**2,
    "g": 1000**3,
    "gb": 1000**3,
    "gi": 1024**3,
    "gib": 1024**3,
}


def parse_size(text: str) -> int:
    """'2MiB' -> 2097152, '500k' -> 500000, '1234' -> 1234."""
    m = _SIZE.match(text)
    if not m:
        raise typer.BadParameter(f"not a size: {text!r} (e.g. 2MiB, 500KB, 1048576)")
    return int(float(m.group(1)) * _UNITS[(m.group(2) or "b").lower()])


def command(
    ctx: typer.Context,
    source: list[str] | None = typer.Option(
        None,
        "--source",
        "-s",
        help="A git URL (https, ssh, file://) or local repo path with optional @ref (branch, "
        "tag or sha), a local folder, or a doc site URL / local HTML or Markdown file. Prefix git+, local+ or docs+ "
        "to force the kind. Repeatable.",
    ),
    manifest: list[str] | None = typer.Option(
        None,
        "--manifest",
        "-m",
        help="A TOML manifest of sources (crawlers/*.toml), or the name of a shipped one "
        "(demo, ascend-public). Repeatable.",
    ),
    on_secret: str = typer.Option(
        "redact", "--on-secret", help="redact: replace each credential with <REDACTED:type>; drop: leave the file out."
    ),
    max_file_bytes: str = typer.Option("2MiB", "--max-file-bytes", help="Skip files larger than this."),
    max_pages: int = typer.Option(200, "--max-pages", help="Doc sites: pages per source."),
    max_depth: int = typer.Option(3, "--max-depth", help="Doc sites: link depth from the start page."),
    max_bytes: str = typer.Option("50MiB", "--max-bytes", help="Doc sites: bytes downloaded per source."),
    rate_limit: float = typer.Option(1.0, "--rate-limit", help="Doc sites: seconds between requests to one host."),
    timeout: float = typer.Option(20.0, "--timeout", help="Doc sites: seconds per request."),
    jobs: int = typer.Option(2, "--jobs", "-j", help="Sources crawled at once."),
    refresh: bool = typer.Option(False, "--refresh", help="Crawl every source again, even when unchanged."),
) -> None:
    """Crawl git repositories, local folders and doc sites into the store (tables `sources`, `files`, `units`).

    \b
    Examples:
      cotbuilder crawl --manifest demo
      cotbuilder crawl --source https://gitcode.com/cann/ops-math.git@master --jobs 2
      cotbuilder crawl --source ./my-kernels --source docs+./notes/ascendc.md

    A re-run skips every source that is unchanged (same commit, or same file sizes and times, and the same crawl
    settings): nothing is cloned or parsed for it, and it is reported as "unchanged, skipped".

    Exit status: 0 all sources crawled (or unchanged); 1 some sources failed (e.g. a repository that cannot be
    cloned, an unreachable doc host: see the table and `sources.error`); 2 bad usage (no --source/--manifest, a bad
    manifest, an unknown option value).
    """
    from .progress import CrawlProgress
    from .stage import CrawlUsageError, run

    try:
        config = CrawlConfig(
            sources=list(source or []),
            manifests=list(manifest or []),
            on_secret=on_secret,
            max_file_bytes=parse_size(max_file_bytes),
            max_pages=max_pages,
            max_depth=max_depth,
            max_bytes=parse_size(max_bytes),
            rate_limit=rate_limit,
            timeout=timeout,
            jobs=jobs,
            refresh=refresh,
        )
    except typer.BadParameter as exc:
        raise usage_error(escape(str(exc))) from None
    # Check the arguments before creating a workspace for nothing.
    from .stage import resolve_specs

    try:
        resolve_specs(config)
    except CrawlUsageError as exc:
        raise usage_error(escape(str(exc))) from None
    store = open_store(ctx)
    with store:
        try:
            with CrawlProgress(console) as progress:
                stats = run(store, config, progress=progress)
        except CrawlUsageError as exc:
            raise usage_error(escape(str(exc))) from None
        stats.render(console)
    raise typer.Exit(EXIT_PARTIAL if stats.counts["failed"] else EXIT_OK)
