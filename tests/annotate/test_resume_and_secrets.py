"""`cotbuilder annotate` as a user runs it (a subprocess) against the local chat server: SIGKILL mid-run then resume
loses no record, duplicates none and re-sends no completed request; an API key from the environment never reaches
the store, the cache, or the output."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from chat_server import ChatServer, Reply  # noqa: E402
from units import many_add_units, put_units  # noqa: E402

from cotbuilder.annotate.cache import ResponseCache  # noqa: E402
from cotbuilder.store import Store  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def _cmd(workspace: Path, url: str, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "cotbuilder.cli",
        "--workspace",
        str(workspace),
        "annotate",
        "--all",
        "--teacher",
        "gpt-4o-mini",
        "--base-url",
        url,
        "--no-progress",
        "--retry-base",
        "0.05",
        *extra,
    ]


def _cached_units(workspace: Path) -> set[str]:
    import json

    root = workspace / "cache" / "annotate"
    # entries only: a `.tmp-` file is one the killed run was still writing (never read back as an answer)
    entries = [p for p in root.glob("*/*.json") if not p.name.startswith(".tmp-")] if root.is_dir() else []
    return {json.loads(p.read_text())["meta"]["unit_id"] for p in entries}


def test_sigkill_mid_run_then_resume_loses_nothing_duplicates_nothing_resends_nothing(workspace):
    units = many_add_units(12)
    names = {u["unit_id"]: u["name"] for u in units}
    with Store(workspace) as store:
        put_units(store, units)
    env = {**os.environ, "OPENAI_API_KEY": "test-key", "NO_COLOR": "1"}
    with ChatServer(latency=0.25) as srv:
        proc = subprocess.Popen(
            _cmd(workspace, srv.url, "--concurrency", "2"),
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while len(srv.answered()) < 7 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.1)  # land somewhere between answers
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert 7 <= len(srv.answered()) < 12, "the kill must come mid-run"
        cached_after_kill = {names[u] for u in _cached_units(workspace)}
        with Store(workspace) as store:
            stored_after_kill = {r["unit_id"] for r in store.rows("SELECT unit_id FROM annotations")}
        first_run_requests = len(srv.log)

        res = subprocess.run(
            _cmd(workspace, srv.url, "--concurrency", "2"),
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert res.returncode == 0, res.stderr
        resumed = [e["unit"] for e in srv.log[first_run_requests:]]

    with Store(workspace) as store:
        rows = store.rows("SELECT unit_id, sample_index, status FROM annotations")
    assert len(rows) == 12 and {r["unit_id"] for r in rows} == set(names)  # nothing lost
    assert len({(r["unit_id"], r["sample_index"]) for r in rows}) == 12  # nothing duplicated
    assert all(r["status"] == "ok" for r in rows)
    # rows are flushed in small batches: whatever was stored before the kill has its answer in the cache
    assert {names[u] for u in stored_after_kill} <= cached_after_kill
    assert not set(resumed) & cached_after_kill  # no completed request re-sent
    assert sorted(resumed) == sorted(set(names.values()) - cached_after_kill)


def test_api_key_from_the_environment_never_reaches_store_cache_or_output(workspace):
    secret = "sk-cotbuilder-test-" + os.urandom(8).hex()
    with Store(workspace) as store:
        put_units(store, many_add_units(2))
    env = {**os.environ, "MY_TEACHER_KEY": secret, "NO_COLOR": "1"}
    env.pop("OPENAI_API_KEY", None)
    with ChatServer() as srv:
        # A server that echoes the key in its error messages: the errors end up in the stats and the runs table.
        srv.script = [Reply(status=500, error=f"upstream rejected key {secret}")] * 2
        res = subprocess.run(
            _cmd(workspace, srv.url, "--api-key-env", "MY_TEACHER_KEY", "--concurrency", "1", "--max-retries", "1"),
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        again = subprocess.run(
            _cmd(workspace, srv.url, "--api-key-env", "MY_TEACHER_KEY"),
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert res.returncode == 1 and again.returncode == 0, res.stderr + again.stderr
    assert srv.log[0]["auth"] == f"Bearer {secret}"  # the key was really used
    with Store(workspace) as store:
        assert store.count("annotations") == 2
        errors = store.rows("SELECT errors FROM runs WHERE errors::VARCHAR LIKE '%upstream rejected%'")
        assert errors and "[redacted]" in str(errors)
    needle = secret.encode()
    for path in workspace.rglob("*"):
        if path.is_file():
            assert needle not in path.read_bytes(), f"key leaked into {path}"
    for text in (res.stdout, res.stderr, again.stdout, again.stderr):
        assert secret not in text
    assert len(ResponseCache(workspace / "cache" / "annotate")) == 2
