"""Bad input gets a clear reason and the crawl goes on: binary, oversize, invalid UTF-8, symlinks, empty repo, failing
clone, malformed C++; the CLI's exit codes (0 / 1 some sources failed / 2 bad usage)."""

from __future__ import annotations

import os

import pytest
from crawl_helpers import crawl, git, kernel, make_repo, rows, write_files

from cotbuilder.crawl.stage import CrawlConfig, CrawlUsageError, resolve_specs


def test_bad_files_are_skipped_with_reasons_and_good_ones_kept(tmp_path, workspace):
    outside = tmp_path / "outside_secret.h"
    outside.write_text("int outside_the_source = 1;\n")
    folder = tmp_path / "src"
    write_files(
        folder,
        {
            "k/good.cpp": kernel("good"),
            "k/blob.h": b"\x7fELF\x00\x00binary",
            "k/huge.cpp": "// " + "x" * 5000 + "\n",
            "k/latin1.cpp": "// caf\xe9\n".encode("latin-1"),
            "k/broken.cpp": 'extern "C" __global__ __aicore__ void broken(GM_ADDR x) { if (x { ;; }\n',
        },
    )
    os.symlink(outside, folder / "k" / "escape.h")
    os.symlink(folder / "k" / "good.cpp", folder / "k" / "alias.cpp")
    os.symlink(tmp_path, folder / "k" / "loopdir")
    stats = crawl(workspace, sources=[str(folder)], max_file_bytes=4096)
    assert stats.counts["failed"] == 0
    (source,) = rows(workspace, "SELECT skipped, status FROM sources")
    reasons = {s["path"]: s["reason"] for s in source["skipped"]}
    assert reasons["k/blob.h"] == "binary (NUL bytes)"
    assert reasons["k/huge.cpp"].startswith("too large (")
    assert reasons["k/latin1.cpp"].startswith("invalid UTF-8")
    assert reasons["k/escape.h"] == "symlinked file pointing outside the source (never followed)"
    assert reasons["k/alias.cpp"].startswith("symlinked file (points inside the source")
    assert reasons["k/loopdir"] == "symlinked folder pointing outside the source (never followed)"
    paths = {r["path"] for r in rows(workspace, "SELECT path FROM files")}
    assert paths == {"k/good.cpp", "k/broken.cpp"}  # malformed C++ is kept: the parser reports, never drops
    texts = " ".join(r["text"] for r in rows(workspace, "SELECT text FROM files"))
    assert "outside_the_source" not in texts
    assert stats.reasons["skipped: binary"] == 1 and stats.reasons["skipped: too large"] == 1


def test_a_file_that_would_take_minutes_to_parse_is_skipped_and_the_crawl_goes_on(tmp_path, workspace):
    import time

    folder = tmp_path / "src"
    write_files(folder, {"k/good.cpp": kernel("good"), "evil/evil.cpp": "int f() " + "(" * 100_000 + "\n"})
    start = time.monotonic()
    stats = crawl(workspace, sources=[str(folder)])
    assert time.monotonic() - start < 20, "100 000 unbalanced ( took 51 s to parse before the limits"
    assert stats.counts["failed"] == 0
    (source,) = rows(workspace, "SELECT skipped FROM sources")
    reasons = {s["path"]: s["reason"] for s in source["skipped"]}
    assert reasons["evil/evil.cpp"] == "not parsed: brackets nested 100000 deep (limit 1000); left out"
    assert {r["path"] for r in rows(workspace, "SELECT path FROM files")} == {"k/good.cpp", "evil/evil.cpp"}
    assert [r["root"] for r in rows(workspace, "SELECT root FROM units")] == ["k"]


def test_malformed_cpp_unit_carries_parse_diagnostics(tmp_path, workspace):
    folder = tmp_path / "src"
    write_files(folder, {"broken/broken.cpp": kernel("b").replace("op.Init(x, y, 1024);", "op.Init(x, y, 1024;")})
    crawl(workspace, sources=[str(folder)])
    assert rows(workspace, "SELECT count(*) AS n FROM files")[0]["n"] == 1
    diagnostics = [d for u in rows(workspace, "SELECT diagnostics FROM units") for d in u["diagnostics"]]
    assert any(d.get("line") for d in diagnostics), "a syntax error must surface as a diagnostic with a line"


def test_empty_repo_and_failing_clone_fail_their_sources_while_others_are_crawled(tmp_path, cli, workspace):
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    good = make_repo(tmp_path / "good", {"op/op.cpp": kernel("ok")})
    missing = (tmp_path / "no-such-repo.git").as_uri()
    proc = cli("crawl", "--source", str(empty), "--source", missing, "--source", str(good), workspace=workspace)
    assert proc.returncode == 1, proc.stderr
    assert "empty repository" in proc.stderr
    by_url = {r["url"]: r for r in rows(workspace, "SELECT url, status, error, fingerprint FROM sources")}
    assert by_url[str(good)]["status"] == "ok" and by_url[str(good)]["fingerprint"]
    assert by_url[str(empty)]["status"] == "failed" and "empty repository" in by_url[str(empty)]["error"]
    assert by_url[missing]["status"] == "failed" and by_url[missing]["fingerprint"] is None
    assert "git fetch failed" in by_url[missing]["error"] or "ls-remote failed" in by_url[missing]["error"]


def test_no_source_and_bad_values_are_usage_errors_with_exit_2(cli, workspace, tmp_path):
    proc = cli("crawl", workspace=workspace)
    assert proc.returncode == 2 and "nothing to crawl" in proc.stderr and "--source" in proc.stderr
    assert not workspace.exists(), "a usage error must not create a workspace"
    for config, message in (
        (dict(sources=[str(tmp_path / "missing")]), "no such file or folder"),
        (dict(sources=[str(tmp_path)], on_secret="shout"), "--on-secret"),
    ):
        with pytest.raises(CrawlUsageError, match=message):
            resolve_specs(CrawlConfig(**config))
    bad = tmp_path / "bad.toml"
    bad.write_text('[[source]]\nkind = "svn"\nurl = "x"\n')
    proc = cli("crawl", "--manifest", str(bad), workspace=workspace)
    assert proc.returncode == 2 and "kind must be one of" in proc.stderr
    help_text = cli("crawl", "--help").stdout
    assert "1 some sources failed" in " ".join(help_text.split())
