"""Fixtures for the crawl tests: real git repositories in tmp dirs, a real HTTP doc site on 127.0.0.1, and a crawl run
in-process or through the CLI."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # crawl_helpers


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    requests: list[str]

    def log_message(self, *args):  # keep test output clean
        pass

    def do_GET(self):
        type(self).requests.append(self.path)
        super().do_GET()


@pytest.fixture
def doc_server(tmp_path):
    """A real HTTP server on 127.0.0.1 serving tmp_path/site; yields (base_url, site_dir, requests list)."""
    site = tmp_path / "site"
    site.mkdir()
    handler = type("Handler", (_QuietHandler,), {"requests": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", site, handler.requests
    finally:
        server.shutdown()
        server.server_close()
