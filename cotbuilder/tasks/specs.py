"""A task + an answer -> one unit per case, each with the `verify_spec.toml` the existing spec harnesses read.

A kernel_launch task becomes a spec for the generic harness (`verify/harness_spec.py`: kernel, entry, block dim,
launch order); kernel_only and op_project tasks become an op spec (`verify/harness_op_spec.py`: the op's own
TilingFunc runs). Either way cotbuilder draws the inputs, runs the task's reference in the sandbox, seals the goldens
before the answer runs, and compares - the answer never judges itself.
"""

from __future__ import annotations

import json
from typing import Any

from ..hashing import sha256_text, stable_json
from ..verify.units import safe_relpath
from .task import Task

SPEC_NAME = "verify_spec.toml"
# Paths an answer may not write: the spec and the files the harnesses generate next to it.
RESERVED = (SPEC_NAME, "cotbuilder_")


class AnswerError(ValueError):
    """The answer cannot be placed into the task's layout (it is `unparseable` for the reward)."""


def answer_files(code: str | dict[str, str], task: Task) -> dict[str, str]:
    """The answer as {relative path: text}: a string is the task's kernel file; a dict is checked file by file."""
    if isinstance(code, str):
        if task.layout == "op_project":
            raise AnswerError("an op_project answer is a set of files {path: text} (op_host/ and op_kernel/)")
        files = {task.kernel_path or "kernel.cpp": code}
    elif isinstance(code, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in code.items()):
        files = {}
        for path, text in code.items():
            rel = safe_relpath(path)
            if rel is None:
                raise AnswerError(f"answer path {path!r} leaves the answer folder")
            files[str(rel)] = text
    else:
        raise AnswerError("an answer is a string (the kernel) or {path: text}")
    if not any(text.strip() for text in files.values()):
        raise AnswerError("the answer is empty")
    for path in files:
        name = path.rsplit("/", 1)[-1]
        if name == SPEC_NAME or name.startswith("cotbuilder_"):
            raise AnswerError(f"answer path {path!r} is reserved for cotbuilder's harness")
        if path.startswith("validation/") and task.reference["kind"] == "benchmark":
            raise AnswerError(f"answer path {path!r}: validation/ is the benchmark's")
        if task.layout == "kernel_only" and not path.startswith("op_kernel/"):
            raise AnswerError(f"a kernel_only answer writes op_kernel/ only (got {path!r})")
    return files


def reference_code(task: Task, case: dict[str, Any]) -> str:
    """Python defining `reference(<inputs>)` for the reference runner; the case's attrs are module constants."""
    names = [t["name"] for t in case["inputs"]]
    attrs = "".join(f"{k} = {v!r}\n" for k, v in case["attrs"].items())
    kind, code = task.reference["kind"], task.reference["code"]
    head = "import numpy as np\n" + attrs
    if kind == "python":
        return head + code + "\n"
    args = ", ".join(names)
    if kind == "numpy":
        return head + f"def reference({args}):\n    return {code}\n"
    # torch: inputs as CPU tensors, results back to numpy (a tuple for several outputs)
    return (
        head
        + "import torch\n"
        + f"def reference({args}):\n"
        + "".join(f"    {n} = torch.from_numpy({n}.copy())\n" for n in names)
        + f"    out = ({code})\n"
        + "    if isinstance(out, (tuple, list)):\n"
        + "        return tuple(o.detach().numpy() if hasattr(o, 'detach') else o for o in out)\n"
        + "    return out.detach().numpy() if hasattr(out, 'detach') else out\n"
    )


def spec_text(task: Task, case: dict[str, Any]) -> str:
    """The case as verify_spec.toml text."""
    spec: dict[str, Any] = {"seeds": case["seeds"]}
    if task.layout == "kernel_launch":
        spec |= {"kernel": task.kernel_path, "entry": task.entry, "block_dim": task.block_dim or 1}
        if task.launch_args is not None:
            spec["launch_args"] = task.launch_args
        if task.workspace_bytes is not None:
            spec["workspace_bytes"] = task.workspace_bytes
    else:
        spec["op"] = task.op
    tables: dict[str, Any] = {"reference": {"python": reference_code(task, case)}}
    if task.layout != "kernel_launch" and case["attrs"]:
        tables["attrs"] = case["attrs"]
    if task.tolerance:
        tables["tolerance"] = task.tolerance
    return _toml(spec, {"inputs": case["inputs"], "outputs": case["outputs"]}, tables)


def case_units(task: Task, files: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """[(case name, unit record)] for the harnesses: the task's given files, the answer, the case's spec. A
    benchmark task is one unit laid out as crawl groups a benchmark answer (the op at the root, its validation under
    `_deps/`): the benchmark harness runs every test_cases.csv row itself."""
    if task.reference["kind"] == "benchmark":
        tree = {f["path"]: f["text"] for f in task.given_files} | files
        listed = [
            {"path": f"_deps/{p}", "role": "validation", "file_id": None, "text": t}
            if p.startswith("validation/")
            else {"path": p, "role": _role(p), "file_id": None, "text": t}
            for p, t in sorted(tree.items())
        ]
        unit_id = sha256_text(stable_json([task.task_id, sorted(files.items())]))
        return [
            ("benchmark", {"unit_id": unit_id, "name": task.op or task.name, "layout": "op_project", "files": listed})
        ]
    layout = "kernel_launch" if task.layout == "kernel_launch" else "op_project"
    base = {f["path"]: f["text"] for f in task.given_files} | files
    units = []
    for case in task.cases:
        all_files = base | {SPEC_NAME: spec_text(task, case)}
        listed = [{"path": p, "role": _role(p), "file_id": None, "text": t} for p, t in sorted(all_files.items())]
        unit_id = sha256_text(stable_json([task.task_id, case["name"], sorted(all_files.items())]))
        units.append((case["name"], {"unit_id": unit_id, "name": f"{task.name}/{case['name']}", "layout": layout,
                                     "files": listed}))  # fmt: skip
    return units


def _role(path: str) -> str:
    """The role crawl would give the file (the op-project harnesses find the tiling header and kernel by it)."""
    name = path.rsplit("/", 1)[-1]
    if path.startswith("op_host/"):
        return "tiling" if name.endswith(("_tiling.h", "_tiling.hpp")) else "tiling_func"
    if path.startswith("op_kernel/"):
        return "kernel"
    if name == "CMakeLists.txt":
        return "build"
    return "kernel" if name.endswith((".cpp", ".cc", ".asc")) else "other"


def _toml(scalars: dict[str, Any], arrays: dict[str, list[dict[str, Any]]], tables: dict[str, dict[str, Any]]) -> str:
    """TOML for a flat spec. Written here because no TOML writer is a dependency and the spec is one level deep:
    every value is a string, number, bool or a list of them, and JSON spells those the way TOML does."""
    lines = [f"{k} = {_value(v)}" for k, v in scalars.items()]
    for name, items in arrays.items():
        for item in items:
            lines += ["", f"[[{name}]]"] + [f"{k} = {_value(v)}" for k, v in item.items()]
    for name, table in tables.items():
        lines += ["", f"[{name}]"] + [f"{k} = {_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def _value(v: Any) -> str:
    if isinstance(v, dict):
        raise ValueError("nested tables are not part of a task spec")
    return json.dumps(v, ensure_ascii=False)
