"""Documentation sites over HTTP: breadth-first under a URL prefix, within page/depth/byte limits, honouring robots.txt,
one request per host every `rate_limit` seconds. Returns pages; the caller extracts code and stores.

A web server is untrusted, and a slow one must not hold the crawl: every request has a deadline for the whole answer
(headers and body: a server trickling a byte at a time cannot stretch it, as it can a per-read timeout), bodies are read
as a stream and dropped at the per-page limit or at what is left of the site's byte budget (`--max-bytes` counts bytes
read, not bytes announced), and the whole site has a deadline (`--site-deadline`) after which the crawl keeps the pages
it has. The requests run on an event loop of their own (asyncio), where a deadline cancels a read in progress.
"""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.robotparser
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from .codeblocks import html_links, markdown_links
from .filefilter import decode_checked

USER_AGENT = "cotbuilder-crawl/0.1 (+https://github.com/; dataset builder; honours robots.txt)"


class HostUnreachable(RuntimeError):
    pass


@dataclass
class Page:
    url: str
    text: str
    language: str  # html | markdown
    size: int


@dataclass
class SiteResult:
    pages: list[Page] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    requests: int = 0


@dataclass
class SiteLimits:
    max_pages: int = 200
    max_depth: int = 3
    max_bytes: int = 50 * 1024 * 1024
    max_file_bytes: int = 2 * 1024 * 1024
    rate_limit: float = 1.0
    timeout: float = 20.0  # seconds for one whole request (headers + body)
    deadline: float = 3600.0  # seconds for the whole site


class HostPacer:
    """At most one request per host every `interval` seconds, shared by every thread of the crawl."""

    def __init__(self, interval: float):
        self.interval = interval
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def reserve(self, host: str) -> float:
        """Book the host's next slot; returns the seconds to wait for it."""
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next.get(host, 0.0))
            self._next[host] = slot + self.interval
        return slot - now

    def wait(self, host: str) -> None:
        delay = self.reserve(host)
        if delay > 0:
            time.sleep(delay)


class Deadline(Exception):
    """No complete answer within the request's deadline."""


@dataclass
class Fetched:
    status: int
    url: str  # after redirects
    content_type: str
    body: bytes | None  # None when the body went past `max_body` (reading stopped there)
    bytes_read: int


ROBOTS_MAX_BYTES = 512 * 1024


async def fetch(client: Any, url: str, *, max_body: int, seconds: float) -> Fetched:
    """GET `url` within `seconds` for the whole answer, reading at most `max_body` + one chunk of its body."""
    try:
        async with asyncio.timeout(seconds):
            async with client.stream("GET", url) as resp:
                content_type = resp.headers.get("content-type", "")
                declared = resp.headers.get("content-length", "")
                if resp.status_code != 200 or (declared.isdigit() and int(declared) > max_body):
                    return Fetched(resp.status_code, str(resp.url), content_type, None, 0)
                chunks, seen = [], 0
                async for chunk in resp.aiter_bytes():
                    seen += len(chunk)
                    if seen > max_body:
                        return Fetched(resp.status_code, str(resp.url), content_type, None, seen)
                    chunks.append(chunk)
                return Fetched(resp.status_code, str(resp.url), content_type, b"".join(chunks), seen)
    except TimeoutError:
        raise Deadline(f"no complete answer within {seconds:.3g} s") from None


def default_prefix(start_url: str) -> str:
    """Links are followed under the start page's folder."""
    parts = urlsplit(start_url)
    path = parts.path if parts.path.endswith("/") else parts.path.rsplit("/", 1)[0] + "/"
    return f"{parts.scheme}://{parts.netloc}{path}"


def _language(url: str, content_type: str) -> str | None:
    path = urlsplit(url).path.lower()
    if path.endswith((".md", ".markdown")) or "markdown" in content_type:
        return "markdown"
    if "html" in content_type or path.endswith((".html", ".htm")) or path.endswith("/"):
        return "html"
    return None


def crawl_site(
    start_url: str,
    *,
    prefix: str | None,
    limits: SiteLimits,
    pacer: HostPacer,
    on_page: Callable[[str], None] | None = None,
) -> SiteResult:
    """Crawl one site (called from a crawl worker thread: the requests get an event loop of their own)."""
    return asyncio.run(_crawl_site(start_url, prefix=prefix, limits=limits, pacer=pacer, on_page=on_page))


async def _crawl_site(
    start_url: str,
    *,
    prefix: str | None,
    limits: SiteLimits,
    pacer: HostPacer,
    on_page: Callable[[str], None] | None,
) -> SiteResult:
    import httpx

    prefix = prefix or default_prefix(start_url)
    result = SiteResult()
    robots: dict[str, urllib.robotparser.RobotFileParser | None] = {}
    queue: deque[tuple[str, int]] = deque([(start_url, 0)])
    seen = {start_url}
    total_bytes = 0
    site_end = time.monotonic() + limits.deadline
    headers = {"User-Agent": USER_AGENT}

    def left() -> float:
        return site_end - time.monotonic()

    async def paced(host: str) -> bool:
        """Wait for the host's slot; False when the site's deadline comes first."""
        delay = pacer.reserve(host)
        if delay >= left():
            return False
        if delay > 0:
            await asyncio.sleep(delay)
        return True

    async with httpx.AsyncClient(timeout=limits.timeout, follow_redirects=True, headers=headers) as client:
        while queue:
            url, depth = queue.popleft()
            if len(result.pages) >= limits.max_pages:
                result.skipped.append({"path": url, "reason": f"page limit reached ({limits.max_pages} pages)"})
                break
            host = urlsplit(url).netloc
            try:
                if host not in robots:
                    if not await paced(host):
                        raise Deadline("site deadline")
                    robots[host] = await _robots(client, url, limits, left(), result)
                rules = robots[host]
                if rules is not None and not rules.can_fetch(USER_AGENT, url):
                    result.skipped.append({"path": url, "reason": "disallowed by robots.txt"})
                    continue
                if left() <= 0 or not await paced(host):
                    raise Deadline("site deadline")
                result.requests += 1
                budget = limits.max_bytes - total_bytes
                got = await fetch(
                    client, url, max_body=min(limits.max_file_bytes, budget), seconds=min(limits.timeout, left())
                )
            except httpx.TransportError as exc:
                if url == start_url:
                    raise HostUnreachable(f"unreachable doc host {host}: {type(exc).__name__}: {exc}") from None
                result.skipped.append({"path": url, "reason": f"unreachable: {type(exc).__name__}"})
                continue
            except Deadline as exc:
                if left() <= 0 or str(exc) == "site deadline":
                    result.skipped.append({"path": url, "reason": f"site deadline reached ({limits.deadline:g} s)"})
                    result.skipped += [{"path": u, "reason": "site deadline reached"} for u, _ in queue]
                    break
                if url == start_url:
                    raise HostUnreachable(f"start page {url}: {exc}") from None
                result.skipped.append({"path": url, "reason": f"timed out: {exc}"})
                continue
            total_bytes += got.bytes_read
            if on_page:
                on_page(url)
            if got.status != 200:
                if url == start_url and got.status >= 400:
                    raise HostUnreachable(f"start page {url} answered HTTP {got.status}")
                result.skipped.append({"path": url, "reason": f"HTTP {got.status}"})
                continue
            if got.body is None:
                if budget < limits.max_file_bytes:
                    result.skipped.append({"path": url, "reason": f"byte limit reached ({limits.max_bytes} bytes)"})
                    break
                result.skipped.append(
                    {"path": url, "reason": f"too large (over {limits.max_file_bytes} bytes > limit, not read)"}
                )
                continue
            language = _language(got.url, got.content_type)
            if language is None:
                result.skipped.append({"path": url, "reason": "not an HTML or Markdown page"})
                continue
            text, reason = decode_checked(got.body, limits.max_file_bytes)
            if text is None:
                result.skipped.append({"path": url, "reason": reason or "unreadable"})
                continue
            result.pages.append(Page(url, text, language, len(got.body)))
            if depth >= limits.max_depth:
                continue
            links = html_links(text, url) if language == "html" else markdown_links(text, url)
            for link in links:
                if link.startswith(prefix) and link not in seen:
                    seen.add(link)
                    queue.append((link, depth + 1))
    return result


async def _robots(
    client: Any, url: str, limits: SiteLimits, seconds: float, result: SiteResult
) -> urllib.robotparser.RobotFileParser | None:
    """robots.txt of the URL's host; None (= all allowed) when the host has none. Transport errors propagate."""
    parts = urlsplit(url)
    robots_url = f"{parts.scheme}://{parts.netloc}/robots.txt"
    result.requests += 1
    try:
        got = await fetch(client, robots_url, max_body=ROBOTS_MAX_BYTES, seconds=min(limits.timeout, seconds))
    except Deadline as exc:
        raise Deadline(f"robots.txt: {exc}") from None
    if got.status in (401, 403):  # the robots convention: an access-controlled robots.txt disallows all
        parser = urllib.robotparser.RobotFileParser()
        parser.disallow_all = True
        return parser
    if got.status != 200 or got.body is None:
        return None
    parser = urllib.robotparser.RobotFileParser(robots_url)
    parser.parse(got.body.decode("utf-8", "replace").splitlines())
    return parser
