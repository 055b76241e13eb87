"""Credentials inside a source URL (user info, ?access_token=) are used to reach the source and stored nowhere: not in
`sources`/`files`/`runs`, not in the clone cache's git config, not in the output."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from crawl_helpers import closed_port, git, kernel, make_repo, rows

from cotbuilder.crawl.sources import parse_source
from cotbuilder.crawl.urlredact import redact_url, redact_urls_in, scrub

TOKEN = "ghp_T0kenInUrlX9q8w7e6r5t4y3u2i1o0pAb"
QUERY_TOKEN = "qtok_Zr8Lm2Vb6Nx4Kc0Ws1Qe"
SHA = "0123456789abcdef0123456789abcdef01234567"


def test_redact_url_strips_user_info_and_secret_query_params_only():
    assert redact_url(f"https://x-access-token:{TOKEN}@host/o/r.git") == "https://host/o/r.git"
    assert redact_url(f"https://{TOKEN}@host/o/r.git") == "https://host/o/r.git"
    assert redact_url(f"https://h/d/i.html?lang=en&access_token={QUERY_TOKEN}") == "https://h/d/i.html?lang=en"
    assert redact_url(f"https://h/d?Private-Token={QUERY_TOKEN}") == "https://h/d"
    assert redact_url("ssh://git:pw123@host/o/r") == "ssh://git@host/o/r"  # the ssh user name is no secret
    for kept in ("https://gitcode.com/cann/ops-math.git", "git@host:o/r.git", "/home/a/repo", "https://h/a?x=1&y="):
        assert redact_url(kept) == kept
    assert (
        redact_urls_in(f"fatal: unable to access 'http://u:{TOKEN}@h:1/r.git/': refused")
        == "fatal: unable to access 'http://h:1/r.git/': refused"
    )
    assert TOKEN not in scrub(f"unreachable doc host u:{TOKEN}@h:1", f"http://u:{TOKEN}@h:1/d")


def test_parsed_source_keeps_credentials_only_for_access_and_hashes_without_them():
    spec = parse_source(f"https://x-access-token:{TOKEN}@gitcode.com/o/r.git@main")
    assert (spec.kind, spec.url, spec.ref) == ("git", "https://gitcode.com/o/r.git", "main")
    assert spec.access_url == f"https://x-access-token:{TOKEN}@gitcode.com/o/r.git"
    assert TOKEN not in repr(spec) and TOKEN not in spec.label()
    assert spec.source_id == parse_source("https://gitcode.com/o/r.git@main").source_id


def _assert_token_nowhere(workspace: Path, *outputs: str) -> None:
    for text in outputs:
        assert TOKEN not in text and QUERY_TOKEN not in text
    files = [p for p in workspace.rglob("*") if p.is_file()]
    assert any(p.suffix == ".duckdb" or "duckdb" in p.name for p in files), files
    for path in files:  # the DuckDB file itself, its WAL, and every file of the clone cache
        data = path.read_bytes()
        assert TOKEN.encode() not in data and QUERY_TOKEN.encode() not in data, path


def test_credentials_in_unreachable_source_urls_are_stored_and_printed_nowhere(tmp_path, cli, workspace):
    port = closed_port()
    git_url = f"http://x-access-token:{TOKEN}@127.0.0.1:{port}/o/r.git"
    docs_url = f"http://127.0.0.1:{port}/docs/index.html?access_token={QUERY_TOKEN}"
    # A full sha skips the ls-remote probe, so the clone cache is created and a fetch is attempted (and fails).
    proc = cli("crawl", "--source", f"{git_url}@{SHA}", "--source", docs_url, workspace=workspace)
    assert proc.returncode == 1, proc.stderr
    assert "failed" in proc.stderr
    assert (workspace / "cache" / "git").is_dir(), "the checkout path must have run for this test to mean anything"
    sources = rows(workspace, "SELECT url, status, error FROM sources ORDER BY kind")
    assert [(s["url"], s["status"]) for s in sources] == [
        (f"http://127.0.0.1:{port}/docs/index.html", "failed"),
        (f"http://127.0.0.1:{port}/o/r.git", "failed"),
    ]
    (run,) = rows(workspace, "SELECT config, errors FROM runs WHERE stage = 'crawl'")
    assert run["config"]["sources"] == [
        f"http://127.0.0.1:{port}/o/r.git@{SHA}",
        f"http://127.0.0.1:{port}/docs/index.html",
    ]
    assert len(run["errors"]) >= 2 and TOKEN not in json.dumps(run["errors"])
    _assert_token_nowhere(workspace, proc.stdout, proc.stderr)


def test_credentials_in_a_cloned_git_url_stay_off_the_clone_and_the_store(tmp_path, cli, workspace, doc_server):
    """A real (dumb) HTTP git server on 127.0.0.1: the clone succeeds with the credentialed URL."""
    base, site, _requests = doc_server
    src = make_repo(
        tmp_path / "src",
        {
            "op/op.cpp": kernel("op"),
            "LICENSE": "MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n",
        },
    )
    subprocess.run(["git", "clone", "-q", "--bare", str(src), str(site / "r.git")], check=True)
    git(site / "r.git", "update-server-info")
    url = base.replace("http://", f"http://x-access-token:{TOKEN}@") + "/r.git"
    proc = cli("crawl", "--source", url, workspace=workspace)
    assert proc.returncode == 0, proc.stderr
    (source,) = rows(workspace, "SELECT url, status FROM sources")
    assert source == {"url": f"{base}/r.git", "status": "ok"}
    assert {r["url"] for r in rows(workspace, "SELECT url FROM files")} == {f"{base}/r.git"}
    (config,) = list((workspace / "cache" / "git").glob("*/.git/config"))
    assert f"{base}/r.git" in config.read_text()
    _assert_token_nowhere(workspace, proc.stdout, proc.stderr)
