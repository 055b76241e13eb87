"""annotate against a real OpenAI-compatible HTTP server on 127.0.0.1 (tests/annotate/chat_server.py), in-process.

Covers the protocol cases: success, json_schema honoured, malformed JSON then a valid retry, 429 + Retry-After, 500s,
timeouts, finish_reason=length, a refusal, the budget stop, structured-output fallback, and zero requests from cache.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from chat_server import ChatServer, Reply, good_answer  # noqa: E402
from units import add_unit, many_add_units, put_units  # noqa: E402

from cotbuilder.annotate.config import AnnotateConfig  # noqa: E402
from cotbuilder.annotate.stage import run  # noqa: E402
from cotbuilder.store import Store  # noqa: E402


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


@pytest.fixture(autouse=True)
def _fake_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-not-secret")


def _annotate(store: Store, server: ChatServer, **kw):
    cfg = {
        "teacher": "gpt-4o-mini",
        "base_url": server.url,
        "concurrency": 2,
        "progress": False,
        "retry_base": 0.05,
        **kw,
    }
    return run(store, AnnotateConfig(**{"all_units": True, **cfg}))


def _rows(store: Store):
    return store.rows("SELECT * FROM annotations ORDER BY unit_id")


def test_success_writes_rows_with_usage_cost_teacher_and_gates(workspace, server):
    with Store(workspace) as store:
        put_units(store, many_add_units(2))
        stats = _annotate(store, server)
        rows = _rows(store)
    assert stats.counts["kept"] == 2 and stats.counts["failed"] == 0
    assert len(server.log) == 2
    for r in rows:
        assert r["status"] == "ok" and r["task"].startswith("Write an AscendC kernel")
        assert [s["step"] for s in r["rationale"]][:2] == ["operator_analysis", "multi_core_split"]
        assert r["usage"]["prompt_tokens"] == 1000 and r["usage"]["completion_tokens"] == 500
        assert r["cost_usd"] == pytest.approx((1000 * 0.15 + 500 * 0.60) / 1e6)
        assert r["teacher"]["provider"] == "openai-compatible" and r["teacher"]["model"] == "gpt-4o-mini"
        assert r["teacher"]["prompt_version"] == "annotate-en-v2"
        assert set(r["gates"]) == {
            "api_names_exist_and_used",
            "numbers_match_facts",
            "numbers_supported",
            "exact_statement",
            "no_code_paste",
            "length_bounds",
            "language_matches",
            "task_has_no_code",
            "claims_match_code",
        }
        # the add units' generator never calls its golden function: no exact statement, the one gate that fails
        assert [k for k, v in r["gates"].items() if not v["passed"]] == ["exact_statement"], r["gates"]
        # (read as a program, the generator writes no golden at its top level either)
        assert r["gates"]["exact_statement"]["detail"] == (
            "no exact statement: program: no golden written at the top level of the generator"
        )
        assert len(r["raw_response_hash"]) == 64


def test_request_carries_the_json_schema_response_format(workspace, server):
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        _annotate(store, server)
    fmt = server.log[0]["body"]["response_format"]
    assert fmt["type"] == "json_schema"
    schema = fmt["json_schema"]["schema"]
    assert schema["required"] == ["task", "rationale"]
    assert "operator_analysis" in schema["properties"]["rationale"]["items"]["properties"]["step"]["enum"]
    prompt = server.log[0]["body"]["messages"][1]["content"]
    assert "Device code:" in prompt and "AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);" in prompt
    assert "Example answer:" in prompt and "relu_custom" in prompt  # the worked example from our own code


def test_server_rejecting_json_schema_falls_back_to_json_object(workspace):
    with ChatServer(reject_json_schema=True) as srv, Store(workspace) as store:
        put_units(store, [add_unit()])
        stats = _annotate(store, srv)
        assert _rows(store)[0]["status"] == "ok"
    assert [e["status"] for e in srv.log] == [400, 200]
    assert srv.log[1]["body"]["response_format"] == {"type": "json_object"}
    assert stats.counts["kept"] == 1


def test_malformed_json_is_answered_with_the_error_and_a_valid_retry_is_kept(workspace, server):
    server.script = [Reply(content='Sure! {"task": "add", "rationale": [')]
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        _annotate(store, server)
        row = _rows(store)[0]
    assert row["status"] == "ok" and row["usage"]["requests"] == 2
    follow_up = server.log[1]["body"]["messages"]
    assert [m["role"] for m in follow_up] == ["system", "user", "assistant", "user"]
    assert "invalid" in follow_up[3]["content"] and "JSON" in follow_up[3]["content"]


def test_answer_invalid_after_every_follow_up_is_stored_failed_with_the_reason(workspace, server):
    bad = json.dumps({"task": "x", "rationale": [{"step": "made_up_step", "title": "t", "text": "t"}]})
    server.script = [Reply(content=bad)] * 3
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        stats = _annotate(store, server, fix_attempts=2)
        row = _rows(store)[0]
    assert len(server.log) == 3
    assert row["status"] == "failed" and row["failure_reason"].startswith("invalid answer after 3 attempt(s)")
    assert "made_up_step" in row["failure_reason"] and row["gates_passed"] is False
    assert stats.counts["failed"] == 1


def test_fenced_json_after_prose_is_parsed_without_a_follow_up(workspace, server):
    server.script = [Reply(content="Here is the annotation:\n```json\n" + good_answer("add_custom") + "\n```\n")]
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        _annotate(store, server)
        assert _rows(store)[0]["status"] == "ok"
    assert len(server.log) == 1


def test_429_waits_exactly_the_retry_after_seconds_then_succeeds(workspace, server):
    server.script = [Reply(status=429, headers={"Retry-After": "1"})]
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        stats = _annotate(store, server, concurrency=1)
        assert _rows(store)[0]["status"] == "ok"
    # the wait the policy chose is exactly the header's; the server saw the retry no sooner (no upper bound on the
    # clock: a loaded machine may take longer, which is not what this test is about)
    assert stats.counts["retry_wait_s"] == 1.0 and stats.counts["retries"] == 1
    assert server.log[1]["t"] - server.log[0]["t"] >= 1.0


def test_5xx_are_retried_with_backoff_until_success(workspace, server):
    server.script = [Reply(status=500), Reply(status=502), Reply(status=503)]
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        stats = _annotate(store, server, concurrency=1)
        assert _rows(store)[0]["status"] == "ok"
    assert [e["status"] for e in server.log] == [500, 502, 503, 200]
    assert stats.counts["retries"] == 3


def test_persistent_5xx_fails_the_item_without_a_row_so_a_rerun_tries_again(workspace, server):
    server.script = [Reply(status=500)] * 3
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        stats = _annotate(store, server, max_retries=2)
        assert stats.counts["failed"] == 1 and store.count("annotations") == 0
        assert "failed: teacher unreachable (retries exhausted)" in stats.reasons
        again = _annotate(store, server, max_retries=2)
        assert again.counts["kept"] == 1 and store.count("annotations") == 1


def test_timeout_is_retried(workspace, server):
    server.script = [Reply(delay=2.0)]
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        stats = _annotate(store, server, timeout=0.5, concurrency=1)
        assert _rows(store)[0]["status"] == "ok"
    assert len(server.log) == 2 and stats.counts["retries"] == 1


def test_finish_reason_length_is_stored_failed_and_not_retried(workspace, server):
    server.script = [Reply(content='{"task": "Write an AscendC', finish_reason="length")]
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        _annotate(store, server, max_tokens=64)
        row = _rows(store)[0]
    assert len(server.log) == 1
    assert row["status"] == "failed" and row["failure_reason"] == "truncated: finish_reason=length (max_tokens=64)"


def test_refusal_is_stored_failed_and_not_retried(workspace, server):
    server.script = [Reply(refusal="I can't help with that.")]
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        _annotate(store, server)
        row = _rows(store)[0]
    assert len(server.log) == 1
    assert row["status"] == "failed" and row["failure_reason"] == "refused: I can't help with that."


def test_budget_stops_cleanly_with_whole_records_and_says_so(workspace):
    # gpt-4o: 1000 in + 1000 out = $0.0125 per answer; $0.045 allows 4 answers (the 4th crosses the line).
    with ChatServer(usage={"prompt_tokens": 1000, "completion_tokens": 1000}) as srv, Store(workspace) as store:
        put_units(store, many_add_units(8))
        stats = _annotate(store, srv, teacher="gpt-4o", max_cost=0.045, concurrency=1)
        rows = _rows(store)
        assert len(srv.log) == 4 and len(rows) == 4
        assert all(r["status"] == "ok" and r["rationale"] for r in rows)
        assert stats.reasons["skipped: stopped: budget"] == 4
        assert stats.counts["cost_usd"] == pytest.approx(0.05)
        more = _annotate(store, srv, teacher="gpt-4o", max_cost=1.0, concurrency=1)
        assert more.counts["kept"] == 4 and store.count("annotations") == 8


def test_rerun_after_losing_the_rows_sends_zero_requests(workspace, server):
    with Store(workspace) as store:
        put_units(store, many_add_units(3))
        _annotate(store, server)
        first = {r["annotation_id"]: r["raw_response_hash"] for r in _rows(store)}
        sent = len(server.log)
        store.execute("DELETE FROM annotations")
        stats = _annotate(store, server)
        assert {r["annotation_id"]: r["raw_response_hash"] for r in _rows(store)} == first
    assert len(server.log) == sent == 3
    assert stats.counts["requests_sent"] == 0 and stats.counts["cache_hits"] == 3


def test_samples_and_language_make_separate_annotations(workspace, server):
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        _annotate(store, server, samples=2, temperature=0.8)
        rows = _rows(store)
    assert sorted(r["sample_index"] for r in rows) == [0, 1]
    assert len({r["annotation_id"] for r in rows}) == 2 and len(server.log) == 2
