"""`cotbuilder eval` against a real OpenAI-protocol server on 127.0.0.1 answering scripted samples (a right answer, a
compile error, a wrong answer, an unparseable reply), every answer really built and run on the emulator."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cotbuilder.eval.passk import pass_at_k

from .conftest import REPO, SCRIPT
from .scripted_server import ScriptedTeacher


def _eval_args(server: ScriptedTeacher, tasks: Path, *extra: str) -> list[str]:
    return ["eval", "--teacher", "scripted-model", "--base-url", server.base_url, "--tasks", str(tasks), *extra]


def _samples(cli, ws: Path) -> list[dict]:
    out = cli("query", "SELECT task_name, sample_index, status, parse_ok, compiled, score_cached, created_at "
              "FROM samples ORDER BY task_name, sample_index", "--json", workspace=ws)  # fmt: skip
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_pass_at_k_is_the_unbiased_estimator():
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)
    assert pass_at_k(4, 1, 2) == pytest.approx(1 - 3 / 6)  # 1 - C(3,2)/C(4,2)
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - 21 / 252)  # 1 - C(7,5)/C(10,5)
    assert pass_at_k(4, 0, 4) == 0.0
    assert pass_at_k(4, 3, 2) == 1.0  # fewer than k failures: every draw of k holds a pass
    assert pass_at_k(2, 1, 3) is None  # k > n: not estimable
    with pytest.raises(ValueError):
        pass_at_k(2, 3, 1)


def test_scripted_samples_get_their_verdicts_and_pass_at_k_matches_a_hand_computation(cli, workspace, task_folder):
    with ScriptedTeacher(SCRIPT) as server:
        result = cli(*_eval_args(server, task_folder, "-n", "4", "-k", "1,2"), workspace=workspace)
        asked = sum(server.requests.values())
        # an unchanged re-run (same server: its address is part of the teacher's identity) plans nothing, asks nothing
        rerun = cli(*_eval_args(server, task_folder, "-n", "4", "-k", "1,2"), workspace=workspace)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert asked == 8 and sum(server.requests.values()) == 8
    assert "correct@1 37.5%" in rerun.stdout + rerun.stderr
    assert result.returncode == 0, result.stdout + result.stderr
    rows = _samples(cli, workspace)
    assert [(r["task_name"], r["sample_index"], r["status"]) for r in rows] == [
        ("add_fp16", 0, "passed"),
        ("add_fp16", 1, "failed_compile"),
        ("add_fp16", 2, "wrong_answer"),
        ("add_fp16", 3, "unparseable"),
        ("relu_fp16", 0, "passed"),
        ("relu_fp16", 1, "passed"),
        ("relu_fp16", 2, "wrong_answer"),
        ("relu_fp16", 3, "unparseable"),
    ]
    # relu #1 is relu #0's code in other words: verified once, its verdict read from the score cache
    assert [r["score_cached"] for r in rows] == [False] * 5 + [True, False, False]
    report = json.loads((workspace / "reports" / "eval-scripted-model.json").read_text())
    by_task = {r["task"]: r for r in report["by_task"]}
    # By hand, n = 4 per task. add: parse c=3, compile c=2, correct c=1. relu: parse 3, compile 3, correct 2.
    # pass@1 = c/n; pass@2 = 1 - C(n-c,2)/C(4,2) with C(4,2) = 6: c=1 -> 1-3/6, c=2 -> 1-1/6, c>=3 -> 1.
    add, relu = by_task["add_fp16"], by_task["relu_fp16"]
    assert (add["parse@1"], add["compile@1"], add["correct@1"]) == (0.75, 0.5, 0.25)
    assert (add["parse@2"], add["compile@2"], add["correct@2"]) == pytest.approx((1.0, 5 / 6, 0.5))
    assert (relu["parse@1"], relu["compile@1"], relu["correct@1"]) == (0.75, 0.75, 0.5)
    assert (relu["parse@2"], relu["compile@2"], relu["correct@2"]) == pytest.approx((1.0, 1.0, 5 / 6))
    everything = next(r for r in report["by_level"] if r["level"] == "all")
    assert everything["correct@1"] == pytest.approx((0.25 + 0.5) / 2)
    assert everything["correct@2"] == pytest.approx((0.5 + 5 / 6) / 2)
    assert "all: 2 tasks, correct@1 37.5%" in result.stdout + result.stderr


def test_resume_after_sigkill_loses_no_sample_and_verifies_none_twice(cli, workspace, task_folder):
    cmd = [sys.executable, "-m", "cotbuilder.cli", "--workspace", str(workspace)]
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    with ScriptedTeacher(SCRIPT, delay=0.5) as server:
        proc = subprocess.Popen(cmd + _eval_args(server, task_folder, "-n", "4"), cwd=REPO, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
        deadline = time.monotonic() + 300
        while sum(server.requests.values()) < 6 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, "eval ended before it could be killed"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        killed_at = time.time_ns()
        before = {p: p.stat().st_mtime_ns for p in (workspace / "cache" / "reward").rglob("*.json")}
        committed = _samples(cli, workspace) if (workspace / "store.duckdb").exists() else []
        asked_before = sum(server.requests.values())
        resumed = cli(*_eval_args(server, task_folder, "-n", "4"), workspace=workspace)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    rows = _samples(cli, workspace)
    # nothing lost: every (task, sample) once
    assert sorted((r["task_name"], r["sample_index"]) for r in rows) == [
        (t, i) for t in ("add_fp16", "relu_fp16") for i in range(4)
    ]
    assert len(before) >= 3, "the kill came before any verdict was computed: the test proves nothing"
    # nothing verified twice: every verdict computed before the kill was read back, never computed again
    for path, mtime in before.items():
        assert path.stat().st_mtime_ns == mtime, f"{path.name} was recomputed after the kill"
    assert all(p.stat().st_mtime_ns < killed_at for p in before)
    # rows committed before the kill were not redone
    assert {(r["task_name"], r["sample_index"], r["created_at"]) for r in committed} <= {
        (r["task_name"], r["sample_index"], r["created_at"]) for r in rows
    }
    # answers received before the kill came from the response cache: only the request in flight was sent again
    assert sum(server.requests.values()) - asked_before <= 8 - asked_before + 1
    assert sum(n - 1 for n in server.requests.values() if n > 1) <= 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-n", "2", "-k", "1,5"], "-k 5 needs at least 5 samples"),
        (["-k", "one"], "-k must be comma-separated integers"),
        (["--benchmark", "kernelbench=/nowhere"], "no task loader for benchmark 'kernelbench'"),
        (["--task", "no-such-*"], "no task matches"),
    ],
)
def test_bad_usage_is_refused_with_one_line_and_exit_2(cli, workspace, task_folder, args, message):
    result = cli("eval", "--tasks", str(task_folder), *args, workspace=workspace)
    assert result.returncode == 2
    assert message in result.stdout + result.stderr
