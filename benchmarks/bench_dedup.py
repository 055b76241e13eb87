"""Dedup throughput before/after, on the same generated kernels in one run, with the duplicate decisions compared.

    python benchmarks/bench_dedup.py [--sizes 10000 100000] [--jobs 2] [--stage]

before: the one-document path dedup used until issue 16, as it was (Python `re` lexer, per-document shingles with
    blake2b token ids, rensa signatures, LSH, union-find), in one process.
after:  what the stage does now: shards of 2,048 kernels signed in compiled code (polars/Rust regex tokens, polars
    token hashes, numpy shingles, rensa) on --jobs processes, then the same LSH and union-find in the driver.
--stage also times `DedupStage` end to end on a workspace holding the kernels as units (reading the units, signing,
    clustering, writing the `dedup` table; filling the store is not timed).

Records/s are wall time; "cpu" is the process CPU time summed over the driver and the workers, which on a shared
machine says what the code costs when the cores are not its own. Agreement: the same-cluster pairs of both, and every
pair on which they differ with its exact Jaccard (a pair near the threshold is decided by the MinHash estimate, which
changes with the token hash). Kernels come from cotbuilder.dedup.synthetic (~1000 tokens each, with exact,
reformatted, renamed and 80%-shared duplicates).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cotbuilder.dedup import clusters, minhash, synthetic, tokens  # noqa: E402

PARAMS = clusters.ClusterParams(threshold=0.7, num_perm=256, ngram=5)
SHARD = 2048


class Clock:
    """Wall and CPU seconds of a block; CPU includes finished child processes (the pool's workers)."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), self._cpu()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, self._cpu() - self.cpu

    @staticmethod
    def _cpu() -> float:
        me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


# -- before: the one-document path, as dedup ran it until issue 16 --------------------------------------------------
def before(codes: list[str]) -> tuple[list[list[int]], dict[str, float]]:
    t: dict[str, float] = {}
    with Clock() as c:
        toks = [tokens.tokens(x) for x in codes]
        hashes = [tokens.code_hash(x) for x in codes]
        shingles = [minhash.shingle_hashes(tk, PARAMS.ngram) for tk in toks]
    t["tokens+shingles"] = c.wall
    with Clock() as c:
        nonempty = [i for i in range(len(codes)) if len(shingles[i])]
        sig = np.zeros((len(codes), PARAMS.num_perm), dtype=np.uint64)
        sig[nonempty] = minhash.signatures([shingles[i] for i in nonempty], PARAMS.num_perm, PARAMS.seed)
    t["signatures"] = c.wall
    with Clock() as c:
        has = np.array([len(s) > 0 for s in shingles])
        result = clusters.cluster_signed(hashes, sig, has, PARAMS)
    t["LSH+clusters"] = c.wall
    return result.groups, t


# -- after: shards signed on a process pool, clustered in the driver ----------------------------------------------
def _sign(codes: list[str]) -> clusters.SignedShard:
    return clusters.sign_shard(codes, PARAMS)


def after(codes: list[str], jobs: int) -> tuple[list[list[int]], dict[str, float]]:
    t: dict[str, float] = {}
    shards = [codes[i : i + SHARD] for i in range(0, len(codes), SHARD)]
    with Clock() as c:
        if jobs > 1:
            with multiprocessing.get_context("spawn").Pool(jobs) as pool:
                signed = pool.map(_sign, shards, chunksize=1)
        else:
            signed = [_sign(s) for s in shards]
    t["sign (tokens, shingles, signatures)"] = c.wall
    with Clock() as c:
        result = clusters.cluster_signed(
            [h for s in signed for h in s.code_hashes],
            np.concatenate([s.signatures for s in signed]),
            np.concatenate([s.has_shingles for s in signed]),
            PARAMS,
        )
    t["LSH+clusters"] = c.wall
    return result.groups, t


def _pairs(groups: list[list[int]]) -> set[tuple[int, int]]:
    return {p for g in groups if len(g) > 1 for p in itertools.combinations(sorted(g), 2)}


def agreement(codes: list[str], old: list[list[int]], new: list[list[int]]) -> str:
    a, b = _pairs(old), _pairs(new)
    differ = sorted(a ^ b)
    dup_old = {i for g in old for i in sorted(g)[1:]}
    dup_new = {i for g in new for i in sorted(g)[1:]}
    lines = [
        f"  same-cluster pairs: before {len(a):,}, after {len(b):,}, both {len(a & b):,} "
        f"(agreement {len(a & b) / max(1, len(a | b)):.2%})",
        f"  units judged duplicates: before {len(dup_old):,}, after {len(dup_new):,}; same judgement on "
        f"{1 - len(dup_old ^ dup_new) / len(codes):.3%} of units",
    ]
    if differ:
        sample = differ[:2000]
        sh: dict[int, np.ndarray] = {}

        def exact(i: int) -> np.ndarray:
            if i not in sh:
                sh[i] = minhash.shingle_hashes(tokens.tokens(codes[i]), PARAMS.ngram)
            return sh[i]

        # a pair in one clustering only may be joined through a chain; its own Jaccard says how close it is
        js = np.array([minhash.exact_jaccard(exact(i), exact(j)) for i, j in sample])
        lines.append(
            f"  pairs decided differently: {len(differ):,}; exact Jaccard of {len(sample):,} of them: "
            f"median {np.median(js):.3f}, {np.mean(np.abs(js - PARAMS.threshold) < 0.1):.1%} within 0.1 of the "
            f"threshold {PARAMS.threshold}, {np.mean(js < 0.5):.1%} below 0.5 (joined through a chain)"
        )
    return "\n".join(lines)


def fill_store(workspace: Path, codes: list[str]) -> None:
    from cotbuilder.store import Store

    rows = synthetic.unit_rows(codes)
    with Store(workspace) as store:
        store.insert("sources", [synthetic.source_row()])
        for i in range(0, len(rows), 10_000):
            store.insert("units", rows[i : i + 10_000], validate=False)


def stage_end_to_end(codes: list[str], jobs: int) -> tuple[float, float, dict[str, float]]:
    from cotbuilder.dedup.stage import DedupConfig, DedupStage
    from cotbuilder.stages.driver import run_stage
    from cotbuilder.store import Store

    with tempfile.TemporaryDirectory(prefix="bench-dedup-") as tmp:
        fill_store(Path(tmp), codes)
        with Store(Path(tmp)) as store, Clock() as c:
            stats = run_stage(DedupStage(DedupConfig(jobs=jobs)), store)
    return c.wall, c.cpu, dict(stats.counts)


def _line(label: str, n: int, wall: float, cpu: float | None = None) -> str:
    extra = f", {n / cpu:9,.0f} per CPU-second" if cpu else ""
    return f"  {label:38s} {n / wall:9,.0f} records/s  ({wall:6.1f} s{extra})"


def bench(n: int, jobs: int, stage: bool, run_before: bool) -> None:
    codes = synthetic.kernels(n, max_variants=3)
    print(f"\n== {n:,} kernels, {jobs} jobs (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    new_groups, t_new = after(codes, 1)  # warm: imports and regex compilation in this process
    with Clock() as total_new:
        new_groups, t_new = after(codes, jobs)
    for k, v in t_new.items():
        print(_line(f"after  {k}", n, v))
    print(_line("after  end to end (in memory)", n, total_new.wall, total_new.cpu))
    if run_before:
        with Clock() as total_old:
            old_groups, t_old = before(codes)
        for k, v in t_old.items():
            print(_line(f"before {k}", n, v))
        print(_line("before end to end (in memory)", n, total_old.wall, total_old.cpu))
        print(
            f"  ratio after / before: {total_old.wall / total_new.wall:.1f}x wall, "
            f"{total_old.cpu / total_new.cpu:.1f}x CPU   (goal: >= 10,000 records/s end to end on 2 cores)"
        )
        print(agreement(codes, old_groups, new_groups))
    if stage:
        wall, cpu, counts = stage_end_to_end(codes, jobs)
        print(_line("stage end to end (store -> dedup table)", n, wall, cpu))
        print(f"  stage counts: {counts}")
    print(
        f"  peak RSS: this process {_max_rss(resource.RUSAGE_SELF)}, largest worker {_max_rss(resource.RUSAGE_CHILDREN)}"
    )


def _max_rss(who: int) -> str:
    return f"{resource.getrusage(who).ru_maxrss / 1024:,.0f} MiB"


def main(argv: list[str] | None = None, run: Callable[..., None] = bench) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--stage", action="store_true", help="also time DedupStage end to end from a store")
    ap.add_argument("--no-before", action="store_true", help="skip the before path (minutes at 100k)")
    args = ap.parse_args(argv)
    for n in args.sizes:
        run(n, args.jobs, args.stage, not args.no_before)


if __name__ == "__main__":
    main()
