"""Verify-stage speed on the demo corpus (examples/kernel_launch/*), measured in one run against its own baselines.

    python benchmarks/bench_verify.py [--units N] [--compile-samples N]

Prints
- kernels per minute with --jobs 1 and --jobs 2, each from a fresh workspace (fresh build cache; the precompiled
  header build is included and also shown on its own), and the ratio jobs2 / jobs1;
- compile seconds per kernel (main + kernel, one g++ run in the sandbox, no build cache) with and without the
  precompiled emulator header, and the ratio without / with (goal: <= 1.5 s per vector kernel with it);
- the sandbox's cost per step (a trivial command confined with every isolation feature, vs. a plain subprocess);
- the emulator's fidelity cost at run time (builds cached, so only running and judging counts): the kernels' run
  seconds with the pipe-hazard model off (COTBUILDER_HAZARDS=0, the baseline) and on (verify's default), and with
  `--schedules 4`; ratios against the baseline (goals: hazard model <= 1.5x, --schedules 4 <= 4x);
- op-project throughput (examples/op_project, each through the harness its layout is tested with; the Cube op is left
  out): units per minute with a fresh build cache, then again with the cache warm (the host build - OpDef describe,
  TilingFunc objects - and the kernel variants cached per op), next to the kernel-launch figure of the same cache state.
  `--only op-projects` prints just this section.
"""

from __future__ import annotations

import argparse
import os
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
from cotbuilder.verify import harness_own, sandbox, steps, worker  # noqa: E402
from cotbuilder.verify.stage import VerifyConfig, run  # noqa: E402

DEMO = REPO / "examples" / "kernel_launch"
OP_DEMO = REPO / "examples" / "op_project"


def demo_units(limit: int | None) -> list[dict]:
    folders = sorted(p for p in DEMO.iterdir() if p.is_dir() and any(p.iterdir()))
    return [unit_from_dir(p) for p in folders[:limit]]


def op_project_units() -> list[dict]:
    """The demo op projects as the crawl groups them (a benchmark task's is its answer/0), the Cube one left out."""
    from cotbuilder.parse.units import extract_units

    files = []
    for path in sorted(OP_DEMO.rglob("*")):
        if path.is_file():
            rel = str(path.relative_to(OP_DEMO))
            files.append({"path": rel, "text": path.read_text(encoding="utf-8"), "file_id": None, "license": None})
    units, _ = extract_units("b" * 64, files)
    ops = [u for u in units if u["layout"] == "op_project"]
    return [u for u in ops if not any("Matmul" in f["text"] for f in u["files"] if f["path"].endswith(".cpp"))]


def op_project_throughput(units: list[dict], tmp: Path) -> list[tuple[str, float, float, int]]:
    """(label, units/min, seconds, passed) over the op projects: a cold build cache, then the same cache warm."""
    cache = tmp / "cache-op"
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


def throughput(units: list[dict], jobs: int, tmp: Path) -> tuple[float, float, dict]:
    ws = tmp / f"ws-jobs{jobs}"
    with Store(ws) as store:
        store.insert("units", units)
        start = time.monotonic()
        stats = run(store, VerifyConfig(jobs=jobs, seeds=[0], progress=False))
        seconds = time.monotonic() - start
    return len(units) / seconds * 60, seconds, {"passed": stats.counts["passed"]}


def compile_seconds(units: list[dict], use_pch: bool, tmp: Path) -> list[float]:
    cache = tmp / ("cache-pch" if use_pch else "cache-nopch")
    ctx = steps.Context(cache_dir=cache, use_cache=False)
    if use_pch:
        ctx.pch = buildmod.ensure_pch(cache, ctx.soc, ctx.opt)
    times = []
    for unit in units:
        workdir = sandbox.default_session().new_dir("bench-")
        try:
            result, _ = harness_own.build_unit(unit, workdir, ctx)
            if result.ok:
                times.append(result.seconds)
        finally:
            sandbox.remove_tree(workdir)
    return times


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=None, help="use the first N demo units (default: all)")
    parser.add_argument("--compile-samples", type=int, default=6, help="kernels timed for the PCH comparison")
    parser.add_argument("--only", choices=["op-projects"], help="print only this section")
    args = parser.parse_args()
    units = demo_units(args.units)
    print(f"demo kernel_launch units: {len(units)}; machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    if args.only == "op-projects":
        report_op_projects(units, None)
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
        sample = units[: args.compile_samples]
        with_pch = compile_seconds(sample, True, tmp)
        without = compile_seconds(sample, False, tmp)
        m_with, m_without = statistics.mean(with_pch), statistics.mean(without)
        print(
            f"compile s/kernel with PCH:    {m_with:.2f} (median {statistics.median(with_pch):.2f}, n={len(with_pch)})"
            f" goal <= 1.5"
        )
        print(
            f"compile s/kernel without PCH: {m_without:.2f} (median {statistics.median(without):.2f}, n={len(without)})"
        )
        print(f"ratio without/with PCH: {m_without / m_with:.2f}x")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
