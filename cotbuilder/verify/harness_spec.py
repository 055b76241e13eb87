"""The generic harness: verify a kernel from a task spec (`verify_spec.toml`, format in README) against numpy.

Per seed, each step in a fresh sandbox dir: cotbuilder draws the inputs with numpy (in the parent); the spec's
reference runs on them in its own sandbox (it is crawled code too) and its results are copied out and sealed as the
goldens; a generated C++ main that GmAllocs inputs/outputs/workspace/tiling, fills the tiling struct by field name,
launches the entry with ICPU_RUN_KF and writes the outputs runs in another dir holding only the binary and the inputs;
cotbuilder compares each output with its golden with the dtype's tolerance (or the spec's own).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import string
import time
import tomllib
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np

from ..paths import package_data
from . import build as buildmod
from . import compare, files, goldens, sandbox, steps
from .units import materialise, safe_relpath
from .verdict import Verdict

SPEC_NAME = "verify_spec.toml"
MAIN_NAME = "cotbuilder_spec_main.cpp"
BINARY = "cotbuilder_spec_kernel"
_ARR_FIELD = re.compile(r"TILING_DATA_FIELD_DEF_ARR\s*\(\s*([\w:]+)\s*,\s*(\d+)\s*,\s*(\w+)\s*\)")
_STRUCT_FIELD = re.compile(r"TILING_DATA_FIELD_DEF_STRUCT\s*\(\s*([\w:]+)\s*,\s*(\w+)\s*\)")


class SpecGap(ValueError):
    """The spec is fine but asks for something the generic harness cannot do (verdict `unsupported`)."""


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


def make_inputs(spec: dict[str, Any], seed: int) -> dict[str, bytes]:
    """{'input/<name>.bin': raw bytes} for one seed (drawn here, in the parent: no sandbox dir is touched)."""
    rng = np.random.default_rng(seed)
    out = {}
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
        buf = io.BytesIO()
        buf.write(np.ascontiguousarray(values).tobytes())
        out[f"input/{item['name']}.bin"] = buf.getvalue()
    return out


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
        for m in _STRUCT_FIELD.finditer(header_text):
            if not isinstance(tiling_values.get(m.group(2)), dict):
                raise SpecGap(
                    f"tiling field {m.group(2)} ({m.group(1)}) has no [tiling.{m.group(2)}] values: "
                    "the generic harness does not run the host tiling that fills it"
                )
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
                # a TILING_DATA_FIELD_DEF_STRUCT member (e.g. a TCubeTiling): one level of scalar fields
                for sub, sub_value in value.items():
                    if not re.fullmatch(r"[A-Za-z_]\w*", sub) or isinstance(sub_value, (dict, list)):
                        raise SpecError(f"tiling field {field}.{sub}: only scalar fields of a struct member")
                    fill.append(f"    cb_tiling_data.{field}.set_{sub}({_c_literal(sub_value)});")
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
    args = _launch_args(spec, args + ["cb_workspace", "cb_tiling"])
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


def _launch_args(spec: dict[str, Any], default: list[str]) -> list[str]:
    """The entry's arguments: `(inputs..., outputs..., workspace, tiling)`, or the spec's `launch_args` order - a
    kernel-launch entry takes only the GM buffers it uses (`add(x, y, z)`, `minmax(x, y, workspace)`)."""
    names = spec.get("launch_args")
    if names is None:
        return default
    var = {i["name"]: f"cb_in_{i['name']}" for i in spec["inputs"]}
    var |= {o["name"]: f"cb_out_{o['name']}" for o in spec["outputs"]}
    var |= {"workspace": "cb_workspace", "tiling": "cb_tiling"}
    unknown = [n for n in names if n not in var]
    if unknown or not isinstance(names, list):
        raise SpecError(f"launch_args names no input, output, workspace or tiling: {', '.join(map(str, unknown))}")
    return [var[n] for n in names]


def _digest(workdir: Path, paths: list[str]) -> str:
    h = hashlib.sha256()
    for rel in sorted(paths):
        h.update(rel.encode() + b"\0" + (workdir / rel).read_bytes() + b"\0")
    return h.hexdigest()


def _unit_text(unit: dict[str, Any], rel: str) -> str:
    """A unit file's text by its (normalised) path, read from the unit record: never from a sandbox dir."""
    want = PurePosixPath(rel)
    for f in unit["files"]:
        if PurePosixPath(f["path"]) == want:
            return f["text"]
    return ""


def _reference(
    ctx: steps.Context, spec: dict[str, Any], inputs: dict[str, bytes], workdir: Path
) -> tuple[Any, goldens.Sealed]:
    """Step 1: the spec's reference on the inputs, in its own sandbox dir; its results sealed as the goldens."""
    put = dict(inputs)
    put["cotbuilder_reference.py"] = package_data("verify/data/reference_runner.py").read_bytes()
    put["cotbuilder_reference.json"] = json.dumps(
        {"code": spec.get("reference", {}).get("python", ""), "inputs": spec["inputs"], "outputs": spec["outputs"]}
    ).encode()
    files.write_tree(workdir, put)
    code = spec.get("reference", {}).get("python", "")
    ref = steps.run_step(
        ctx,
        [ctx.python, "cotbuilder_reference.py", "cotbuilder_reference.json"],
        workdir,
        preload=steps.TORCH if re.search(r"^\s*(?:import|from)\s+torch\b", code, re.M) else (),
    )
    sealed = goldens.Sealed()
    if ref.ok:
        for item in spec["outputs"]:
            rel = f"expected/{item['name']}.bin"
            try:
                data = files.read_file(workdir, rel)
            except files.Unsafe:
                data = None
            if data is not None:
                sealed.goldens[rel] = goldens.Golden(data, item["dtype"])
    return ref, sealed


def verify_spec(unit: dict[str, Any], unit_dir: Path, ctx: steps.Context) -> Verdict:
    timings: dict[str, Any] = {}
    start = time.monotonic()
    spec_file = find_spec(unit)
    assert spec_file is not None
    base = str(PurePosixPath(spec_file["path"]).parent)
    try:
        spec = load_spec(spec_file["text"])
        header_text = (
            _unit_text(unit, str(PurePosixPath(base) / spec["tiling_header"])) if spec.get("tiling_header") else ""
        )
        main = generate_main(spec, header_text)
    except SpecGap as exc:
        return Verdict("unsupported", f"{SPEC_NAME}: {exc}", "spec", timings=timings)
    except (SpecError, ValueError, KeyError, TypeError, OSError) as exc:
        return Verdict("failed_run", f"bad {SPEC_NAME}: {exc}", "spec", timings=timings)
    build_dir = steps.fresh_dir(unit_dir, "build")
    paths = materialise(unit, build_dir)
    (build_dir / base / MAIN_NAME).write_text(main, encoding="utf-8")
    sources = [str(Path(base) / MAIN_NAME)]
    includes = sorted(
        {".", base} | {str(Path(base) / d) for d in ("op_kernel", "op_host") if (build_dir / base / d).is_dir()}
    )
    result = buildmod.build(
        build_dir,
        sources,
        includes,
        ctx.soc,
        ctx.cache_dir,
        _digest(build_dir, paths + sources),
        ctx.pch,
        BINARY,
        ctx.opt,
        ctx.use_cache,
        session=ctx.sandbox_session(),
    )
    timings.update(compile_s=round(result.seconds, 3), cached_build=result.cached, pch=bool(ctx.pch and ctx.pch.header))
    if not result.ok:
        return steps.compile_failure(result, timings, "spec")
    verdict = Verdict("passed", harness="spec", compile_ok=True, compile_log=result.log, timings=timings)
    run_cases(ctx, spec, unit_dir, result.binary, verdict)
    timings["total_s"] = round(time.monotonic() - start, 3)
    return steps.judge(verdict)


def run_cases(
    ctx: steps.Context,
    spec: dict[str, Any],
    unit_dir: Path,
    binary: bytes,
    verdict: Verdict,
    host: Callable[[sandbox.SandboxResult, dict[str, Any]], tuple[str, str] | None] | None = None,
) -> None:
    """Every seed of a spec, each a case: numpy inputs, the reference in its own step (its goldens sealed), the
    kernel in a fresh dir, cotbuilder's comparison. The first case that cannot go on sets the verdict and ends the
    loop. `host(run, case)`: an op project's host half - it adds its record to the case and names a stop of the host
    (tiling failed), which is charged to the host, not the kernel."""
    tol = spec.get("tolerance", {})
    logs, ref_s, run_s = [], 0.0, 0.0
    for i, seed in enumerate(spec.get("seeds", list(ctx.seeds))):
        inputs = make_inputs(spec, int(seed))
        ref, sealed = _reference(ctx, spec, inputs, steps.fresh_dir(unit_dir, f"reference-{i}"))
        ref_s += ref.wall_s
        if (stop := steps.stopped(ref, "reference")) is not None:
            verdict.status, verdict.reason = stop
            verdict.run_log = (ref.stdout + ref.stderr)[-5000:]
            break
        run_dir = steps.fresh_dir(unit_dir, f"run-{i}")
        put = {**inputs, BINARY: binary}
        files.write_tree(run_dir, put, executable=(BINARY,))
        (run_dir / "output").mkdir()
        run, diags, log = steps.run_binary(ctx, run_dir, BINARY)
        run_s += run.wall_s
        verdict.diagnostics.extend(d for d in diags if d not in verdict.diagnostics)
        logs.append(f"[seed {seed}] {log}")
        case: dict[str, Any] = {"seed": int(seed), "goldens": {rel: g.sha256 for rel, g in sealed.goldens.items()}}
        outputs, unsafe = steps.written_files(run_dir, put)
        if planted := steps.planted(run_dir, unsafe):
            verdict.status, verdict.reason, verdict.run_ok = "sandbox_violation", f"kernel: {planted}", False
            break
        if host is not None and (host_stop := host(run, case)) is not None:
            verdict.status, verdict.reason, verdict.run_ok = host_stop[0], host_stop[1], False
            verdict.cases.append(case)
            break
        stop = steps.stopped(run, "kernel")
        if stop is not None and not steps.ended_by_diagnostics(run, diags):
            verdict.status, verdict.reason, verdict.run_ok = stop[0], stop[1], False
            break
        verdict.run_ok = stop is None
        pairs = [(f"output/{o['name']}.bin", f"expected/{o['name']}.bin") for o in spec["outputs"]]
        pairs = [(out, gold) for out, gold in pairs if gold in sealed.goldens]
        case.update(goldens.judge_case(sealed, outputs, (), tol.get("atol"), tol.get("rtol"), pairs=pairs))
        if unsafe:
            case["unsafe_files"] = unsafe[:10]
        verdict.cases.append(case)
    verdict.run_log = "\n".join(logs)
    verdict.timings.update(reference_s=round(ref_s, 3), run_s=round(run_s, 3))
