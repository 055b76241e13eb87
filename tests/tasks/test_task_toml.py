"""task.toml folders: the demo tasks, bad files named with their problem, the tasks table, the spec a task becomes."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from cotbuilder.store import Store
from cotbuilder.tasks import specs
from cotbuilder.tasks.toml_loader import TaskError, load_file, load_folder
from cotbuilder.verify import harness_spec

REPO = Path(__file__).resolve().parents[2]
DEMO_TASKS = REPO / "examples" / "tasks"

GOOD = """
layout = "kernel_launch"
[statement]
en = "Write add(x, y, z): z = x + y on 256 floats."
[kernel]
entry = "add"
args = ["x", "y", "z"]
[[inputs]]
name = "x"
shape = [256]
dtype = "float32"
[[inputs]]
name = "y"
shape = [256]
dtype = "float32"
[[outputs]]
name = "z"
shape = [256]
dtype = "float32"
[reference]
numpy = "x + y"
"""


def _write(root: Path, name: str, text: str) -> Path:
    (root / name).mkdir(parents=True, exist_ok=True)
    path = root / name / "task.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_demo_tasks_load_and_each_names_the_demo_kernel_as_its_answer():
    tasks, errors = load_folder(DEMO_TASKS)
    assert errors == []
    assert len(tasks) >= 10
    assert {t.layout for t in tasks} == {"kernel_launch", "kernel_only", "op_project"}
    for t in tasks:
        assert t.answer(), t.name
        if t.layout == "kernel_launch":
            # the entry's GM parameters are exactly the launch arguments the task declares
            text = t.answer()[t.kernel_path]
            sig = re.search(rf"__global__ __aicore__ void {t.entry}\(([^)]*)\)", text)
            assert sig, t.name
            params = [p.split()[-1] for p in sig.group(1).split(",")]
            assert params == t.launch_args, t.name
        if t.layout == "kernel_only":
            assert all(not f["path"].startswith("op_kernel/") for f in t.given_files)
            assert all(p.startswith("op_kernel/") for p in t.answer())


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (
            lambda s: s.replace('dtype = "float32"\n[[inputs]]', 'dtype = "float17"\n[[inputs]]', 1),
            "unknown dtype 'float17'",
        ),
        (lambda s: s.replace('en = "Write', 'zh = "Write'), "[statement] needs `en`"),
        (lambda s: s.replace('numpy = "x + y"', 'numpy = "x +"'), "not a Python expression"),
        (
            lambda s: s.replace('numpy = "x + y"', 'numpy = "x + y"\npython = "def reference(x, y): pass"'),
            "exactly one of",
        ),
        (lambda s: s.replace('args = ["x", "y", "z"]', 'args = ["x", "y", "out"]'), "args names no input"),
        (lambda s: s.replace("shape = [256]", "shape = [0]", 1), "shape must be a list of positive integers"),
        (lambda s: s.replace('layout = "kernel_launch"', 'layout = "kernel"'), "layout must be one of"),
        (lambda s: "levl = 1\n" + s, "unknown key(s) levl"),
        (lambda s: s + "torch = 'x'\n", "[reference] needs exactly one of numpy, torch, python (got numpy, torch)"),
        (lambda s: s + "nmupy = 'x'\n", "unknown key(s) in [reference]: nmupy"),
        (lambda s: s.replace("[kernel]", "[kernel"), "task.toml"),  # TOML syntax error, with the parser's position
    ],
)
def test_a_bad_task_toml_is_named_with_its_problem(tmp_path, edit, problem):
    path = _write(tmp_path, "bad", edit(GOOD))
    with pytest.raises(TaskError) as err:
        load_file(path, tmp_path)
    assert str(err.value).startswith("bad/task.toml: ")
    assert problem in str(err.value)


def test_a_bad_file_does_not_stop_the_others_and_names_repeat_is_an_error(tmp_path):
    _write(tmp_path, "good", GOOD)
    _write(tmp_path, "bad", GOOD.replace('numpy = "x + y"', ""))
    _write(tmp_path, "nested/again", GOOD.replace("layout", 'name = "good"\nlayout'))
    tasks, errors = load_folder(tmp_path)
    assert [t.name for t in tasks] == ["good"]
    assert sorted(e.path for e in errors) == ["bad/task.toml", "nested/again/task.toml"]
    assert "already used by good/task.toml" in next(e.message for e in errors if e.path.startswith("nested"))


def test_task_id_is_the_content_hash_of_what_decides_a_verdict(tmp_path):
    a = load_file(_write(tmp_path, "a", GOOD))
    same = load_file(_write(tmp_path / "elsewhere", "a", GOOD))
    other_ref = load_file(_write(tmp_path, "b", GOOD.replace('numpy = "x + y"', 'numpy = "y + x"')))
    assert a.task_id == same.task_id  # the file's location is provenance, not content
    assert a.task_id != other_ref.task_id


def test_cli_imports_a_folder_and_a_bad_file_loses_nothing_stored(tmp_path, cli):
    ws = tmp_path / "ws"
    first = tmp_path / "first"
    demo = (DEMO_TASKS / "add_fp16" / "task.toml").read_text(encoding="utf-8")
    _write(first, "add_fp16", re.sub(r"(?m)^answer = .*$", "", demo))  # moved: its relative answer path would dangle
    _write(first, "add", GOOD)
    res = cli("tasks", str(first), workspace=ws)
    assert res.returncode == 0, res.stderr
    with Store(ws, read_only=True) as store:
        before = store.rows("SELECT task_id, name, statement_zh FROM tasks ORDER BY name")
    assert [r["name"] for r in before] == ["add", "add_fp16"]
    assert before[1]["statement_zh"].startswith("编写")

    second = tmp_path / "second"
    _write(second, "broken", GOOD.replace('dtype = "float32"', 'dtype = "float17"', 1))
    _write(second, "mul", GOOD.replace("x + y", "x * y").replace("add", "mul"))
    res = cli("tasks", str(second), workspace=ws)
    assert res.returncode == 1
    assert "bad task: broken/task.toml: [[inputs]] x: unknown dtype 'float17'" in res.stderr
    with Store(ws, read_only=True) as store:
        after = store.rows("SELECT task_id, name FROM tasks ORDER BY name")
    assert [r["name"] for r in after] == ["add", "add_fp16", "mul"]
    assert {r["task_id"] for r in before} <= {r["task_id"] for r in after}

    _write(second, "dangling", GOOD.replace("layout", 'answer = "../nowhere.cpp"\nlayout'))
    assert "dangling/task.toml: answer " in cli("tasks", str(second), "--check", workspace=ws).stderr
    res = cli("tasks", str(tmp_path / "missing"), workspace=ws)
    assert res.returncode == 2 and "not a folder" in res.stderr


def test_a_kernel_launch_task_becomes_a_spec_the_generic_harness_reads():
    task = load_file(DEMO_TASKS / "minmax_scale" / "task.toml")
    spec = harness_spec.load_spec(specs.spec_text(task, task.cases[0]))
    assert (spec["kernel"], spec["entry"], spec["block_dim"]) == ("minmax_scale.cpp", "minmax_scale", 8)
    assert spec["launch_args"] == ["x", "y", "workspace"] and spec["workspace_bytes"] == 768
    main = harness_spec.generate_main(spec, "")
    assert "ICPU_RUN_KF(minmax_scale, 8, cb_in_x, cb_out_y, cb_workspace);" in main
    # the reference the harness runs (in the sandbox there; here only to pin what the text means)
    scope: dict = {}
    exec(spec["reference"]["python"], scope)
    x = np.array([1.0, 3.0, 2.0], dtype=np.float32)
    assert np.allclose(scope["reference"](x), [0.0, 1.0, 0.5])


def test_case_attrs_reach_the_reference_and_the_op_spec():
    task = load_file(DEMO_TASKS / "swish_custom" / "task.toml")
    second = task.cases[1]
    text = specs.spec_text(task, second)
    assert "[attrs]\nbeta = 0.5" in text and 'op = "SwishCustom"' in text
    scope: dict = {}
    exec(specs.reference_code(task, second), scope)
    y = scope["reference"](np.array([2.0], dtype=np.float16))
    assert abs(float(y[0]) - 2.0 / (1.0 + np.exp(-1.0))) < 2e-3


@pytest.mark.parametrize(
    ("code", "problem"),
    [
        ("   ", "the answer is empty"),
        ({"../escape.cpp": "int x;"}, "leaves the answer folder"),
        ({"verify_spec.toml": "kernel = 'x'"}, "reserved for cotbuilder's harness"),
        ({"cotbuilder_spec_main.cpp": "int main(){}"}, "reserved"),
        (42, "a string (the kernel) or {path: text}"),
    ],
)
def test_answers_that_cannot_be_placed_are_refused(code, problem):
    task = load_file(DEMO_TASKS / "add_fp16" / "task.toml")
    with pytest.raises(specs.AnswerError, match=re.escape(problem)):
        specs.answer_files(code, task)


def test_a_kernel_only_answer_may_not_replace_the_given_host():
    task = load_file(DEMO_TASKS / "swish_custom" / "task.toml")
    with pytest.raises(specs.AnswerError, match="op_kernel/ only"):
        specs.answer_files({"op_host/swish_custom.cpp": "// my own tiling"}, task)


def test_stored_tasks_read_back_as_the_same_task(tmp_path):
    tasks, _ = load_folder(DEMO_TASKS)
    from cotbuilder.tasks.stored import find, load_all, save
    from cotbuilder.tasks.task import compute_id

    with Store(tmp_path / "ws") as store:
        assert save(store, tasks) == len(tasks)
        back = load_all(store)
        assert {t.task_id for t in back} == {t.task_id for t in tasks}
        for t in back:
            assert compute_id(t) == t.task_id  # JSON columns come back as the values that were hashed
        swish = find(store, "swish_custom")
        assert swish is not None and swish.given_files and swish.cases[1]["attrs"] == {"beta": 0.5}
        assert find(store, swish.task_id[:12]).name == "swish_custom"
        assert find(store, "no_such_task") is None
