"""The crawl stage: sources (git repos, local folders, doc sites) -> `files` and `units` rows.

Each source is crawled by a worker thread (`jobs` at a time) and written by this thread: its files, its units and
then its `sources` row with the fingerprint, all in one transaction. A source with a fingerprint is therefore complete,
and a kill at any moment loses only the sources in flight. A re-run skips every source whose fingerprint (commit sha,
or a hash of file stats) and crawl settings are unchanged: nothing is cloned or parsed for it.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..hashing import config_hash
from ..paths import package_data
from ..stats import StageStats, stage_run
from ..store import Store, utcnow
from .crawler import CrawlContext, Previous, SourceResult, crawl_source
from .docsite import HostPacer, SiteLimits
from .sources import SourceError, SourceSpec, load_manifest, parse_source, resolve_manifest_path
from .urlredact import redact_urls_in, scrub

ON_SECRET = ("redact", "drop")
MiB = 1024 * 1024


@dataclass
class CrawlConfig:
    sources: list[str] = field(default_factory=list)  # URL or path, optional @ref
    manifests: list[str] = field(default_factory=list)  # crawlers/*.toml paths or shipped names
    on_secret: str = "redact"  # redact | drop
    max_file_bytes: int = 2 * MiB
    max_pages: int = 200  # doc sites: pages per source
    max_depth: int = 3  # doc sites: link depth from the start page
    max_bytes: int = 50 * MiB  # doc sites: bytes downloaded per source
    rate_limit: float = 1.0  # doc sites: seconds between requests to one host
    timeout: float = 20.0  # doc sites: seconds per request
    jobs: int = 2  # sources crawled at once
    refresh: bool = False  # crawl again even when a source looks unchanged


class CrawlUsageError(ValueError):
    """Bad arguments or manifests: nothing was crawled (exit 2)."""


def resolve_specs(config: CrawlConfig) -> list[SourceSpec]:
    if not config.sources and not config.manifests:
        raise CrawlUsageError("nothing to crawl: give --source URL_OR_PATH[@ref] or --manifest crawlers/NAME.toml")
    if config.on_secret not in ON_SECRET:
        raise CrawlUsageError(f"--on-secret must be one of {', '.join(ON_SECRET)}, not {config.on_secret!r}")
    if config.jobs < 1 or config.max_file_bytes < 1:
        raise CrawlUsageError("--jobs and --max-file-bytes must be positive")
    specs: list[SourceSpec] = []
    try:
        for manifest in config.manifests:
            specs.extend(load_manifest(resolve_manifest_path(manifest)))
        for text in config.sources:
            specs.append(parse_source(text))
    except SourceError as exc:
        raise CrawlUsageError(str(exc)) from None
    unique: dict[str, SourceSpec] = {}
    for spec in specs:
        unique.setdefault(spec.source_id, spec)  # the same source twice is crawled once
    return list(unique.values())


def crawl_key(config: CrawlConfig, spec: SourceSpec) -> str:
    """What, besides the source's content, decides the records a crawl makes: a change re-crawls the source."""
    parts = {
        "max_file_bytes": config.max_file_bytes,
        "on_secret": config.on_secret,
        "include": spec.include,
        "exclude": spec.exclude,
        "license": spec.license,
        "rules": _data_hash(),
        "parser": parser_version(),
    }
    if spec.kind == "docs":
        parts.update(
            prefix=spec.prefix,
            max_pages=spec.max_pages or config.max_pages,
            max_depth=spec.max_depth if spec.max_depth is not None else config.max_depth,
        )
    return config_hash(parts)


def _data_hash() -> str:
    h = hashlib.sha256()
    for path in sorted(package_data("crawl/data").glob("*.toml")):
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def parser_version() -> str:
    """The parser's declared version, else a hash of its code and data (a parser change must re-parse sources)."""
    import cotbuilder.parse as parse

    declared = getattr(parse, "PARSER_VERSION", None)
    if declared:
        return str(declared)
    h = hashlib.sha256()
    root = Path(parse.__file__).parent
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".toml", ".json", ".scm", ".txt"):
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def recorded_config(config: CrawlConfig) -> dict[str, Any]:
    """The config as `runs.config` keeps it: source arguments without the credentials a URL may carry."""
    recorded = asdict(config)
    recorded["sources"] = [redact_urls_in(s) for s in config.sources]
    return recorded


def _previous(store: Store) -> dict[str, Previous]:
    rows = store.rows(
        "SELECT source_id, fingerprint, crawl_key FROM sources WHERE status = 'ok' AND fingerprint IS NOT NULL"
    )
    return {r["source_id"]: Previous(r["fingerprint"], r["crawl_key"]) for r in rows}


def run(store: Store, config: CrawlConfig, *, progress: Any = None) -> StageStats:
    """Crawl every source of `config`; see the module docstring. Raises CrawlUsageError before any work."""
    specs = resolve_specs(config)
    try:
        parser_version()
    except ImportError as exc:
        raise CrawlUsageError(f"the parser (cotbuilder.parse) cannot be imported here: {exc}") from None
    with stage_run(store, "crawl", recorded_config(config)) as stats:
        previous = _previous(store)
        pacer = HostPacer(config.rate_limit)
        limits = SiteLimits(
            config.max_pages,
            config.max_depth,
            config.max_bytes,
            config.max_file_bytes,
            config.rate_limit,
            config.timeout,
        )
        on_files = progress.files if progress else None
        contexts = {
            s.source_id: CrawlContext(
                crawl_key(config, s),
                config.on_secret,
                config.max_file_bytes,
                limits,
                pacer,
                store.cache_dir,
                config.refresh,
                on_files,
            )
            for s in specs
        }
        with ThreadPoolExecutor(max_workers=config.jobs, thread_name_prefix="crawl") as pool:
            futures = {pool.submit(_safe_crawl, s, contexts[s.source_id], previous.get(s.source_id)): s for s in specs}
            if progress:
                progress.start(len(specs))
            for future in as_completed(futures):
                result = future.result()
                _record(
                    store,
                    stats,
                    result,
                    contexts[result.spec.source_id].crawl_key,
                    had_previous=result.spec.source_id in previous,
                )
                if progress:
                    progress.source_done(result)
        stats.add("sources", len(specs))
    return stats


def _safe_crawl(spec: SourceSpec, ctx: CrawlContext, prev: Previous | None) -> SourceResult:
    """A bug or surprise in one source must not end the crawl of the others: it becomes that source's failure."""
    try:
        result = crawl_source(spec, ctx, prev)
    except Exception as exc:  # noqa: BLE001 - reported as data, see docstring
        result = SourceResult(spec, "failed", error=f"{type(exc).__name__}: {exc}")
    return _scrubbed(result)


def _scrubbed(result: SourceResult) -> SourceResult:
    """Errors and skip reasons are stored and printed: git or HTTP may have quoted the source's credentials there."""
    secret = result.spec.secret_url
    result.error = scrub(result.error, secret)
    result.skipped = [
        {k: scrub(v, secret) if isinstance(v, str) else v for k, v in item.items()} for item in result.skipped
    ]
    return result


def _record(store: Store, stats: StageStats, result: SourceResult, key: str, *, had_previous: bool) -> None:
    spec = result.spec
    for reason, n in result.ignored.items():
        stats.add(f"files ignored: {reason}", n)
    if result.status == "unchanged":
        stats.skip("source unchanged")
        stats.add("sources unchanged")
        return
    if result.status == "failed":
        stats.fail("source failed", item=spec.label(), error=result.error)
        if not had_previous:  # keep an earlier complete crawl of this source rather than overwrite it with a failure
            store.insert("sources", [_source_row(result, key, status="failed")])
        return
    for name, n in result.counts.items():
        stats.add(name, n)
    for item in result.skipped:
        stats.skip(_reason_class(item["reason"]))
    files = _unique(result.files, "file_id")
    units = _unique(result.units, "unit_id")
    with store.transaction():
        _replace(store, "files", "file_id", spec.source_id, files)
        # Units derived from crawled ones (`annotate --repair` sets parent_unit_id) are no crawl's to remove.
        _replace(store, "units", "unit_id", spec.source_id, units, only="parent_unit_id IS NULL")
        store.insert("sources", [_source_row(result, key, status="ok", n_files=len(files), n_units=len(units))])
    stats.kept(len(files))
    stats.add("units", len(units))
    stats.add("sources crawled")
    if result.cloned:
        stats.add("git clones")


def _unique(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    return list({r[key]: r for r in rows}.values())


def _replace(
    store: Store, table: str, key: str, source_id: str, rows: list[dict[str, Any]], only: str = "TRUE"
) -> None:
    """This source's rows (those matching the SQL condition `only`) become exactly `rows`: stale ones (deleted or
    changed files) go."""
    keep = [r[key] for r in rows]
    if keep:
        store.execute(
            f"DELETE FROM {table} WHERE source_id = ? AND ({only}) AND NOT list_contains(?, {key})", [source_id, keep]
        )
    else:
        store.execute(f"DELETE FROM {table} WHERE source_id = ? AND ({only})", [source_id])
    store.insert(table, rows)


def _source_row(
    result: SourceResult, key: str, *, status: str, n_files: int | None = None, n_units: int | None = None
) -> dict[str, Any]:
    spec = result.spec
    return {
        "source_id": spec.source_id,
        "kind": spec.kind,
        "url": spec.url,
        "ref": spec.ref,
        "commit": result.commit,
        "declared_license": spec.license,
        "manifest": spec.manifest,
        "fingerprint": result.fingerprint if status == "ok" else None,
        "crawl_key": key if status == "ok" else None,
        "status": status,
        "error": result.error,
        "n_files": n_files,
        "n_units": n_units,
        "skipped": result.skipped,
        "crawled_at": utcnow(),
    }


def _reason_class(reason: str) -> str:
    """Group per-file reasons for the summary table: 'too large (123 bytes > ...)' -> 'too large', and paths or
    inside a reason become '*' ('in op project math/log but outside ...' -> 'in op project * but ...')."""
    head = reason.split(":", 1)[0].split(" (", 1)[0].strip() or reason
    return " ".join("*" if "/" in word else word for word in head.split())
