"""The unit's own harness (kernel_launch layout): its generator, its CPU-mode main, its checker.

Flow per unit: write its files into the work dir, rewrite `<<<…>>>` launches to the emulator's launch macro, build
main + kernel against the emulator, then for each seed (when the generator takes `--seed`): run the generator, run the
binary, judge with the unit's checker (`verify_result.py OUTPUT GOLDEN`, arguments as its run script / README give
them) or, without a checker, compare output and golden files with the default tolerance of the dtype.
"""

from __future__ import annotations

import functools
import hashlib
import re
import shlex
import shutil
import time
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from ..paths import package_data
from . import build as buildmod
from . import cmake_defines, compare, sandbox, steps
from .launch_rewrite import rewrite_launches
from .units import SOURCE_SUFFIXES, file_by_role, materialise
from .verdict import Verdict

BINARY = "cotbuilder_kernel"
_MAIN = re.compile(r"\bint(?:32_t)?\s+main\s*\(")
_SKIP_ROLES = {"tiling_func", "op_def", "generator", "checker", "build", "op_json", "snippet"}
_DTYPE_WORDS = re.compile(r"np\.(float16|float32|bfloat16|int8|int16|int32|int64|uint8|uint16|uint32)\b")
CHECKER_LIMITS = sandbox.Limits(cpu_s=60, wall_s=120, memory_mb=8192)


def compiled_sources(unit: dict[str, Any]) -> list[str]:
    out = []
    for f in unit["files"]:
        path = f["path"]
        if not path.endswith(SOURCE_SUFFIXES) or f.get("role") in _SKIP_ROLES:
            continue
        if path.startswith(("scripts/", "op_host/")) or "/scripts/" in path:
            continue
        out.append(path)
    return out


def has_main(unit: dict[str, Any]) -> bool:
    sources = set(compiled_sources(unit))
    return any(_MAIN.search(f["text"]) for f in unit["files"] if f["path"] in sources)


def _include_dirs(workdir: Path, sources: list[str]) -> list[str]:
    dirs = {"."} | {str(Path(s).parent) for s in sources}
    dirs |= {d for d in ("include", "inc", "op_kernel", "op_host") if (workdir / d).is_dir()}
    return sorted(dirs)


def _rewrite(workdir: Path, paths: list[str]) -> int:
    total = 0
    for rel in paths:
        path = workdir / rel
        text = path.read_text(encoding="utf-8", errors="replace")
        if "<<<" in text:
            new, n = rewrite_launches(text)
            if n:
                path.write_text(new, encoding="utf-8")
                total += n
    return total


def _digest(workdir: Path, paths: list[str]) -> str:
    h = hashlib.sha256()
    for rel in sorted(paths):
        h.update(rel.encode() + b"\0" + (workdir / rel).read_bytes() + b"\0")
    return h.hexdigest()


def script_args(
    unit: dict[str, Any], script_path: str, soc: str = "ascend910b", need_bin: bool = True
) -> list[str] | None:
    """A script's arguments as the unit's run script or README passes them (`output/output.bin output/golden.bin`,
    `-scenarioNum=$SCENARIO_NUM output/output.bin`), variables resolved; None when not stated."""
    name = re.escape(Path(script_path).name)
    # only command lines (`python3 ../scripts/gen_data.py ARGS`), not a README's file tree (`gen_data.py  // ...`)
    pattern = re.compile(r"python[\w.]*[ \t]+(?:-\w[ \t]+)*[^\s]*" + name + r"[ \t]+([^\n;&|#`]+)")
    variables = cmake_defines.docs_variables(unit, soc)
    texts = [f["text"] for f in unit["files"] if f["path"].endswith((".sh", ".md", ".txt")) or f.get("role") == "build"]
    for text in texts:
        for m in pattern.finditer(text):
            if _other_configuration(text, m.start(), variables):
                continue
            line = re.sub(r"\$\{?(\w+)\}?", lambda v: variables.get(v.group(1), "$" + v.group(1)), m.group(1))
            if "$" in line:  # an argument we cannot resolve: this line is no use (a flag would lose its value)
                continue
            try:
                tokens = shlex.split(line)
            except ValueError:
                continue
            if "//" in tokens:  # a trailing C-style comment in a README line
                tokens = tokens[: tokens.index("//")]
            tokens = [t.removeprefix("./") for t in tokens]
            if not need_bin:
                if tokens:  # a line with arguments beats a bare `python3 gen_data.py` elsewhere in the docs
                    return tokens
                continue
            bins = [t for t in tokens if t.endswith(".bin")]
            if bins:
                return tokens[: tokens.index(bins[-1]) + 1]
    return None


_CMAKE_LINE = re.compile(r"^[^\n]*\bcmake\b[^\n]*$", re.M)


def _other_configuration(text: str, at: int, variables: dict[str, str]) -> bool:
    """Whether the command at `at` follows a `cmake -DVAR=VALUE` (in the same code block) that selects another
    configuration than the default one we build (`-DUSE_SILU_MODE=ON` then `gen_data.py --silu-mode`)."""
    block_start = text.rfind("```", 0, at)
    cmakes = list(_CMAKE_LINE.finditer(text, block_start + 1 if block_start >= 0 else 0, at))
    if not cmakes:
        return False
    for m in cmake_defines.CLI_DEF.finditer(cmakes[-1].group(0)):
        name, value = m.group(1), m.group(2)
        if name.startswith("CMAKE_"):
            continue
        if name in variables and variables[name].upper() != value.upper():
            return True
    return False


_EXECUTABLE = re.compile(r"\badd_executable\s*\(\s*([\w.\-]+)")


def binary_args(unit: dict[str, Any], soc: str = "ascend910b") -> list[str]:
    """The arguments the docs run the sample's executable with (`./demo $TESTCASE` -> ["1"]), variables resolved;
    [] when the docs run it bare or not at all."""
    cmake = "\n".join(f["text"] for f in unit["files"] if f["path"].endswith("CMakeLists.txt"))
    names = {m.group(1) for m in _EXECUTABLE.finditer(cmake)}
    if not names:
        return []
    variables = cmake_defines.docs_variables(unit, soc)
    pattern = re.compile(r"^[ \t]*\./(?:" + "|".join(map(re.escape, sorted(names))) + r")[ \t]+([^\n;&|#`]+)", re.M)
    for f in unit["files"]:
        if not f["path"].endswith((".md", ".sh")):
            continue
        for m in pattern.finditer(f["text"]):
            if _other_configuration(f["text"], m.start(), variables):
                continue
            line = re.sub(r"\$\{?(\w+)\}?", lambda v: variables.get(v.group(1), "$" + v.group(1)), m.group(1))
            if "$" in line:
                continue
            try:
                tokens = shlex.split(line)
            except ValueError:
                continue
            if tokens:
                return tokens
    return []


def checker_args(unit: dict[str, Any], checker_path: str, soc: str = "ascend910b") -> list[str] | None:
    return script_args(unit, checker_path, soc, need_bin=True)


def _default_pairs(workdir: Path) -> list[tuple[str, str]]:
    out_dir = workdir / "output"
    if not out_dir.is_dir():
        return []
    goldens = sorted(p for p in out_dir.glob("*.bin") if p.name.startswith("golden"))
    outputs = sorted(p for p in out_dir.glob("*.bin") if not p.name.startswith("golden"))
    if len(goldens) == 1 and len(outputs) == 1:
        return [(f"output/{outputs[0].name}", f"output/{goldens[0].name}")]
    pairs = []
    for g in goldens:  # golden_z.bin <-> output_z.bin
        suffix = g.name.removeprefix("golden")
        match = out_dir / f"output{suffix}"
        if match.is_file():
            pairs.append((f"output/{match.name}", f"output/{g.name}"))
    return pairs


@functools.lru_cache(maxsize=1)
def _self_check_patterns() -> dict[str, list[str]]:
    return tomllib.loads(package_data("verify/data/self_check.toml").read_text(encoding="utf-8"))


def self_check(output: str) -> bool | None:
    """What a self-checking main said about its result: False (fail printed), True (pass printed), None (neither)."""
    patterns = _self_check_patterns()
    if any(p in output for p in patterns["fail"]):
        return False
    if any(p in output for p in patterns["pass"]):
        return True
    return None


def _guess_dtype(generator_text: str) -> str:
    words = _DTYPE_WORDS.findall(generator_text)
    if not words:
        return "float32"
    return max(set(words), key=words.count)


def _compare_files(workdir: Path, pairs: list[tuple[str, str]], dtype: str) -> list[dict[str, Any]]:
    results = []
    for out, gold in pairs:
        out_p, gold_p = workdir / out, workdir / gold
        if not out_p.is_file():
            results.append(
                {
                    "name": out,
                    "dtype": dtype,
                    "ok": False,
                    "error": "missing output",
                    "mismatches": 0,
                    "n": 0,
                    "atol": 0.0,
                    "rtol": 0.0,
                    "max_abs_err": None,
                    "max_rel_err": None,
                }
            )
            continue
        np_dtype = compare.numpy_dtype(dtype)
        actual = np.fromfile(out_p, dtype=np_dtype) if out_p.stat().st_size % np_dtype.itemsize == 0 else np.zeros(0)
        expected = np.fromfile(gold_p, dtype=np_dtype) if gold_p.is_file() else np.zeros(0)
        results.append({"name": out, **compare.compare(actual, expected, dtype)})
    return results


def _hollow_outputs(workdir: Path, pairs: list[tuple[str, str]]) -> list[str]:
    """Outputs that were never computed at all: every byte still the emulator's 0xFF UB fill while the golden is
    not (a checker comparing `abs(a - b) > tol` accepts the NaNs that reads as). Judged on bytes, not values, so a
    wrong dtype guess cannot raise a false alarm; a partly unwritten output is left to the checker, since samples
    legitimately leave padding lanes of their last 32-byte block unwritten (a reduction writing 1 of 16 halves)."""
    hollow = []
    for out, gold in pairs:
        out_p, gold_p = workdir / out, workdir / gold
        if not (out_p.is_file() and gold_p.is_file()) or out_p.stat().st_size != gold_p.stat().st_size:
            continue
        a = np.fromfile(out_p, dtype=np.uint8)
        e = np.fromfile(gold_p, dtype=np.uint8)
        if a.size and bool((a == 0xFF).all()) and not bool((e == 0xFF).all()):
            hollow.append(out)
    return hollow


_C_DTYPES = {
    "float": "float32",
    "half": "float16",
    "aclFloat16": "float16",
    "bfloat16_t": "bfloat16",
    "double": "float64",
    "int32_t": "int32",
    "int16_t": "int16",
    "int8_t": "int8",
    "uint8_t": "uint8",
    "uint16_t": "uint16",
    "uint32_t": "uint32",
    "int64_t": "int64",
}
# how a self-checking main reads its output buffer: reinterpret_cast<const float*>(outputData), (half*)output
_HOST_READ = re.compile(
    r"reinterpret_cast<\s*(?:const\s+)?(\w+)\s*\*\s*>\s*\(\s*\w*[oO]ut\w*\s*\)|"
    r"\(\s*(?:const\s+)?(\w+)\s*\*\s*\)\s*\w*[oO]ut\w*"
)


def _output_dtype(unit: dict[str, Any], generator: dict[str, Any] | None) -> str:
    """The output's dtype: the type the host main reads its output buffer as (its own comparison), else the dtype
    the generator names most often, else float32."""
    sources = set(compiled_sources(unit))
    for f in unit["files"]:
        if f["path"] in sources:
            for m in _HOST_READ.finditer(f["text"]):
                ctype = m.group(1) or m.group(2)
                if ctype in _C_DTYPES:
                    return _C_DTYPES[ctype]
    return _guess_dtype(generator["text"]) if generator else "float32"


UNITY_NAME = "cotbuilder_unity.cpp"
DEFINES_NAME = "cotbuilder_defines.h"


def _build(
    unit: dict[str, Any], workdir: Path, sources: list[str], digest: str, ctx: steps.Context
) -> buildmod.BuildResult:
    """Build main + kernel as ONE translation unit first (the precompiled header is loaded once instead of per file:
    about 40% less compile time); if the files clash when joined, build them as separate TUs (the unit's own way)."""
    includes = _include_dirs(workdir, sources)
    (workdir / DEFINES_NAME).write_text(cmake_defines.defines_header(unit, ctx.soc), encoding="utf-8")
    forced = (DEFINES_NAME,)
    if len(sources) > 1:
        (workdir / UNITY_NAME).write_text("".join(f'#include "{s}"\n' for s in sources), encoding="utf-8")
        unity = buildmod.build(
            workdir,
            [UNITY_NAME],
            includes,
            ctx.soc,
            ctx.cache_dir,
            digest,
            ctx.pch,
            BINARY,
            ctx.opt,
            ctx.use_cache,
            forced,
        )
        if unity.ok or unity.outcome not in ("ok", "exit"):
            return unity
        separate = buildmod.build(
            workdir, sources, includes, ctx.soc, ctx.cache_dir, digest, ctx.pch, BINARY, ctx.opt, ctx.use_cache, forced
        )
        separate.seconds += unity.seconds
        return separate
    return buildmod.build(
        workdir, sources, includes, ctx.soc, ctx.cache_dir, digest, ctx.pch, BINARY, ctx.opt, ctx.use_cache, forced
    )


def build_unit(unit: dict[str, Any], workdir: Path, ctx: steps.Context) -> tuple[buildmod.BuildResult, int]:
    """Write the unit into `workdir`, rewrite its launches, build it; returns the build and the launches rewritten."""
    paths = materialise(unit, workdir)
    sources = compiled_sources(unit)
    rewritten = _rewrite(workdir, sources)
    return _build(unit, workdir, sources, _digest(workdir, paths), ctx), rewritten


def verify_own(unit: dict[str, Any], workdir: Path, ctx: steps.Context, prebuilt: bool = False) -> Verdict:
    """Verify with the unit's own harness. `prebuilt`: the binary is already in the work dir (CANN backends)."""
    timings: dict[str, Any] = {}
    start = time.monotonic()
    if prebuilt:
        result = buildmod.BuildResult(True, "", 0.0, False, workdir / BINARY)
    else:
        result, timings["launches_rewritten"] = build_unit(unit, workdir, ctx)
    timings.update(compile_s=round(result.seconds, 3), cached_build=result.cached, pch=bool(ctx.pch and ctx.pch.header))
    if not result.ok:
        return steps.compile_failure(result, timings, "own")

    generator = file_by_role(unit, "generator", "scripts/gen_data.py", "gen_data.py")
    checker = file_by_role(unit, "checker", "scripts/verify_result.py", "verify_result.py")
    seeds: list[int | None] = list(ctx.seeds) if generator and "--seed" in generator["text"] else [None]
    verdict = Verdict("passed", harness="own", compile_ok=True, compile_log=result.log, timings=timings)
    logs: list[str] = []
    gen_s = run_s = check_s = 0.0
    for seed in seeds:
        for d in ("input", "output"):
            shutil.rmtree(workdir / d, ignore_errors=True)
            (workdir / d).mkdir()
        case: dict[str, Any] = {"seed": seed, "checker": checker["path"] if checker else None}
        if generator:
            argv = [
                ctx.python,
                generator["path"],
                *(script_args(unit, generator["path"], ctx.soc, need_bin=False) or []),
            ]
            argv += ["--seed", str(seed)] if seed is not None else []
            gen = sandbox.run(argv, workdir, ctx.limits)
            gen_s += gen.wall_s
            if (stop := steps.stopped(gen, "generator")) is not None:
                verdict.status, verdict.reason = stop
                verdict.run_log = (gen.stdout + gen.stderr)[-5000:]
                break
        run, diags, log = steps.run_binary(workdir, BINARY, ctx, binary_args(unit, ctx.soc))
        run_s += run.wall_s
        verdict.diagnostics.extend(d for d in diags if d not in verdict.diagnostics)
        logs.append(f"[seed {seed}] {log}" if seed is not None else log)
        stop = steps.stopped(run, "kernel")
        if stop is not None and not steps.ended_by_diagnostics(run, diags):
            verdict.status, verdict.reason = stop
            verdict.run_ok = False
            break
        verdict.run_ok = stop is None
        args = checker_args(unit, checker["path"], ctx.soc) if checker else None
        bins = [a for a in args or [] if a.endswith(".bin")]
        pairs = [(bins[0], bins[1])] if len(bins) >= 2 else _default_pairs(workdir)
        dtype = _output_dtype(unit, generator)
        missing = [out for out, _ in pairs if not (workdir / out).is_file()] + [
            b for b in bins[:1] if not (workdir / b).is_file()
        ]
        if missing:
            verdict.status, verdict.reason = "failed_run", f"kernel wrote no {missing[0]}"
            break
        t = time.monotonic()
        case["outputs"] = _compare_files(workdir, pairs, dtype)
        if checker:
            check = sandbox.run(
                [ctx.python, checker["path"], *(args or [p for pair in pairs for p in pair])], workdir, CHECKER_LIMITS
            )
            case["checker_output"] = (check.stdout + check.stderr).strip()[-1500:]
            case["ok"] = check.ok
            hollow = _hollow_outputs(workdir, pairs) if check.ok else []
            if hollow:  # a checker that compares with `abs(a - b) > tol` accepts NaN: do not let that pass
                case["ok"] = False
                case["checker_output"] += (
                    f"\n[cotbuilder] checker accepted {hollow[0]}: never written "
                    "(all bytes the emulator's 0xFF UB fill)"
                )
            stop = steps.stopped(check, "checker")
            if stop is not None and (check.outcome != "exit" or stop[0] == "unsupported"):
                verdict.status, verdict.reason = stop
                verdict.cases.append(case)
                break
        else:
            said = self_check(log)
            if said is not None:
                case["self_check"] = said
            if not pairs and said is None:
                verdict.status = "unsupported"
                verdict.reason = "no checker, no output/golden pair, no pass/fail printed: cannot judge the result"
                verdict.cases.append(case)
                break
            case["ok"] = all(o["ok"] for o in case["outputs"]) and said is not False
        check_s += time.monotonic() - t
        verdict.cases.append(case)
        if not case["ok"]:
            verdict.correct = False
            if not verdict.reason:
                verdict.reason = (
                    f"seed {seed}: "
                    + (
                        case.get("checker_output", "").splitlines() or [case.get("error", "outputs differ from golden")]
                    )[-1][:300]
                )
    else:
        if verdict.cases:
            verdict.correct = verdict.correct is not False
    verdict.run_log = "\n".join(logs)
    timings.update(
        generate_s=round(gen_s, 3),
        run_s=round(run_s, 3),
        check_s=round(check_s, 3),
        total_s=round(time.monotonic() - start, 3),
        seeds=[s for s in seeds],
    )
    return steps.judge(verdict)
