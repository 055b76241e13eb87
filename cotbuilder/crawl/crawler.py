"""Crawl one source into records, without touching the store: the parent writes what this returns.

Runs in a worker thread (one per source with `--jobs`): probe the source cheaply, stop there when it is unchanged,
else read its files (filter, bad-input checks, secrets, licences) and hand them to the parser.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from ..hashing import sha256_text
from ..store import utcnow
from . import filefilter, gitsource, secrets
from .codeblocks import ascendc_blocks, html_blocks, markdown_blocks
from .docsite import HostPacer, HostUnreachable, SiteLimits, crawl_site
from .licenses import LicenseResolver
from .licenses import table as license_table
from .sources import SourceSpec
from .urlredact import redact_url


@dataclass
class Previous:
    """What the store knows of a source from an earlier complete crawl."""

    fingerprint: str | None
    crawl_key: str | None


@dataclass
class CrawlContext:
    crawl_key: str
    on_secret: str  # redact | drop
    max_file_bytes: int
    limits: SiteLimits
    pacer: HostPacer
    cache_root: Path
    refresh: bool = False
    progress: Callable[[str, int], None] | None = None  # (label, files done) for the progress bar
    parse_timeout: float | None = None  # seconds per file (None: the parser's default)


@dataclass
class SourceResult:
    spec: SourceSpec
    status: str  # unchanged | ok | failed
    commit: str | None = None
    fingerprint: str | None = None
    files: list[dict[str, Any]] = field(default_factory=list)
    units: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    ignored: Counter = field(default_factory=Counter)
    counts: Counter = field(default_factory=Counter)  # secrets_found, files_redacted, pages, ...
    error: str | None = None
    cloned: bool = False


def git_blob_sha(data: bytes) -> str:
    """The sha1 `git hash-object` gives these bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def crawl_source(spec: SourceSpec, ctx: CrawlContext, prev: Previous | None) -> SourceResult:
    try:
        if spec.kind == "git":
            return _crawl_git(spec, ctx, prev)
        if spec.kind == "local":
            return _crawl_local(spec, ctx, prev)
        return _crawl_docs(spec, ctx, prev)
    except (gitsource.GitError, HostUnreachable, OSError) as exc:
        return SourceResult(spec, "failed", error=str(exc))


def _unchanged(prev: Previous | None, fingerprint: str | None, ctx: CrawlContext) -> bool:
    return bool(
        not ctx.refresh and prev and fingerprint and prev.fingerprint == fingerprint and prev.crawl_key == ctx.crawl_key
    )


# -- git -------------------------------------------------------------------------------------------------------------
def _crawl_git(spec: SourceSpec, ctx: CrawlContext, prev: Previous | None) -> SourceResult:
    commit = gitsource.probe(spec.access_url, spec.ref)
    if _unchanged(prev, commit, ctx):
        return SourceResult(spec, "unchanged", commit=commit, fingerprint=commit)
    # One folder per URL and ref, so two refs of one repository can be crawled in parallel.
    dest = gitsource.cache_dir_for(ctx.cache_root, f"{spec.url}@{spec.ref or ''}")
    co = gitsource.checkout(spec.access_url, spec.ref, dest, expected=commit or None, public_url=spec.url)
    if _unchanged(prev, co.commit, ctx):
        return SourceResult(spec, "unchanged", commit=co.commit, fingerprint=co.commit, cloned=co.cloned)
    result = _collect_tree(spec, ctx, co.path, commit=co.commit)
    result.commit = result.fingerprint = co.commit
    result.cloned = co.cloned
    return result


# -- local folders ---------------------------------------------------------------------------------------------------
def _crawl_local(spec: SourceSpec, ctx: CrawlContext, prev: Previous | None) -> SourceResult:
    root = Path(spec.url)
    if not root.is_dir():
        return SourceResult(spec, "failed", error=f"not a folder: {root}")
    walk = filefilter.walk(root, include=spec.include, exclude=spec.exclude)
    fingerprint = _stat_fingerprint(walk, license_root=root)
    if _unchanged(prev, fingerprint, ctx):
        return SourceResult(spec, "unchanged", fingerprint=fingerprint)
    result = _collect_tree(spec, ctx, root, commit=None, walk=walk)
    result.fingerprint = fingerprint
    return result


def _stat_fingerprint(walk: filefilter.WalkResult, license_root: Path | None = None) -> str:
    """Hash over (path, size, mtime) of every file the crawl would read: a cheap 'did anything change' check.

    With `license_root`, also of every LICENSE/COPYING file the licence lookup may read (in each candidate's folder
    and its parents up to the root), present or not: adding, editing or removing one changes the files' licences."""
    h = hashlib.sha256()
    for c in walk.candidates:
        st = c.abs_path.stat()
        h.update(f"{c.rel_path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    for s in walk.skipped:
        h.update(f"skip\0{s['path']}\n".encode("utf-8", "surrogateescape"))
    if license_root is not None:
        for rel in _license_file_paths(walk):
            try:
                st = (license_root / rel).lstat()
            except OSError:
                continue  # absent: the same as every other absent name
            h.update(
                f"license\0{rel}\0{st.st_mode}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8", "surrogateescape")
            )
    return "stat:" + h.hexdigest()


def _license_file_paths(walk: filefilter.WalkResult) -> list[str]:
    """Every path LicenseResolver may read for these candidates (see licenses.LicenseResolver.nearest_license_file)."""
    folders = {""}
    for c in walk.candidates:
        parts = PurePosixPath(c.rel_path).parts[:-1]
        folders.update("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))
    names = license_table().file_names
    return [f"{folder}/{name}" if folder else name for folder in sorted(folders) for name in names]


def _reader(root: Path) -> Callable[[str], str | None]:
    """Reads a file inside `root` for licence lookup; never follows a path out of the source."""
    root = root.resolve()

    def read(rel: str) -> str | None:
        path = root / rel
        try:
            if path.is_symlink() or not path.is_file() or path.stat().st_size > 1024 * 1024:
                return None
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    return read


def _collect_tree(
    spec: SourceSpec, ctx: CrawlContext, root: Path, *, commit: str | None, walk: filefilter.WalkResult | None = None
) -> SourceResult:
    walk = walk or filefilter.walk(root, include=spec.include, exclude=spec.exclude)
    result = SourceResult(spec, "ok", skipped=list(walk.skipped), ignored=walk.ignored)
    resolver = LicenseResolver(_reader(root), declared=spec.license)
    crawled_at = utcnow()
    for i, cand in enumerate(walk.candidates, start=1):
        if _secret_in_name(result, cand.rel_path):
            continue
        text, raw, reason = filefilter.read_checked(cand.abs_path, ctx.max_file_bytes)
        if text is None:
            result.skipped.append({"path": cand.rel_path, "reason": reason or "unreadable"})
        else:
            record = _file_record(
                spec,
                ctx,
                result,
                path=cand.rel_path,
                url=spec.url,
                commit=commit,
                text=text,
                size=len(raw or b""),
                language=cand.language,
                resolver=resolver,
                crawled_at=crawled_at,
            )
            if record:
                result.files.append(record)
        if ctx.progress and (i % 50 == 0 or i == len(walk.candidates)):
            ctx.progress(spec.label(), i)
    _parse_files(spec, ctx, result)
    return result


def _secret_in_name(result: SourceResult, path: str) -> bool:
    """A file (or page) whose path holds a credential is left out: its name would be stored and published with it.
    The skip list gets the path with the secret replaced."""
    redacted, types = secrets.path_findings(path)
    if not types:
        return False
    result.counts["secrets found"] += len(types)
    result.counts["files left out for a secret in their name"] += 1
    result.skipped.append({"path": redacted, "reason": f"secret in its name ({', '.join(types)}): left out"})
    return True


def _file_record(
    spec: SourceSpec,
    ctx: CrawlContext,
    result: SourceResult,
    *,
    path: str,
    url: str,
    commit: str | None,
    text: str,
    size: int,
    language: str,
    resolver: LicenseResolver | None,
    crawled_at: Any,
) -> dict[str, Any] | None:
    scan = secrets.scan(text, path)
    found = None
    if scan.found:
        result.counts["secrets found"] += len(scan.findings)
        types = sorted({f["type"] for f in scan.findings})
        if ctx.on_secret == "drop":
            result.counts["files dropped for secrets"] += 1
            lines = ", ".join(str(f["line"]) for f in scan.findings[:10])
            result.skipped.append(
                {
                    "path": path,
                    "reason": f"contains secrets ({', '.join(types)}; line {lines}): dropped (--on-secret drop)",
                }
            )
            return None
        result.counts["files with secrets redacted"] += 1
        text, found = scan.text, scan.findings
    if resolver is not None:
        license_id, method = resolver.resolve(path, text)
    else:
        license_id, method = (spec.license, "manifest") if spec.license else ("NOASSERTION", "none")
    blob = git_blob_sha(text.encode("utf-8"))
    return {
        "file_id": sha256_text(f"{spec.source_id}\n{path}\n{blob}"),
        "source_id": spec.source_id,
        "url": url,
        "commit": commit,
        "path": path,
        "blob_sha": blob,
        "license": license_id,
        "license_method": method,
        "size": size,
        "language": language,
        "secrets": found,
        "text": text,
        "crawled_at": crawled_at,
    }


def _parse_files(spec: SourceSpec, ctx: CrawlContext, result: SourceResult) -> None:
    from ..parse import extract_units
    from ..parse.units import DEFAULT_TIME_LIMIT

    limit = ctx.parse_timeout or DEFAULT_TIME_LIMIT
    units, skipped = extract_units(spec.source_id, result.files, time_limit=limit)
    result.units.extend(units)
    result.skipped.extend(skipped)


# -- documentation ---------------------------------------------------------------------------------------------------
def _crawl_docs(spec: SourceSpec, ctx: CrawlContext, prev: Previous | None) -> SourceResult:
    if "://" in spec.url and not spec.url.startswith("file://"):
        return _crawl_docs_http(spec, ctx, prev)
    return _crawl_docs_local(spec, ctx, prev)


def _crawl_docs_http(spec: SourceSpec, ctx: CrawlContext, prev: Previous | None) -> SourceResult:
    # A web site cannot say cheaply whether it changed: a complete crawl with the same settings is kept until
    # `--refresh` asks for a new one (so a re-run sends no request).
    if not ctx.refresh and prev and prev.fingerprint and prev.crawl_key == ctx.crawl_key:
        return SourceResult(spec, "unchanged", fingerprint=prev.fingerprint)
    limits = ctx.limits
    site_limits = SiteLimits(
        max_pages=spec.max_pages or limits.max_pages,
        max_depth=spec.max_depth if spec.max_depth is not None else limits.max_depth,
        max_bytes=spec.max_bytes or limits.max_bytes,
        max_file_bytes=ctx.max_file_bytes,
        rate_limit=spec.rate_limit if spec.rate_limit is not None else limits.rate_limit,
        timeout=limits.timeout,
        deadline=limits.deadline,
    )
    pacer = ctx.pacer if spec.rate_limit is None else HostPacer(spec.rate_limit)
    done = [0]

    def on_page(_url: str) -> None:
        done[0] += 1
        if ctx.progress:
            ctx.progress(spec.label(), done[0])

    site = crawl_site(spec.access_url, prefix=spec.prefix, limits=site_limits, pacer=pacer, on_page=on_page)
    result = SourceResult(spec, "ok", skipped=list(site.skipped))
    result.counts["http requests"] += site.requests
    crawled_at = utcnow()
    for page in site.pages:
        url = redact_url(page.url)  # the start page is the URL as given, credentials and all
        _doc_page(
            spec,
            ctx,
            result,
            url=url,
            path=_url_path(url),
            text=page.text,
            language=page.language,
            size=page.size,
            crawled_at=crawled_at,
        )
    result.fingerprint = "pages:" + sha256_text("\n".join(sorted(f"{f['url']} {f['blob_sha']}" for f in result.files)))
    return result


def _url_path(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _crawl_docs_local(spec: SourceSpec, ctx: CrawlContext, prev: Previous | None) -> SourceResult:
    target = Path(spec.url.removeprefix("file://"))
    if target.is_file():
        lang = filefilter.language_of(target.name, docs=True) or "markdown"
        walk = filefilter.WalkResult(candidates=[filefilter.Candidate(target.name, target, lang)])
        root = target.parent
    else:
        root = target
        walk = filefilter.walk(root, docs=True, include=spec.include, exclude=spec.exclude)
    fingerprint = _stat_fingerprint(walk)
    if _unchanged(prev, fingerprint, ctx):
        return SourceResult(spec, "unchanged", fingerprint=fingerprint)
    result = SourceResult(spec, "ok", skipped=list(walk.skipped), ignored=walk.ignored)
    crawled_at = utcnow()
    for cand in walk.candidates:
        text, raw, reason = filefilter.read_checked(cand.abs_path, ctx.max_file_bytes)
        if text is None:
            result.skipped.append({"path": cand.rel_path, "reason": reason or "unreadable"})
            continue
        if cand.language not in ("html", "markdown"):
            continue  # a CMakeLists.txt in a doc folder: not a page
        _doc_page(
            spec,
            ctx,
            result,
            url=spec.url,
            path=cand.rel_path,
            text=text,
            language=cand.language,
            size=len(raw or b""),
            crawled_at=crawled_at,
        )
    result.fingerprint = fingerprint
    return result


def _doc_page(
    spec: SourceSpec,
    ctx: CrawlContext,
    result: SourceResult,
    *,
    url: str,
    path: str,
    text: str,
    language: str,
    size: int,
    crawled_at: Any,
) -> None:
    """Store a page that has AscendC code (as a file) and turn its blocks into units; skip one that has none."""
    result.counts["pages read"] += 1
    page_url = url if "://" in url else f"{url.rstrip('/')}/{path}"
    if _secret_in_name(result, page_url):
        return
    blocks, _title = html_blocks(text) if language == "html" else markdown_blocks(text)
    if not blocks:
        result.skipped.append({"path": page_url, "reason": "page has no code blocks"})
        return
    found = ascendc_blocks(blocks)
    if not found:
        result.skipped.append({"path": page_url, "reason": f"page has no AscendC code ({len(blocks)} other blocks)"})
        return
    record = _file_record(
        spec,
        ctx,
        result,
        path=path,
        url=page_url,
        commit=None,
        text=text,
        size=size,
        language=language,
        resolver=None,
        crawled_at=crawled_at,
    )
    if record is None:
        return
    if record["secrets"]:  # the blocks must not carry what the page text no longer has
        found = [{**b, "code": secrets.scan(b["code"], path).text} for b in found]
    result.files.append(record)
    result.counts["code blocks"] += len(found)
    from ..parse import extract_doc_units
    from ..parse.units import DEFAULT_TIME_LIMIT

    result.units.extend(
        extract_doc_units(spec.source_id, record, found, time_limit=ctx.parse_timeout or DEFAULT_TIME_LIMIT)
    )
