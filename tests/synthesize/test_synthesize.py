"""`cotbuilder synthesize` against a real OpenAI-protocol server on 127.0.0.1 (scripted candidates and repairs), every
candidate really built and run on the emulator: exactly the verified answers are kept, repairs whose fixed code
passes become error-correction samples, and benchmark tasks are refused."""

from __future__ import annotations

import json
from pathlib import Path

from cotbuilder.reward import Scorer
from cotbuilder.tasks.toml_loader import load_folder

from ..conftest import link_run_pch
from .conftest import eval_fixtures, scripted_server

ADD_RIGHT, RELU_WRONG, REPO, SCRIPT = (eval_fixtures.ADD_RIGHT, eval_fixtures.RELU_WRONG, eval_fixtures.REPO,
                                       eval_fixtures.SCRIPT)  # fmt: skip
write_task_folder, ScriptedTeacher = eval_fixtures.write_task_folder, scripted_server.ScriptedTeacher

MINI = REPO / "examples/benchmarks/npukernelbench-mini"
# add_fp16's failing candidates (compile error, wrong answer) are repaired with the right kernel; relu_fp16's wrong
# candidate gets a "fix" that is still wrong.
REPAIRS = {"add_fp16": "The Add call was wrong; fixed:\n" + ADD_RIGHT, "relu_fp16": RELU_WRONG}


def _query(cli, ws: Path, sql: str) -> list[dict]:
    out = cli("query", sql, "--json", workspace=ws)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def _fresh_cache(tmp_path: Path, shared: Path) -> Path:
    """An empty score and build cache on the run's precompiled header: the answer is built and run again."""
    root = tmp_path / "fresh-cache"
    link_run_pch(root / "verify", shared)
    return root


def test_keeps_exactly_the_verified_candidates_and_repairs_that_really_pass(
    cli, workspace, task_folder, tmp_path, shared_build_cache
):
    with ScriptedTeacher(SCRIPT, repairs=REPAIRS) as server:
        result = cli("synthesize", "--teacher", "scripted-model", "--base-url", server.base_url, "--tasks",
                     str(task_folder), "-n", "4", "--repair-rounds", "1", "-b", f"mini={MINI}", workspace=workspace)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    samples = _query(cli, workspace, "SELECT sample_id, task_name, sample_index, round, parent_sample_id, status, code "
                                     "FROM samples ORDER BY task_name, sample_index, round")  # fmt: skip
    assert [(s["task_name"], s["sample_index"], s["round"], s["status"]) for s in samples] == [
        ("add_fp16", 0, 0, "passed"),
        ("add_fp16", 1, 0, "failed_compile"),
        ("add_fp16", 1, 1, "passed"),  # repaired
        ("add_fp16", 2, 0, "wrong_answer"),
        ("add_fp16", 2, 1, "passed"),  # repaired
        ("add_fp16", 3, 0, "unparseable"),  # nothing to repair
        ("relu_fp16", 0, 0, "passed"),
        ("relu_fp16", 1, 0, "passed"),
        ("relu_fp16", 2, 0, "wrong_answer"),
        ("relu_fp16", 2, 1, "wrong_answer"),  # the "fix" still fails: not a repair sample
        ("relu_fp16", 3, 0, "unparseable"),
    ]
    by_id = {s["sample_id"]: s for s in samples}
    repairs = [s for s in samples if s["round"] > 0 and s["status"] == "passed"]
    assert len(repairs) == 2
    for fixed in repairs:  # broken code -> fixed code, the broken one really failed
        assert by_id[fixed["parent_sample_id"]]["status"] in ("failed_compile", "wrong_answer")
    # the fixed code really passes: scored again, from scratch, by a scorer with an empty score cache
    tasks = {t.name: t for t in load_folder(task_folder)[0]}
    fresh = Scorer(_fresh_cache(tmp_path, shared_build_cache))
    distinct = {json.dumps(f["code"], sort_keys=True): f for f in repairs}.values()  # both repairs are one kernel
    for fixed in distinct:
        score = fresh.score(fixed["code"], tasks[fixed["task_name"]])
        assert (score.status, score.cached) == ("passed", False)
    # kept: exactly the distinct passing answers (add: the right kernel, its repairs are the same code; relu: one)
    units = _query(cli, workspace, "SELECT u.unit_id, u.name, u.layout, u.files, v.status FROM units u "
                                   "JOIN verifications v USING (unit_id) ORDER BY u.name")  # fmt: skip
    assert [(u["name"], u["layout"], u["status"]) for u in units] == [
        ("add_fp16", "synthesized", "passed"),
        ("relu_fp16", "synthesized", "passed"),
    ]
    passing_code = {json.dumps(s["code"], sort_keys=True) for s in samples if s["status"] == "passed"}
    failing_code = {json.dumps(s["code"], sort_keys=True) for s in samples if s["status"] != "passed" and s["code"]}
    for u in units:  # the answer, and the spec of the task's case it was verified with (so verify can re-run it)
        files = {f["path"]: f["text"] for f in u["files"]}
        assert "[reference]" in files.pop("verify_spec.toml")
        code = json.dumps(files, sort_keys=True)
        assert code in passing_code and code not in failing_code
    # their source is the teacher: one sources row the dataset card can list, naming the model and its server
    sources = _query(cli, workspace, "SELECT DISTINCT s.kind, s.url, s.status FROM units u "
                                     "JOIN sources s USING (source_id)")  # fmt: skip
    assert sources == [{"kind": "synthesized", "url": f"synthesize:scripted-model@{server.base_url.rstrip('/')}",
                        "status": "ok"}]  # fmt: skip


def test_refuses_a_task_that_decontamination_matches_to_a_benchmark(cli, workspace, tmp_path):
    folder = write_task_folder(tmp_path / "tasks", ("add_fp16",))
    # a task whose statement is a benchmark's own task description
    leaked = tmp_path / "tasks" / "softsign_leak"
    leaked.mkdir()
    desc = (MINI / "tasks/level1/Activation/Softsign/api_desc.md").read_text(encoding="utf-8")
    toml = (folder / "add_fp16" / "task.toml").read_text(encoding="utf-8")
    start, end = toml.index("[statement]"), toml.index("[kernel]")
    (leaked / "task.toml").write_text(toml[:start] + "[statement]\nen = " + json.dumps(desc) + "\n\n" + toml[end:])
    result = cli("synthesize", "--tasks", str(folder), "-n", "1", "-b", f"mini={MINI}", workspace=workspace)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout + result.stderr
    assert "refused (benchmark task): softsign_leak: matches mini task level1/Activation/Softsign" in out
    names = _query(cli, workspace, "SELECT DISTINCT task_name FROM samples")
    assert names == [{"task_name": "add_fp16"}]
    # only benchmark tasks: the run refuses, exit 2, nothing stored
    only = cli(
        "synthesize", "--tasks", str(folder), "--task", "softsign_leak", "-b", f"mini={MINI}", workspace=workspace
    )
    assert only.returncode == 2
    assert "every task is a benchmark task" in only.stdout + only.stderr
    assert _query(cli, workspace, "SELECT count(*) AS n FROM samples WHERE task_name = 'softsign_leak'") == [{"n": 0}]


def test_refuses_tasks_loaded_from_a_benchmark_tree(cli, workspace, tmp_path):
    # a benchmark's own tasks, loaded by its loader, are refused whatever --benchmark says
    from cotbuilder.tasks.npukernelbench import load_npukernelbench

    tasks, _ = load_npukernelbench(MINI)
    assert tasks
    store_ws = workspace
    loaded = cli("tasks", str(MINI), "--from", "npukernelbench", workspace=store_ws)
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr
    result = cli("synthesize", "-n", "1", workspace=store_ws)
    assert result.returncode == 2
    assert "loaded from the benchmark npukernelbench" in result.stdout + result.stderr


def test_repair_chains_publish_as_repair_rows_whose_fix_is_a_verified_unit(
    cli, workspace, task_folder, tmp_path, shared_build_cache
):
    """synthesize's repair chains go through the mutants' kind="repair" shape: one row per failing answer whose repair
    passed and is a kept unit; relu_fp16's "fix" that is still wrong is never emitted. `push` (local) publishes them
    beside the cot rows, the broken code and the verifier's feedback in the user turn, the verified fix in the
    answer."""
    import polars as pl

    config = tmp_path / "synthesize.toml"  # the licence of what the teacher writes (push publishes allowed ones only)
    config.write_text('license = "Apache-2.0"\n', encoding="utf-8")
    with ScriptedTeacher(SCRIPT, repairs=REPAIRS) as server:
        result = cli("synthesize", "--teacher", "scripted-model", "--base-url", server.base_url, "--tasks",
                     str(task_folder), "-n", "4", "--repair-rounds", "1", "-b", f"mini={MINI}", "--config", str(config),
                     workspace=workspace)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "repair pairs (kind=repair rows)" in result.stdout + result.stderr
    pairs = _query(cli, workspace, "SELECT m.*, s.status AS fix_status, s.parent_sample_id, s.code AS fix_code, "
                                   "b.status AS broken_sample_status, b.code AS broken_sample_code, u.name, u.files, "
                                   "v.status AS unit_status FROM mutants m JOIN samples s USING (sample_id) "
                                   "JOIN samples b ON b.sample_id = s.parent_sample_id JOIN units u ON u.unit_id = m.unit_id "
                                   "JOIN verifications v ON v.unit_id = m.unit_id "
                                   "WHERE m.origin = 'synthesize' ORDER BY m.status")  # fmt: skip
    assert [(p["name"], p["status"], p["kind"]) for p in pairs] == [
        ("add_fp16", "failed_compile", "teacher_answer"),
        ("add_fp16", "wrong_answer", "teacher_answer"),
    ]
    tasks = {t.name: t for t in load_folder(task_folder)[0]}
    fresh = Scorer(_fresh_cache(tmp_path, shared_build_cache))
    for p in pairs:
        assert p["fix_status"] == p["unit_status"] == "passed" and p["really_fails"]
        assert p["status"] == p["broken_sample_status"]
        # the fixed code is the unit's code, and it really passes (scored again from scratch)
        assert {f["path"]: f["text"] for f in p["files"] if f["path"] != "verify_spec.toml"} == p["fix_code"]
        assert fresh.score(p["fix_code"], tasks["add_fp16"]).status == "passed"
        # the broken file and the line the fix changes come from the failing answer
        assert p["broken_code"] in p["broken_sample_code"].values()
        assert ("Addd(" if p["status"] == "failed_compile" else "Sub(") in p["after"]
        assert p["before"].startswith("Add(") and p["feedback"].startswith(f"status: {p['status']}")
        assert [s["step"] for s in p["rationale"]] == ["feedback", "locate", "fix"]
        # the teacher's own words about its fix, without its code
        assert p["rationale"][2]["text"] == "The Add call was wrong; fixed:\nHere is the kernel."
    assert _query(cli, workspace, "SELECT count(*) AS n FROM mutants WHERE unit_id IN "
                                  "(SELECT unit_id FROM units WHERE name = 'relu_fp16')") == [{"n": 0}]  # fmt: skip

    for verb in (("annotate", "--teacher", "static"), ("dedup",), ("decontaminate", "-b", f"mini={MINI}")):
        done = cli(*verb, workspace=workspace)
        assert done.returncode == 0, done.stdout + done.stderr
    out = tmp_path / "dataset"
    pushed = cli("push", "--local-dir", str(out), workspace=workspace)
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    rows = pl.read_parquet(sorted((out / "data" / "messages").glob("*.parquet"))).to_dicts()
    repairs = sorted((r for r in rows if r["kind"] == "repair"), key=lambda r: r["repair"]["broken_status"])
    assert [(r["name"], r["repair"]["mutation"], r["repair"]["broken_status"]) for r in repairs] == [
        ("add_fp16", "teacher_answer", "failed_compile"),
        ("add_fp16", "teacher_answer", "wrong_answer"),
    ]
    for row, pair in zip(repairs, pairs, strict=True):
        assert row["id"] == pair["unit_id"] and row["verification"]["status"] == "passed"
        assert row["teacher"]["model"] == "synthesize-repair"
        user, answer = row["messages"][0]["content"], row["messages"][1]["content"]
        assert pair["broken_code"].strip() in user and f"status: {pair['status']}" in user
        assert row["kernel_code"].strip() in answer and pair["broken_code"].strip() not in answer
    assert "Abs(yLocal" not in "\n".join(str(r["messages"]) for r in rows)  # relu's still-wrong "fix": nowhere
