"""Tasks from a MultiKernelBench tree: `reference/<category>/<op>.py`, each a PyTorch `Model` with module-level
`get_inputs()` / `get_init_inputs()` (the layout is read by decontam/benchmarks.py, the one reader of it).

MultiKernelBench shows its models the reference's source and asks for an answer in its pybind layout: one Python
file whose string constants hold the op project (`project_json_src`, `host_tiling_src`, `host_operator_src`,
`kernel_src`), the torch binding (`python_bind_src`, `EXEC_NPU_CMD(aclnn<Op>, ...)`) and `model_src` (a `ModelNew`
that calls it through `custom_ops_lib`). The benchmark has no reference answers (its one-shot examples are other
ops), so `--teacher reference` has nothing to run; and cotbuilder has no harness for that layout yet, so an answer
is parsed and stored but scored `unsupported` (naming the gap: no reward, never a wrong verdict).

The shapes of a case are read from the reference's text with `ast` (module constants, `torch.rand/randn/randint/
ones/zeros(...)` in get_inputs), never by running it: the reference is crawled code, it runs only in the sandbox.
"""

from __future__ import annotations

import ast
import operator
from pathlib import Path
from typing import Any

from .task import Task
from .toml_loader import LoadError

SOURCE = "multikernelbench"
REFERENCE_KIND = "multikernelbench"
# what an answer must define, in the benchmark's pybind layout
ANSWER_STRINGS = ("project_json_src", "host_tiling_src", "host_operator_src", "kernel_src", "python_bind_src",
                  "model_src")  # fmt: skip
_MAKERS = {"rand": "float32", "randn": "float32", "ones": "float32", "zeros": "float32", "randint": "int64",
           "empty": "float32", "full": "float32"}  # fmt: skip
_DTYPES = {"float32": "float32", "float": "float32", "float16": "float16", "half": "float16", "bfloat16": "bfloat16",
           "int32": "int32", "int64": "int64", "long": "int64", "int8": "int8", "bool": "bool", "uint8": "uint8"}  # fmt: skip
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.Mod: operator.mod}  # fmt: skip


def load_multikernelbench(root: Path, soc: str = "ascend910b") -> tuple[list[Task], list[LoadError]]:
    """Every MultiKernelBench task under `root`; one LoadError per reference that cannot be one (not Python)."""
    from ..decontam.benchmarks import multikernelbench_references

    tasks, errors = [], []
    for task_id, rel, text in multikernelbench_references(Path(root)):
        try:
            tasks.append(_task(task_id, rel, text, soc))
        except (SyntaxError, ValueError) as exc:
            errors.append(LoadError(rel, f"{rel}: {exc}"))
    return tasks, errors


def _task(task_id: str, rel: str, text: str, soc: str) -> Task:
    from ..records import RecordError, validate

    tree = ast.parse(text, filename=rel)
    category, op = task_id.split("/", 1)
    inputs, init = _case(tree)
    case: dict[str, Any] = {"name": "default", "inputs": inputs or [], "outputs": [], "attrs": {}, "seeds": [0]}
    if init:
        case["attrs"] = {"init_inputs": init}
    if inputs is None:  # shapes the text does not state plainly: the prompt points at get_inputs()
        case["row"] = {"inputs": "as get_inputs() in the reference builds them"}
    statement = (
        f"MultiKernelBench task {task_id}: write an AscendC operator for the Ascend NPU that computes what this "
        "PyTorch `Model` computes, on the inputs `get_inputs()` builds (the `Model` is made with "
        "`get_init_inputs()`):\n\n```python\n" + text.strip() + "\n```"
    )
    level = category if category.startswith("npukernelbench_level") else None
    task = Task(
        name=f"mkb.{category}.{op}",
        statement_en=statement,
        layout="op_project",
        cases=[case],
        reference={"kind": REFERENCE_KIND, "code": rel},
        soc=soc,
        source=SOURCE,
        origin=rel,
        category=category,
        op=op,
        kernel_path=f"op_kernel/{op}.cpp",
        given_files=[{"path": rel, "text": text}],
        tags=[t for t in (category, level and f"level{level.rsplit('level', 1)[1]}", SOURCE) if t],
    )
    try:
        validate("task", task.record("2000-01-01T00:00:00"))
    except RecordError as exc:
        raise ValueError(str(exc)) from exc
    return task


def _case(tree: ast.Module) -> tuple[list[dict[str, Any]] | None, list[Any] | None]:
    """(input tensors, init inputs) as far as the text states them plainly; None where it does not."""
    consts: dict[str, Any] = {}
    funcs = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _value(node.value, consts)
            if value is not None:
                consts[node.targets[0].id] = value
        elif isinstance(node, ast.FunctionDef) and node.name in ("get_inputs", "get_init_inputs"):
            funcs[node.name] = node
    inputs = _inputs(funcs["get_inputs"], consts) if "get_inputs" in funcs else None
    init = None
    if "get_init_inputs" in funcs:
        ret = next((n for n in ast.walk(funcs["get_init_inputs"]) if isinstance(n, ast.Return)), None)
        if ret is not None and isinstance(ret.value, ast.List | ast.Tuple):
            values = [_value(e, consts) for e in ret.value.elts]
            init = values if all(v is not None for v in values) else None
    return inputs, init


def _inputs(func: ast.FunctionDef, consts: dict[str, Any]) -> list[dict[str, Any]] | None:
    local = dict(consts)
    made: dict[str, ast.Call] = {}
    for node in func.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if isinstance(node.value, ast.Call):
                made[name] = node.value
            elif (v := _value(node.value, local)) is not None:
                local[name] = v
        if isinstance(node, ast.Return) and isinstance(node.value, ast.List | ast.Tuple):
            out = []
            for i, elt in enumerate(node.value.elts):
                call = made.get(elt.id) if isinstance(elt, ast.Name) else elt if isinstance(elt, ast.Call) else None
                name = elt.id if isinstance(elt, ast.Name) else f"x{i}"
                tensor = _tensor(call, local) if call is not None else None
                if tensor is None:
                    return None
                out.append({"name": name, **tensor})
            return out
    return None


def _tensor(call: ast.Call, consts: dict[str, Any]) -> dict[str, Any] | None:
    fn = call.func
    if not (isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id == "torch"):
        return None
    if fn.attr not in _MAKERS:
        return None
    args = [_value(a, consts) for a in call.args]
    if fn.attr == "randint":  # randint(low, high, size) or randint(high, size)
        args = args[-1:] if args else []
    elif fn.attr == "full":
        args = args[:1]
    if len(args) == 1 and isinstance(args[0], list | tuple):
        args = list(args[0])
    if not args or not all(isinstance(a, int) and not isinstance(a, bool) and a >= 0 for a in args):
        return None
    dtype = _MAKERS[fn.attr]
    for kw in call.keywords:
        if kw.arg == "dtype" and isinstance(kw.value, ast.Attribute):
            dtype = _DTYPES.get(kw.value.attr, kw.value.attr)
    return {"shape": list(args), "dtype": dtype}


def _value(node: ast.AST, consts: dict[str, Any]) -> Any:
    """A literal, a known constant, or arithmetic of those; None otherwise (nothing is evaluated beyond that)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str | bool):
        return node.value
    if isinstance(node, ast.Name):
        return consts.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _value(node.operand, consts)
        return -v if isinstance(v, int | float) else None
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _value(node.left, consts), _value(node.right, consts)
        if isinstance(left, int | float) and isinstance(right, int | float):
            if isinstance(node.op, ast.Pow) and abs(right) > 64:
                return None
            try:
                return _OPS[type(node.op)](left, right)
            except (ZeroDivisionError, OverflowError):
                return None
    if isinstance(node, ast.List | ast.Tuple):
        values = [_value(e, consts) for e in node.elts]
        return values if all(v is not None for v in values) else None
    return None


def input_bytes(task: Task) -> int | None:
    """Bytes of the first case's inputs (None when the shapes are not known): what a CPU run would have to hold."""
    inputs = task.cases[0]["inputs"] if task.cases else []
    if not inputs:
        return None
    size = {"float16": 2, "bfloat16": 2, "int8": 1, "uint8": 1, "bool": 1, "int32": 4, "float32": 4, "int64": 8}
    total = 0
    for t in inputs:
        n = 1
        for d in t["shape"]:
            n *= d
        total += n * size.get(t["dtype"], 4)
    return total
