"""What every op-project harness shares: building the op around its own sources in the sandbox, the verdict of a
build that failed (with the stage it failed in), the host half's report after a run, and laying out a unit the way
its repository does.
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

from ...apidocs.identifiers import is_toolkit_name
from ...paths import package_data
from .. import build as buildmod
from .. import diagnostics, files, sandbox, steps
from ..units import safe_relpath
from ..verdict import Verdict
from . import build as opbuild
from . import host_result, opapi

_HOST_NAMESPACES = re.compile(
    r"'(?:gert|ge|fe|platform_ascendc|optiling|context_ascendc|ops|Ops|AscendC)::[\w:]+'|"
    r"is not a member of '(?:gert|ge|fe|platform_ascendc|optiling|context_ascendc|ops)(?:::\w+)*'|"
    # a host namespace unknown where a toolkit host header was included (a tiling header the kernel includes too)
    r"'(?:gert|ge|fe|platform_ascendc|optiling|context_ascendc|ops|Ops)' has not been declared|"
    r"has no member named '\w+'.*(?:Context|PlatFormInfos|PlatformAscendC|OpDef|OpParamDef|OpAttrDef|Tensor|Shape)|"
    # a member a host shim's class lacks (gert::StorageShape::GetShape; OpDef::AICPU on the op's own OpDef subclass)
    r"'(?:const )?(?:class|struct) (?:gert|ge|fe|platform_ascendc|optiling|context_ascendc|ops|Ops)::\w+(?:<[^']*>)?' "
    r"has no member named '\w+'"
)
# g++'s "cannot find this name" errors: in host code (TilingFunc, a UT's harness) a name the toolkit declares is one
# our host shims lack (NpuArch, bfloat16); a name no toolkit header has stays the code's own error
_UNKNOWN_NAME = re.compile(
    r"error: '(\w+)' (does not name a type|was not declared in this scope|has not been declared)"
)
# The toolkit-identifier list holds its locals too (db, len, tmp): in an expression (`was not declared`) only a name
# spelled like an API, a macro or a scalar type (NpuArch, GET_TILINGKEY, bfloat16) counts; `x`, `db` stay the code's
_API_SPELLING = re.compile(r"[A-Z]\w*|[a-z]+\d+(?:_t)?")


def _toolkit_name_missing(m: re.Match[str]) -> bool:
    name, where = m.group(1), m.group(2)
    if not is_toolkit_name(name):
        return False
    return where != "was not declared in this scope" or bool(_API_SPELLING.fullmatch(name))


# the reason of a harness that does not build against the generated aclnn API (harness_aclnn names the built-in one)
UNLIKE_GENERATED = "calls an aclnn API unlike the one generated from the OpDef"
_NO_HEADER = re.compile(r"fatal error: ([\w./+-]+): No such file or directory")
_UNDEFINED = re.compile(r"undefined reference to [`']([^'`]+)'")
_OPAPI_SYMBOL = re.compile(r"^(?:l0op::|op::|aclOpExecutor::|CommonOpExecutorRun)")
_RUNTIME_SYMBOL = re.compile(
    r"^(?:acl|gert::|ge::|fe::|platform_ascendc::|optiling::Tiling|context_ascendc::|cbhost::)"
)


def compile_runner(ctx: steps.Context) -> opbuild.Runner:
    """Compiler and host-description runs in the sandbox, seeing the emulator, its harness shims and the PCH."""
    ro = [str(d) for d in buildmod.INCLUDE_DIRS] + [str(buildmod.HARNESS_INCLUDE_DIR)]
    if ctx.pch is not None and ctx.pch.header is not None:
        ro.append(str(ctx.pch.header.parent))

    def run(argv: list[str], workdir: Path):
        return sandbox.run(
            argv,
            workdir,
            buildmod.COMPILE_LIMITS,
            env={"LC_ALL": "C", "COTBUILDER_SOC": ctx.soc},
            session=ctx.sandbox_session(),
            ro_paths=[*ro, *ctx.ro_paths],
        )

    return run


def _builder(unit: dict[str, Any], build_dir: Path, ctx: steps.Context) -> opbuild.Builder:
    """The unit's files written to build_dir, and a builder that compiles them in the sandbox with the cache."""
    files.write_tree(build_dir, unit_tree(unit))
    cache = opbuild.ObjectCache(ctx.cache_dir, ctx.use_cache)
    return opbuild.Builder(unit, build_dir, compile_runner(ctx), cache, ctx.soc, ctx.opt, ctx.pch)


def build(
    unit: dict[str, Any], unit_dir: Path, ctx: steps.Context, spec: opbuild.Spec, binary: str, step: str = "build"
) -> opbuild.OpBuild:
    return _builder(unit, steps.fresh_dir(unit_dir, step), ctx).build(spec, binary)


def build_ut(
    unit: dict[str, Any],
    build_dir: Path,
    ctx: steps.Context,
    test_path: str,
    helpers: list[str],
    kernel_defines: list[str],
    binary: str,
) -> opbuild.OpBuild:
    return _builder(unit, build_dir, ctx).build_ut(test_path, helpers, kernel_defines, binary)


def pch_timings(result: opbuild.OpBuild) -> dict[str, int]:
    """How many host sources the host PCH served, how many generated harness sources the harness PCH served, and how
    many of each were built again without it (shown only when any)."""
    counts = {
        "host_pch_objects": result.host_pch_objects,
        "host_pch_fallbacks": result.host_pch_fallbacks,
        "harness_pch_objects": result.harness_pch_objects,
        "harness_pch_fallbacks": result.harness_pch_fallbacks,
    }
    return {k: v for k, v in counts.items() if v}


def build_timings(result: opbuild.OpBuild) -> dict[str, int]:
    """An op build's counts, recorded in a verification's timings."""
    return {
        "build_objects_compiled": result.compiled_objects,
        "build_objects_cached": result.cached_objects,
        "kernel_variants": len(result.variants),
        **pch_timings(result),
    }


def unit_tree(unit: dict[str, Any]) -> dict[str, bytes]:
    out = {}
    for f in unit["files"]:
        rel = safe_relpath(f["path"])
        if rel is not None:
            out[str(rel)] = f["text"].encode("utf-8", "surrogatepass")
    return out


def failed_build(result: opbuild.OpBuild, harness: str, timings: dict[str, Any]) -> Verdict:
    """The verdict of a build that stopped: where (host, kernel, the generated aclnn layer, the harness's own code,
    the link) and whether it is the unit's error or a piece cotbuilder lacks (named)."""
    log = result.log
    common = dict(harness=harness, compile_ok=False, compile_log=log, timings=timings)
    if result.outcome == "timeout":
        return Verdict("timeout", f"{result.stage}: compiler time limit", **common)
    if result.outcome == "violation":
        return Verdict("sandbox_violation", f"{result.stage}: {result.reason}", **common)
    if result.outcome == "limit":  # our sandbox's memory or output cap stopped the compiler: no verdict on the code
        return Verdict("unsupported", f"{result.stage}: {steps.limit_reason(result.reason)}", **common)
    if result.stage == "layout":
        return Verdict("unsupported", f"op project: {result.reason}", **common)
    if result.stage == "aclnn":  # cotbuilder's own generated layer: never the unit's error
        why = result.reason or f"the compiler stopped without a message (sandbox outcome: {result.outcome})"
        return Verdict("unsupported", f"aclnn layer: {why}", **common)
    if result.stage == "opapi":  # the op's hand-written aclnn layer: a framework piece we lack, or its own error
        gap = opapi.compile_gap(log)
        if gap:
            return Verdict(
                "unsupported", f"opapi: op-api framework piece not emulated: {gap}", missing_apis=[gap[:120]], **common
            )
        return Verdict("failed_compile", f"opapi: {result.reason or diagnostics.first_error(log)}", **common)
    if result.stage == "describe":
        return Verdict(
            "failed_run", f"host: {result.reason}", harness=harness, compile_ok=True, compile_log=log, timings=timings
        )
    first = diagnostics.first_error(log)
    if re.match(r"[^:\s]*/arch35/", first):  # the Ascend 950 path, reached through an include the layout did not see
        return Verdict(
            "unsupported",
            f"{result.stage}: arch35 code (the Ascend 950 register-based path) is not modelled: {first}",
            missing_apis=["arch35"],
            **common,
        )
    if result.gap and result.stage in ("host", "link"):
        return Verdict("unsupported", f"{result.stage}: {result.gap}", **common)
    framework = [s for s in _UNDEFINED.findall(log) if _OPAPI_SYMBOL.match(s)] if result.stage == "link" else []
    if framework:  # a CANN built-in l0 op or framework function the hand-written layer calls
        return Verdict(
            "unsupported",
            f"link: op-api framework piece not emulated: {framework[0][:120]}",
            missing_apis=framework[:5],
            **common,
        )
    host_gap = _host_gap(log)
    if host_gap and result.stage in ("host", "harness", "link", "describe"):
        return Verdict("unsupported", f"{result.stage}: {host_gap}", missing_apis=[host_gap.split(" (")[0]], **common)
    gap = diagnostics.unsupported_gap(log)
    if gap:
        kind, names = gap
        return Verdict("unsupported", f"{result.stage}: {kind}: " + ", ".join(names[:5]), missing_apis=names, **common)
    if m := _NO_HEADER.search(log):
        header = m.group(1)
        where = "host header" if result.stage in ("host", "harness") else "header"
        return Verdict(
            "unsupported", f"{result.stage}: {where} not emulated: {header}", missing_apis=[header], **common
        )
    if m := _HOST_NAMESPACES.search(log):
        return Verdict("unsupported", f"{result.stage}: host API not emulated: {m.group(0)[:120]}", **common)
    if result.stage in ("host", "harness"):
        names = [m.group(1) for m in _UNKNOWN_NAME.finditer(log) if _toolkit_name_missing(m)]
        if names:
            return Verdict(
                "unsupported", f"{result.stage}: host API not emulated: {names[0]}", missing_apis=names[:5], **common
            )
    if result.stage == "link":
        symbols = _UNDEFINED.findall(log)
        ours = [s for s in symbols if _RUNTIME_SYMBOL.match(s)]
        if ours:
            return Verdict(
                "unsupported", f"link: runtime API not emulated: {ours[0][:120]}", missing_apis=ours[:5], **common
            )
        if symbols and any(s.startswith("aclnn") for s in symbols):
            return Verdict(
                "unsupported", f"link: aclnn API the generated layer does not provide: {symbols[0][:100]}", **common
            )
    if result.stage == "harness" and re.search(r"\baclnn\w*(GetWorkspaceSize)?\b", result.reason):
        return Verdict(
            "unsupported",
            f"harness: {UNLIKE_GENERATED}: {result.reason[:160]}",
            **common,
        )
    if result.stage == "harness" and _TORCH_SURFACE.search(result.reason or diagnostics.first_error(log) or ""):
        # a benchmark's binding (validation/pybind.cpp) is the task's, compiled against our torch-extension shim
        first = result.reason or diagnostics.first_error(log)
        return Verdict("unsupported", f"harness: torch-extension shim lacks: {first[:160]}", **common)
    return Verdict("failed_compile", f"{result.stage}: {result.reason or diagnostics.first_error(log)}", **common)


_TORCH_SURFACE = re.compile(
    r"\b(?:at|c10|torch|pybind11|py)::|class at::Tensor|is not a member of '(?:at|c10|torch|pybind11|py)(?:::\w+)*'"
)


@functools.lru_cache(maxsize=1)
def _host_gaps() -> list[tuple[str, re.Pattern[str]]]:
    data = tomllib.loads(package_data("verify/opproject/data/host_gaps.toml").read_text(encoding="utf-8"))
    return [(g["name"], re.compile(g["regex"])) for g in data["gap"]]


def _host_gap(log: str) -> str | None:
    """A toolkit family the host shims do not model, named, when the build log's errors come from it."""
    errors = "\n".join(ln for ln in log.splitlines() if "error" in ln or "undefined reference" in ln)
    for name, regex in _host_gaps():
        if regex.search(errors):
            return name
    return None


def host_stop(stderr: str, run: sandbox.SandboxResult) -> tuple[str, str] | None:
    """(status, reason) when the host half of the run failed: TilingFunc said no, or the process died while it ran."""
    report = host_result.parse(stderr)
    failed = report.failed
    if failed is not None:
        return "failed_run", f"host: {failed.get('error', 'tiling failed')}"
    if run.outcome not in ("ok", "exit", "timeout") and report.crash_stage() == "host":
        return "failed_run", f"host: {run.reason} while running TilingFunc"
    if run.outcome == "exit" and report.last_stage == "host_tiling" and run.returncode not in (0, 3):
        return "failed_run", f"host: exited with status {run.returncode} inside TilingFunc"
    return None


def host_case_record(stderr: str, tiling_header: str | None, struct: str | None) -> list[dict[str, Any]]:
    """Per aclnn call: block dim, tiling key, workspace sizes, tiling fields by name (what TilingFunc produced)."""
    out = []
    fields = host_result.layout(tiling_header, struct) if tiling_header else None
    for call in host_result.parse(stderr).calls:
        if not call.get("ok"):
            out.append({"op": call.get("op"), "ok": False, "error": call.get("error")})
            continue
        rec = {k: call.get(k) for k in ("op", "block_dim", "tiling_key", "workspace", "tiling_size")}
        raw = bytes.fromhex(call.get("tiling", ""))
        if fields:
            rec["tiling"] = host_result.decode(raw, fields)
        else:
            rec["tiling_hex"] = raw.hex()[:512]
        out.append(rec)
    return out


def tiling_header_of(unit: dict[str, Any], op_type: str | None) -> tuple[str | None, str | None]:
    """The op's tiling header text and struct (REGISTER_TILING_DATA_CLASS(op, Struct)), for decoding its bytes."""
    from .kernel_glue import tiling_struct_for

    headers = {f["path"]: f["text"] for f in unit["files"] if "BEGIN_TILING_DATA_DEF" in f["text"]}
    if not headers:
        return None, None
    struct = tiling_struct_for(op_type, headers) if op_type else None
    if struct:
        name = struct.split("::")[-1]
        for text in headers.values():
            if re.search(r"BEGIN_TILING_DATA_DEF\s*\(\s*" + re.escape(name) + r"\s*\)", text):
                return text, struct
    return next(iter(headers.values())), None


def script(name: str) -> bytes:
    return package_data(f"verify/data/{name}").read_bytes()


def relative_to(path: str, folder: str) -> str:
    return str(PurePosixPath(path).relative_to(folder)) if folder not in ("", ".") else path
