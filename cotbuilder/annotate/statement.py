"""Exact task statements and the solvability gate.

A statement has a structured form - the reference as a numpy expression, the inputs and outputs with file, shape and
dtype, the attributes, the tolerance, where it was read - and its prose is generated from that form only (statement_prose.py). Two sources:
- a unit's generator (`gen_data.py`): the golden expression is read from its text (reference_expr.py), the generator
  runs in the sandbox as the own harness runs it (same runner, arguments and seed; the runner records each file's
  dtype and shape), the expression is evaluated in another sandbox dir on copies of those inputs, and it must
  reproduce the golden the generator wrote within verify's tolerance for the golden's dtype;
- a generic-harness spec (`verify_spec.toml`): its reference function is what verify's golden is made from, so the
  spec's cases, attributes and tolerance are the form (the reference source is quoted, never run here).
A unit with neither, or whose expression does not reproduce its golden, gets no statement and a reason.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from ..paths import package_data
from ..verify import compare, files, sandbox, steps
from ..verify.harness_own import script_args
from ..verify.units import file_by_role, unit_files
from .reference_expr import Extracted, extract, extract_program

_RUNNER = "cotbuilder_generator_runner.py"
_MANIFEST = "cotbuilder_written.json"
_EVAL = "cotbuilder_statement_eval.py"
_STEP_LIMITS = sandbox.Limits(cpu_s=60, wall_s=120, memory_mb=4096)


def derive(
    unit: dict[str, Any],
    workdir: Path,
    ctx: steps.Context,
    seed: int | None = 0,
    verification: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """{"statement": form} when the unit's semantics are derived and pass the gate, else {"reason": why not}.
    `verification`: the unit's stored verification; a kernel UT's test computes its generator's arguments at run
    time, and the record holds the command lines it ran (`cd ./x_data/ && python3 gen_data.py 2048 0.5 1.5`)."""
    spec = next((f for f in unit.get("files", []) if f["path"].endswith("verify_spec.toml")), None)
    if spec is not None:
        return from_spec(spec)
    module = next((f for f in unit.get("files", []) if f["path"].endswith("validation/module.py")), None)
    if module is not None:
        return from_benchmark(unit, module, verification)
    generator = file_by_role(unit, "generator", "scripts/gen_data.py", "gen_data.py")
    if generator is None:
        return {"reason": "no generator and no spec: nothing states the golden"}
    args = script_args(unit, generator["path"], ctx.soc, need_bin=False)
    recorded = _recorded_args(generator, verification) if args is None else None
    args = args or recorded or []
    found = extract(generator["text"], [generator["path"], *args])
    if found.reason and found.reason != "generator: not valid Python":
        # no single expression: the generator's own statements for the golden (a loop, a data-dependent branch, an
        # in-place fill), sliced and allow-listed; the same gate decides whether they reproduce the golden
        program = extract_program(generator["text"], [generator["path"], *args])
        if program.reason:  # the program's reason: why even the generator's own statements could not be kept
            return {"reason": program.reason}
        found = Extracted(program.inputs, program.goldens, program.line, kind="numpy program")
    if found.reason:
        return {"reason": found.reason}
    return _gate(unit, generator, found, args, recorded is not None, workdir, ctx, seed)


def _recorded_args(generator: dict[str, Any], verification: dict[str, Any] | None) -> list[str] | None:
    """The generator's arguments from the first command line the verification recorded for it."""
    name = Path(generator["path"]).name
    for case in (verification or {}).get("cases") or []:
        for call in (case.get("generate") or {}).get("calls") or []:
            cmd = str(call.get("cmd", "")) if isinstance(call, dict) else ""
            m = re.search(r"python[\w.]*\s+(?:\./)?" + re.escape(name) + r"((?:\s+[\w.+\-]+)*)\s*$", cmd)
            if m:
                return m.group(1).split()
    return None


def from_benchmark(unit: dict[str, Any], module: dict[str, Any], verification: dict[str, Any] | None) -> dict[str, Any]:
    """A benchmark task (NPUKernelBench layout): the reference is its `Model.forward` (what the benchmark harness makes
    the golden from), the cases its test_cases.csv, the tolerance what verification compared with."""
    import ast
    import csv
    import io

    try:
        tree = ast.parse(module["text"])
    except SyntaxError:
        return {"reason": "benchmark: module.py is not valid Python"}
    model = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model"), None)
    forward = next(
        (n for n in (model.body if model else []) if isinstance(n, ast.FunctionDef) and n.name == "forward"), None
    )
    if forward is None:
        return {"reason": "benchmark: no Model.forward in module.py"}
    cases_file = next((f for f in unit["files"] if f["path"].endswith("validation/test_cases.csv")), None)
    if cases_file is None:
        return {"reason": "benchmark: no test_cases.csv"}
    rows = list(csv.DictReader(io.StringIO(cases_file["text"]), delimiter=";"))
    names = [a.arg for a in forward.args.args if a.arg != "self"]
    inputs = []
    for row in rows:
        try:
            shape = [int(n) for n in json.loads(row.get("shape") or "")]
        except (ValueError, TypeError):
            return {"reason": "benchmark: a case without a literal shape"}
        if len(names) != 1 or not row.get("dtype"):
            return {"reason": "benchmark: cases do not give each input's shape and dtype"}
        inputs.append({"name": names[0], "shape": shape, "dtype": row["dtype"], "case": row.get("case_id")})
    outs = [o for c in (verification or {}).get("cases") or [] for o in c.get("outputs") or []]
    if not outs:
        return {"reason": "benchmark: no verified case gives the tolerance"}
    form = {
        "source": module["path"],
        "reference_kind": "python function",
        "reference": "import torch\n" + ast.get_source_segment(module["text"], forward),
        "inputs": inputs,
        "outputs": [{"name": "y", "shape": "the shape forward returns", "dtype": "the input's dtype"}],
        "attrs": {},
        "tolerance": {"atol": outs[0]["atol"], "rtol": outs[0]["rtol"]},
        "gate": {"how": "the benchmark's Model is the golden verify compares with"},
    }
    return {"statement": form}


def from_spec(spec_file: dict[str, Any]) -> dict[str, Any]:
    try:
        spec = tomllib.loads(spec_file["text"])
    except tomllib.TOMLDecodeError:
        return {"reason": "spec: not valid TOML"}
    ref = (spec.get("reference") or {}).get("python")
    if not isinstance(ref, str) or not spec.get("inputs") or not spec.get("outputs"):
        return {"reason": "spec: no reference function or no cases"}

    def tensor(t: dict[str, Any]) -> dict[str, Any]:
        return {"name": str(t["name"]), "shape": [int(n) for n in t["shape"]], "dtype": str(t["dtype"])}

    try:
        inputs, outputs = [tensor(t) for t in spec["inputs"]], [tensor(t) for t in spec["outputs"]]
    except (KeyError, TypeError, ValueError):
        return {"reason": "spec: a tensor without name, shape or dtype"}
    tol = spec.get("tolerance") or {}
    dtype = outputs[0]["dtype"]
    atol, rtol = compare.tolerance(dtype) if dtype in compare._table() else (None, None)
    form = {
        "source": spec_file["path"],
        "reference_kind": "python function",
        "reference": ref.strip(),
        "inputs": inputs,
        "outputs": outputs,
        "attrs": dict(spec.get("attrs") or {}),
        "tolerance": {"atol": tol.get("atol", atol), "rtol": tol.get("rtol", rtol)},
        # the spec's reference makes verify's golden: it holds by construction (the kernel's check is verify's job)
        "gate": {"how": "the spec's reference is the golden verify compares with"},
    }
    return {"statement": form}


def _gate(
    unit: dict[str, Any],
    generator: dict[str, Any],
    found: Any,
    args: list[str],
    in_folder: bool,
    workdir: Path,
    ctx: steps.Context,
    seed: int | None,
) -> dict[str, Any]:
    gen_dir = steps.fresh_dir(workdir, "statement-gen")
    put = unit_files(unit)
    put[_RUNNER] = package_data("verify/data/generator_runner.py").read_bytes()
    files.write_tree(gen_dir, put)
    for d in ("input", "output"):
        (gen_dir / d).mkdir(exist_ok=True)
    folder = str(Path(generator["path"]).parent)
    base = "" if folder == "." or not in_folder else folder + "/"
    if base:  # a generator beside its data (kernel UT: `cd ./x_data/ && python3 gen_data.py`) runs in its folder
        files.write_tree(gen_dir / folder, {_RUNNER: put[_RUNNER]})
    argv = [ctx.python, _RUNNER, _MANIFEST, Path(generator["path"]).name if base else generator["path"]]
    argv += args
    seeded = seed is not None and "--seed" in generator["text"]
    argv += ["--seed", str(seed)] if seeded else []
    run = steps.run_step(ctx, argv, gen_dir / folder if base else gen_dir, _STEP_LIMITS)
    if not run.ok:
        return {"reason": f"generator: did not run ({run.outcome}: {_last_line(run)})"}
    wrote, _ = steps.written_files(gen_dir, put)
    wrote = {k.removeprefix(base): v for k, v in wrote.items() if k.startswith(base) and k != base + _RUNNER}
    try:
        manifest = json.loads(wrote.pop(_MANIFEST, b"{}"))
    except ValueError:
        manifest = {}

    def meta(path: str) -> dict[str, Any] | None:
        m = manifest.get(path) if isinstance(manifest, dict) else None
        data = wrote.get(path)
        if not isinstance(m, dict) or data is None or m.get("nbytes") != len(data):
            return None
        return {"dtype": str(m["dtype"]), "shape": [int(n) for n in m["shape"]]}

    inputs = []
    for path, name in found.inputs.items():
        info = meta(path)
        if info is None:
            return {"reason": f"generator: wrote no {path} with a recorded dtype"}
        inputs.append({"name": name, "file": path, **info})
    outputs = []
    for n, (path, expression) in enumerate(found.goldens.items()):
        info = meta(path)
        if info is None:
            return {"reason": f"generator: wrote no golden {path} with a recorded dtype"}
        if info["dtype"] not in compare._table():
            return {"reason": f"no tolerance rule for the golden's dtype {info['dtype']}"}
        check = _evaluate(
            expression, inputs, {"file": path, **info}, wrote, workdir / f"statement-eval-{n}", ctx, found.kind
        )
        if "reason" in check:
            return check
        name = Path(path).stem.removeprefix("golden_").removeprefix("output_") or "y"
        outputs.append({"name": "y" if name == "golden" else name, "file": path, "reference": expression, **info})
        outputs[-1]["check"] = check
    atol, rtol = compare.tolerance(outputs[0]["dtype"])
    form = {
        "source": f"{generator['path']}:{found.line}",
        "reference_kind": found.kind,
        "reference": outputs[0]["reference"] if len(outputs) == 1 else "",
        "inputs": inputs,
        "outputs": outputs,
        "attrs": {},
        "tolerance": {"atol": atol, "rtol": rtol},
        "gate": {"how": "evaluated in the sandbox on the generator's inputs", "seed": seed if seeded else None},
    }
    return {"statement": form}


def _evaluate(
    expression: str,
    inputs: list[dict[str, Any]],
    golden: dict[str, Any],
    wrote: dict[str, bytes],
    eval_dir: Path,
    ctx: steps.Context,
    kind: str = "numpy expression",
) -> dict[str, Any]:
    """The expression on copies of the inputs in a fresh sandbox dir (isolated Python: the generator's own files are
    not there to shadow numpy); the result compared on the host with the golden, verify's rule and tolerance."""
    eval_dir.mkdir()
    spec = {
        "kind": kind,
        "expression": expression,
        "inputs": {
            t["name"]: {"file": f"in{i}.bin", "dtype": t["dtype"], "shape": t["shape"]} for i, t in enumerate(inputs)
        },
        "out_dtype": golden["dtype"],
        "out_file": "result.bin",
    }
    put = {f"in{i}.bin": wrote[t["file"]] for i, t in enumerate(inputs)}
    put[_EVAL] = package_data("annotate/data/statement_eval.py").read_bytes()
    put["spec.json"] = json.dumps(spec).encode()
    files.write_tree(eval_dir, put)
    run = steps.run_step(ctx, [ctx.python, "-I", _EVAL, "spec.json"], eval_dir, _STEP_LIMITS)
    result = files.read_file(eval_dir, "result.bin")
    if not run.ok or result is None:
        return {"reason": f"reference: does not evaluate ({_last_line(run)})"}
    dtype = compare.numpy_dtype(golden["dtype"])
    golden_bytes = wrote[golden["file"]]
    if len(result) % dtype.itemsize or len(golden_bytes) % dtype.itemsize:
        return {"reason": "reference: result size is not a whole number of elements"}
    got = compare.compare(np.frombuffer(result, dtype), np.frombuffer(golden_bytes, dtype), golden["dtype"])
    if not got["ok"]:
        return {"reason": f"reference: does not reproduce the golden ({got['mismatches']} of {got['n']} elements)"}
    return {"max_abs_err": got["max_abs_err"], "n": got["n"]}


def _last_line(run: sandbox.SandboxResult) -> str:
    lines = (run.stderr or "").strip().splitlines()
    return lines[-1][:120] if lines else run.outcome
