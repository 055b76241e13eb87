"""Documentation sites over HTTP: breadth-first under a URL prefix, within page/depth/byte limits, honouring robots.txt,
one request per host every `rate_limit` seconds, with timeouts. Returns pages; the caller extracts code and stores."""

from __future__ import annotations

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
    timeout: float = 20.0


class HostPacer:
    """At most one request per host every `interval` seconds, shared by every thread of the crawl."""

    def __init__(self, interval: float):
        self.interval = interval
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def wait(self, host: str) -> None:
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next.get(host, 0.0))
            self._next[host] = slot + self.interval
        if slot > now:
            time.sleep(slot - now)


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
    import httpx

    prefix = prefix or default_prefix(start_url)
    result = SiteResult()
    robots: dict[str, urllib.robotparser.RobotFileParser | None] = {}
    queue: deque[tuple[str, int]] = deque([(start_url, 0)])
    seen = {start_url}
    total_bytes = 0
    headers = {"User-Agent": USER_AGENT}
    with httpx.Client(timeout=limits.timeout, follow_redirects=True, headers=headers) as client:
        while queue:
            url, depth = queue.popleft()
            if len(result.pages) >= limits.max_pages:
                result.skipped.append({"path": url, "reason": f"page limit reached ({limits.max_pages} pages)"})
                break
            host = urlsplit(url).netloc
            try:
                if host not in robots:
                    robots[host] = _robots(client, url, pacer, result)
                rules = robots[host]
                if rules is not None and not rules.can_fetch(USER_AGENT, url):
                    result.skipped.append({"path": url, "reason": "disallowed by robots.txt"})
                    continue
                pacer.wait(host)
                result.requests += 1
                resp = client.get(url)
            except httpx.TransportError as exc:
                if url == start_url:
                    raise HostUnreachable(f"unreachable doc host {host}: {type(exc).__name__}: {exc}") from None
                result.skipped.append({"path": url, "reason": f"unreachable: {type(exc).__name__}"})
                continue
            if on_page:
                on_page(url)
            if resp.status_code != 200:
                if url == start_url and resp.status_code >= 400:
                    raise HostUnreachable(f"start page {url} answered HTTP {resp.status_code}")
                result.skipped.append({"path": url, "reason": f"HTTP {resp.status_code}"})
                continue
            language = _language(str(resp.url), resp.headers.get("content-type", ""))
            if language is None:
                result.skipped.append({"path": url, "reason": "not an HTML or Markdown page"})
                continue
            raw = resp.content
            if total_bytes + len(raw) > limits.max_bytes:
                result.skipped.append({"path": url, "reason": f"byte limit reached ({limits.max_bytes} bytes)"})
                break
            total_bytes += len(raw)
            text, reason = decode_checked(raw, limits.max_file_bytes)
            if text is None:
                result.skipped.append({"path": url, "reason": reason or "unreadable"})
                continue
            result.pages.append(Page(url, text, language, len(raw)))
            if depth >= limits.max_depth:
                continue
            links = html_links(text, url) if language == "html" else markdown_links(text, url)
            for link in links:
                if link.startswith(prefix) and link not in seen:
                    seen.add(link)
                    queue.append((link, depth + 1))
    return result


def _robots(client: Any, url: str, pacer: HostPacer, result: SiteResult) -> urllib.robotparser.RobotFileParser | None:
    """robots.txt of the URL's host; None (= all allowed) when the host has none. Transport errors propagate."""
    parts = urlsplit(url)
    robots_url = f"{parts.scheme}://{parts.netloc}/robots.txt"
    pacer.wait(parts.netloc)
    result.requests += 1
    resp = client.get(robots_url)
    if resp.status_code in (401, 403):  # the robots convention: an access-controlled robots.txt disallows all
        parser = urllib.robotparser.RobotFileParser()
        parser.disallow_all = True
        return parser
    if resp.status_code != 200:
        return None
    parser = urllib.robotparser.RobotFileParser(robots_url)
    parser.parse(resp.text.splitlines())
    return parser
