"""The crawl stage: sources (git repos, local folders, doc sites) -> `files` and `units` rows.

plan: the sources of the config, with what the store knows of each (fingerprint and crawl key of the last complete
crawl); doc sites on the same host form one item, so one pacer keeps the per-host rate limit. work (in a pool process,
`jobs` at a time): fetch, filter, redact and parse a source, or find it unchanged. commit: a source's files, its units
and then its `sources` row with the fingerprint, in one transaction: a source with a fingerprint is complete, and a
kill at any moment loses only the sources in flight. A re-run skips every source whose fingerprint (commit sha, or a
hash of file stats) and crawl settings are unchanged: nothing is cloned or parsed for it.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from rich.markup import escape

from ..hashing import config_hash
from ..paths import package_data
from ..stages.base import PROCESS, Stage
from ..stages.driver import run_stage
from ..stages.progress import note
from ..stats import StageStats
from ..store import Store, utcnow
from . import secrets
from .config import ON_SECRET, CrawlConfig, MiB
from .crawler import CrawlContext, Previous, SourceResult, crawl_source
from .docsite import HostPacer, SiteLimits
from .sources import SourceError, SourceSpec, load_manifest, parse_source, resolve_manifest_path
from .urlredact import redact_urls_in, scrub

__all__ = ["CrawlConfig", "CrawlStage", "CrawlUsageError", "MiB", "ON_SECRET", "resolve_specs", "run"]


class CrawlUsageError(ValueError):
    """Bad arguments or manifests: nothing was crawled (exit 2)."""


def resolve_specs(config: CrawlConfig) -> list[SourceSpec]:
    if not config.sources and not config.manifests:
        raise CrawlUsageError("nothing to crawl: give --source URL_OR_PATH[@ref] or --manifest crawlers/NAME.toml")
    if config.on_secret not in ON_SECRET:
        raise CrawlUsageError(f"--on-secret must be one of {', '.join(ON_SECRET)}, not {config.on_secret!r}")
    if config.jobs < 1 or config.max_file_bytes < 1:
        raise CrawlUsageError("--jobs and --max-file-bytes must be positive")
    if config.timeout <= 0 or config.site_deadline <= 0 or config.max_bytes < 1 or config.parse_timeout <= 0:
        raise CrawlUsageError("--timeout, --site-deadline, --parse-timeout and --max-bytes must be positive")
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
        "parse_timeout": config.parse_timeout,
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


@dataclass
class CrawlTarget:
    spec: SourceSpec
    crawl_key: str
    previous: Previous | None


@dataclass
class CrawlResult:
    result: SourceResult
    crawl_key: str
    had_previous: bool


def _host_group(spec: SourceSpec) -> str | None:
    """Doc sites on one host share its rate limit, so they are crawled by one worker, one after the other."""
    if spec.kind == "docs" and spec.is_remote:
        return urlsplit(spec.access_url).netloc.lower() or None
    return None


class CrawlStage(Stage[CrawlConfig, list[CrawlTarget], list[CrawlResult]]):
    name = "crawl"
    config_type = CrawlConfig
    mode = PROCESS
    batch_size = 1  # a source's files and units are its own transaction; progress says "done" only once it is stored
    refusals = (CrawlUsageError,)

    def __init__(self, config: CrawlConfig):
        super().__init__(config)
        self.cache_dir: Path | None = None

    def check(self) -> None:
        resolve_specs(self.config)
        try:
            parser_version()
        except ImportError as exc:
            raise CrawlUsageError(f"the parser (cotbuilder.parse) cannot be imported here: {exc}") from None

    def recorded_config(self) -> dict[str, Any]:
        return recorded_config(self.config)

    def plan(self, store: Store, stats: StageStats) -> list[list[CrawlTarget]]:
        specs = resolve_specs(self.config)
        self.cache_dir = store.cache_dir
        previous = _previous(store)
        stats.add("sources", len(specs))
        items: list[list[CrawlTarget]] = []
        by_host: dict[str, list[CrawlTarget]] = {}
        for spec in specs:
            target = CrawlTarget(spec, crawl_key(self.config, spec), previous.get(spec.source_id))
            host = _host_group(spec)
            if host is None:
                items.append([target])
            elif host in by_host:
                by_host[host].append(target)
            else:
                by_host[host] = [target]
                items.append(by_host[host])
        return items

    def work(self, item: list[CrawlTarget]) -> list[CrawlResult]:
        config = self.config
        assert self.cache_dir is not None, "plan() sets the cache folder"
        pacer = HostPacer(config.rate_limit)
        limits = SiteLimits(
            config.max_pages,
            config.max_depth,
            config.max_bytes,
            config.max_file_bytes,
            config.rate_limit,
            config.timeout,
            config.site_deadline,
        )
        out = []
        for target in item:
            ctx = CrawlContext(
                target.crawl_key,
                config.on_secret,
                config.max_file_bytes,
                limits,
                pacer,
                self.cache_dir,
                config.refresh,
                note,
                config.parse_timeout,
            )
            result = _safe_crawl(target.spec, ctx, target.previous)
            note(target.spec.label(), None)
            out.append(CrawlResult(result, target.crawl_key, target.previous is not None))
        return out

    def commit(self, store: Store, results: list[list[CrawlResult]], stats: StageStats) -> None:
        for group in results:
            for r in group:
                _record(store, stats, r.result, r.crawl_key, had_previous=r.had_previous)

    def failed(self, item: list[CrawlTarget], error: str, stats: StageStats) -> None:
        for target in item:
            stats.fail("source failed", item=target.spec.label(), error=scrub(error, target.spec.secret_url))

    def label(self, item: list[CrawlTarget]) -> str:
        return ", ".join(t.spec.label() for t in item)

    def log_lines(self, result: list[CrawlResult]) -> list[str]:
        return [_summary_line(r.result) for r in result]


def _summary_line(result: SourceResult) -> str:
    shown = escape(result.spec.label())
    if result.status == "unchanged":
        return f"{shown}: unchanged, skipped (fingerprint {str(result.fingerprint)[:16]})"
    if result.status == "failed":
        return f"[red]{shown}: failed[/red] — {escape(str(result.error))}"
    line = f"{shown}: {len(result.files)} files, {len(result.units)} units, {len(result.skipped)} skipped"
    return line + (f" @ {result.commit[:12]}" if result.commit else "")


def run(store: Store, config: CrawlConfig) -> StageStats:
    """Crawl every source of `config` in this process's driver (library and test use); the CLI runs the same stage.
    Raises StageRefused (from CrawlUsageError) before any work."""
    return run_stage(CrawlStage(config), store)


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
    for item in result.skipped:  # files skipped for other reasons (binary, too large...) may have a secret in the name
        if isinstance(item.get("path"), str):
            item["path"] = secrets.path_findings(item["path"])[0]
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
