"""NPUKernelBench trees as tasks: the benchmark's validation kept as given files, rows as cases, level and category
as tags; a task the loader cannot read is named. Trees here are the ones written in this repository."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cotbuilder.reward import Scorer
from cotbuilder.tasks import specs
from cotbuilder.tasks.npukernelbench import load_npukernelbench

from ..conftest import link_run_pch

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "examples" / "op_project" / "bench"
MINI = REPO / "examples" / "benchmarks" / "npukernelbench-mini"


def _hard_sigmoid(tasks: list) -> object:
    (task,) = [t for t in tasks if t.op == "HardSigmoidCustom"]
    return task


def test_full_mode_task_keeps_the_validation_and_the_rows():
    tasks, errors = load_npukernelbench(BENCH, "full")
    assert errors == []
    assert sorted(t.name for t in tasks) == ["level1.HardSigmoidCustom", "level2.ForeachMulScalarListCustom"]
    task = _hard_sigmoid(tasks)
    assert (task.name, task.op, task.category, task.layout) == ("level1.HardSigmoidCustom", "HardSigmoidCustom",
                                                                "Activation", "op_project")  # fmt: skip
    assert task.tags == ["level1", "Activation", "mode:full"] and task.source == "npukernelbench"
    assert task.reference == {"kind": "benchmark", "code": "validation/module.py"}
    assert {f["path"] for f in task.given_files} >= {"validation/module.py", "validation/pybind.cpp",
                                                     "validation/test_cases.csv"}  # fmt: skip
    assert [c["row"]["shape"] for c in task.cases] == ["[16, 1024]", "[7, 333]", "[3, 5, 1001]"]
    assert set(task.answer()) == {"op_host/hard_sigmoid_custom.cpp", "op_host/hard_sigmoid_custom_tiling.h",
                                  "op_kernel/hard_sigmoid_custom.cpp", "CMakeLists.txt"}  # fmt: skip
    assert task.statement_en.startswith("# HardSigmoidCustom")


def test_kernel_only_mode_gives_the_reference_host_and_asks_for_the_kernel():
    tasks, _ = load_npukernelbench(BENCH, "kernel_only")
    task = _hard_sigmoid(tasks)
    assert task.layout == "kernel_only" and set(task.answer()) == {"op_kernel/hard_sigmoid_custom.cpp"}
    assert "op_host/hard_sigmoid_custom.cpp" in {f["path"] for f in task.given_files}
    full = _hard_sigmoid(load_npukernelbench(BENCH, "full")[0])
    assert task.task_id != full.task_id
    # laid out as crawl groups a benchmark answer: the op at the root, the validation under _deps/ with its role
    ((_, unit),) = specs.case_units(task, task.answer())
    roles = {f["path"]: f["role"] for f in unit["files"]}
    assert roles["_deps/validation/module.py"] == "validation"
    assert roles["op_kernel/hard_sigmoid_custom.cpp"] == "kernel"
    assert roles["op_host/hard_sigmoid_custom_tiling.h"] == "tiling"
    with pytest.raises(specs.AnswerError, match="validation/ is the benchmark's"):
        specs.answer_files({"validation/module.py": "print(1)"}, full)


def test_answer_files_are_the_files_crawl_keeps_byte_for_byte(tmp_path):
    """eval judges the code `verify` judges when the tree is crawled: a `.cc` host source is part of the answer, CRLF
    line ends stay, a BOM goes (as crawl reads a file); a file crawl never keeps (a note) is not part of it."""
    from cotbuilder.crawl.filefilter import read_checked

    root = tmp_path / "tree"
    shutil.copytree(BENCH, root)
    answer = root / "tasks/level1/Activation/HardSigmoidCustom/answer/0"
    kernel = answer / "op_kernel/hard_sigmoid_custom.cpp"
    kernel.write_bytes(kernel.read_bytes().replace(b"\n", b"\r\n"))
    (answer / "op_host/hard_sigmoid_custom_proto.cc").write_bytes(b"\xef\xbb\xbf// infer shape lives here\n")
    (answer / "op_host/notes.log").write_text("build notes\n")
    tasks, errors = load_npukernelbench(root, "full")
    assert errors == []
    got = _hard_sigmoid(tasks).answer()
    assert "op_host/notes.log" not in got
    for rel in ("op_kernel/hard_sigmoid_custom.cpp", "op_host/hard_sigmoid_custom_proto.cc", "CMakeLists.txt"):
        assert got[rel] == read_checked(answer / rel, 2**20)[0], rel
    assert "\r\n" in got["op_kernel/hard_sigmoid_custom.cpp"]
    assert got["op_host/hard_sigmoid_custom_proto.cc"] == "// infer shape lives here\n"


def test_a_task_without_rows_is_named_and_the_others_load(tmp_path):
    root = tmp_path / "tree"
    shutil.copytree(MINI / "tasks", root / "tasks")
    (root / "tasks/level1/Math/ClampScalar/validation/test_cases.csv").write_text("case_id;shape;dtype\n")
    tasks, errors = load_npukernelbench(root, "full")
    assert sorted(t.name for t in tasks) == ["level1.GreaterEqual", "level1.Softsign"]
    assert [e.message for e in errors] == ["tasks/level1/Math/ClampScalar: test_cases.csv has no rows"]


def test_a_benchmark_task_is_scored_by_the_benchmark_harness(tmp_path, shared_verify_cache):
    """The mini tree's tasks have no pybind.cpp: the benchmark harness cannot bind them, says so before building,
    and the reward gives no signal (the answer was never run)."""
    tasks, _ = load_npukernelbench(MINI, "full")
    task = next(t for t in tasks if t.name == "level1.Softsign")
    s = Scorer(link_run_pch(tmp_path / "cache" / "verify", shared_verify_cache).parent).score(task.answer(), task)
    assert (s.status, s.reward, s.compiled) == ("unsupported", None, None)
    assert "pybind.cpp" in s.reason


def test_cli_imports_an_npukernelbench_tree(tmp_path, cli):
    ws = tmp_path / "ws"
    res = cli("tasks", str(MINI), "--from", "npukernelbench", "--mode", "kernel_only", workspace=ws)
    assert res.returncode == 0, res.stderr
    from cotbuilder.store import Store

    with Store(ws, read_only=True) as store:
        rows = store.rows("SELECT name, layout, source, tags FROM tasks ORDER BY name")
    assert [(r["name"], r["layout"], r["source"]) for r in rows] == [
        ("level1.ClampScalar", "kernel_only", "npukernelbench"),
        ("level1.GreaterEqual", "kernel_only", "npukernelbench"),
        ("level1.Softsign", "kernel_only", "npukernelbench"),
    ]
    assert cli("tasks", str(MINI), "--from", "kernelbench", workspace=ws).returncode == 2
