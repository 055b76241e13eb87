"""The static (offline) teacher: deterministic, truthful to the parsed facts, passes every gate on every demo unit,
mentions verification only when a verification passed, and refuses --repair (exit 2, one line)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from units import add_unit, leaky_relu_op_unit, put_units  # noqa: E402

from cotbuilder.annotate.config import AnnotateConfig  # noqa: E402
from cotbuilder.annotate.stage import run  # noqa: E402
from cotbuilder.store import Store, utcnow  # noqa: E402


def _verification(unit_id: str, status: str) -> dict:
    return {
        "verification_id": hashlib.sha256(f"v:{unit_id}:{status}".encode()).hexdigest(),
        "unit_id": unit_id,
        "backend": "cpu-emulator",
        "backend_version": "0.1",
        "soc": "ascend910b",
        "source_hash": hashlib.sha256(unit_id.encode()).hexdigest(),
        "status": status,
        "cases": [{"seed": 0, "ok": status == "passed"}, {"seed": 1, "ok": status == "passed"}],
        "diagnostics": [],
        "timings": {},
        "created_at": utcnow(),
    }


def test_static_teacher_is_deterministic_across_workspaces(tmp_path):
    answers = []
    for ws in (tmp_path / "a", tmp_path / "b"):
        with Store(ws) as store:
            put_units(store, [add_unit(), leaky_relu_op_unit()])
            stats = run(store, AnnotateConfig(all_units=True, progress=False))
            assert stats.counts["kept"] == 2
            answers.append(
                store.rows(
                    "SELECT annotation_id, task, rationale, raw_response_hash, cost_usd "
                    "FROM annotations ORDER BY annotation_id"
                )
            )
    assert answers[0] == answers[1]
    assert all(r["cost_usd"] == 0 for r in answers[0])


def test_verification_is_mentioned_only_when_it_passed(workspace):
    passed, failed = add_unit("add_ok"), add_unit("add_bad", suffix="bad")
    with Store(workspace) as store:
        put_units(store, [passed, failed])
        store.insert(
            "verifications",
            [_verification(passed["unit_id"], "passed"), _verification(failed["unit_id"], "wrong_answer")],
        )
        run(store, AnnotateConfig(all_units=True, progress=False))
        rows = {r["unit_id"]: r for r in store.rows("SELECT unit_id, rationale, gates_passed FROM annotations")}
    ok_steps = {s["step"]: s["text"] for s in rows[passed["unit_id"]]["rationale"]}
    assert (
        ok_steps["verification"] == "Verified on cpu-emulator for ascend910b with seeds 0 and 1: 2 cases, all passed."
    )
    assert "verification" not in {s["step"] for s in rows[failed["unit_id"]]["rationale"]}
    # gates_passed is False for both: their generator writes no golden, so they have no exact statement
    assert not any(r["gates_passed"] for r in rows.values())


def test_demo_corpus_every_unit_is_annotated_and_passes_every_gate(workspace, cli):
    """Runs the real crawl + parse of examples/ (crawlers/demo.toml) and the static teacher in both languages.
    Without verifications three units have no exact statement (a kernel UT whose generator arguments only its
    verified run records, a benchmark task whose tolerance comes from its verified case, a benchmark task whose cases
    give a list of shapes): only that gate fails for them."""
    crawl = cli("crawl", "--manifest", "crawlers/demo.toml", workspace=workspace)
    assert crawl.returncode == 0, crawl.stderr
    for lang in ("en", "zh"):
        res = cli("annotate", "--all", "--teacher", "static", "--lang", lang, "--no-progress", workspace=workspace)
        assert res.returncode == 0, res.stderr
    with Store(workspace) as store:
        units = store.count("units")
        assert units >= 10
        assert store.count("annotations", "lang = 'en'") == units == store.count("annotations", "lang = 'zh'")
        failing = store.rows(
            "SELECT u.name, a.lang, a.gates FROM annotations a JOIN units u USING (unit_id) "
            "WHERE a.status <> 'ok' OR NOT a.gates_passed"
        )
    assert {r["name"] for r in failing} <= {"AxpbyCustom", "HardSigmoidCustom", "ForeachMulScalarListCustom"}, failing
    for r in failing:
        bad = {k: v["detail"] for k, v in r["gates"].items() if not v["passed"]}
        assert list(bad) == ["exact_statement"] and bad["exact_statement"].startswith("no exact statement: "), bad


def test_rerun_with_the_same_config_does_nothing_and_says_so(workspace, cli):
    with Store(workspace) as store:
        put_units(store, [add_unit()])
    first = cli("annotate", "--all", "--no-progress", workspace=workspace)
    with Store(workspace) as store:
        before = store.rows("SELECT * FROM annotations")
    again = cli("annotate", "--all", "--no-progress", workspace=workspace)
    assert first.returncode == 0 and again.returncode == 0, again.stderr
    assert "skipped: already annotated" in again.stderr
    with Store(workspace) as store:
        assert store.rows("SELECT * FROM annotations") == before  # not rewritten (created_at included)
        last = store.rows("SELECT counts, reasons FROM runs WHERE stage = 'annotate' ORDER BY started_at DESC LIMIT 1")
    assert last[0]["counts"].get("kept", 0) == 0 and last[0]["reasons"] == {"skipped: already annotated": 1}


def test_repair_with_the_static_teacher_exits_2_with_one_line(workspace, cli):
    with Store(workspace) as store:
        put_units(store, [add_unit()])
    res = cli("annotate", "--teacher", "static", "--repair", workspace=workspace)
    assert res.returncode == 2
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "static teacher cannot repair" in lines[0]


def test_status_shows_annotation_token_and_cost_totals(workspace, cli, monkeypatch):
    from chat_server import ChatServer

    monkeypatch.setenv("OPENAI_API_KEY", "test-key-not-secret")
    with Store(workspace) as store, ChatServer(usage={"prompt_tokens": 1000, "completion_tokens": 500}) as srv:
        put_units(store, [add_unit(), leaky_relu_op_unit()])
        run(store, AnnotateConfig(all_units=True, progress=False, lang="zh"))  # static: free
        run(
            store, AnnotateConfig(all_units=True, teacher="gpt-4o-mini", base_url=srv.url, progress=False)
        )  # 2 x 1000 in + 500 out
    res = cli("status", workspace=workspace)
    assert res.returncode == 0, res.stderr
    rows = {r[0] + "/" + r[1]: r for r in _table_rows(res.stdout) if len(r) == 10}
    # teacher, lang, kind, annotations, publishable, failed, gates failed, prompt, completion, cost USD
    # the add unit's generator never calls its golden function: no exact statement, so it fails that gate
    assert rows["static:static/zh"][3:] == ["2", "1", "0", "1", "0", "0", "0.0000"]
    assert rows["openai-compatible:gpt-4o-mini/en"][3] == "2"
    assert rows["openai-compatible:gpt-4o-mini/en"][7:] == ["2000", "1000", "0.0009"]  # gpt-4o-mini price table
    assert rows["total/"][3] == "4" and rows["total/"][7:] == ["2000", "1000", "0.0009"]


def _table_rows(text: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in text.splitlines() if line.startswith("│")]
