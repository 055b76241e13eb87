"""The spec harness of an op project: `verify_spec.toml` gives the op, the shapes, dtypes and attributes (and a numpy
reference); the tiling is what the op's own TilingFunc computes - never typed in.

A generated main calls the op through its emulated aclnn API (`aclnn<Op>GetWorkspaceSize` with the inputs, the spec's
attributes - the OpDef default for any it leaves out - and the outputs, then `aclnn<Op>`), so the host half runs
exactly as for an aclnn caller, and its result (block dim, tiling key, workspace, tiling fields) is recorded per case.
A `[tiling]` table is an override applied after TilingFunc, field by field, and reported in every case.
Per seed: inputs drawn by cotbuilder, the reference run in its own sandbox and sealed as the goldens, the main run
with the inputs only, cotbuilder's comparison.
"""

from __future__ import annotations

import re
import time
import tomllib
from pathlib import Path
from typing import Any

from . import compare, harness_spec, steps
from .opproject import aclnn_gen, dtypes
from .opproject import build as opbuild
from .opproject import run as oprun
from .verdict import Verdict

HARNESS = "op_spec"
BINARY = "cotbuilder_op_spec"
MAIN = "cotbuilder_op_spec_main.cpp"


def find_spec(unit: dict[str, Any]) -> dict[str, Any] | None:
    """A verify_spec.toml naming the op (`op = "..."`); a spec without it is the kernel-launch spec harness's."""
    spec = harness_spec.find_spec(unit)
    if spec is None or unit["layout"] != "op_project":
        return None
    try:
        names_op = "op" in tomllib.loads(spec["text"])
    except tomllib.TOMLDecodeError:
        names_op = re.search(r"(?m)^\s*op\s*=", spec["text"]) is not None  # load() reports the syntax error
    return spec if names_op else None


def load(text: str) -> dict[str, Any]:
    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise harness_spec.SpecError(f"verify_spec.toml: {exc}") from exc
    for key in ("inputs", "outputs"):
        if key not in spec:
            raise harness_spec.SpecError(f"verify_spec.toml: missing `{key}`")
    for item in spec["inputs"] + spec["outputs"]:
        compare.tolerance(item["dtype"])
        item["dtype"] = compare.canonical_dtype(item["dtype"])
    return spec


def _c_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _literal(kind: str, value: Any) -> tuple[list[str], str]:
    """(setup lines, C++ expression) for one attribute value of an aclnn call."""
    if kind == "bool":
        return [], "true" if value else "false"
    if kind == "int":
        return [], f"(int64_t){int(value)}"
    if kind == "float":
        return [], repr(float(value))
    if kind == "string":
        return [], f"(char*){_c_str(str(value))}"
    if kind in ("list_int", "list_float", "list_bool"):
        c, make = {
            "list_int": ("int64_t", "aclCreateIntArray"),
            "list_float": ("float", "aclCreateFloatArray"),
            "list_bool": ("bool", "aclCreateBoolArray"),
        }[kind]
        items = ", ".join(
            ("true" if v else "false")
            if kind == "list_bool"
            else repr(float(v))
            if kind == "list_float"
            else str(int(v))
            for v in value
        )
        n = len(value)
        return [], f"[]{{ static const {c} v[] = {{{items or '0'}}}; return {make}(v, {n}); }}()"
    raise ValueError(f"attribute kind {kind}")


def generate_main(spec: dict[str, Any], op: dict[str, Any], tiling_header: str | None, struct: str | None) -> str:
    """The C++ main calling the op's aclnn API with the spec's tensors and attributes (pure)."""
    by_name = {i["name"]: i for i in spec["inputs"]}
    outs = {o["name"]: o for o in spec["outputs"]}
    attrs = spec.get("attrs", {})
    unknown = set(attrs) - {a["name"] for a in op["attrs"]}
    if unknown:
        raise ValueError(f"[attrs] names no attribute of {op['type']}: {', '.join(sorted(unknown))}")
    lines, args, dumps = [], [], []
    params = aclnn_gen.parameters(op)
    it = iter(params)
    for p in op["inputs"]:
        param = next(it)
        item = by_name.get(p["name"])
        if item is None:
            if p["param_type"] == "required":
                raise ValueError(f"the spec gives no input {p['name']!r} (required by the OpDef)")
            args.append("nullptr")
            continue
        if param.kind not in ("tensor", "optional"):
            raise ValueError(f"input {p['name']}: {param.kind} inputs are not built by the spec harness")
        lines.append(_tensor(item, "in"))
        args.append(f"t_in_{item['name']}")
    for a in op["attrs"]:
        next(it)
        value = attrs.get(a["name"], a.get("default"))
        if value is None:
            raise ValueError(f"attribute {a['name']} has no default: give it in [attrs]")
        setup, expr = _literal(a["kind"], value)
        lines += setup
        args.append(expr)
    for p in op["outputs"]:
        next(it)
        item = outs.get(p["name"])
        if item is None:
            raise ValueError(f"the spec gives no output {p['name']!r}")
        lines.append(_tensor(item, "out"))
        args.append(f"t_out_{item['name']}")
        dumps.append(f'    cb_write("output/{item["name"]}.bin", d_out_{item["name"]}, {_nbytes(item)});')
    override = ""
    if spec.get("tiling"):
        if not tiling_header or not struct:
            raise ValueError("[tiling] override but the op registers no tiling struct")
        sets = []
        for field, value in spec["tiling"].items():
            if not re.fullmatch(r"[A-Za-z_]\w*", field):
                raise ValueError(f"tiling field {field!r}")
            if isinstance(value, list):
                sets.append(
                    f"{{ static const auto v = {{{', '.join(repr(x) for x in value)}}}; "
                    f"std::copy(v.begin(), v.end(), t->{field}); }}"
                )
            else:
                sets.append(f"t->set_{field}({value!r});".replace("True", "true").replace("False", "false"))
        override = (
            "    cbhost::tiling_override() = [](void* d, size_t n) {\n"
            f"        if (n < sizeof({struct})) return;\n"
            f"        auto* t = reinterpret_cast<{struct}*>(d);\n        " + "\n        ".join(sets) + "\n    };\n"
        )
    include_tiling = f'#include "{tiling_header}"\n' if override else ""
    return (
        "// Generated by cotbuilder verify (op spec harness): the op through its aclnn API, data from files.\n"
        "#include <algorithm>\n#include <cstdio>\n#include <cstring>\n"
        '#include "acl/acl.h"\n'
        f'#include "{aclnn_gen.header_name(op["type"])}"\n'
        '#include "impl/host/aclnn_runtime.h"\n'
        f"{include_tiling}\n"
        "static bool cb_read(const char* p, void* d, size_t n) {\n"
        '    FILE* f = std::fopen(p, "rb"); if (!f) return false;\n'
        "    size_t got = std::fread(d, 1, n, f); std::fclose(f); return got == n;\n}\n"
        "static void cb_write(const char* p, const void* d, size_t n) {\n"
        '    FILE* f = std::fopen(p, "wb"); if (!f) return; std::fwrite(d, 1, n, f); std::fclose(f);\n}\n\n'
        "int main() {\n" + override + "\n".join(lines) + "\n    uint64_t ws = 0;\n    aclOpExecutor* ex = nullptr;\n"
        f"    aclnnStatus st = aclnn{op['type']}GetWorkspaceSize({', '.join(args)}, &ws, &ex);\n"
        '    if (st != 0) { std::fprintf(stderr, "GetWorkspaceSize: %d %s\\n", st, aclGetRecentErrMsg()); return 10; }\n'
        "    void* w = nullptr;\n    if (ws) aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        f"    st = aclnn{op['type']}(w, ws, ex, nullptr);\n"
        '    if (st != 0) { std::fprintf(stderr, "launch: %d %s\\n", st, aclGetRecentErrMsg()); return 11; }\n'
        + "\n".join(dumps)
        + "\n    return 0;\n}\n"
    )


def _nbytes(item: dict[str, Any]) -> int:
    n = 1
    for d in item["shape"]:
        n *= int(d)
    return n * compare.numpy_dtype(item["dtype"]).itemsize


def _acl(dtype: str) -> str:
    d = dtypes.by_numpy("bfloat16" if dtype == compare.BF16 else dtype)
    if d is None:
        raise ValueError(f"dtype {dtype} has no aclDataType")
    return d.acl


def _tensor(item: dict[str, Any], kind: str) -> str:
    name, n = item["name"], _nbytes(item)
    dims = ", ".join(str(int(d)) for d in item["shape"]) or "1"
    rank = len(item["shape"])
    read = (
        f'    if (!cb_read("input/{name}.bin", d_{kind}_{name}, {n})) {{ std::fprintf(stderr, "cannot read {name}\\n"); return 2; }}\n'
        if kind == "in"
        else ""
    )
    return (
        f"    static const int64_t s_{kind}_{name}[] = {{{dims}}};\n"
        f"    void* d_{kind}_{name} = nullptr;\n"
        f"    aclrtMalloc(&d_{kind}_{name}, {max(n, 1)}, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        + read
        + f"    aclTensor* t_{kind}_{name} = aclCreateTensor(s_{kind}_{name}, {rank}, {_acl(item['dtype'])}, nullptr, 0, "
        f"ACL_FORMAT_ND, s_{kind}_{name}, {rank}, d_{kind}_{name});"
    )


def verify_op_spec(unit: dict[str, Any], unit_dir: Path, ctx: steps.Context) -> Verdict:
    timings: dict[str, Any] = {}
    start = time.monotonic()
    spec_file = find_spec(unit)
    assert spec_file is not None
    try:
        spec = load(spec_file["text"])
    except (harness_spec.SpecError, ValueError, KeyError, TypeError) as exc:
        return Verdict("failed_run", f"bad verify_spec.toml: {exc}", HARNESS, timings=timings)
    header_text, struct = oprun.tiling_header_of(unit, spec.get("op"))
    header_path = next((f["path"] for f in unit["files"] if f["text"] == header_text), None) if header_text else None

    def generate(op: dict[str, Any]) -> dict[str, str]:
        return {MAIN: generate_main(spec, op, header_path, struct)}

    build_spec = opbuild.Spec(sources=[MAIN], op_type=spec.get("op"), generate=generate)
    result = oprun.build(unit, unit_dir, ctx, build_spec, BINARY)
    timings.update(oprun.build_timings(result))
    if not result.ok:
        if result.stage == "harness" and result.reason.startswith("cannot generate"):
            return Verdict("failed_run", f"bad verify_spec.toml: {result.reason}", HARNESS, timings=timings)
        return oprun.failed_build(result, HARNESS, timings)
    verdict = Verdict("passed", harness=HARNESS, compile_ok=True, compile_log=result.log, timings=timings)

    def host(run: Any, case: dict[str, Any]) -> tuple[str, str] | None:
        case["host"] = oprun.host_case_record(run.stderr, header_text, struct)
        if spec.get("tiling"):
            case["tiling_override"] = sorted(spec["tiling"])
        return oprun.host_stop(run.stderr, run)

    harness_spec.run_cases(ctx, spec, unit_dir, result.binary, verdict, host)
    verdict.run_log = oprun.host_result.strip(verdict.run_log)  # the host's protocol lines are not the run's output
    timings["total_s"] = round(time.monotonic() - start, 3)
    return steps.judge(verdict)
