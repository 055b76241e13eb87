"""The benchmark-validation harness: a task in NPUKernelBench's layout - the op in `answer/<n>/`, the validation in
`validation/{module.py, prepare_inputs.py, test_cases.csv, pybind.cpp}` - verified the way the benchmark validates
an answer, with the reference run on CPU (PyTorch, the `torch` extra) and the kernel on the emulator. Each row of
test_cases.csv is a case; each step runs in a fresh sandbox dir:

1. golden: `get_inputs(row)` (seeded) and the reference `Model` on them; the inputs and Model's outputs are copied
   out, the outputs sealed as the goldens;
2. build: the binding (`pybind.cpp`, with the benchmark's own `aclnnCustomOp` / `custom_pybind_api` substitution)
   against cotbuilder's torch-extension shim, with the op (only the kernel variants the cases' dtypes need);
3. kernel: the task's `ModelNew` on the inputs (never the goldens); each call of its binding runs the binary and is
   recorded (arguments, results);
4. replay: every recorded call is run again by cotbuilder itself, binary only, in a dir of its own. The case is
   compared only when ModelNew's outputs are exactly what the binding returned and the binding got the case's
   inputs - so a ModelNew that computes the answer itself (or feeds the reference to the kernel) never passes;
   the replayed results are what is compared with the goldens, with the benchmark's rule (an element fails beyond
   both 1e-3 absolute and 1e-3 relative; a non-finite value where the reference is finite fails);
5. a task's `custom_check_precision` runs on copies, in a step of its own, where the default rule fails: when the
   check is only the benchmark's rule with tolerances of its own (one `check_precision` call on the outputs it was
   handed, its result returned), or behaves as that rule on probes (its element-wise threshold measured at several
   magnitudes), cotbuilder compares again with those tolerances and, when that passes, the case passes; a check of
   another shape is evidence only: where only it accepts, the case is left `unchecked`.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import posixpath
import re
import time
from pathlib import Path
from typing import Any

import numpy as np

from . import diagnostics, files, goldens, steps
from .harness_aclnn import described_ops, own_aclnn_gap
from .opproject import aclnn_gen, dtypes, layout, opapi
from .opproject import build as opbuild
from .opproject import run as oprun
from .verdict import Verdict

HARNESS = "benchmark"
SHIM_GAP = "COTBUILDER_SHIM_GAP"  # bench_runner.py's mark on a conversion its kernel_gen_ops stand-in lacks
INIT_MISMATCH = "COTBUILDER_INIT_MISMATCH"  # and on get_init_inputs drawing another structure than for the reference
BINARY = "cotbuilder_binding"
RUNNER = "cotbuilder_bench_runner.py"
ATOL = RTOL = 1e-3  # NPUKernelBench's default precision rule
MAX_CASES = 8
_CALL_DIR = re.compile(r"^k/calls/(call_\d+)/(.+)$")


def validation_dir(unit: dict[str, Any]) -> str | None:
    for f in unit["files"]:
        if f.get("role") == "validation" and f["path"].endswith("/module.py"):
            return posixpath.dirname(f["path"])
    return None


def cases(unit: dict[str, Any], folder: str) -> list[dict[str, str]]:
    text = next((f["text"] for f in unit["files"] if f["path"] == f"{folder}/test_cases.csv"), "")
    rows = list(csv.DictReader(io.StringIO(text), delimiter=";"))
    return [{k.strip(): (v or "").strip() for k, v in row.items() if k} for row in rows][:MAX_CASES]


def _validation_files(unit: dict[str, Any], folder: str) -> dict[str, bytes]:
    return {p: d for p, d in oprun.unit_tree(unit).items() if p.startswith(folder + "/")}


def _binding(unit: dict[str, Any], folder: str, op_type: str) -> str:
    """pybind.cpp with the benchmark's own placeholder substitution (aclnnCustomOp -> aclnn<Op>, custom_pybind_api
    -> <op_snake>), as its build script does before compiling."""
    text = next(f["text"] for f in unit["files"] if f["path"] == f"{folder}/pybind.cpp")
    return text.replace("aclnnCustomOp", f"aclnn{op_type}").replace("custom_pybind_api", aclnn_gen.snake(op_type))


_EXEC = re.compile(r"\bEXEC_NPU_CMD\s*\(\s*(aclnn\w+)")


def _own_layer(unit: dict[str, Any], folder: str) -> tuple[opapi.OpApiLayer, str] | None:
    """The answer's hand-written aclnn layer the binding calls (EXEC_NPU_CMD(aclnnX, ...) names aclnnX, whose
    first phase is aclnnXGetWorkspaceSize), and the answer's header that declares it; None when it calls another."""
    texts = {f["path"]: f["text"] for f in unit["files"]}
    called = [f"{name}GetWorkspaceSize(" for name in _EXEC.findall(texts.get(f"{folder}/pybind.cpp", ""))]
    layer = opapi.layer_for(layout.layout(unit), texts.get, called, described_ops(unit))
    if layer is None:
        return None
    for path, text in sorted(texts.items()):
        if path.endswith(".h") and "/op_host/" in f"/{path}" and any(c in text for c in called):
            return layer, path
    return None


def _op_type(unit: dict[str, Any], folder: str) -> str | None:
    text = next((f["text"] for f in unit["files"] if f["path"] == f"{folder}/pybind.cpp"), "")
    named = [n for n in re.findall(r"\baclnn(\w+?)(?:GetWorkspaceSize)?\b", text) if n != "CustomOp"]
    return named[0] if named else unit.get("name")


def _argument_dtypes(inputs: list[dict]) -> list[int]:
    """The dtype code of each of Model's arguments, in order: an argument that is a list of tensors (a dynamic
    param) counts once, by its first tensor, so position i lines up with the OpDef's i-th input."""
    combo, seen = [], set()
    for i, m in enumerate(inputs):
        arg = m.get("arg", f"tensor {i}")
        if arg in seen:
            continue
        seen.add(arg)
        d = dtypes.by_numpy(m["dtype"])
        combo.append(d.code if d else -1)
    return combo


def verify_bench(unit: dict[str, Any], unit_dir: Path, ctx: steps.Context) -> Verdict:
    timings: dict[str, Any] = {}
    start = time.monotonic()
    folder = validation_dir(unit)
    rows = cases(unit, folder) if folder else []
    if not rows or not any(f["path"] == f"{folder}/pybind.cpp" for f in unit["files"]):
        return Verdict("unsupported", "benchmark validation without test_cases.csv rows or pybind.cpp", HARNESS)
    base = {**_validation_files(unit, folder), RUNNER: oprun.script("bench_runner.py")}
    # 1. goldens, for every case (their inputs' dtypes decide which kernel variants are built)
    made: list[tuple[dict, goldens.Sealed, dict[str, bytes], dict]] = []
    for i, row in enumerate(rows):
        case_json = json.dumps({"row": row, "index": i, "seed": i}).encode()
        work = steps.fresh_dir(unit_dir, f"golden-{i}")
        put = {**base, "case.json": case_json}
        files.write_tree(work, put)
        gen = steps.run_step(ctx, [ctx.python, RUNNER, "golden", folder, "case.json", "g"], work, preload=steps.TORCH)
        if (stop := steps.stopped(gen, "reference")) is not None:
            status, reason = stop
            if status == "unsupported" and "torch" in reason:
                reason += " (install the torch extra: pip install -e '.[torch]')"
            elif status == "failed_run":  # the benchmark's own reference failed (often a torch op CPU lacks): the
                # answer never ran, so nothing may be said of it
                status, reason = "unsupported", f"benchmark {reason} - the answer was not run"
            return Verdict(status, reason, HARNESS, run_log=(gen.stdout + gen.stderr)[-5000:], timings=timings)
        wrote, _ = steps.written_files(work, put)
        manifest = json.loads(wrote.get("g/manifest.json", b"{}") or b"{}")
        sealed = goldens.Sealed()
        for j, meta in enumerate(manifest.get("goldens", [])):
            data = wrote.get(f"g/goldens/{meta['file']}")
            if data is not None:
                sealed.goldens[f"golden_{j}.bin"] = goldens.Golden(data, meta["dtype"])
        inputs = {p: d for p, d in wrote.items() if p.startswith(("g/inputs/", "g/init/"))}
        inputs["g/manifest.json"] = json.dumps({**manifest, "goldens": []}).encode()  # the kernel step gets no golden
        made.append((row, sealed, inputs, manifest))
    wanted = []
    for _, _, _, manifest in made:
        combo = _argument_dtypes(manifest.get("inputs", []))
        if combo and combo not in wanted:
            wanted.append(combo)
    # 2. build
    op_type = _op_type(unit, folder)
    spec = opbuild.Spec(
        sources=["pybind_bound.cpp", "pybind_main.cpp"],
        op_type=op_type,
        generated={"pybind_main.cpp": oprun.script("pybind_main.cpp").decode()},
        input_dtypes=wanted or None,
        # neither reads a file of the answer: the main is one object for every task, the binding one per task
        standalone=frozenset({"pybind_main.cpp", "pybind_bound.cpp"}),
    )
    spec.generate = lambda op: {"pybind_bound.cpp": _binding(unit, folder, op["type"])}
    spec.forced = {"pybind_bound.cpp": []}
    own = _own_layer(unit, folder)
    if own is not None:  # the binding calls the answer's hand-written aclnn layer (opapi.py): its header, not ours
        spec.opapi, header_path = own
        spec.op_type = spec.opapi.op_type(described_ops(unit)) or spec.op_type
        spec.forced = {"pybind_bound.cpp": [header_path]}
        spec.standalone = frozenset({"pybind_main.cpp"})  # the binding sees the answer's header
    else:
        spec = _with_header(spec)
    result = oprun.build(unit, unit_dir, ctx, spec, BINARY)
    timings.update(oprun.build_timings(result))
    if not result.ok and spec.opapi is not None:
        return oprun.failed_build(result, HARNESS, timings)
    if not result.ok:
        return own_aclnn_gap(
            oprun.failed_build(result, HARNESS, timings), result.stage, unit, "the benchmark's binding"
        )
    header, struct = oprun.tiling_header_of(unit, result.op["type"] if result.op else None)
    verdict = Verdict("passed", harness=HARNESS, compile_ok=True, compile_log=result.log, timings=timings)
    logs = []
    for i, (row, sealed, inputs, manifest) in enumerate(made):
        case = _case(
            unit_dir, ctx, i, row, base, sealed, inputs, manifest, result.binary, folder, verdict, logs, header, struct
        )
        verdict.cases.append(case)
        if case.get("stop"):
            verdict.status, verdict.reason = case["stop"]
            verdict.run_ok = False
            break
    verdict.run_log = "\n".join(logs)
    timings["total_s"] = round(time.monotonic() - start, 3)
    return steps.judge(verdict)


def _with_header(spec: opbuild.Spec) -> opbuild.Spec:
    """The binding TU gets the generated aclnn header forced in (its EXEC_NPU_CMD names the op's API)."""
    inner = spec.generate

    def generate(op: dict[str, Any]) -> dict[str, str]:
        spec.forced["pybind_bound.cpp"] = [aclnn_gen.header_name(op["type"])]
        return inner(op) if inner else {}

    spec.generate = generate
    return spec


def _case(unit_dir, ctx, i, row, base, sealed, inputs, manifest, binary, folder, verdict, logs, header, struct):
    case: dict[str, Any] = {"case": row, "goldens": {rel: g.sha256 for rel, g in sealed.goldens.items()}}
    # 3. ModelNew with the binding
    work = steps.fresh_dir(unit_dir, f"kernel-{i}")
    # the row typed as in the reference step (bench_runner._row reads test_cases.csv at this index)
    case_json = json.dumps({"row": row, "index": i, "seed": i}).encode()
    put = {**base, **inputs, "case.json": case_json, BINARY: binary}
    files.write_tree(work, put, executable=(BINARY,))
    run = steps.run_step(
        ctx,
        [ctx.python, RUNNER, "kernel", folder, "case.json", "g", "k", f"./{BINARY}"],
        work,
        env=steps.run_env(ctx),
        preload=steps.TORCH,
    )
    diags, rest = diagnostics.parse_emulator_diagnostics(run.stderr)
    verdict.diagnostics.extend(d for d in diags if d not in verdict.diagnostics)
    logs.append(f"[case {i}] " + (run.stdout[-2000:] + "\n" + oprun.host_result.strip(rest)[-3000:]).strip())
    case["host"] = oprun.host_case_record(run.stderr, header, struct)
    wrote, unsafe = steps.written_files(work, put)
    if planted := steps.planted(work, unsafe):
        case["stop"] = ("sandbox_violation", f"kernel: {planted}")
        return case
    if (host := oprun.host_stop(run.stderr, run)) is not None:
        case["stop"] = host
        return case
    if (stop := steps.stopped(run, "ModelNew")) is not None and not steps.ended_by_diagnostics(run, diags):
        if stop[0] == "failed_run" and INIT_MISMATCH in run.stderr:  # forged, it only turns a verdict into none
            stop = ("unsupported", "benchmark: " + _after_mark(run.stderr, INIT_MISMATCH)[:160])
        elif stop[0] == "failed_run" and SHIM_GAP in run.stderr:
            stop = _shim_gap(_after_mark(run.stderr, SHIM_GAP))
        elif stop[0] == "failed_run" and "COTBUILDER_BIND_ERROR" in run.stderr:
            bind = _after_mark(run.stderr, "COTBUILDER_BIND_ERROR")
            stop = ("failed_run", f"binding: {bind[:200]}")
        case["stop"] = stop
        return case
    out_manifest = json.loads(wrote.get("k/manifest.json", b"{}") or b"{}")
    outputs = {
        f"output_{j}.bin": wrote.get(f"k/outputs/{m['file']}", b"")
        for j, m in enumerate(out_manifest.get("outputs", []))
    }
    calls = _calls(wrote)
    case["calls"] = len(calls)
    # 4. replay every call, binary only; map ModelNew's outputs onto the binding's results
    replayed = _replay(unit_dir, ctx, i, calls, binary, verdict)
    out_dtypes = {f"output_{j}.bin": m.get("dtype", "") for j, m in enumerate(out_manifest.get("outputs", []))}
    origins = _origins(outputs, out_dtypes, calls)
    problem = _provenance(origins, inputs, calls, manifest)
    if problem:
        case.update({"check": "none", "ok": None, "why": problem})
        return case
    compared = {}
    for name, (call, index, cast) in origins.items():
        result = replayed.get((call, index), b"")
        compared[name] = _cast(result, cast, out_dtypes[name]) if cast else result
    if len(outputs) != len(sealed.goldens):
        case.update(
            {
                "check": "none",
                "ok": None,
                "why": f"ModelNew returned {len(outputs)} tensors, the reference {len(sealed.goldens)}",
            }
        )
        return case
    pairs = [(f"output_{j}.bin", f"golden_{j}.bin") for j in range(len(outputs))]
    as_compared, compared = goldens.promoted(sealed, compared, pairs, out_dtypes)
    case.update(goldens.judge_case(as_compared, compared, atol=ATOL, rtol=RTOL, pairs=pairs))
    if case["ok"] is False and manifest.get("custom_check"):
        evidence = _custom_check(unit_dir, ctx, i, base, row, inputs, sealed, out_manifest, outputs, manifest, folder)
        case["evidence"] = evidence
        tolerance = evidence.get("tolerance")
        if evidence.get("accepted") and tolerance:
            # the task's rule is the benchmark's with its own tolerances (declared, or measured by the check step):
            # cotbuilder compares again with them
            own = goldens.judge_case(as_compared, compared, atol=tolerance["atol"], rtol=tolerance["rtol"], pairs=pairs)
            if own["ok"]:
                atol, rtol = tolerance["atol"], tolerance["rtol"]
                how = "as measured on probes" if tolerance["measured"] else "as it declares"
                why = f"judged with the task's own tolerances (its custom_check_precision, {how}: atol {atol:g}, rtol {rtol:g})"
                case.update(own, why=why)
        if case["ok"] is False and evidence.get("accepted"):
            case["ok"], case["why"] = (
                None,
                "only the task's own custom_check_precision accepts it: " + case.get("why", ""),
            )
    if case["ok"] is False and rounding_only(case["outputs"]):
        dtype = next(r["dtype"] for r in case["outputs"] if r.get("ok") is False)
        case["ok"], case["why"] = (
            None,
            f"every differing element is within {MAX_DEVICE_ULPS} {dtype} steps of the CPU "
            "reference: the benchmark's golden comes from the NPU, whose 16-bit arithmetic the CPU reference may "
            "not reproduce, so a rounding difference says nothing either way: " + case.get("why", ""),
        )
    return case


# How far (in steps of the output's 16-bit float type) an answer may differ from the CPU reference and be left open
# instead of wrong. NPUKernelBench's golden is the reference run on the NPU (torch_npu), whose ops may compute float16
# / bfloat16 in the dtype where CPU torch computes them in float32 and rounds once: a chain of two or three 16-bit ops
# ends up to two steps away. Which one the NPU does per op is not known here, so such a case says nothing either
# way. The rule fails a bfloat16 element one step off (a step is 0.4-0.8% of the value) and a float16 element two
# steps off (0.1-0.2%), so without this the CPU's rounding would be called the kernel's error.
MAX_DEVICE_ULPS = 2


# The Python types torch's own extension binding converts (to a c10::Scalar, at::Device, c10::Layout, ...) that
# bench_runner's stand-in for the compiled module does not. A ModelNew passing one of them meets cotbuilder's gap
# (`unsupported`); any other unconvertible value (a dict, a numpy array) torch would refuse too: the answer's
# `failed_run`. The mark comes from ModelNew's own process, so it is read only as a claim about a type: a ModelNew
# printing it for another type gains nothing, and one naming a type here could as well pass such a value.
TORCH_CONVERTS = frozenset({"complex", "device", "layout", "memory_format", "Generator"})
_GAP_TYPE = re.compile(r"cannot pass an? (\w+)\s*$")


def _after_mark(stderr: str, mark: str) -> str:
    """The rest of the line the runner's first `mark` starts (what it says about the stop)."""
    return (stderr.split(mark, 1)[1].strip().splitlines() or [""])[0]


def _shim_gap(said: str) -> tuple[str, str]:
    """The stop for a ModelNew that ended on the stand-in's gap mark (`said`: the mark's line after it)."""
    m = _GAP_TYPE.search(said)
    if m and m.group(1) in TORCH_CONVERTS:
        return "unsupported", f"cotbuilder's binding module cannot do this: {said[:200]}"
    return "failed_run", f"ModelNew passed the binding a value no torch binding converts: {said[:200]}"


def rounding_only(outputs: list[dict[str, Any]]) -> bool:
    """Whether every output that failed is a float16/bfloat16 one whose differing elements are all finite and within
    MAX_DEVICE_ULPS steps of the reference."""
    failed = [r for r in outputs if r.get("ok") is False]
    return bool(failed) and all(
        "error" not in r
        and not r.get("nonfinite_bad")
        and r.get("max_ulp") is not None
        and r["max_ulp"] <= MAX_DEVICE_ULPS
        for r in failed
    )


def _calls(wrote: dict[str, bytes]) -> dict[str, dict[str, bytes]]:
    out: dict[str, dict[str, bytes]] = {}
    for path, data in wrote.items():
        m = _CALL_DIR.match(path)
        if m:
            out.setdefault(m.group(1), {})[m.group(2)] = data
    return dict(sorted(out.items(), key=lambda kv: int(kv[0].split("_")[1])))


def _results(call: dict[str, bytes]) -> list[tuple[int, bytes, str]]:
    """The tensors a call returned: (index, bytes, dtype)."""
    try:
        result = json.loads(call.get("result.json", b"{}"))
    except ValueError:
        return []
    tensors = []

    def walk(r):
        if r.get("kind") == "tensor":
            tensors.append((r["file"], r.get("dtype", "")))
        for x in r.get("items", []):
            walk(x)

    walk(result)
    return [(k, call.get(f, b""), dtype) for k, (f, dtype) in enumerate(tensors)]


# Casts that keep every value of the narrower dtype, as ModelNew may apply them to what the binding returned (the
# benchmark's Equal: `kernel_gen_ops.equal(...).to(dtype=torch.int)` of a bool result): the output is still the
# kernel's work, all of it, so the replayed result is cast the same way and compared.
_EXACT_CASTS = {
    "bool": ("int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64"),
    "int8": ("int16", "int32", "int64", "float16", "float32", "float64"),
    "uint8": ("int16", "int32", "int64", "float16", "float32", "float64"),
    "int16": ("int32", "int64", "float32", "float64"),
    "int32": ("int64", "float64"),
    "float16": ("float32", "float64"),
    "float32": ("float64",),
}


def _cast(data: bytes, dtype: str, to: str) -> bytes:
    if len(data) % np.dtype(dtype).itemsize:  # not whole elements: left as is (it compares as wrong)
        return data
    return np.frombuffer(data, dtype=np.dtype(dtype)).astype(np.dtype(to)).tobytes()


Origin = tuple[str | None, int, str | None]  # (call, result index, the dtype it was cast from or None)


def _origin(data: bytes, dtype: str, calls: dict[str, dict[str, bytes]]) -> Origin:
    """The call and result index ModelNew's output is, and the dtype it was cast from (None: returned as is)."""
    results = [(name, index, result, rtype) for name, call in calls.items() for index, result, rtype in _results(call)]
    for name, index, result, _ in results:
        if result == data:
            return name, index, None
    for name, index, result, rtype in results:
        if dtype in _EXACT_CASTS.get(rtype, ()) and _cast(result, rtype, dtype) == data:
            return name, index, rtype
    return None, -1, None


def _origins(outputs: dict[str, bytes], out_dtypes: dict[str, str], calls: dict[str, dict[str, bytes]]):
    """Each of ModelNew's outputs' origin (_origin), found once: the provenance check and the comparison read it."""
    return {name: _origin(data, out_dtypes.get(name, ""), calls) for name, data in outputs.items()}


def _provenance(origins: dict[str, Origin], inputs, calls, manifest) -> str | None:
    """Why the case cannot be compared as the kernel's work, or None."""
    if not calls:
        return "ModelNew never called the kernel's binding: nothing the kernel wrote can be compared"
    for name, (call, _, _) in origins.items():
        if call is None:
            return f"ModelNew's {name} is not a tensor the binding returned (computed or changed outside the kernel)"
    args = {hashlib.sha256(d).hexdigest() for call in calls.values() for f, d in call.items() if f.startswith("arg_")}
    for meta in manifest.get("inputs", []):
        data = inputs.get(f"g/inputs/{meta['file']}")
        if data is not None and data and hashlib.sha256(data).hexdigest() not in args:
            return "the binding was not called with the case's inputs (ModelNew changed them first)"
    return None


def _replay(unit_dir, ctx, i, calls, binary, verdict) -> dict[tuple[str, int], bytes]:
    """Each recorded call run again by cotbuilder, binary only: its results are what gets compared."""
    out = {}
    for name, call in calls.items():
        work = steps.fresh_dir(unit_dir, f"replay-{i}-{name}")
        put = {f: d for f, d in call.items() if f == "call.json" or f.startswith("arg_")}
        put[BINARY] = binary
        files.write_tree(work, put, executable=(BINARY,))
        run = steps.run_step(ctx, [f"./{BINARY}"], work, env=steps.run_env(ctx))
        diags, _ = diagnostics.parse_emulator_diagnostics(run.stderr)
        verdict.diagnostics.extend(d for d in diags if d not in verdict.diagnostics)
        wrote, _ = steps.written_files(work, put)
        for index, data, _ in _results(wrote):
            out[(name, index)] = data
    return out


def _custom_check(unit_dir, ctx, i, base, row, inputs, sealed, out_manifest, outputs, manifest, folder) -> dict:
    work = steps.fresh_dir(unit_dir, f"check-{i}")
    put = {**base, "case.json": json.dumps({"row": row, "index": i, "seed": i}).encode()}
    gm = {**manifest, "goldens": [{**m, "file": f"{j}.bin"} for j, m in enumerate(manifest.get("goldens", []))]}
    put["g/manifest.json"] = json.dumps(gm).encode()
    put.update({f"g/goldens/{j}.bin": sealed.goldens[f"golden_{j}.bin"].data for j in range(len(sealed.goldens))})
    put["k/manifest.json"] = json.dumps(out_manifest).encode()
    put.update(
        {f"k/outputs/{m['file']}": outputs[f"output_{j}.bin"] for j, m in enumerate(out_manifest.get("outputs", []))}
    )
    files.write_tree(work, put)
    check = steps.run_step(ctx, [ctx.python, RUNNER, "check", folder, "case.json", "g", "k"], work, preload=steps.TORCH)
    said = (check.stdout + check.stderr).strip()
    evidence: dict[str, Any] = {"custom_check_precision": said[-500:], "accepted": False, "tolerance": None}
    for line in reversed(check.stdout.splitlines()):
        if line.startswith('{"custom_check_precision"'):
            with contextlib.suppress(ValueError, TypeError, KeyError):
                told = json.loads(line)
                evidence["accepted"] = told["custom_check_precision"] is True
                evidence["tolerance"] = _tolerance(told.get("tolerance"))
            break
    return evidence


# A task's tolerance above this (absolute, or relative to the reference) compares nothing worth the name: such a
# check stays evidence. NPUKernelBench's loosest is 0.2 (ForeachAddcdivList, bfloat16).
MAX_TASK_TOLERANCE = 0.5


def _tolerance(told: Any) -> dict[str, float] | None:
    """The check step's (atol, rtol), declared or measured, if it is two numbers in [0, MAX_TASK_TOLERANCE]."""
    if not isinstance(told, dict):
        return None
    values = [told.get("atol"), told.get("rtol")]
    if not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= MAX_TASK_TOLERANCE for v in values
    ):
        return None
    return {"atol": float(values[0]), "rtol": float(values[1]), "measured": told.get("measured") is True}
