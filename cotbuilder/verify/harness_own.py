"""The unit's own harness (kernel_launch layout): its generator, its CPU-mode main, its checker.

Flow per unit, every step in a fresh sandbox dir: write its files, rewrite `<<<…>>>` launches to the emulator's launch
macro, build main + kernel against the emulator; then for each seed (when the generator takes `--seed`):
1. the generator writes inputs and goldens; what it wrote under `output/` is copied out and sealed as goldens, with
   the dtype numpy wrote them in (`data/generator_runner.py` records it: never guessed);
2. the kernel runs in a new dir holding the unit's files and the inputs only: it never sees a golden;
3. cotbuilder pairs each output with its golden (the checker's command line from the docs, else the names) and
   compares them with the dtype's tolerance (`goldens.py`): this alone decides the case;
4. the unit's checker runs on copies of outputs and goldens in yet another dir, and what it (and a self-checking
   main) said is stored as evidence.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import shlex
import time
import tomllib
from pathlib import Path
from typing import Any

from ..paths import package_data
from . import build as buildmod
from . import cmake_defines, files, goldens, poison, sandbox, steps
from .launch_rewrite import rewrite_launches
from .units import SOURCE_SUFFIXES, file_by_role, materialise, unit_files
from .verdict import Verdict

BINARY = "cotbuilder_kernel"
_MAIN = re.compile(r"\bint(?:32_t)?\s+main\s*\(")
_SKIP_ROLES = {"tiling_func", "op_def", "generator", "checker", "build", "op_json", "snippet"}
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


_PLAIN_ARG = re.compile(r"-{0,2}[A-Za-z0-9_.]+(?:=[A-Za-z0-9_.]+)?", re.ASCII)


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
                end = tokens.index(bins[-1]) + 1
                # plain values after the files (`verify_result.py out.bin golden.bin $SCENARIO_NUM`, resolved) are
                # arguments too; prose after them is not
                while end < len(tokens) and _PLAIN_ARG.fullmatch(tokens[end]):
                    end += 1
                return tokens[:end]
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
    # at a line's start or after `&&`, `;`, `(` (`(cd build && ./demo $CASE)`)
    pattern = re.compile(
        r"(?:^[ \t]*|&&[ \t]*|;[ \t]*|\([ \t]*)\./(?:"
        + "|".join(map(re.escape, sorted(names)))
        + r")[ \t]+([^\n;&|#`()]+)",
        re.M,
    )
    scripts = [f for f in unit["files"] if f["path"].endswith(".sh")]  # what runs, before what the docs say
    for f in [*scripts, *(f for f in unit["files"] if f["path"].endswith(".md"))]:
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
            if tokens and not any(_PLACEHOLDER.fullmatch(t) for t in tokens):  # not a README's `{case-id}`
                return tokens
    return []


_PLACEHOLDER = re.compile(r"\{[^{}]*\}|<[^<>]*>|\[[^\[\]]*\]")


def checker_args(unit: dict[str, Any], checker_path: str, soc: str = "ascend910b") -> list[str] | None:
    return script_args(unit, checker_path, soc, need_bin=True)


@functools.lru_cache(maxsize=1)
def _self_check_patterns() -> dict[str, list[str]]:
    return tomllib.loads(package_data("verify/data/self_check.toml").read_text(encoding="utf-8"))


def self_check(output: str) -> bool | None:
    """What a self-checking main said about its result: False (fail printed), True (pass printed), None (neither).
    Evidence only: it never decides a verdict."""
    patterns = _self_check_patterns()
    if any(p in output for p in patterns["fail"]):
        return False
    if any(p in output for p in patterns["pass"]):
        return True
    return None


_WRITE_FILE = re.compile(r'\bWriteFile\s*\(\s*"([^"]+)"\s*,\s*(?:\([^()]*\)\s*)?&?(\w+)')
_COMPARE_CALL = re.compile(r'\b\w*[Cc]ompare\w*\s*\(\s*(?:\([^()]*\)\s*)?&?(\w+)\s*,[^;]*?"([^"]+)"')


def host_pairs(unit: dict[str, Any]) -> list[tuple[str, str]]:
    """(output file, golden token) links read from a self-checking main: the buffer it writes to a file
    (`WriteFile("./output/output_y.bin", yHost, ...)`) is the one it compares with a golden
    (`CompareResult(yHost, size, "./output/golden.bin")` or `CompareResult(param5Host, size, "result")` for
    golden_output_result.bin); a token that is not a path is resolved against the goldens by `goldens.pair`."""
    sources = set(compiled_sources(unit))
    text = "\n".join(f["text"] for f in unit["files"] if f["path"] in sources)
    written = {var: path.removeprefix("./") for path, var in _WRITE_FILE.findall(text)}
    return [(written[var], token.removeprefix("./")) for var, token in _COMPARE_CALL.findall(text) if var in written]


UNITY_NAME = "cotbuilder_unity.cpp"
DEFINES_NAME = "cotbuilder_defines.h"
RUNNER_NAME = "cotbuilder_generator_runner.py"
MANIFEST_NAME = "cotbuilder_written.json"


def _build(
    unit: dict[str, Any], workdir: Path, sources: list[str], digest: str, ctx: steps.Context
) -> buildmod.BuildResult:
    """Build main + kernel as ONE translation unit first (the precompiled header is loaded once instead of per file:
    about 40% less compile time); if the files clash when joined, build them as separate TUs (the unit's own way)."""
    includes = _include_dirs(workdir, sources)
    (workdir / DEFINES_NAME).write_text(cmake_defines.defines_header(unit, ctx.soc), encoding="utf-8")
    common = dict(
        include_dirs=includes,
        soc=ctx.soc,
        cache_dir=ctx.cache_dir,
        sources_digest=digest,
        pch=ctx.pch,
        binary_name=BINARY,
        opt=ctx.opt,
        use_cache=ctx.use_cache,
        forced_includes=(DEFINES_NAME,),
        session=ctx.sandbox_session(),
    )
    if len(sources) > 1:
        (workdir / UNITY_NAME).write_text("".join(f'#include "{s}"\n' for s in sources), encoding="utf-8")
        unity = buildmod.build(workdir, [UNITY_NAME], **common)
        if unity.ok or unity.outcome not in ("ok", "exit"):
            return unity
        separate = buildmod.build(workdir, sources, **common)
        separate.seconds += unity.seconds
        separate.cpu_s += unity.cpu_s
        return separate
    return buildmod.build(workdir, sources, **common)


def build_unit(unit: dict[str, Any], workdir: Path, ctx: steps.Context) -> tuple[buildmod.BuildResult, int]:
    """Write the unit into `workdir` (fresh), rewrite its launches, build it; returns the build and the launches
    rewritten."""
    paths = materialise(unit, workdir)
    sources = compiled_sources(unit)
    rewritten = _rewrite(workdir, sources)
    return _build(unit, workdir, sources, _digest(workdir, paths), ctx), rewritten


def _generate(
    unit: dict[str, Any], generator: dict[str, Any], workdir: Path, ctx: steps.Context, seed: int | None
) -> tuple[sandbox.SandboxResult, dict[str, bytes], goldens.Sealed, list[str]]:
    """Step 1: the unit's generator in its own sandbox dir. Returns the run, the inputs (every file it wrote outside
    output/), the sealed goldens (what it wrote under output/, with the dtype numpy wrote them in), and unsafe names."""
    put = unit_files(unit)
    put[RUNNER_NAME] = package_data("verify/data/generator_runner.py").read_bytes()
    files.write_tree(workdir, put)
    for d in ("input", "output"):
        (workdir / d).mkdir(exist_ok=True)
    argv = [ctx.python, RUNNER_NAME, MANIFEST_NAME, generator["path"]]
    argv += script_args(unit, generator["path"], ctx.soc, need_bin=False) or []
    argv += ["--seed", str(seed)] if seed is not None else []
    gen = steps.run_step(ctx, argv, workdir)
    wrote, unsafe = steps.written_files(workdir, put)
    try:
        manifest = json.loads(wrote.pop(MANIFEST_NAME, b"{}"))
    except ValueError:
        manifest = {}
    sealed = goldens.Sealed()
    inputs = {}
    for rel, data in wrote.items():
        if rel.startswith("output/"):
            dtype = manifest.get(rel, {}).get("dtype") if isinstance(manifest.get(rel), dict) else None
            sealed.goldens[rel] = goldens.Golden(data, dtype if isinstance(dtype, str) else None)
        else:
            inputs[rel] = data
    return gen, inputs, sealed, unsafe


def _evidence_checker(
    unit: dict[str, Any],
    checker: dict[str, Any],
    args: list[str] | None,
    workdir: Path,
    ctx: steps.Context,
    inputs: dict[str, bytes],
    sealed: goldens.Sealed,
    outputs: dict[str, bytes],
    pairs: list[tuple[str, str]],
) -> dict[str, Any]:
    """The unit's own checker, run in a separate sandbox on copies of the outputs and goldens: evidence only."""
    put = {**unit_files(unit, skip_dirs=("input", "output")), **inputs, **outputs}
    put.update({rel: g.data for rel, g in sealed.goldens.items()})
    files.write_tree(workdir, put)
    (workdir / "output").mkdir(exist_ok=True)
    argv = [ctx.python, checker["path"], *(args or [p for pair in pairs for p in pair])]
    check = steps.run_step(ctx, argv, workdir, CHECKER_LIMITS)
    said = (check.stdout + check.stderr).strip()
    return {"checker": checker["path"], "ok": check.ok, "said": said[-1500:], "outcome": check.outcome}


def verify_own(unit: dict[str, Any], unit_dir: Path, ctx: steps.Context, prebuilt: bytes | None = None) -> Verdict:
    """Verify with the unit's own harness. Each step runs in a fresh dir under `unit_dir`: build, then per seed the
    generator (inputs + goldens, sealed), the kernel (inputs only, never a golden), cotbuilder's comparison, and the
    unit's checker on copies (evidence). `prebuilt`: the binary, already built (CANN backends)."""
    timings: dict[str, Any] = {}
    start = time.monotonic()
    if prebuilt is not None:
        result = buildmod.BuildResult(True, "", 0.0, False, prebuilt)
    else:
        result, timings["launches_rewritten"] = build_unit(unit, steps.fresh_dir(unit_dir, "build"), ctx)
    timings.update(compile_s=round(result.seconds, 3), cached_build=result.cached, pch=bool(ctx.pch and ctx.pch.header))
    if not result.ok:
        arch = cmake_defines.unit_arch(unit, ctx.soc)
        native = arch == "dav-" + cmake_defines.arch_number(ctx.soc)
        return steps.compile_failure(
            result, timings, "own", cmake_defines.configuration_variables(unit), None if native else arch
        )

    generator = file_by_role(unit, "generator", "scripts/gen_data.py", "gen_data.py")
    checker = file_by_role(unit, "checker", "scripts/verify_result.py", "verify_result.py")
    seeds: list[int | None] = list(ctx.seeds) if generator and "--seed" in generator["text"] else [None]
    args = checker_args(unit, checker["path"], ctx.soc) if checker else None
    checker_bins = [a for a in args or [] if a.endswith(".bin")]
    hints = host_pairs(unit)
    verdict = Verdict("passed", harness="own", compile_ok=True, compile_log=result.log, timings=timings)
    logs: list[str] = []
    gen_s = run_s = check_s = 0.0
    for i, seed in enumerate(seeds):
        case: dict[str, Any] = {"seed": seed, "checker": checker["path"] if checker else None}
        inputs: dict[str, bytes] = {}
        sealed = goldens.Sealed()
        if generator:
            gen_dir = steps.fresh_dir(unit_dir, f"gen-{i}")
            gen, inputs, sealed, unsafe = _generate(unit, generator, gen_dir, ctx, seed)
            gen_s += gen.wall_s
            if (stop := steps.generator_stop(gen, gen_dir, unsafe)) is not None:
                verdict.status, verdict.reason, log = stop
                verdict.run_log = log or verdict.run_log
                break
        case["goldens"] = {rel: g.sha256 for rel, g in sealed.goldens.items()}
        # step 2: the kernel, in a fresh dir with the unit's files and the inputs, and an empty output/
        run_dir = steps.fresh_dir(unit_dir, f"run-{i}")
        put = {**unit_files(unit, skip_dirs=("input", "output")), **inputs, BINARY: result.binary}
        files.write_tree(run_dir, put, executable=(BINARY,))
        (run_dir / "output").mkdir(exist_ok=True)
        run, diags, log = steps.run_binary(ctx, run_dir, BINARY, binary_args(unit, ctx.soc))
        run_s += run.wall_s
        verdict.diagnostics.extend(d for d in diags if d not in verdict.diagnostics)
        logs.append(f"[seed {seed}] {log}" if seed is not None else log)
        outputs, unsafe = steps.written_files(run_dir, put)
        if planted := steps.planted(run_dir, unsafe):
            verdict.status, verdict.reason, verdict.run_ok = "sandbox_violation", f"kernel: {planted}", False
            break
        stop = steps.stopped(run, "kernel")
        exited_after_writing = run.outcome == "exit" and (run.returncode or 0) > 0 and bool(outputs)
        if stop is not None and not steps.ended_by_diagnostics(run, diags) and not exited_after_writing:
            verdict.status, verdict.reason = stop
            verdict.run_ok = False
            break
        verdict.run_ok = stop is None
        if unsafe:  # over the size cap
            case["unsafe_files"] = unsafe[:10]
        t = time.monotonic()
        said = self_check(log)
        evidence: dict[str, Any] = {}
        if said is not None:
            evidence["self_check"] = said
        if exited_after_writing:  # a main's exit status is its own judgement (it may miss the withheld golden)
            evidence["exit_status"] = run.returncode
        if checker:
            pairs, _ = goldens.pair(list(sealed.goldens), list(outputs), checker_bins, hints)
            evidence.update(
                _evidence_checker(
                    unit, checker, args, steps.fresh_dir(unit_dir, f"check-{i}"), ctx, inputs, sealed, outputs, pairs
                )
            )
            case["checker_output"] = evidence["said"]
        if evidence:
            case["evidence"] = evidence
        case.update(goldens.judge_case(sealed, outputs, checker_bins, hints=hints, checker_passed=evidence.get("ok")))
        if case["ok"] is None and (hollow := poison.non_finite_output(outputs, inputs)):
            case["ok"], case["why"] = False, hollow  # whatever the program printed
        if sealed.goldens and not outputs:  # e.g. a main that compares in memory with the golden it was denied
            case["why"] = "the program wrote no output file: nothing to compare with the golden"
        if case["ok"] is None and not sealed.goldens:
            if generator:
                case["why"] = "the generator wrote no golden under output/"
            else:
                printed = {True: " (it printed a pass: evidence only)", False: " (it printed a failure)", None: ""}
                case["why"] = "no golden: the sample checks itself" + printed[said]
        check_s += time.monotonic() - t
        verdict.cases.append(case)
    verdict.run_log = "\n".join(logs)
    timings.update(
        generate_s=round(gen_s, 3),
        run_s=round(run_s, 3),
        check_s=round(check_s, 3),
        total_s=round(time.monotonic() - start, 3),
        seeds=list(seeds),
    )
    return steps.judge(verdict)
