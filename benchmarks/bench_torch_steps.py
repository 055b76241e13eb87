"""Sandboxed steps that import torch (a benchmark reference, a ModelNew run), two ways in the same run:

- fresh: every step's Python imports torch itself (the plain zygote, as before torch was preloadable);
- preloaded: the steps ask for torch (`sandbox.run(..., preload=("torch",))`) and fork from a zygote that imported it
  once; the zygote's start is counted in this figure.

Each step computes a small softmax with torch and writes it, as a reference does. Prints steps/s of each and the
ratio, with the machine's load (other work moves every number). Needs the torch extra.

    python benchmarks/bench_torch_steps.py [--n 12]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from cotbuilder.verify import sandbox

STEP = (
    "import numpy as np\n"
    "import torch\n"
    "x = torch.from_numpy(np.arange(4096, dtype=np.float32).reshape(64, 64) / 4096)\n"
    "torch.softmax(x, dim=-1).numpy().tofile('golden.bin')\n"
)
LIMITS = sandbox.Limits(cpu_s=60, wall_s=120, memory_mb=4096)


def timed(n: int, preload: tuple[str, ...]) -> float:
    session = sandbox.default_session()
    start = time.perf_counter()
    for _ in range(n):
        work = session.new_dir("bench-torch-")
        (work / "ref.py").write_text(STEP)
        res = sandbox.run([sys.executable, "ref.py"], work, LIMITS, preload=preload)
        if res.outcome != "ok":
            raise SystemExit(f"step failed: {res.outcome} {res.reason} {res.stderr[-500:]}")
        sandbox.remove_tree(work)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=12, help="steps per way")
    args = parser.parse_args()
    fresh = timed(args.n, ())
    warm = timed(args.n, ("torch",))
    print(f"load average {os.getloadavg()[0]:.1f}, {args.n} steps each")
    print(f"fresh import per step:  {args.n / fresh:6.2f} steps/s  ({fresh / args.n:.2f} s/step)")
    print(f"preloaded torch zygote: {args.n / warm:6.2f} steps/s  ({warm / args.n:.2f} s/step)")
    print(f"ratio preloaded / fresh: {fresh / warm:.1f}x")


if __name__ == "__main__":
    main()
