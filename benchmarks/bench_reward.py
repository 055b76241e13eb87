"""Throughput of the reward (`cotbuilder.reward.score`) on one demo task, three ways, in the same run:

- cold: every answer is new to the build cache (g++ with the precompiled emulator header, then the sandboxed
  reference and kernel runs per seed);
- cached build: the same answers with an empty score cache but a warm build cache (only the sandboxed runs);
- cached score: the same answers again (a JSON read per score: what repeated samples cost).

Answers are the demo kernel with a distinct comment each (distinct code hash, same work); for a task whose answer is
a whole op project (`--task mul_add_custom`), every file of it with the kernel file stamped so. The precompiled header is
built before timing. Scores run through a pool of --jobs threads, as `cotbuilder serve --concurrency` does. Prints
scores/s of each and the ratios to the cold rate, with the machine's load (other work moves every number).

    python benchmarks/bench_reward.py [--n 6] [--jobs 2] [--task add_fp16]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cotbuilder.reward import Scorer
from cotbuilder.tasks.toml_loader import load_file

REPO = Path(__file__).resolve().parents[1]


def timed(scorer: Scorer, answers: list[str], task, jobs: int) -> tuple[float, list]:
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        scores = list(pool.map(lambda a: scorer.score(a, task), answers))
    return time.monotonic() - start, scores


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=6, help="distinct answers")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--task", default="add_fp16", help="a task under examples/tasks")
    args = ap.parse_args()
    task = load_file(REPO / "examples" / "tasks" / args.task / "task.toml")
    files = task.answer()
    stamp = time.time_ns()
    # a full op project's answer is every file of it (the kernel file stamped); the other layouts give the kernel
    answers: list = [
        {**files, task.kernel_path: f"// sample {stamp}-{i}\n{files[task.kernel_path]}"}
        if task.layout == "op_project"
        else f"// sample {stamp}-{i}\n{files[task.kernel_path]}"
        for i in range(args.n)
    ]
    with tempfile.TemporaryDirectory(prefix="bench-reward-") as tmp:
        first = Path(tmp) / "a"
        first.mkdir()
        scorer = Scorer(first)
        scorer._ensure_pch()  # the PCH is built once per emulator version: not part of an answer's cost
        cold_s, cold = timed(scorer, answers, task, args.jobs)
        second = Path(tmp) / "b"
        second.mkdir()
        (second / "verify").symlink_to(first / "verify")  # same build cache, empty score cache
        warm_s, warm = timed(Scorer(second), answers, task, args.jobs)
        hit_s, hit = timed(scorer, answers, task, args.jobs)
    assert all(s.reward == 1.0 for s in cold + warm + hit), [s.status for s in cold + warm + hit]
    assert all(s.cached for s in hit) and not any(s.cached for s in cold + warm)
    rate = {name: args.n / s for name, s in (("cold", cold_s), ("cached build", warm_s), ("cached score", hit_s))}
    print(f"task {args.task}, {len(task.cases)} case(s) x {len(task.cases[0]['seeds'])} seed(s), n={args.n}, "
          f"jobs={args.jobs}, load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
    for name, r in rate.items():
        print(f"{name:>13}: {r:8.2f} scores/s  ({r / rate['cold']:.1f}x cold)")


if __name__ == "__main__":
    main()
