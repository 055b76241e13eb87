"""Doc sites: a real http.server on 127.0.0.1 (robots.txt, link depth, 404, pages without code), an unreachable host,
and local Markdown/HTML files."""

from __future__ import annotations

from crawl_helpers import closed_port, crawl, kernel, rows, write_files

FRAGMENT = (
    "pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));\n"
    "LocalTensor<half> x = inQueueX.AllocTensor<half>();"
)


def _site(site, base: str) -> None:
    dead = f"http://127.0.0.1:{closed_port()}/docs/gone.html"
    write_files(
        site,
        {
            "robots.txt": "User-agent: *\nDisallow: /docs/private/\n",
            "docs/index.html": (
                "<html><head><title>Guide</title></head><body><h1>Guide</h1><p>Start here.</p>"
                '<a href="a.html">a</a> <a href="guide.md">md</a> <a href="nocode.html">prose</a> '
                '<a href="plain.html">plain</a> <a href="missing.html">404</a> <a href="private/p.html">private</a> '
                f'<a href="deep1.html">deep</a> <a href="../outside.html">outside</a> <a href="{dead}">dead</a>'
                "</body></html>"
            ),
            "docs/a.html": (
                "<html><body><h1>Kernels</h1><h2>Vector scale kernel</h2>"
                f'<pre><code class="language-cpp">{_escape(kernel("doc"))}</code></pre>'
                "<h2>Queue setup</h2><p>Allocate like this:</p>"
                f"<pre>{_escape(FRAGMENT)}</pre>"
                "<h2>Python</h2><pre>import numpy as np\nx = np.ones(4)</pre></body></html>"
            ),
            "docs/guide.md": (
                "# Markdown guide\n\n## Copy in\n\n```cpp\nAscendC::DataCopy(xLocal, xGm[offset], tileLength);\n```\n"
            ),
            "docs/nocode.html": "<html><body><h1>About</h1><p>No code here.</p></body></html>",
            "docs/plain.html": "<html><body><h1>Other</h1><pre>print('hello')\nprint('world')</pre></body></html>",
            "docs/private/p.html": f"<html><body><pre>{_escape(FRAGMENT)}</pre></body></html>",
            "docs/deep1.html": '<html><body><a href="deep2.html">next</a></body></html>',
            "docs/deep2.html": f'<html><body><a href="deep3.html">next</a><pre>{_escape(FRAGMENT)}</pre></body></html>',
            "docs/deep3.html": f"<html><body><pre>{_escape(FRAGMENT)}</pre></body></html>",
            "outside.html": f"<html><body><pre>{_escape(FRAGMENT)}</pre></body></html>",
        },
    )


def _escape(code: str) -> str:
    return code.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_doc_site_crawl_honours_robots_depth_prefix_and_reports_skips(doc_server, workspace):
    base, site, requests = doc_server
    _site(site, base)
    stats = crawl(workspace, sources=[f"{base}/docs/index.html"], max_depth=2, rate_limit=0.0)
    assert stats.counts["failed"] == 0
    (source,) = rows(workspace, "SELECT * FROM sources")
    assert source["kind"] == "docs" and source["status"] == "ok"
    reasons = {s["path"].replace(base, ""): s["reason"] for s in source["skipped"]}
    assert reasons["/docs/private/p.html"] == "disallowed by robots.txt"
    assert reasons["/docs/missing.html"] == "HTTP 404"
    assert reasons["/docs/nocode.html"] == "page has no code blocks"
    assert reasons["/docs/plain.html"].startswith("page has no AscendC code")
    assert "/docs/private/p.html" not in requests  # robots.txt is obeyed before asking
    assert "/docs/deep3.html" not in requests and "/outside.html" not in requests  # depth and prefix limits
    pages = {r["path"]: r for r in rows(workspace, "SELECT * FROM files")}
    assert set(pages) == {"/docs/a.html", "/docs/guide.md", "/docs/deep2.html"}
    assert pages["/docs/a.html"]["language"] == "html" and pages["/docs/guide.md"]["language"] == "markdown"
    assert pages["/docs/a.html"]["url"] == f"{base}/docs/a.html"
    units = rows(workspace, "SELECT layout, root, name, files FROM units")
    roots = sorted(u["root"].replace(base, "") for u in units)
    assert any(r.startswith("/docs/a.html#vector-scale-kernel") for r in roots)
    assert any(r.startswith("/docs/a.html#queue-setup") for r in roots)
    assert any(r.startswith("/docs/guide.md#copy-in") for r in roots)
    assert not any("#python" in r for r in roots)  # non-AscendC blocks make no unit
    layouts = {u["root"].replace(base, "").split("#")[1].rsplit("-", 1)[0]: u["layout"] for u in units}
    assert layouts["vector-scale-kernel"] == "kernel_launch" and layouts["queue-setup"] == "snippet"


def test_doc_site_rerun_sends_no_request(doc_server, workspace):
    base, site, requests = doc_server
    _site(site, base)
    crawl(workspace, sources=[f"{base}/docs/index.html"], max_depth=1, rate_limit=0.0)
    sent = len(requests)
    stats = crawl(workspace, sources=[f"{base}/docs/index.html"], max_depth=1, rate_limit=0.0)
    assert stats.counts["sources unchanged"] == 1 and len(requests) == sent


def test_max_pages_limit_stops_the_crawl(doc_server, workspace):
    base, site, requests = doc_server
    _site(site, base)
    crawl(workspace, sources=[f"{base}/docs/index.html"], max_pages=2, rate_limit=0.0)
    html_requests = [r for r in requests if r.endswith((".html", ".md"))]
    assert len(html_requests) == 2
    (source,) = rows(workspace, "SELECT skipped FROM sources")
    assert any(s["reason"].startswith("page limit reached") for s in source["skipped"])


def test_rate_limit_spaces_requests_to_one_host(doc_server, workspace):
    import time

    base, site, requests = doc_server
    _site(site, base)
    start = time.monotonic()
    crawl(workspace, sources=[f"{base}/docs/index.html"], max_depth=0, rate_limit=0.4)
    assert len(requests) == 2  # robots.txt + the start page
    assert time.monotonic() - start >= 0.4


def test_unreachable_doc_host_fails_the_source(workspace):
    stats = crawl(workspace, sources=[f"http://127.0.0.1:{closed_port()}/docs/index.html"], timeout=2.0)
    assert stats.counts["failed"] == 1
    (source,) = rows(workspace, "SELECT status, error, fingerprint FROM sources")
    assert source["status"] == "failed" and "unreachable doc host" in source["error"] and not source["fingerprint"]


def test_local_markdown_and_html_docs_are_crawled_as_pages(tmp_path, workspace):
    docs = tmp_path / "notes"
    write_files(
        docs,
        {
            "intro.md": "# Intro\n\nNothing to see.\n",
            "api/tque.md": (
                "# TQue\n\n## EnQue\n\n```cpp\ninQueueX.EnQue(xLocal);\n"
                "LocalTensor<half> y = outQueueY.DeQue<half>();\n```\n"
            ),
            "api/page.html": f"<h1>Add</h1><pre>{_escape(kernel('local'))}</pre>",
            "api/CMakeLists.txt": "project(x)\n",
        },
    )
    crawl(workspace, sources=[f"docs+{docs}", str(docs / "api" / "tque.md")])
    pages = rows(workspace, "SELECT path, language, url FROM files ORDER BY path")
    assert [(p["path"], p["language"]) for p in pages] == [
        ("api/page.html", "html"),
        ("api/tque.md", "markdown"),
        ("tque.md", "markdown"),
    ]
    skipped = [s for r in rows(workspace, "SELECT skipped FROM sources") for s in r["skipped"]]
    assert any(s["path"].endswith("intro.md") and s["reason"] == "page has no code blocks" for s in skipped)
    assert rows(workspace, "SELECT count(*) AS n FROM units")[0]["n"] == 3
