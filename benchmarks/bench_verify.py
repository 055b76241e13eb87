"""Verify-stage speed on the demo corpus (examples/kernel_launch/*), measured in one run against its own baselines.

    python benchmarks/bench_verify.py [--units N] [--compile-samples N] [--distinct N] [--only op-projects|distinct]

Prints
- kernels per minute with --jobs 1 and --jobs 2, each from a fresh workspace (fresh build cache; the precompiled
  header build is included and also shown on its own), and the ratio jobs2 / jobs1;
- distinct vector kernels per second: N variants of the demo's vector samples (each kernel file carries its own unused
  constant: its own source hash, its own build), `verify --jobs 2` with the default configuration and an empty build
  cache, the precompiled header built before the clock starts; once header-only (every unit compiles the emulator's
  runtime itself: what verify falls back to when the runtime library does not build, and what it did before the
  library existed) and once with the runtime library (the default), each with its CPU seconds per kernel, the ratio and
  the verdicts of both compared (goal: >= 3 kernels/s on 2 cores); and the runtime-library run once more with every
  sandbox step started through a fresh shim (COTBUILDER_SANDBOX_ZYGOTE=0: before the zygote) against the default
  (the sandbox's warm zygote, SANDBOX.md), its ratio and verdicts compared; and once with the zygote but a
  precompiled header that declares none of the emulator's template instances the library holds
  (emulator/src/cbemu_api_instances.h: before they were there), its ratio and verdicts compared;
- compile seconds per kernel (main + kernel, one g++ run in the sandbox, no build cache; wall and CPU) without the
  precompiled header, with it header-only, and with it and the runtime library, and the ratios;
- the sandbox's cost per step (a trivial command confined with every isolation feature, vs. a plain subprocess);
- the emulator's fidelity cost at run time (builds cached, so only running and judging counts): the kernels' run
  seconds with the pipe-hazard model off (COTBUILDER_HAZARDS=0, the baseline) and on (verify's default), and with
  `--schedules 4`; ratios against the baseline (goals: hazard model <= 1.5x, --schedules 4 <= 4x);
- op-project throughput (examples/op_project, each through the harness its layout is tested with; the Cube op is left
  out): units per minute with a fresh build cache, then again with the cache warm (the host build - OpDef describe,
  TilingFunc objects - and the kernel variants cached per op), next to the kernel-launch figure of the same cache state.
  `--only op-projects` prints just this section; `--only distinct` the distinct-kernel throughput and compile costs;
- Cube throughput (issue 14): the demo's Cube and mixed units (the kernel launches and op projects that call Mmad or
  the Matmul API), kernels per minute with a fresh build cache and again warm, --jobs 1, next to the vector kernel
  launches of the same cache states (the ratio is the Cube path's cost against the vector one). `--only cube` prints
  just this section.
- where one unit's CPU goes (with the distinct section): per step kind (compile + link, generator, kernel run,
  checker), the link alone, and the worker's own Python (materialising files, reading outputs, judging).

Baseline measured at the start of the runtime-library work (commit 7b4716f, same machine, 2 cores shared with other
jobs: load average ~8 during the run, so CPU seconds are the figure to compare), 12 distinct vector kernels, default
verify configuration, --jobs 2: 3.61 CPU-s per kernel (0.15 kernels/s wall at that load); the same run with the
runtime library: 1.63 CPU-s per kernel. The header-only row of `--only distinct` is that configuration re-measured in
the same run (with the changes that are not about the library, e.g. the generator runner's numpy import, in both).

Baseline of the build-cost work (issue 16; commit a0aadb2, `--only distinct`, 29 kernels, load ~9): runtime lib +
zygote 0.83 CPU-s per kernel, 2.41 kernels/s at 2 idle cores. After (units at -O0 with an -O0 header, the library at
-O1 holding the C++ library instances the header declares `extern template`, gold): 0.66 CPU-s per kernel at load
~12, 3.01 kernels/s at 2 idle cores; the same 29/29 verdicts. Side by side in-process (16 kernels, two processes at
once, load ~10): compile + link 0.50 -> 0.36 CPU-s, the whole unit 0.68 -> 0.55.

Baseline of the API-instances work (issue 16; commit 69c8966 re-measured at its start, idle machine, load 1.1):
runtime lib + zygote 2.80 kernels/s, 0.61 CPU-s per kernel, compile + link 0.345 CPU-s. After (the emulator's
template instances in the library, declared extern in the header): 3.35 kernels/s, 0.49 CPU-s per kernel, compile +
link 0.256 CPU-s; the same 29/29 verdicts. The "no API" row re-measures the before side in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "verify"))

from unitdir import unit_from_dir  # noqa: E402

from cotbuilder.store import Store  # noqa: E402
from cotbuilder.verify import build as buildmod  # noqa: E402
from cotbuilder.verify import cmake_defines, harness_own, sandbox, steps, worker  # noqa: E402
from cotbuilder.verify.stage import VerifyConfig, run  # noqa: E402

DEMO = REPO / "examples" / "kernel_launch"
OP_DEMO = REPO / "examples" / "op_project"


def demo_units(limit: int | None) -> list[dict]:
    folders = sorted(p for p in DEMO.iterdir() if p.is_dir() and any(p.iterdir()))
    return [unit_from_dir(p) for p in folders[:limit]]


CUBE_APIS = re.compile(r"\b(Mmad|Matmul|LoadData|Fixpipe)\b")


def uses_cube(unit: dict) -> bool:
    return any(CUBE_APIS.search(f["text"]) for f in unit["files"] if f["path"].endswith((".cpp", ".h")))


def all_op_project_units() -> list[dict]:
    """The demo op projects as the crawl groups them (a benchmark task's is its answer/0)."""
    from cotbuilder.parse.units import extract_units

    files = []
    for path in sorted(OP_DEMO.rglob("*")):
        if path.is_file():
            rel = str(path.relative_to(OP_DEMO))
            files.append({"path": rel, "text": path.read_text(encoding="utf-8"), "file_id": None, "license": None})
    units, _ = extract_units("b" * 64, files)
    return [u for u in units if u["layout"] == "op_project"]


def op_project_units() -> list[dict]:
    """The demo op projects, the Cube ones left out (they have their own section)."""
    return [u for u in all_op_project_units() if not uses_cube(u)]


def op_project_throughput(units: list[dict], tmp: Path, name: str = "op") -> list[tuple[str, float, float, int]]:
    """(label, units/min, seconds, passed) over the units: a cold build cache, then the same cache warm."""
    cache = tmp / f"cache-{name}"
    rows = []
    for label in ("fresh cache", "warm cache"):
        ctx = steps.Context(cache_dir=cache, seeds=(0,))
        start = time.monotonic()
        ctx.pch = buildmod.ensure_pch(cache, ctx.soc, ctx.opt)
        passed = 0
        for unit in units:
            out = worker.verify(worker.Job(unit, ctx))
            passed += (out.get("verdict") or {}).get("status") == "passed"
        seconds = time.monotonic() - start
        rows.append((label, len(units) / seconds * 60, seconds, passed))
    return rows


def kernel_launch_warm(units: list[dict], tmp: Path) -> float:
    """Kernel-launch units/min with a warm build cache (the baseline for the op-project warm figure)."""
    cache = tmp / "cache-kl"
    ctx = steps.Context(cache_dir=cache, seeds=(0,))
    ctx.pch = buildmod.ensure_pch(cache, ctx.soc, ctx.opt)
    for unit in units:
        worker.verify(worker.Job(unit, ctx))
    start = time.monotonic()
    for unit in units:
        worker.verify(worker.Job(unit, ctx))
    return len(units) / (time.monotonic() - start) * 60


def report_op_projects(kl_units: list[dict], kl_fresh_per_min: float | None) -> None:
    units = op_project_units()
    with tempfile.TemporaryDirectory(prefix="bench-op-") as tmp_name:
        tmp = Path(tmp_name)
        rows = op_project_throughput(units, tmp)
        kl_warm = kernel_launch_warm(kl_units, tmp)
    print(f"op projects ({len(units)} demo units, --jobs 1):")
    for label, per_min, seconds, passed in rows:
        print(f"  {label:12} {per_min:6.1f} units/min ({seconds:.1f} s, {passed} passed)")
    print(f"  ratio warm/fresh: {rows[1][1] / rows[0][1]:.2f}x")
    fresh = f"{kl_fresh_per_min:.1f} fresh (--jobs 1), " if kl_fresh_per_min else ""
    print(f"  kernel-launch units for comparison: {fresh}{kl_warm:.1f} warm units/min")
    print(f"  ratio op-project/kernel-launch (warm): {rows[1][1] / kl_warm:.2f}x")


def report_cube(units: list[dict]) -> None:
    """Cube and mixed demo units vs the vector kernel launches, fresh and warm build cache, --jobs 1."""
    cube = [u for u in units if uses_cube(u)] + [u for u in all_op_project_units() if uses_cube(u)]
    vector = [u for u in units if not uses_cube(u)]
    with tempfile.TemporaryDirectory(prefix="bench-cube-") as tmp_name:
        tmp = Path(tmp_name)
        buildmod.ensure_pch(tmp / "cache-cube", "ascend910b")  # the PCH is not part of either figure
        shutil.copytree(tmp / "cache-cube", tmp / "cache-vector")
        cube_rows = op_project_throughput(cube, tmp, "cube")
        vector_rows = op_project_throughput(vector, tmp, "vector")
    names = ", ".join(sorted(u["name"] for u in cube))
    print(f"Cube and mixed units ({len(cube)}: {names}; --jobs 1, PCH built before the clock):")
    for (label, per_min, seconds, passed), (_, v_per_min, _, v_passed) in zip(cube_rows, vector_rows, strict=True):
        print(
            f"  {label:12} {per_min:6.1f} cube kernels/min ({seconds:.1f} s, {passed}/{len(cube)} passed); "
            f"vector kernel launches {v_per_min:6.1f}/min ({v_passed}/{len(vector)} passed); "
            f"ratio cube/vector {per_min / v_per_min:.2f}x"
        )


def throughput(units: list[dict], jobs: int, tmp: Path) -> tuple[float, float, dict]:
    ws = tmp / f"ws-jobs{jobs}"
    with Store(ws) as store:
        store.insert("units", units)
        start = time.monotonic()
        stats = run(store, VerifyConfig(jobs=jobs, seeds=[0], progress=False))
        seconds = time.monotonic() - start
    return len(units) / seconds * 60, seconds, {"passed": stats.counts["passed"]}


def step_overhead(repeats: int) -> tuple[float, float]:
    """Seconds per trivial step (`true`): confined with every isolation feature vs. a plain subprocess."""
    import subprocess

    session = sandbox.default_session()
    workdir = session.new_dir("overhead-")
    start = time.monotonic()
    for _ in range(repeats):
        assert sandbox.run(["true"], workdir, sandbox.Limits(), session=session).ok
    confined = (time.monotonic() - start) / repeats
    start = time.monotonic()
    for _ in range(repeats):
        subprocess.run(["true"], check=True)
    plain = (time.monotonic() - start) / repeats
    sandbox.remove_tree(workdir)
    return confined, plain


def fidelity_cost(units: list[dict], tmp: Path, rounds: int = 3) -> dict[str, float]:
    """Kernel run seconds (the harness's run_s, summed over the units) under three emulator settings, each the best
    of `rounds` passes (the machine is shared); the builds come from one warm cache, so compiling is excluded."""
    cache = tmp / "cache-fidelity"
    base = steps.Context(cache_dir=cache, seeds=(0,), python=sys.executable)
    base.pch = buildmod.ensure_pch(cache, base.soc, base.opt)
    settings = {
        "model off": {"extra_env": {"COTBUILDER_HAZARDS": "0"}},
        "hazard model": {},
        "--schedules 4": {"schedules": 4},
    }
    best: dict[str, float] = {}
    for name, change in settings.items():
        for _ in range(rounds):
            ctx = steps.Context(cache_dir=cache, seeds=(0,), python=sys.executable, **change)
            ctx.pch = base.pch
            total = 0.0
            for unit in units:
                verdict = worker.verify(worker.Job(unit, ctx)).get("verdict") or {}
                if verdict.get("status") != "passed":  # a run that did not happen would time nothing
                    raise SystemExit(f"{unit['name']}: {verdict.get('status')} ({verdict.get('reason')})")
                total += float(verdict["timings"].get("run_s") or 0.0)
            best[name] = min(best.get(name, float("inf")), total)
    return best


def distinct_vector_units(n: int, tmp: Path) -> list[dict]:
    """n units, each a demo vector sample (no Matmul / Mmad) whose kernel file carries one more, unused constant."""
    samples = [
        p
        for p in sorted(DEMO.iterdir())
        if p.is_dir() and not any(re.search(r"\bMatmul|\bMmad", f.read_text()) for f in p.rglob("*.cpp"))
    ]
    units = []
    for i in range(n):
        sample = samples[i % len(samples)]
        folder = tmp / "variants" / f"{sample.name}_v{i}"
        shutil.copytree(sample, folder)
        kernel = folder / f"{sample.name}.cpp"
        if not kernel.is_file():
            kernel = next(p for p in folder.glob("*.cpp") if p.name != "main.cpp")
        marker = '#include "kernel_operator.h"\n'
        kernel.write_text(
            kernel.read_text().replace(marker, marker + f"constexpr int32_t BENCH_VARIANT_{i} = {i};\n", 1)
        )
        units.append(unit_from_dir(folder, name=f"{sample.name}_v{i}"))
    return units


@contextlib.contextmanager
def header_only(on: bool):
    """Verify as it runs when the runtime library is not there (its fallback): the stage's ensure_pch, header-only."""
    if not on:
        yield
        return
    real = buildmod.ensure_pch
    buildmod.ensure_pch = functools.partial(real, runtime=False)
    try:
        yield
    finally:
        buildmod.ensure_pch = real


def cpu_seconds() -> float:
    """CPU seconds of this process and every child it has waited for (the pool's workers and their sandboxed steps)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@contextlib.contextmanager
def zygote(on: bool):
    """Steps started through the sandbox's warm zygote (the default) or each through a fresh shim (before it)."""
    old = os.environ.get(sandbox.ZYGOTE_SWITCH)
    os.environ[sandbox.ZYGOTE_SWITCH] = "1" if on else "0"  # the pool's workers are spawned: they inherit it
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(sandbox.ZYGOTE_SWITCH, None)
        else:
            os.environ[sandbox.ZYGOTE_SWITCH] = old


@contextlib.contextmanager
def without_api_instances(on: bool):
    """Verify as it was before the emulator's template instances went into the runtime library: the precompiled
    header declares none of them (`COTBUILDER_NO_API_INSTANCES` first; another header text, so another PCH key)."""
    if not on:
        yield
        return
    real = buildmod.pch_text
    buildmod.pch_text = lambda headers, runtime: f"#define {buildmod.NO_API_INSTANCES} 1\n" + real(headers, runtime)
    try:
        yield
    finally:
        buildmod.pch_text = real


def distinct_throughput(
    units: list[dict], tmp: Path, runtime_library: bool, use_zygote: bool = True, api_instances: bool = True
) -> tuple[float, float, float, dict]:
    """(kernels/s, seconds, CPU seconds per kernel, status by unit name): verify --jobs 2, default configuration, a
    fresh workspace (empty build cache), the precompiled header (and runtime library) built before the clock starts.
    CPU seconds include the zygotes' (each worker waits for its zygote when it exits)."""
    name = f"{'runtime' if runtime_library else 'header-only'}-{'zygote' if use_zygote else 'shim'}"
    ws = tmp / f"ws-distinct-{name}{'' if api_instances else '-no-api'}"
    config = VerifyConfig(jobs=2, progress=False)
    with (
        Store(ws) as store,
        header_only(not runtime_library),
        zygote(use_zygote),
        without_api_instances(not api_instances),
    ):
        store.insert("units", units)
        buildmod.ensure_pch(store.cache_path("verify", "x").parent, config.soc, config.opt)
        start, cpu = time.monotonic(), cpu_seconds()
        run(store, config)
        seconds, cpu = time.monotonic() - start, cpu_seconds() - cpu
        statuses = {
            r["name"]: (r["status"], r["reason"])
            for r in store.rows("SELECT u.name, v.status, v.reason FROM verifications v JOIN units u USING (unit_id)")
        }
    return len(units) / seconds, seconds, cpu / len(units), statuses


def report_distinct(n: int, samples: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-distinct-") as tmp_name:
        tmp = Path(tmp_name)
        units = distinct_vector_units(n, tmp)
        print(f"distinct vector kernels: {n} ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}), verify --jobs 2,")
        print("  default configuration (seeds 0 and 1), empty build cache, precompiled header warm:")
        rows = {}
        settings = (
            ("header-only (before)", False, True, True),
            ("runtime lib, no zygote", True, False, True),
            ("lib + zygote, no API", True, True, False),
            ("runtime lib + zygote", True, True, True),
        )
        for label, runtime_library, use_zygote, api_instances in settings:
            rows[label] = distinct_throughput(units, tmp, runtime_library, use_zygote, api_instances)
            per_s, seconds, cpu, statuses = rows[label]
            passed = sum(s == "passed" for s, _ in statuses.values())
            print(f"  {label:22} {per_s:5.2f} kernels/s ({seconds:.1f} s, {cpu:.2f} CPU-s/kernel, {passed} passed)")
            print(f"  {'':22} load {os.getloadavg()[0]:.1f} at its end")
        (b_s, _, b_cpu, b_v), (s_s, _, s_cpu, s_v), (n_s, _, n_cpu, n_v), (a_s, _, a_cpu, a_v) = rows.values()
        print(f"  ratio runtime lib/header-only: {s_s / b_s:.2f}x kernels/s, {b_cpu / s_cpu:.2f}x less CPU per kernel")
        print(f"  ratio zygote/no zygote: {a_s / s_s:.2f}x kernels/s, {s_cpu / a_cpu:.2f}x less CPU per kernel")
        print(f"  ratio API instances/none: {a_s / n_s:.2f}x kernels/s, {n_cpu / a_cpu:.2f}x less CPU per kernel")
        print(f"  at 2 idle cores (CPU-bound): {2 / a_cpu:.2f} kernels/s (goal >= 3)")
        for label, other in (("header-only", b_v), ("no zygote", s_v), ("no API instances", n_v)):
            same = sum(other[k] == a_v.get(k) for k in other)
            print(f"  verdicts (status + reason) equal to {label}: {same}/{len(other)}")
        sample = units[:samples]
        costs = {
            "no PCH": compile_costs(sample, tmp, use_pch=False),
            "PCH, header-only": compile_costs(sample, tmp, use_pch=True, runtime_library=False),
            "PCH + runtime library": compile_costs(sample, tmp, use_pch=True, runtime_library=True),
        }
    print(f"compile per kernel (main + kernel, compile + link in the sandbox, no build cache, n={len(sample)}):")
    for label, (wall, cpu) in costs.items():
        print(f"  {label:22} {wall:5.2f} s wall  {cpu:5.2f} CPU-s")
    base_cpu, new_cpu = costs["PCH, header-only"][1], costs["PCH + runtime library"][1]
    print(f"  ratio header-only/runtime library: {base_cpu / new_cpu:.2f}x CPU")
    report_split(units if len(units) <= 12 else units[:12])


def report_split(units: list[dict]) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-split-") as tmp_name:
        tmp = Path(tmp_name)
        split, own, total = step_split(units, tmp)
        compiled, linked = link_cost(units[: min(len(units), 6)], tmp)
    n = len(units)
    print(f"one unit's CPU, split (n={n}, in one process one after the other, load {os.getloadavg()[0]:.1f}):")
    for kind, (count, cpu) in sorted(split.items(), key=lambda kv: -kv[1][1]):
        print(f"  {kind:22} {count / n:4.1f} steps  {cpu / n:5.3f} CPU-s")
        if kind == "compile + link":
            print(f"  {'  of which link':22} {'':10} ~{linked:5.3f} CPU-s (compile alone {compiled:5.3f}, outside)")
    print(f"  {'worker (files, judge)':22} {'':10} {own / n:5.3f} CPU-s")
    print(f"  {'total':22} {'':10} {total / n:5.3f} CPU-s per unit")


def _step_kind(argv: list[str]) -> str:
    """What a sandboxed step is, by its command line (the harness's own names for its scripts)."""
    first = os.path.basename(argv[0])
    if first in ("g++", "clang++"):
        return "compile + link"
    if first.startswith("python"):
        script = argv[1] if len(argv) > 1 else ""
        return "generator" if "generator_runner" in script else "reference" if "reference" in script else "checker"
    return "kernel run" if argv[0].startswith("./") else first


def step_split(units: list[dict], tmp: Path) -> tuple[dict[str, list[float]], float, float]:
    """Where one unit's CPU goes, verified in this process one after the other (no pool): per step kind [steps,
    CPU s] summed over the units (the CPU of a step: its processes, as the sandbox measures it), this process's own
    CPU (materialising files, reading outputs, judging, the sandbox's parent side), and the total."""
    cache = tmp / "cache-split"
    ctx = steps.Context(cache_dir=cache, python=sys.executable)
    ctx.pch = buildmod.ensure_pch(cache, ctx.soc, ctx.opt)
    sandbox.run(["true"], tmp, sandbox.Limits())  # the zygote started, the machine probed: not a unit's cost
    split: dict[str, list[float]] = {}
    real = sandbox.run

    def counted(argv, *args, **kwargs):
        result = real(argv, *args, **kwargs)
        entry = split.setdefault(_step_kind(argv), [0, 0.0])
        entry[0] += 1
        entry[1] += result.cpu_s
        return result

    sandbox.run = counted
    start = os.times()
    try:
        for unit in units:
            worker.verify(worker.Job(unit, ctx))
    finally:
        sandbox.run = real
    end = os.times()
    own = end.user + end.system - start.user - start.system
    return split, own, own + sum(cpu for _, cpu in split.values())


def link_cost(units: list[dict], tmp: Path) -> tuple[float, float]:
    """Mean CPU s of (compile only, link only) of the kernels' unity translation unit, outside the sandbox: the
    compile + link row split in two."""
    import resource
    import subprocess

    cache = tmp / "cache-link"
    ctx = steps.Context(cache_dir=cache, use_cache=False)
    ctx.pch = buildmod.ensure_pch(cache, ctx.soc, ctx.opt)
    compiled = linked = 0.0
    for unit in units:
        workdir = tmp / f"link-{unit['name']}"
        workdir.mkdir()
        harness_own.materialise(unit, workdir)
        sources = harness_own.compiled_sources(unit)
        harness_own._rewrite(workdir, sources)
        (workdir / harness_own.DEFINES_NAME).write_text(cmake_defines.defines_header(unit, ctx.soc), encoding="utf-8")
        (workdir / harness_own.UNITY_NAME).write_text("".join(f'#include "{s}"\n' for s in sources), "utf-8")
        includes = harness_own._include_dirs(workdir, sources)
        argv = buildmod.compile_argv(
            [harness_own.UNITY_NAME], includes, "k", ctx.soc, ctx.pch, ctx.opt, (harness_own.DEFINES_NAME,)
        )
        steps_ = [
            [a for a in argv[: argv.index("-o")] if a != str(ctx.pch.runtime)] + ["-c", "-o", "k.o"],
            ["g++", "-pthread", "k.o", *ctx.pch.objects(), *buildmod.linker_flags(), "-o", "k"],
        ]
        for i, step in enumerate(steps_):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(step, cwd=workdir, check=True, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            compiled, linked = (compiled + cpu, linked) if i == 0 else (compiled, linked + cpu)
    return compiled / len(units), linked / len(units)


def compile_costs(units: list[dict], tmp: Path, use_pch: bool, runtime_library: bool = True) -> tuple[float, float]:
    """Mean (wall s, CPU s) of one kernel's compile + link, the build cache off."""
    cache = tmp / f"cache-compile-{use_pch}-{runtime_library}"
    ctx = steps.Context(cache_dir=cache, use_cache=False)
    if use_pch:
        ctx.pch = buildmod.ensure_pch(cache, ctx.soc, ctx.opt, runtime=runtime_library)
    walls, cpus = [], []
    for unit in units:
        workdir = sandbox.default_session().new_dir("bench-")
        try:
            result, _ = harness_own.build_unit(unit, workdir, ctx)
            if result.ok:
                walls.append(result.seconds)
                cpus.append(result.cpu_s)
        finally:
            sandbox.remove_tree(workdir)
    return statistics.mean(walls), statistics.mean(cpus)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=None, help="use the first N demo units (default: all)")
    parser.add_argument("--compile-samples", type=int, default=6, help="kernels timed for the compile comparison")
    parser.add_argument("--only", choices=["op-projects", "distinct", "cube"], help="print only this section")
    parser.add_argument("--distinct", type=int, default=29, help="distinct vector kernels verified (default 29)")
    args = parser.parse_args()
    units = demo_units(args.units)
    print(f"demo kernel_launch units: {len(units)}; machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    if args.only == "op-projects":
        report_op_projects(units, None)
        return 0
    if args.only == "cube":
        report_cube(units)
        return 0
    report_distinct(args.distinct, args.compile_samples)
    if args.only == "distinct":
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp_name:
        tmp = Path(tmp_name)
        pch_start = time.monotonic()
        buildmod.ensure_pch(tmp / "pch-only", "ascend910b")
        pch_s = time.monotonic() - pch_start
        print(f"precompiled header build (once per emulator version + flags): {pch_s:.1f} s")
        per_min = {}
        for jobs in (1, 2):
            kpm, seconds, info = throughput(units, jobs, tmp)
            per_min[jobs] = kpm
            print(
                f"--jobs {jobs}: {kpm:.1f} kernels/min ({seconds:.1f} s for {len(units)}, {info['passed']} passed, "
                "fresh cache incl. PCH build)"
            )
        print(f"ratio jobs2/jobs1: {per_min[2] / per_min[1]:.2f}x")
    with tempfile.TemporaryDirectory(prefix="bench-fidelity-") as tmp_name:
        cost = fidelity_cost(units, Path(tmp_name))
        off = cost["model off"]
        print(f"kernel run seconds over {len(units)} units (best of 3, builds cached):")
        for name, seconds in cost.items():
            print(f"  {name:14} {seconds:6.2f} s   ratio vs model off: {seconds / off:.2f}x")
        print("  goals: hazard model <= 1.5x, --schedules 4 <= 4x")
    confined, plain = step_overhead(20)
    enforced = ", ".join(sorted(sandbox.capabilities().available))
    print(f"sandbox step overhead: {confined * 1000:.0f} ms confined ({enforced}) vs {plain * 1000:.1f} ms plain")
    print(f"ratio confined/plain: {confined / plain:.1f}x")
    report_op_projects(units, per_min[1])
    report_cube(units)
    return 0


if __name__ == "__main__":
    sys.exit(main())
