"""The cube unit's speed: a 1024 x 1024 x 1024 fp16 matmul (basic API, one AIC core, 128 x 128 C tiles, K in steps
of 256: benchmarks/kernels/cube_matmul_tiled.cpp) on the cpu emulator, with the pipe-hazard model on (as verify runs
it) and off (the baseline, COTBUILDER_HAZARDS=0), in the same run. The result is checked against numpy.

    python benchmarks/bench_cube_matmul.py [--size 1024] [--repeat 3]

Built at verify's kernel optimisation level (`config.KERNEL_OPT`, -O0; the Mmad loop itself is compiled -O3 by
its own pragma). Goal (issue 14): under 10 s with the hazard model on, on one core. Mmad multiplies with a blocked
double-precision loop (cube.h gemm_f64), one rounding to fp32 per call. Measured 2026-11-24, load ~6: 2.25 s on,
1.70 s off at -O0 (1.20 s / 0.79 s at the -O1 verify used before).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cotbuilder.paths import emulator_include_dirs  # noqa: E402
from cotbuilder.verify.config import KERNEL_OPT  # noqa: E402  (built at the level verify builds kernels at)

KERNEL = REPO / "benchmarks" / "kernels" / "cube_matmul_tiled.cpp"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=1024, help="M = N = K (a multiple of 256)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per setting; the best is reported")
    args = ap.parse_args()
    if args.size % 256:
        print("--size must be a multiple of 256", file=sys.stderr)
        return 2
    n = args.size
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        exe = d / "cube_matmul_tiled"
        flags = ["-std=c++17", KERNEL_OPT, "-pthread", "-DASCENDC_CPU_DEBUG", '-DCOTBUILDER_SOC="ascend910b"']
        inc = [f"-I{p}" for p in emulator_include_dirs()]
        t0 = time.perf_counter()
        subprocess.run(["g++", *flags, *inc, str(KERNEL), "-o", str(exe)], check=True)
        print(f"build: {time.perf_counter() - t0:.1f} s")
        rng = np.random.default_rng(0)
        a = rng.uniform(-1, 1, (n, n)).astype(np.float16)
        b = rng.uniform(-1, 1, (n, n)).astype(np.float16)
        a.tofile(d / "a.bin")
        b.tofile(d / "b.bin")
        want = a.astype(np.float32) @ b.astype(np.float32)
        best = {}
        for label, hazards in (("hazard model on", "1"), ("hazard model off (baseline)", "0")):
            env = dict(os.environ, COTBUILDER_HAZARDS=hazards, OMP_NUM_THREADS="1")
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                proc = subprocess.run(
                    [str(exe), str(d), str(n), str(n), str(n)], capture_output=True, text=True, env=env
                )
                times.append(time.perf_counter() - t0)
                if proc.returncode != 0 or "COTBUILDER_DIAG" in proc.stderr:
                    print(f"{label}: exit {proc.returncode}\n{proc.stderr[:2000]}", file=sys.stderr)
                    return 1
                got = np.fromfile(d / "c.bin", dtype=np.float32).reshape(n, n)
                err = float(np.max(np.abs(got - want)))
                if err > 1e-2:
                    print(f"{label}: wrong result, max abs error {err}", file=sys.stderr)
                    return 1
            best[label] = min(times)
            gflop = 2 * n**3 / 1e9
            print(f"{label}: {best[label]:.2f} s for {n}^3 fp16 ({gflop / best[label]:.2f} GFLOP/s, max err {err:.1e})")
        on, off = best["hazard model on"], best["hazard model off (baseline)"]
        print(f"ratio on / off: {on / off:.2f}x; goal < 10 s with the model on: {'met' if on < 10 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
