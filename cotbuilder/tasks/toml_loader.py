"""Read tasks from a folder of `task.toml` files (the format: docs/tasks.md).

One bad file is one clear error (`path: what is wrong`) and never stops the others: `load_folder` returns the tasks
it could read and the errors it found, and the caller decides what to store.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .task import LAYOUTS, REFERENCE_KINDS, Task

FILE_NAME = "task.toml"
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
_TOP_KEYS = {
    "name", "layout", "soc", "category", "tags", "statement", "kernel", "op", "seeds", "inputs", "outputs", "attrs",
    "cases", "reference", "tolerance", "answer",
}  # fmt: skip
_TEXT_SUFFIXES = {".cpp", ".cc", ".h", ".hpp", ".json", ".txt", ".cmake", ".py", ".md"}


class TaskError(ValueError):
    """A task.toml that cannot be a task; the message starts with the file's path."""


@dataclass
class LoadError:
    path: str
    message: str


def load_folder(root: Path) -> tuple[list[Task], list[LoadError]]:
    """Every `task.toml` under `root` (sorted by path): the tasks read, and one error per file that is not a task."""
    root = Path(root)
    if not root.is_dir():
        raise TaskError(f"{root}: not a folder")
    tasks: list[Task] = []
    errors: list[LoadError] = []
    seen: dict[str, str] = {}
    for path in sorted(root.rglob(FILE_NAME)):
        rel = path.relative_to(root).as_posix()
        try:
            task = load_file(path, root)
        except TaskError as exc:
            errors.append(LoadError(rel, str(exc)))
            continue
        if task.name in seen:
            errors.append(LoadError(rel, f"{rel}: task name {task.name!r} is already used by {seen[task.name]}"))
            continue
        seen[task.name] = rel
        tasks.append(task)
    return tasks, errors


def load_file(path: Path, root: Path | None = None) -> Task:
    """One task.toml as a Task (TaskError naming the file and the problem otherwise)."""
    path = Path(path)
    where = path.relative_to(root).as_posix() if root else str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise TaskError(f"{where}: {exc}") from exc
    try:
        task = _task(data, path.parent, where)
        from ..records import RecordError, validate

        try:
            validate("task", task.record("2000-01-01T00:00:00"))
        except RecordError as exc:
            raise ValueError(str(exc)) from exc
        return task
    except (ValueError, KeyError, TypeError) as exc:
        msg = str(exc) if not isinstance(exc, KeyError) else f"missing {exc}"
        raise TaskError(f"{where}: {msg}") from exc


def _task(data: dict[str, Any], folder: Path, where: str) -> Task:
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(_TOP_KEYS))})")
    name = str(data.get("name", folder.name))
    if not _NAME.match(name):
        raise ValueError(f"name {name!r}: letters, digits, '_', '.', '-' only")
    layout = data.get("layout")
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)} (got {layout!r})")
    statement = data.get("statement") or {}
    if not isinstance(statement, dict) or not str(statement.get("en", "")).strip():
        raise ValueError("[statement] needs `en` (what to write, in English)")
    cases = _cases(data)
    kernel, op = data.get("kernel") or {}, data.get("op") or {}
    task = Task(
        name=name,
        statement_en=str(statement["en"]).strip(),
        statement_zh=str(statement["zh"]).strip() if statement.get("zh") else None,
        layout=layout,
        cases=cases,
        reference=_reference(data.get("reference")),
        soc=str(data.get("soc", "ascend910b")),
        origin=where,
        category=data.get("category"),
        tolerance=_tolerance(data.get("tolerance")),
        tags=[str(t) for t in data.get("tags", [])],
    )
    if layout == "kernel_launch":
        entry = kernel.get("entry")
        if not isinstance(entry, str) or not _IDENT.match(entry):
            raise ValueError("[kernel] needs `entry`: the name of the __global__ __aicore__ function to write")
        task.entry = entry
        task.kernel_path = _relpath(kernel.get("path", f"{entry}.cpp"), "[kernel] path")
        task.block_dim = int(kernel.get("block_dim", 1))
        task.workspace_bytes = int(kernel["workspace_bytes"]) if "workspace_bytes" in kernel else None
        if "args" in kernel:
            task.launch_args = [str(a) for a in kernel["args"]]
            names = {t["name"] for c in cases for t in c["inputs"] + c["outputs"]} | {"workspace", "tiling"}
            bad = [a for a in task.launch_args if a not in names]
            if bad:
                raise ValueError(f"[kernel] args names no input, output, workspace or tiling: {', '.join(bad)}")
    else:
        op_type = op.get("type")
        if not isinstance(op_type, str) or not _IDENT.match(op_type):
            raise ValueError("[op] needs `type`: the op's OpDef name (e.g. SwishCustom)")
        task.op = op_type
        task.kernel_path = _relpath(op.get("kernel_path", f"op_kernel/{_snake(op_type)}.cpp"), "[op] kernel_path")
        if layout == "kernel_only":
            if "given" not in op:
                raise ValueError("layout kernel_only needs [op] given: the op project folder whose op_host/ it keeps")
            task.given_files = _files(folder / op["given"], lambda rel: not rel.startswith("op_kernel/"))
            if not any(f["path"].startswith("op_host/") for f in task.given_files):
                raise ValueError(f"[op] given {op['given']!r} has no op_host/ files")
    if "answer" in data:
        task.answer_files = _answer(task, folder / str(data["answer"]))
    task.task_id = ""
    task.__post_init__()  # the id over the finished content
    return task


def _cases(data: dict[str, Any]) -> list[dict[str, Any]]:
    default_seeds = data.get("seeds", [0, 1])
    raw = data.get("cases") or [{"name": "default"}]
    cases = []
    for i, case in enumerate(raw):
        if not isinstance(case, dict):
            raise ValueError(f"[[cases]] #{i + 1} is not a table")
        out = {
            "name": str(case.get("name", f"case{i}")),
            "inputs": [_tensor(t, "inputs") for t in case.get("inputs", data.get("inputs", []))],
            "outputs": [_tensor(t, "outputs") for t in case.get("outputs", data.get("outputs", []))],
            "attrs": dict(case.get("attrs", data.get("attrs", {}))),
            "seeds": [int(s) for s in case.get("seeds", default_seeds)],
        }
        if not out["inputs"] or not out["outputs"]:
            raise ValueError(f"case {out['name']!r}: needs [[inputs]] and [[outputs]]")
        names = [t["name"] for t in out["inputs"] + out["outputs"]]
        if len(set(names)) != len(names):
            raise ValueError(f"case {out['name']!r}: tensor names repeat ({', '.join(names)})")
        clash = sorted(set(names) & set(out["attrs"]))
        if clash:
            raise ValueError(f"case {out['name']!r}: {', '.join(clash)} is both a tensor and an attr")
        cases.append(out)
    return cases


def _tensor(item: Any, where: str) -> dict[str, Any]:
    from ..verify.compare import canonical_dtype, tolerance

    if not isinstance(item, dict) or "name" not in item:
        raise ValueError(f"[[{where}]] entries need name, shape, dtype")
    name = str(item["name"])
    if not _IDENT.match(name):
        raise ValueError(f"[[{where}]] name {name!r} is not an identifier")
    unknown = sorted(set(item) - {"name", "shape", "dtype", "low", "high"})
    if unknown:
        raise ValueError(f"[[{where}]] {name}: unknown key(s) {', '.join(unknown)}")
    shape = item.get("shape")
    if not isinstance(shape, list) or not all(isinstance(d, int) and d > 0 for d in shape):
        raise ValueError(f"[[{where}]] {name}: shape must be a list of positive integers (got {shape!r})")
    dtype = canonical_dtype(str(item.get("dtype", "")))
    try:
        tolerance(dtype)
    except ValueError as exc:
        raise ValueError(f"[[{where}]] {name}: unknown dtype {item.get('dtype')!r}") from exc
    out: dict[str, Any] = {"name": name, "shape": shape, "dtype": dtype}
    for bound in ("low", "high"):
        if bound in item:
            out[bound] = float(item[bound])
    return out


def _reference(ref: Any) -> dict[str, str]:
    if not isinstance(ref, dict):
        raise ValueError('[reference] needs one of numpy = "expr", torch = "expr", python = "def reference(...)"')
    unknown = sorted(set(ref) - set(REFERENCE_KINDS))
    if unknown:
        raise ValueError(f"unknown key(s) in [reference]: {', '.join(unknown)}")
    given = [k for k in REFERENCE_KINDS if k in ref]
    if len(given) != 1:
        raise ValueError(
            f"[reference] needs exactly one of {', '.join(REFERENCE_KINDS)} (got {', '.join(ref) or 'none'})"
        )
    code = str(ref[given[0]]).strip()
    if not code:
        raise ValueError(f"[reference] {given[0]} is empty")
    if given[0] == "python" and not re.search(r"^def reference\(", code, re.M):
        raise ValueError("[reference] python must define `def reference(<inputs>)`")
    if given[0] != "python":
        try:
            compile(code, "[reference]", "eval")
        except SyntaxError as exc:
            raise ValueError(f"[reference] {given[0]} is not a Python expression: {exc.msg}") from exc
    return {"kind": given[0], "code": code}


def _tolerance(tol: Any) -> dict[str, float] | None:
    if tol is None:
        return None
    if not isinstance(tol, dict) or set(tol) - {"atol", "rtol"}:
        raise ValueError("[tolerance] takes atol and rtol")
    return {k: float(v) for k, v in tol.items()}


def _relpath(path: str, what: str) -> str:
    from ..verify.units import safe_relpath

    rel = safe_relpath(str(path))
    if rel is None:
        raise ValueError(f"{what} {path!r} must be a relative path inside the answer")
    return str(rel)


def _files(folder: Path, keep: Any) -> list[dict[str, str]]:
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such folder")
    out = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if path.suffix in _TEXT_SUFFIXES and path.name != "verify_spec.toml" and keep(rel):
            out.append({"path": rel, "text": path.read_text(encoding="utf-8")})
    return out


def _answer(task: Task, path: Path) -> list[dict[str, str]]:
    if not path.exists():
        raise ValueError(f"answer {path}: no such file or folder")
    if path.is_file():
        return [{"path": task.kernel_path or path.name, "text": path.read_text(encoding="utf-8")}]
    if task.layout == "kernel_only":
        return _files(path, lambda rel: rel.startswith("op_kernel/"))
    if task.layout == "op_project":
        return _files(path, lambda rel: rel.startswith(("op_host/", "op_kernel/")) or "/" not in rel)
    raise ValueError(f"answer {path}: a kernel_launch answer is one file")


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
