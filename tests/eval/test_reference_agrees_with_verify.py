"""`cotbuilder eval --teacher reference` and `cotbuilder verify` judge the same benchmark answers alike, task by task
(issue 15): the eval path (task loader -> reward's Scorer) and the crawl path (crawl -> op-project unit -> verify
stage) must give every task the same status on the same emulator. Checked by benchmarks/compare_eval_verify.py,
which must also catch a disagreement when there is one.

The tree: the project's mini NPUKernelBench (three tasks without a pybind.cpp: both sides must name the gap, never
pass or fail the answer), the bench task written for the op-project harnesses (HardSigmoidCustom: passed) and its
hardware-wrong twin (0.25 added instead of 0.5, CRLF line ends: wrong_answer on both sides, the same bytes judged).
One test_cases.csv row each, to keep the builds and torch runs to what the comparison needs."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from cotbuilder.store import Store

from .conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
from compare_eval_verify import compare, main  # noqa: E402

MINI = REPO / "examples/benchmarks/npukernelbench-mini"
BENCH = REPO / "examples/op_project/bench"
HS = "tasks/level1/Activation/HardSigmoidCustom"
TWIN = "tasks/level1/Activation/HardSigmoidWrong"
EXPECTED = {
    "level1.ClampScalar": "unsupported",
    "level1.GreaterEqual": "unsupported",
    "level1.Softsign": "unsupported",
    "level1.HardSigmoidCustom": "passed",
    "level1.HardSigmoidWrong": "wrong_answer",
}


def _tree(root: Path) -> Path:
    shutil.copytree(MINI / "tasks", root / "tasks")
    shutil.copytree(BENCH / HS, root / HS)
    shutil.copytree(BENCH / HS, root / TWIN)
    for task in (HS, TWIN):
        csv = root / task / "validation/test_cases.csv"
        csv.write_text("\n".join(csv.read_text().splitlines()[:2]) + "\n")  # the header and the first row
    kernel = root / TWIN / "answer/0/op_kernel/hard_sigmoid_custom.cpp"
    text = kernel.read_text()
    assert "Adds(work, work, 0.5f, len)" in text
    wrong = text.replace("Adds(work, work, 0.5f, len)", "Adds(work, work, 0.25f, len)")
    kernel.write_bytes(wrong.replace("\n", "\r\n").encode())  # CRLF, as some real answers: both sides keep it
    return root


def _workspace(path: Path, shared_cache: Path) -> Path:
    (path / "cache").mkdir(parents=True)
    (path / "cache" / "verify").symlink_to(shared_cache, target_is_directory=True)
    return path


def test_reference_eval_and_verify_give_every_task_the_same_status(cli, tmp_path, shared_build_cache, capsys):
    tree = _tree(tmp_path / "nkb")
    ev = _workspace(tmp_path / "ev", shared_build_cache)
    vf = _workspace(tmp_path / "vf", shared_build_cache)
    res = cli("eval", "--teacher", "reference", "--benchmark", f"npukernelbench={tree}", workspace=ev)
    assert res.returncode == 0, res.stdout + res.stderr
    res = cli("crawl", "--source", str(tree), workspace=vf)
    assert res.returncode == 0, res.stdout + res.stderr
    res = cli("verify", "--no-progress", workspace=vf)
    assert res.returncode == 0, res.stdout + res.stderr

    c = compare(ev, vf)
    assert c.eval_backends == c.verify_backends and len(c.eval_backends) == 1  # one emulator version on both sides
    assert c.disagree == [] and c.only_eval == [] and c.only_verify == []
    assert c.differing_answers == []  # the two sides judged the same files
    assert sorted(c.agree) == sorted(EXPECTED)
    assert c.pairs == {("unsupported", "unsupported"): 3, ("passed", "passed"): 1, ("wrong_answer", "wrong_answer"): 1}
    with Store(ev, read_only=True) as store:
        statuses = {r["task_name"]: r["status"] for r in store.rows("SELECT task_name, status FROM samples")}
    assert statuses == EXPECTED  # agreement on the right verdicts, not on a shared failure
    assert main([str(ev), str(vf)]) == 0
    assert "| passed | passed | 1 |" in capsys.readouterr().out

    # the check can fail: one side's verdict changed -> a disagreement, listed with both reasons, exit 1
    tampered = tmp_path / "vf-tampered"
    tampered.mkdir()
    shutil.copy(vf / "store.duckdb", tampered / "store.duckdb")
    with Store(tampered) as store:
        store.execute(
            "UPDATE verifications SET status = 'passed', reason = 'tampered' WHERE unit_id IN "
            "(SELECT unit_id FROM units WHERE root LIKE '%HardSigmoidWrong/answer/0')"
        )
    c = compare(ev, tampered)
    assert [(d["task"], d["eval"], d["verify"], d["verify_reason"]) for d in c.disagree] == [
        ("level1.HardSigmoidWrong", "wrong_answer", "passed", "tampered")
    ]
    assert c.disagree[0]["eval_reason"]  # the eval side's own reason is shown beside it
    assert main([str(ev), str(tampered)]) == 1
    out = capsys.readouterr().out
    assert "level1.HardSigmoidWrong" in out and "verify passed: tampered" in out


def test_a_workspace_without_a_store_or_reference_samples_is_refused(tmp_path, capsys):
    assert main([str(tmp_path / "none"), str(tmp_path / "none")]) == 2
    assert "has no store" in capsys.readouterr().err
    empty = tmp_path / "empty"
    with Store(empty) as store:
        store.execute("SELECT 1")
    assert main([str(empty), str(empty)]) == 2
    assert "no eval sample of the reference teacher" in capsys.readouterr().err
