"""The kernel unit-test harness: an op project's `tests/ut/op_kernel/test_*.cpp` (gtest + CPU-mode `ICPU_RUN_KF`), built
and run unchanged; each TEST is a case.

Build: the test with the repository's UT helpers it includes (`tests/ut/common/tiling_case_executor.cpp` ... - the
host tiling runs through them, on the host shims), the op's host code, its kernel (a tiling-template kernel gets the
key -> instance dispatch), cotbuilder's gtest-compatible runner, and `ut_support.cpp`, which sees the test's
`system()` calls through `--wrap=system`. As the repos' UT CMake does, the kernel and the test are compiled with
`__CCE_KT_TEST__` and with the tiling header forced in (the test folder's `<op>_tiling.h`, else the host's tiling
structs lifted out of namespace optiling, as its generated `<op>_tiling_data.h` gives them); a test that builds an
arch35 kernel is `unsupported`, and one test file that cannot build does not stop the op's other test files.

Run, per TEST, each pass in a fresh sandbox dir laid out like the repository (the op at its source path, the run
folder four levels below the source root, so `cp -rf ../../../../<op>/tests/ut/op_kernel/<data> ./` works as
written, and the data folders the test `cd`s into already copied next to it):
1. generate pass: the TEST runs with its kernels switched off; the data generators it calls (`gen_data.py`) run
   under cotbuilder's dtype-recording runner. What they wrote is copied out: files named golden/expect are sealed as
   goldens, the rest are the inputs;
2. kernel pass: the TEST runs with the inputs only (its generator calls are skipped, its checkers too); what it
   wrote is copied out and paired with the goldens by name (`float16_golden_x.bin` <-> `float16_output_x.bin`);
3. cotbuilder compares; the checker commands the test issued (`compare_data.py ...`) run on copies, and the gtest
   assertions' outcome is recorded: evidence only.
A TEST without a data generator (a smoke test) that runs to the end is `unchecked`.
"""

from __future__ import annotations

import json
import posixpath
import re
import time
from pathlib import Path
from typing import Any

from . import diagnostics, files, goldens, steps
from .opproject import run as oprun
from .verdict import Verdict

HARNESS = "kernel_ut"
BINARY = "cotbuilder_kernel_ut"
RUN_DIR = "src/cotbuilder_ut/ut/op_kernel/run"  # four folders below the source root, as the repos' UT builds run
_GTEST_LINE = re.compile(r"^COTBUILDER_GTEST (\{.*\})\s*$", re.M)
_SYSTEM_LINE = re.compile(r"^COTBUILDER_SYSTEM (\{.*\})\s*$", re.M)
_CD_DIR = re.compile(r"\bcd\s+(?:\./)?([\w.\-]+)/?")
_DTYPE_FLAG = re.compile(r"-D(DTYPE_\w+|ORIG_DTYPE_\w+)=([\w:]+)")


def tests(unit: dict[str, Any]) -> list[dict[str, Any]]:
    """The unit's kernel UT sources: gtest files under tests/ that launch a kernel (not the unmodelled arch35 ones)."""
    out = []
    for f in unit["files"]:
        parts = f["path"].split("/")
        if f.get("role") != "test" or "arch35" in parts or not f["path"].endswith((".cpp", ".cc")):
            continue
        if "op_kernel" in parts and re.search(r"\bTEST(?:_F)?\s*\(", f["text"]) and "ICPU_RUN_KF" in f["text"]:
            out.append(f)
    return out


def _helpers(unit: dict[str, Any], test_files: list[dict[str, Any]]) -> list[str]:
    """UT helper sources from the repository the tests need (dependencies that are neither op host code nor a test)."""
    host = set()
    out = []
    for f in unit["files"]:
        path = f["path"]
        if not path.startswith("_deps/") or not path.endswith((".cpp", ".cc")) or path in host:
            continue
        if "__global__" in f["text"] or re.search(r"\bint\s+main\s*\(", f["text"]):
            continue
        if re.search(r"\bTEST(?:_F)?\s*\(", f["text"]):
            continue
        out.append(path)
    return out


def _source_path(unit: dict[str, Any], path: str) -> str:
    if path.startswith("_deps/"):
        return path[len("_deps/") :]
    return f"{unit['root']}/{path}" if unit["root"] else path


def _tree(unit: dict[str, Any]) -> dict[str, bytes]:
    """The unit laid out as in its repository, under src/."""
    return {f"src/{_source_path(unit, p)}": d for p, d in oprun.unit_tree(unit).items()}


def _data_dirs(unit: dict[str, Any], test_text: str) -> dict[str, bytes]:
    """Folders the test `cd`s into (`cd ./is_finite_data/ && python3 gen_data.py`), copied into its run folder from
    where they live under the op's tests/ (what the repo's UT CMake or SetUpTestCase copies there)."""
    names = set(_CD_DIR.findall(test_text))
    out = {}
    for f in unit["files"]:
        parts = f["path"].split("/")
        for i, part in enumerate(parts[:-1]):
            if part in names and "tests" in parts[:i]:
                out[f"{RUN_DIR}/{'/'.join(parts[i:])}"] = f["text"].encode("utf-8", "surrogatepass")
    return out


def _kernel_defines(unit: dict[str, Any], test_path: str) -> list[str]:
    """DTYPE_* the repo's UT CMake builds the kernel with (AddOpTestCase's options), when it says."""
    folder = posixpath.dirname(test_path)
    for f in unit["files"]:
        if posixpath.dirname(f["path"]) == folder and f["path"].endswith("CMakeLists.txt"):
            text = "\n".join(ln for ln in f["text"].splitlines() if not ln.lstrip().startswith("#"))
            found = _DTYPE_FLAG.findall(text)
            if found:
                return [f"{k}={v}" for k, v in found]
    return []


def _list_tests(stdout: str) -> list[str]:
    names, suite = [], None
    for line in stdout.splitlines():
        if not line.strip() or line.startswith("["):
            continue
        if not line.startswith(" ") and line.rstrip().endswith("."):
            suite = line.strip()[:-1]
        elif line.startswith("  ") and suite:
            names.append(f"{suite}.{line.strip().split()[0]}")
    return names


def verify_kernel_ut(unit: dict[str, Any], unit_dir: Path, ctx: steps.Context) -> Verdict:
    timings: dict[str, Any] = {}
    start = time.monotonic()
    test_files = tests(unit)
    verdict = Verdict("passed", harness=HARNESS, timings=timings)
    all_cases: list[dict[str, Any]] = []
    logs: list[str] = []
    first_failed: Verdict | None = None
    for t_index, test in enumerate(test_files):
        result = oprun.build_ut(
            unit,
            steps.fresh_dir(unit_dir, f"build-{t_index}"),
            ctx,
            test["path"],
            _helpers(unit, test_files),
            _kernel_defines(unit, test["path"]),
            BINARY,
        )
        timings[f"build_{t_index}"] = {"compiled": result.compiled_objects, "cached": result.cached_objects}
        timings[f"build_{t_index}"].update(oprun.pch_timings(result))
        if not result.ok:
            failed = oprun.failed_build(result, HARNESS, timings)
            # one test file that cannot build (an arch35 one beside the others) does not sink the op's other tests
            if len(test_files) == 1 or failed.status not in ("failed_compile", "unsupported"):
                return failed
            first_failed = first_failed or failed
            logs.append(f"[{test['path']}] build failed ({failed.status}): {failed.reason}")
            continue
        verdict.compile_ok = True
        verdict.compile_log += result.log
        listing = steps.run_step(
            ctx,
            ["/bin/sh", "-c", f"cd '{RUN_DIR}' && exec ./{BINARY} --gtest_list_tests"],
            _prepared(unit_dir, f"list-{t_index}", result.binary),
            env=steps.run_env(ctx),
        )
        names = _list_tests(listing.stdout)
        if not names:
            logs.append(f"[{test['path']}] no TEST found ({listing.outcome}: {listing.reason} {listing.stderr[-500:]})")
            continue
        base = _tree(unit)
        base.update(_data_dirs(unit, test["text"]))
        for c_index, name in enumerate(names):
            case = _case(unit, unit_dir, ctx, result.binary, base, name, f"{t_index}-{c_index}", verdict, logs)
            case["test_file"] = test["path"]
            all_cases.append(case)
    verdict.cases = all_cases
    verdict.run_log = "\n".join(logs)
    timings["total_s"] = round(time.monotonic() - start, 3)
    if not all_cases and first_failed is not None and not verdict.compile_ok:
        first_failed.run_log = verdict.run_log
        return first_failed
    if not all_cases:
        return Verdict(
            "unsupported",
            "kernel UT: no TEST could be built and listed",
            HARNESS,
            compile_ok=verdict.compile_ok,
            compile_log=verdict.compile_log,
            run_log=verdict.run_log,
            timings=timings,
        )
    stopped = [c for c in all_cases if c.get("status") in ("failed_run", "timeout", "sandbox_violation")]
    if stopped:
        verdict.status, verdict.reason = stopped[0]["status"], f"{stopped[0]['test']}: {stopped[0]['why']}"
        verdict.run_ok = False
        return verdict
    verdict.run_ok = True
    return steps.judge(verdict)


def _prepared(unit_dir: Path, name: str, binary: bytes, extra: dict[str, bytes] | None = None) -> Path:
    workdir = steps.fresh_dir(unit_dir, name)
    files.write_tree(workdir, {**(extra or {}), f"{RUN_DIR}/{BINARY}": binary}, executable=(f"{RUN_DIR}/{BINARY}",))
    return workdir


def _run(ctx: steps.Context, workdir: Path, test: str, env: dict[str, str]):
    argv = ["/bin/sh", "-c", f"cd '{RUN_DIR}' && exec ./{BINARY} --gtest_filter='{test}'"]
    return steps.run_step(ctx, argv, workdir, env={**steps.run_env(ctx), **env})


def _case(unit, unit_dir, ctx, binary, base, test, tag, verdict, logs) -> dict[str, Any]:
    case: dict[str, Any] = {"test": test}
    # 1. generate pass
    gen_dir = steps.fresh_dir(unit_dir, f"gen-{tag}")
    put = {**base, f"{RUN_DIR}/{BINARY}": binary, "cotbuilder_generator_runner.py": oprun.script("generator_runner.py")}
    files.write_tree(gen_dir, put, executable=(f"{RUN_DIR}/{BINARY}",))
    (gen_dir / "cotbuilder_manifests").mkdir()
    gen = _run(
        ctx,
        gen_dir,
        test,
        {
            "COTBUILDER_UT_PHASE": "generate",
            "COTBUILDER_SKIP_KERNELS": "1",
            # the sandbox shows the work dir at its own absolute path: the generators may run from any folder under it
            "COTBUILDER_GEN_RUNNER": str((gen_dir / "cotbuilder_generator_runner.py").resolve()),
            "COTBUILDER_GEN_MANIFESTS": str((gen_dir / "cotbuilder_manifests").resolve()),
        },
    )
    wrote, _ = steps.written_files(gen_dir, put)
    manifest: dict[str, dict] = {}
    for path, data in list(wrote.items()):
        if path.startswith("cotbuilder_manifests/"):
            wrote.pop(path)
            try:
                for rel, meta in json.loads(data).items():
                    manifest[posixpath.basename(rel)] = meta
            except (ValueError, AttributeError):
                pass
    sealed, inputs = goldens.Sealed(), {}
    for path, data in wrote.items():
        base_name = posixpath.basename(path).lower()
        if not path.startswith(RUN_DIR + "/") or path.endswith(BINARY):
            continue
        rel = path[len(RUN_DIR) + 1 :]
        if "golden" in base_name or "expect" in base_name:
            meta = manifest.get(posixpath.basename(path))
            sealed.goldens[rel] = goldens.Golden(data, meta.get("dtype") if isinstance(meta, dict) else None)
        elif posixpath.basename(path) in manifest or "input" in base_name:
            inputs[path] = data
    case["generate"] = {"outcome": gen.outcome, "calls": _system_calls(gen.stderr)}
    case["goldens"] = {rel: g.sha256 for rel, g in sealed.goldens.items()}
    # 2. kernel pass
    run_dir = steps.fresh_dir(unit_dir, f"run-{tag}")
    put = {**base, **inputs, f"{RUN_DIR}/{BINARY}": binary}
    files.write_tree(run_dir, put, executable=(f"{RUN_DIR}/{BINARY}",))
    run = _run(ctx, run_dir, test, {"COTBUILDER_UT_PHASE": "kernel"})
    diags, rest = diagnostics.parse_emulator_diagnostics(run.stderr)
    verdict.diagnostics.extend(d for d in diags if d not in verdict.diagnostics)
    logs.append(f"[{test}] " + (run.stdout[-3000:] + "\n" + oprun.host_result.strip(rest)[-2000:]).strip())
    written, unsafe = steps.written_files(run_dir, put)
    gtest = [json.loads(m.group(1)) for m in _GTEST_LINE.finditer(run.stderr)]
    calls = _system_calls(run.stderr)
    case["evidence"] = {
        "gtest": gtest[-1]["status"] if gtest else None,
        "gtest_first_failure": (gtest[-1].get("first") or None) if gtest else None,
    }
    if planted := steps.planted(run_dir, unsafe):
        return {**case, "status": "sandbox_violation", "ok": None, "why": f"kernel: {planted}"}
    case["host"] = oprun.host_case_record(run.stderr, None, None)
    if (host := oprun.host_stop(run.stderr, run)) is not None:
        return {**case, "status": host[0], "ok": None, "why": host[1]}
    stop = steps.stopped(run, "kernel")
    if stop is not None and not steps.ended_by_diagnostics(run, diags) and not (run.outcome == "exit" and gtest):
        status, why = stop
        return {**case, "status": status, "ok": None, "why": why}
    outputs = {
        p[len(RUN_DIR) + 1 :]: d for p, d in written.items() if p.startswith(RUN_DIR + "/") and not p.endswith(BINARY)
    }
    pairs = _pairs(list(sealed.goldens), list(outputs))
    case.update(goldens.judge_case(sealed, outputs, pairs=pairs))
    checkers = [c["cmd"] for c in calls if c.get("action") == "skipped_checker"]
    if checkers and sealed.goldens:
        case["evidence"]["checker"] = _checker(ctx, unit_dir, tag, base, inputs, sealed, outputs, checkers)
    if case["ok"] is None and not sealed.goldens:
        case["why"] = "the test generates no golden (a smoke test): nothing to compare"
    errors = diagnostics.errors(diags)
    case["status"] = (
        "wrong_answer" if case["ok"] is False else "failed_run" if errors else "passed" if case["ok"] else "unchecked"
    )
    if errors and case["ok"] is not False:
        case["why"] = f"emulator {errors[0]['kind']}: {errors[0]['message']}"
    return case


def _system_calls(stderr: str) -> list[dict[str, Any]]:
    out = []
    for m in _SYSTEM_LINE.finditer(stderr):
        try:
            out.append(json.loads(m.group(1)))
        except ValueError:
            continue
    return out[:20]


def _pairs(golden_paths: list[str], output_paths: list[str]) -> list[tuple[str, str]]:
    """Each golden with the output the test wrote next to it under the same name (golden -> output / out), else
    the only output in its folder."""
    pairs = []
    outputs = set(output_paths) - set(golden_paths)
    for gold in golden_paths:
        folder, name = posixpath.split(gold)
        candidates = []
        for word in ("golden", "expect"):
            for repl in ("output", "out", "result", "actual"):
                for w in (word, word.capitalize(), word.upper()):
                    if w in name:
                        candidates.append(
                            posixpath.join(
                                folder,
                                name.replace(
                                    w,
                                    repl
                                    if w.islower()
                                    else repl.capitalize()
                                    if w[0].isupper() and not w.isupper()
                                    else repl.upper(),
                                ),
                            )
                        )
        hit = next((c for c in candidates if c in outputs), None)
        if hit is None:
            same = [o for o in outputs if posixpath.dirname(o) == folder and o.endswith(".bin")]
            golds_here = [g for g in golden_paths if posixpath.dirname(g) == folder]
            if len(same) == 1 and len(golds_here) == 1:
                hit = same[0]
        if hit is not None:
            pairs.append((hit, gold))
    return pairs


def _checker(ctx, unit_dir, tag, base, inputs, sealed, outputs, commands) -> dict[str, Any]:
    """The test's own checker commands on copies of its outputs and the goldens: evidence only."""
    workdir = steps.fresh_dir(unit_dir, f"check-{tag}")
    put = {**base, **inputs}
    put.update({f"{RUN_DIR}/{rel}": data for rel, data in outputs.items()})
    put.update({f"{RUN_DIR}/{rel}": g.data for rel, g in sealed.goldens.items()})
    files.write_tree(workdir, put)
    said, ok = [], True
    for cmd in commands[:4]:
        done = steps.run_step(ctx, ["/bin/sh", "-c", f"cd '{RUN_DIR}' && {cmd}"], workdir, env=steps.run_env(ctx))
        said.append((done.stdout + done.stderr).strip()[-500:])
        ok = ok and done.ok
    return {"ok": ok, "said": "\n".join(said)[-1500:]}
