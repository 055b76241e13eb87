"""The generic harness: verify a kernel from a task spec (`verify_spec.toml`, format in README) against numpy.

Per seed: draw inputs with numpy, run the spec's reference (in the sandbox: it is crawled code too), run a generated
C++ main that GmAllocs inputs/outputs/workspace/tiling, fills the tiling struct by field name, launches the entry with
ICPU_RUN_KF and writes the outputs; compare each output with the dtype's tolerance (or the spec's own).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import string
import time
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from ..paths import package_data
from . import build as buildmod
from . import compare, sandbox, steps
from .units import materialise, safe_relpath
from .verdict import Verdict

SPEC_NAME = "verify_spec.toml"
MAIN_NAME = "cotbuilder_spec_main.cpp"
BINARY = "cotbuilder_spec_kernel"
_ARR_FIELD = re.compile(r"TILING_DATA_FIELD_DEF_ARR\s*\(\s*([\w:]+)\s*,\s*(\d+)\s*,\s*(\w+)\s*\)")


class SpecError(ValueError):
    """The spec cannot be turned into a harness (message says why)."""


def find_spec(unit: dict[str, Any]) -> dict[str, Any] | None:
    for f in unit["files"]:
        if f["path"] == SPEC_NAME or f["path"].endswith("/" + SPEC_NAME):
            return f
    return None


def load_spec(text: str) -> dict[str, Any]:
    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{SPEC_NAME}: {exc}") from exc
    for key in ("kernel", "entry", "inputs", "outputs"):
        if key not in spec:
            raise SpecError(f"{SPEC_NAME}: missing `{key}`")
    if safe_relpath(spec["kernel"]) is None:
        raise SpecError(f"{SPEC_NAME}: kernel path {spec['kernel']!r} leaves the unit folder")
    for item in spec["inputs"] + spec["outputs"]:
        compare.tolerance(item["dtype"])  # raises for an unknown dtype
        item["dtype"] = compare.canonical_dtype(item["dtype"])
    return spec


def _nbytes(item: dict[str, Any]) -> int:
    return int(np.prod(item["shape"])) * compare.numpy_dtype(item["dtype"]).itemsize


def make_inputs(spec: dict[str, Any], seed: int, workdir: Path) -> None:
    rng = np.random.default_rng(seed)
    (workdir / "input").mkdir(exist_ok=True)
    for item in spec["inputs"]:
        dtype, shape = item["dtype"], item["shape"]
        if np.issubdtype(compare.numpy_dtype(dtype), np.integer) and dtype != compare.BF16:
            info = np.iinfo(compare.numpy_dtype(dtype))
            low, high = int(item.get("low", max(info.min, -100))), int(item.get("high", min(info.max, 100)))
            values = rng.integers(low, high, size=shape, endpoint=True).astype(compare.numpy_dtype(dtype))
        elif dtype == "bool":
            values = rng.integers(0, 1, size=shape, endpoint=True).astype(np.bool_)
        else:
            raw = rng.uniform(float(item.get("low", -1.0)), float(item.get("high", 1.0)), size=shape)
            values = compare.float_to_bf16_bits(raw) if dtype == compare.BF16 else raw.astype(dtype)
        values.tofile(workdir / "input" / f"{item['name']}.bin")


def _c_literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(int(value))


def _tiling_struct(spec: dict[str, Any], header_text: str) -> str:
    name = spec.get("tiling_struct", "TilingData")
    if "::" not in name and re.search(r"namespace\s+optiling\b", header_text):
        return f"optiling::{name}"
    return name


def generate_main(spec: dict[str, Any], header_text: str) -> str:
    """The C++ main for one spec (pure: spec + tiling header text in, source text out)."""
    lines_alloc, lines_dump, lines_free, args = [], [], [], []
    for kind, items in (("in", spec["inputs"]), ("out", spec["outputs"])):
        for item in items:
            var, nbytes = f"cb_{kind}_{item['name']}", _nbytes(item)
            lines_alloc.append(f"    uint8_t* {var} = (uint8_t*)AscendC::GmAlloc({nbytes});")
            if kind == "in":
                lines_alloc.append(f'    if (!cotbuilder_read("input/{item["name"]}.bin", {var}, {nbytes})) return 2;')
            else:
                lines_alloc.append(f"    std::memset({var}, 0, {nbytes});")
                lines_dump.append(f'    if (!cotbuilder_write("output/{item["name"]}.bin", {var}, {nbytes})) return 2;')
            lines_free.append(f"    AscendC::GmFree({var});")
            args.append(var)
    ws = max(int(spec.get("workspace_bytes", 0)), 32)
    lines_alloc.append(f"    uint8_t* cb_workspace = (uint8_t*)AscendC::GmAlloc({ws});")
    lines_alloc.append(f"    std::memset(cb_workspace, 0, {ws});")
    lines_free.append("    AscendC::GmFree(cb_workspace);")
    fill: list[str] = []
    tiling_values = spec.get("tiling", {})
    if spec.get("tiling_header"):
        arrays = {m.group(3): m.group(1) for m in _ARR_FIELD.finditer(header_text)}
        fill.append(f"    {_tiling_struct(spec, header_text)} cb_tiling_data;")
        for field, value in tiling_values.items():
            if not re.fullmatch(r"[A-Za-z_]\w*", field):
                raise SpecError(f"tiling field name {field!r} is not an identifier")
            if isinstance(value, list):
                elem = arrays.get(field, "uint32_t")
                fill.append(
                    f"    {{ static {elem} cb_v[] = {{{', '.join(_c_literal(v) for v in value)}}}; "
                    f"cb_tiling_data.set_{field}(cb_v); }}"
                )
            elif isinstance(value, dict):
                raise SpecError(f"tiling field {field}: nested struct values are not supported")
            else:
                fill.append(f"    cb_tiling_data.set_{field}({_c_literal(value)});")
        fill.append("    size_t cb_tiling_bytes = cb_tiling_data.GetDataSize();")
        fill.append("    uint8_t* cb_tiling = (uint8_t*)AscendC::GmAlloc(cb_tiling_bytes + 64);")
        fill.append("    std::memset(cb_tiling, 0, cb_tiling_bytes + 64);")
        fill.append("    cb_tiling_data.SaveToBuffer(cb_tiling, cb_tiling_bytes + 64);")
    elif tiling_values:
        raise SpecError("[tiling] values given but no tiling_header to lay them out")
    else:
        fill.append("    uint8_t* cb_tiling = (uint8_t*)AscendC::GmAlloc(64);")
        fill.append("    std::memset(cb_tiling, 0, 64);")
    lines_free.append("    AscendC::GmFree(cb_tiling);")
    args += ["cb_workspace", "cb_tiling"]
    key = spec.get("tiling_key")
    template = string.Template(package_data("verify/data/spec_main.cpp.tmpl").read_text(encoding="utf-8"))
    return template.substitute(
        tiling_include=(
            f'#include "{spec["tiling_header"]}"\n#undef COTBUILDER_TILING_TYPE\n'
            f"#define COTBUILDER_TILING_TYPE {_tiling_struct(spec, header_text)}"
            if spec.get("tiling_header")
            else ""
        ),
        kernel=spec["kernel"],
        alloc="\n".join(lines_alloc),
        tiling_fill="\n".join(fill),
        tiling_key=f"    ICPU_SET_TILING_KEY({int(key)});" if key is not None else "",
        entry=spec["entry"],
        block_dim=int(spec.get("block_dim", 1)),
        args=", ".join(args),
        dump="\n".join(lines_dump),
        free="\n".join(lines_free),
    )


def _digest(workdir: Path, paths: list[str]) -> str:
    h = hashlib.sha256()
    for rel in sorted(paths):
        h.update(rel.encode() + b"\0" + (workdir / rel).read_bytes() + b"\0")
    return h.hexdigest()


def verify_spec(unit: dict[str, Any], workdir: Path, ctx: steps.Context) -> Verdict:
    timings: dict[str, Any] = {}
    start = time.monotonic()
    paths = materialise(unit, workdir)
    spec_file = find_spec(unit)
    assert spec_file is not None
    base = str(Path(spec_file["path"]).parent) if "/" in spec_file["path"] else "."
    try:
        spec = load_spec(spec_file["text"])
        header = workdir / base / spec["tiling_header"] if spec.get("tiling_header") else None
        header_text = header.read_text(encoding="utf-8") if header and header.is_file() else ""
        main = generate_main(spec, header_text)
    except (SpecError, ValueError, KeyError, TypeError, OSError) as exc:
        return Verdict("failed_run", f"bad {SPEC_NAME}: {exc}", "spec", timings=timings)
    (workdir / base / MAIN_NAME).write_text(main, encoding="utf-8")
    sources = [str(Path(base) / MAIN_NAME)]
    includes = sorted(
        {".", base} | {str(Path(base) / d) for d in ("op_kernel", "op_host") if (workdir / base / d).is_dir()}
    )
    result = buildmod.build(
        workdir,
        sources,
        includes,
        ctx.soc,
        ctx.cache_dir,
        _digest(workdir, paths + sources),
        ctx.pch,
        BINARY,
        ctx.opt,
        ctx.use_cache,
    )
    timings.update(compile_s=round(result.seconds, 3), cached_build=result.cached, pch=bool(ctx.pch and ctx.pch.header))
    if not result.ok:
        return steps.compile_failure(result, timings, "spec")
    shutil.copy(package_data("verify/data/reference_runner.py"), workdir / "cotbuilder_reference.py")
    (workdir / "cotbuilder_reference.json").write_text(
        json.dumps(
            {"code": spec.get("reference", {}).get("python", ""), "inputs": spec["inputs"], "outputs": spec["outputs"]}
        )
    )
    tol = spec.get("tolerance", {})
    verdict = Verdict("passed", harness="spec", compile_ok=True, compile_log=result.log, timings=timings)
    logs, ref_s, run_s = [], 0.0, 0.0
    for seed in spec.get("seeds", list(ctx.seeds)):
        for d in ("input", "output", "expected"):
            shutil.rmtree(workdir / d, ignore_errors=True)
        (workdir / "output").mkdir()
        make_inputs(spec, int(seed), workdir)
        ref = sandbox.run([ctx.python, "cotbuilder_reference.py", "cotbuilder_reference.json"], workdir, ctx.limits)
        ref_s += ref.wall_s
        if (stop := steps.stopped(ref, "reference")) is not None:
            verdict.status, verdict.reason = stop
            verdict.run_log = (ref.stdout + ref.stderr)[-5000:]
            break
        run, diags, log = steps.run_binary(workdir, BINARY, ctx)
        run_s += run.wall_s
        verdict.diagnostics.extend(d for d in diags if d not in verdict.diagnostics)
        logs.append(f"[seed {seed}] {log}")
        stop = steps.stopped(run, "kernel")
        if stop is not None and not steps.ended_by_diagnostics(run, diags):
            verdict.status, verdict.reason, verdict.run_ok = stop[0], stop[1], False
            break
        verdict.run_ok = stop is None
        outputs = []
        for item in spec["outputs"]:
            np_dtype = compare.numpy_dtype(item["dtype"])
            got = workdir / "output" / f"{item['name']}.bin"
            actual = np.fromfile(got, dtype=np_dtype) if got.is_file() else np.zeros(0, np_dtype)
            expected = np.fromfile(workdir / "expected" / f"{item['name']}.bin", dtype=np_dtype)
            outputs.append(
                {
                    "name": item["name"],
                    **compare.compare(actual, expected, item["dtype"], tol.get("atol"), tol.get("rtol")),
                }
            )
        case = {"seed": int(seed), "outputs": outputs, "ok": all(o["ok"] for o in outputs)}
        verdict.cases.append(case)
        if not case["ok"]:
            verdict.correct = False
            if not verdict.reason:
                bad = next(o for o in outputs if not o["ok"])
                verdict.reason = (
                    f"seed {seed}: {bad['name']} {bad['mismatches']}/{bad['n']} elements off "
                    f"(max abs {bad['max_abs_err']}, atol {bad['atol']}, rtol {bad['rtol']})"
                )
    else:
        if verdict.cases:
            verdict.correct = verdict.correct is not False
    verdict.run_log = "\n".join(logs)
    timings.update(reference_s=round(ref_s, 3), run_s=round(run_s, 3), total_s=round(time.monotonic() - start, 3))
    return steps.judge(verdict)
