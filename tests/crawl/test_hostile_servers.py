"""Doc hosts that misbehave, as real servers on 127.0.0.1 (raw sockets, so they can do what a polite server would
not): a body trickled a byte at a time, headers that never end, a body that never ends, a site too slow to finish.
The crawl must end on time, read no more than its limits, and keep what it fetched."""

from __future__ import annotations

import socket
import socketserver
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from crawl_helpers import crawl, kernel, rows

PAGE = (
    "<html><body><h1>Kernels</h1><pre><code class='language-cpp'>"
    + kernel("doc").replace("<", "&lt;").replace(">", "&gt;")
    + "</code></pre>{links}</body></html>"
)


def _head(status: str = "200 OK", length: int | None = None, extra: str = "") -> bytes:
    size = f"Content-Length: {length}\r\n" if length is not None else ""
    return f"HTTP/1.1 {status}\r\nContent-Type: text/html\r\n{size}Connection: close\r\n{extra}\r\n".encode()


@contextmanager
def raw_server(behaviour):
    """A threaded TCP server: `behaviour(path, sock, sent)` writes the whole answer itself; sent[0] counts body bytes
    that left the server."""
    sent = [0]

    class Handler(socketserver.BaseRequestHandler):
        def handle(self):
            self.request.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = self.request.recv(4096)
                if not chunk:
                    return
                data += chunk
            path = data.split(b" ", 2)[1].decode()
            try:
                behaviour(path, self.request, sent)
            except OSError:
                pass  # the crawler hung up: what these tests want

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", sent
    finally:
        server.shutdown()
        server.server_close()


def _page(sock, links: str = "") -> None:
    body = PAGE.replace("{links}", links).encode()
    sock.sendall(_head(length=len(body)) + body)


def _not_found(sock) -> None:
    sock.sendall(_head("404 Not Found", length=0))


def _reasons(workspace):
    return {
        s["path"].rsplit("/", 1)[-1]: s["reason"] for s in rows(workspace, "SELECT skipped FROM sources")[0]["skipped"]
    }


def test_a_body_trickled_byte_by_byte_cannot_stretch_the_request_deadline(workspace):
    def behaviour(path, sock, sent):
        if path == "/docs/index.html":
            return _page(sock, '<a href="slow.html">slow</a>')
        if path != "/docs/slow.html":
            return _not_found(sock)
        sock.sendall(_head(length=100_000))
        for _ in range(100_000):  # 100 s at this pace: each byte well inside any per-read timeout
            sock.sendall(b"x")
            sent[0] += 1
            time.sleep(0.001 if sent[0] < 20 else 0.05)

    with raw_server(behaviour) as (base, _sent):
        start = time.monotonic()
        stats = crawl(workspace, sources=[f"{base}/docs/index.html"], timeout=1.0, rate_limit=0)
        elapsed = time.monotonic() - start
    assert elapsed < 8, f"the trickle held the crawl {elapsed:.1f} s"
    assert stats.counts["failed"] == 0 and stats.counts["units"] == 1  # the good page is kept
    assert _reasons(workspace)["slow.html"].startswith("timed out: no complete answer within 1 s")


def test_headers_that_never_end_fail_the_start_page_on_time(workspace):
    def behaviour(path, sock, sent):
        if path == "/robots.txt":
            return _not_found(sock)
        sock.sendall(b"HTTP/1.1 200 OK\r\n")
        while True:
            sock.sendall(b"X-Pad: " + b"a" * 10 + b"\r\n")
            time.sleep(0.05)

    with raw_server(behaviour) as (base, _sent):
        start = time.monotonic()
        stats = crawl(workspace, sources=[f"{base}/docs/index.html"], timeout=1.0, rate_limit=0)
        elapsed = time.monotonic() - start
    assert elapsed < 8
    assert stats.counts["failed"] == 1
    error = rows(workspace, "SELECT error FROM sources")[0]["error"]
    assert error == f"start page {base}/docs/index.html: no complete answer within 1 s"


def test_max_bytes_stops_reading_a_body_that_never_ends(workspace):
    def behaviour(path, sock, sent):
        if path == "/docs/index.html":
            return _page(sock, '<a href="endless.html">endless</a>')
        if path != "/docs/endless.html":
            return _not_found(sock)
        sock.sendall(_head(extra="Transfer-Encoding: chunked\r\n"))
        chunk = b"y" * 8192
        while sent[0] < 300_000_000:
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent[0] += len(chunk)

    with raw_server(behaviour) as (base, sent):
        start = time.monotonic()
        crawl(workspace, sources=[f"{base}/docs/index.html"], max_bytes=200_000, rate_limit=0, timeout=30)
        elapsed = time.monotonic() - start
        served = sent[0]
    assert elapsed < 15
    # read up to the budget (plus what the two sockets' buffers held), not hundreds of megabytes
    assert served < 5_000_000, served
    assert _reasons(workspace)["endless.html"] == "byte limit reached (200000 bytes)"


def test_the_site_deadline_ends_a_slow_site_and_keeps_the_pages_fetched(workspace):
    links = "".join(f'<a href="p{i}.html">{i}</a>' for i in range(40))

    def behaviour(path, sock, sent):
        if path == "/robots.txt":
            return _not_found(sock)
        time.sleep(0.25)  # each page well within the request timeout; forty of them are not within the site's
        _page(sock, links if path == "/docs/index.html" else "")

    with raw_server(behaviour) as (base, _sent):
        start = time.monotonic()
        stats = crawl(
            workspace, sources=[f"{base}/docs/index.html"], rate_limit=0, timeout=5, site_deadline=2.0, max_pages=100
        )
        elapsed = time.monotonic() - start
    assert elapsed < 6, elapsed
    assert stats.counts["failed"] == 0
    reasons = [s["reason"] for s in rows(workspace, "SELECT skipped FROM sources")[0]["skipped"]]
    assert "site deadline reached (2 s)" in reasons
    assert 2 <= rows(workspace, "SELECT count(*) AS n FROM files")[0]["n"] < 40


def test_status_and_query_answer_while_a_slow_crawl_runs(workspace, tmp_path, cli):
    """A stage that waits on the network holds no lock on the store: status and query read it meanwhile. The doc site
    answers its pages only once the test has read (so the crawl is surely still running, whatever the machine's load)."""
    import subprocess
    import sys

    from crawl_helpers import write_files

    repo_root = Path(__file__).resolve().parents[2]
    release = threading.Event()

    def behaviour(path, sock, sent):
        if path == "/robots.txt":
            return _not_found(sock)
        if path != "/docs/index.html":
            release.wait(120)
        _page(sock, '<a href="p1.html">1</a><a href="p2.html">2</a>' if path == "/docs/index.html" else "")

    local = tmp_path / "local"
    write_files(local, {"k/good.cpp": kernel("good")})
    with raw_server(behaviour) as (base, _sent):
        crawl_proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cotbuilder.cli",
                "--workspace",
                str(workspace),
                "crawl",
                "--rate-limit",
                "0",
                "--timeout",
                "150",
                "--source",
                str(local),
                "--source",
                f"{base}/docs/index.html",
            ],
            cwd=repo_root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + 120
            while not rows_if_any(workspace) and time.monotonic() < deadline:  # the local source is committed
                time.sleep(0.1)
            status = cli("status", workspace=workspace)
            query = cli("query", "SELECT count(*) AS n FROM sources WHERE status = 'ok'", "--json", workspace=workspace)
            still_running = crawl_proc.poll() is None
        finally:
            release.set()
            _, err = crawl_proc.communicate(timeout=300)
    assert still_running, "the crawl must still be running while status and query read"
    assert status.returncode == 0, status.stderr
    assert f"running: pid {crawl_proc.pid}: cotbuilder" in status.stdout
    assert query.returncode == 0, query.stderr
    assert query.stdout.strip() == '{"n": 1}'  # the committed source, not the one in progress
    assert crawl_proc.returncode == 0, err
    assert rows_if_any(workspace) and _count_ok(workspace) == 2  # and the site, once it answered


def _count_ok(workspace) -> int:
    return rows(workspace, "SELECT count(*) AS n FROM sources WHERE status = 'ok'")[0]["n"]


def rows_if_any(workspace) -> bool:
    from cotbuilder.store import Store, StoreError

    try:
        with Store(workspace, read_only=True, wait_s=5) as store:
            return bool(store.count("sources"))
    except StoreError:
        return False
