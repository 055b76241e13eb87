"""`cotbuilder crawl`'s settings (light: the CLI reads them for --help without importing the crawler)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..stages.options import list_option, option

ON_SECRET = ("redact", "drop")
MiB = 1024 * 1024

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
        raise ValueError(f"not a size: {text!r} (e.g. 2MiB, 500KB, 1048576)")
    return int(float(m.group(1)) * _UNITS[(m.group(2) or "b").lower()])


def show_size(n: int) -> str:
    """2097152 -> '2MiB' (the inverse of parse_size for whole KiB/MiB/GiB)."""
    for unit, size in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


@dataclass
class CrawlConfig:
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

    sources: list[str] = list_option(
        "--source",
        "-s",
        help="A git URL (https, ssh, file://) or local repo path with optional @ref (branch, tag or sha), a local "
        "folder, or a doc site URL / local HTML or Markdown file. Prefix git+, local+ or docs+ to force the kind. "
        "Repeatable.",
    )
    manifests: list[str] = list_option(
        "--manifest",
        "-m",
        help="A TOML manifest of sources (crawlers/*.toml), or the name of a shipped one (demo, ascend-public). "
        "Repeatable.",
    )
    on_secret: str = option(
        "redact",
        "--on-secret",
        help="redact: replace each credential with <REDACTED:type>; drop: leave the file out.",
    )
    max_file_bytes: int = option(
        2 * MiB, "--max-file-bytes", help="Skip files larger than this.", parse=parse_size, show=show_size
    )
    max_pages: int = option(200, "--max-pages", help="Doc sites: pages per source.")
    max_depth: int = option(3, "--max-depth", help="Doc sites: link depth from the start page.")
    max_bytes: int = option(
        50 * MiB,
        "--max-bytes",
        help="Doc sites: bytes downloaded per source (counted as they stream in).",
        parse=parse_size,
        show=show_size,
    )
    rate_limit: float = option(1.0, "--rate-limit", help="Doc sites: seconds between requests to one host.")
    timeout: float = option(
        20.0, "--timeout", help="Doc sites: seconds for one whole request (a slow or trickling server is cut off)."
    )
    site_deadline: float = option(
        3600.0, "--site-deadline", help="Doc sites: seconds for a whole site; the pages fetched by then are kept."
    )
    parse_timeout: float = option(
        10.0, "--parse-timeout", help="Seconds to parse one file; a file past it (or nested absurdly deep) is skipped."
    )
    jobs: int = option(2, "--jobs", "-j", help="Sources crawled at once (processes).")
    refresh: bool = option(False, "--refresh", help="Crawl every source again, even when unchanged.")
