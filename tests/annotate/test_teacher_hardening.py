"""The teacher server is untrusted: what it answers is checked before anything is cached, stored or published.

Against the real chat server on 127.0.0.1 (chat_server.py) scripted to misbehave: echo the API key and other
credentials in its answer, demand an hour-long Retry-After, answer 200 with an HTML page, broken JSON or negative
token counts, or an answer far over the size cap.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from chat_server import ChatServer, Reply, good_answer  # noqa: E402
from units import add_unit, many_add_units, put_units  # noqa: E402

from cotbuilder.annotate.config import AnnotateConfig  # noqa: E402
from cotbuilder.annotate.stage import run  # noqa: E402
from cotbuilder.store import Store  # noqa: E402

# An AWS key pair of AWS's own documentation, assembled so that this file does not trip secret scanners.
AWS_ID = "AKIA" + "IOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"


@pytest.fixture
def key(monkeypatch):
    secret = "sk-test-" + os.urandom(16).hex()
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    return secret


def _annotate(store: Store, url: str, **kw):
    cfg = {"teacher": "gpt-4o-mini", "base_url": url, "concurrency": 1, "progress": False, "retry_base": 0.05, **kw}
    return run(store, AnnotateConfig(**{"all_units": True, **cfg}))


def _workspace_bytes(workspace: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(workspace.rglob("*")) if p.is_file())


def test_credentials_echoed_in_an_answer_are_redacted_before_cache_and_store(workspace, key):
    leaky = json.loads(good_answer("add_custom"))
    leaky["rationale"][0]["text"] += f" (debug: authorised with {key}; aws_access_key_id = {AWS_ID})"
    leaky["rationale"][1]["text"] += f' The config said aws_secret_access_key = "{AWS_SECRET}".'
    with ChatServer() as srv, Store(workspace) as store:
        srv.script = [Reply(content=json.dumps(leaky))]
        put_units(store, [add_unit()])
        stats = _annotate(store, srv.url)
        row = store.rows("SELECT status, rationale FROM annotations")[0]
        url = srv.url
    assert row["status"] == "ok"
    text = json.dumps(row["rationale"])
    assert "<REDACTED:teacher_credential>" in text and "<REDACTED:AWS_Access_Key>" in text
    assert stats.counts["secrets_redacted"] >= 2
    blob = _workspace_bytes(workspace)
    for secret in (key, AWS_ID, AWS_SECRET):
        assert secret.encode() not in blob
    # the cached answer is the redacted one: a re-run from the cache stores the same redacted row
    with Store(workspace) as store:
        store.execute("DELETE FROM annotations")
        again = _annotate(store, url)  # the server is gone: only the cache can answer
        assert again.counts["cache_hits"] == 1 and again.counts["kept"] == 1
        assert json.dumps(store.rows("SELECT rationale FROM annotations")[0]["rationale"]) == text


def test_base_url_credentials_never_reach_runs_config_store_or_cache(workspace, key):
    with ChatServer() as srv, Store(workspace) as store:
        put_units(store, [add_unit()])
        host = srv.url.removeprefix("http://")
        url = f"http://teacher:pw-{key[-12:]}@{host}?api_key=qk-{key[-10:]}"
        stats = _annotate(store, url)
        config = store.rows("SELECT config FROM runs WHERE stage = 'annotate'")[0]["config"]
    assert stats.counts["kept"] == 1
    assert config["base_url"] == srv.url
    blob = _workspace_bytes(workspace)
    assert f"pw-{key[-12:]}".encode() not in blob and f"qk-{key[-10:]}".encode() not in blob


def test_an_hour_long_retry_after_is_cut_to_the_cap_and_counted(workspace, key):
    with ChatServer() as srv, Store(workspace) as store:
        srv.script = [Reply(status=429, headers={"Retry-After": "3600"})]
        put_units(store, [add_unit()])
        start = time.monotonic()
        stats = _annotate(store, srv.url, max_retry_after=0.5)
        elapsed = time.monotonic() - start
        assert store.rows("SELECT status FROM annotations")[0]["status"] == "ok"
    assert stats.counts["retry_wait_s"] == 0.5 and stats.counts["retry_after_capped"] == 1
    assert srv.log[1]["t"] - srv.log[0]["t"] >= 0.5
    assert elapsed < 120  # not the hour the server asked for


@pytest.mark.parametrize(
    "bad",
    [
        Reply(raw=b"<html><body>502 from the proxy, but with a 200 status</body></html>", content_type="text/html"),
        Reply(raw=b'{"choices": [{"message": {"content": "trunc'),
        Reply(raw=json.dumps({"choices": "none", "usage": {"prompt_tokens": "many"}}).encode()),
        Reply(usage={"prompt_tokens": -1_000_000, "completion_tokens": -1_000_000}),
    ],
    ids=["html_page", "broken_json", "wrong_shape", "negative_usage"],
)
def test_a_malformed_200_is_retried_and_never_stored(workspace, key, bad):
    with ChatServer() as srv, Store(workspace) as store:
        srv.script = [bad]
        put_units(store, [add_unit()])
        stats = _annotate(store, srv.url)
        rows = store.rows("SELECT status, usage, cost_usd FROM annotations")
    assert stats.counts["retries"] == 1 and stats.counts["kept"] == 1
    assert [r["status"] for r in rows] == ["ok"]
    assert rows[0]["usage"]["prompt_tokens"] == 1000 and rows[0]["cost_usd"] > 0  # only the good answer's usage


def test_a_server_that_keeps_answering_garbage_fails_its_items_and_the_run_goes_on(workspace, key):
    html = Reply(raw=b"<html>maintenance</html>", content_type="text/html")
    negative = Reply(usage={"prompt_tokens": -5, "completion_tokens": 0})
    with ChatServer() as srv, Store(workspace) as store:
        srv.script = [html, negative, html]  # the first unit's three attempts; the second unit is answered well
        put_units(store, many_add_units(2))
        stats = _annotate(store, srv.url, max_retries=2)
        assert store.count("annotations") == 1  # the failed item has no row: a re-run asks again
        assert stats.counts["failed"] == 1 and stats.counts["kept"] == 1
        assert stats.reasons["failed: teacher unreachable (retries exhausted)"] == 1
        assert stats.counts["cost_usd"] >= 0
        again = _annotate(store, srv.url)
        assert again.counts["kept"] == 1 and store.count("annotations") == 2


def test_an_answer_over_the_size_cap_is_rejected_not_cached_not_stored(workspace, key):
    marker = "HUGE-ANSWER-" + os.urandom(4).hex()
    with ChatServer() as srv, Store(workspace) as store:
        srv.script = [Reply(content=marker + "x" * 50_000)]
        put_units(store, [add_unit()])
        stats = _annotate(store, srv.url, max_answer_chars=20_000)
        row = store.rows("SELECT status, failure_reason, task, rationale, usage, cost_usd FROM annotations")[0]
    assert row["status"] == "failed" and row["task"] is None and row["rationale"] is None
    assert row["failure_reason"].startswith("too large: answer of 50")
    assert row["usage"]["prompt_tokens"] == 1000 and row["cost_usd"] > 0  # it was paid for
    assert stats.counts["rejected_too_large"] == 1 and stats.counts["failed"] == 1
    assert marker.encode() not in _workspace_bytes(workspace)


def test_a_body_far_over_the_cap_is_not_read_to_the_end(workspace, key):
    huge = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": "y" * 8_000_000}}]})
    with ChatServer() as srv, Store(workspace) as store:
        srv.script = [Reply(raw=huge.encode())]
        put_units(store, [add_unit()])
        _annotate(store, srv.url, max_answer_chars=1000)
        row = store.rows("SELECT status, failure_reason FROM annotations")[0]
    assert row["status"] == "failed" and "too large: response body of" in row["failure_reason"]
