"""Dedup throughput before/after, on the same generated kernels in one run, with the duplicate decisions compared.

    python benchmarks/bench_dedup.py [--sizes 100000] [--jobs 2] [--baseline-ref 7b4716f4] [--no-stage | --stage-only]
                                     [--keep-store DIR] [--repeat N]

in memory (this process + a pool of --jobs processes, shards of 2,048 kernels):
    before: shards signed as dedup did before the compiled lexer: polars/Rust regex tokens (`tokens.token_lists`),
            polars token hashes, numpy shingles, rensa; then LSH and union-find.
    after:  `clusters.sign_shard` as the stage runs it: the compiled lexer and shingles (numba), the same polars
            token hashes (so the same signatures), rensa; then the same LSH and union-find.
stage (the whole `DedupStage` from a workspace holding the kernels as units to a written `dedup` table; filling the
store is not timed): the code of --baseline-ref (exported with `git archive` into a temporary folder) and this tree,
each in its own process on its own copy of the same store.

Printed: records/s (wall) and records per CPU-second (process CPU summed over the driver and its workers: on a shared
machine it says what the code costs when the cores are not its own), the stage's driver CPU and the wall and CPU of
its plan and finish (the driver's parts before and after the workers: what one core does while the other waits), the
after/before ratios, and the agreement of the duplicate decisions: the same-cluster pairs of both, units judged
duplicates by one only, and the stage's tables row by row, column by column. Kernels come from cotbuilder.dedup.synthetic (~5 KB, ~1000 tokens each, with exact,
reformatted, renamed and 80%-shared duplicates).
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

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


# -- in memory -------------------------------------------------------------------------------------------------------
def sign_before(codes: list[str]) -> clusters.SignedShard:
    """A shard signed the way dedup did before the compiled lexer (its building blocks are still the reference)."""
    lists = tokens.token_lists(codes)
    flat, counts = minhash.batch_shingles(lists, PARAMS.ngram)
    sig = minhash.signature_matrix(flat, counts, PARAMS.num_perm, PARAMS.seed)
    return clusters.SignedShard(tokens.code_hashes(lists), sig, counts > 0)


def sign_after(codes: list[str]) -> clusters.SignedShard:
    return clusters.sign_shard(codes, PARAMS)


def in_memory(codes: list[str], jobs: int, sign) -> tuple[clusters.Clustering, list[clusters.SignedShard], Clock]:
    shards = [codes[i : i + SHARD] for i in range(0, len(codes), SHARD)]
    with Clock() as clock:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            signed = pool.map(sign, shards, chunksize=1)
        result = clusters.cluster_signed(
            [h for s in signed for h in s.code_hashes],
            np.concatenate([s.signatures for s in signed]),
            np.concatenate([s.has_shingles for s in signed]),
            PARAMS,
        )
    return result, signed, clock


def _pairs(groups: list[list[int]]) -> set[tuple[int, int]]:
    return {p for g in groups if len(g) > 1 for p in itertools.combinations(sorted(g), 2)}


def agreement(codes: list[str], old: list[list[int]], new: list[list[int]]) -> str:
    a, b = _pairs(old), _pairs(new)
    dup_old = {i for g in old for i in sorted(g)[1:]}
    dup_new = {i for g in new for i in sorted(g)[1:]}
    lines = [
        f"  same-cluster pairs: before {len(a):,}, after {len(b):,}, both {len(a & b):,} "
        f"(agreement {len(a & b) / max(1, len(a | b)):.2%})",
        f"  units judged duplicates: before {len(dup_old):,}, after {len(dup_new):,}; same judgement on "
        f"{1 - len(dup_old ^ dup_new) / len(codes):.3%} of units",
    ]
    differ = sorted(a ^ b)
    if differ:  # each difference with the exact Jaccard of its pair (near the threshold: a MinHash estimate decided)
        sample = differ[:2000]
        js = np.array(
            [
                minhash.exact_jaccard(
                    minhash.shingle_hashes(tokens.tokens(codes[i]), PARAMS.ngram),
                    minhash.shingle_hashes(tokens.tokens(codes[j]), PARAMS.ngram),
                )
                for i, j in sample
            ]
        )
        lines.append(
            f"  pairs decided differently: {len(differ):,}; exact Jaccard of {len(sample):,}: median "
            f"{np.median(js):.3f}, {np.mean(np.abs(js - PARAMS.threshold) < 0.1):.1%} within 0.1 of the threshold"
        )
    return "\n".join(lines)


# -- the stage, end to end -----------------------------------------------------------------------------------------
_STAGE_RUN = """
import json, os, resource, sys, time
from cotbuilder.dedup.stage import DedupConfig, DedupStage
from cotbuilder.stages.driver import run_stage
from cotbuilder.store import Store

def me():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime

def kids():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def hwm_mib():
    # this process's own peak (ru_maxrss of a child started by fork + exec also counts its parent's memory at the fork)
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024

phases = {}

def timed(name):  # the driver's own parts: plan (read, hash, hand out) and finish (cluster, rank, write)
    f = getattr(DedupStage, name)
    def wrapper(self, *args):
        wall, cpu = time.perf_counter(), me()
        try:
            return f(self, *args)
        finally:
            phases[name] = (time.perf_counter() - wall, me() - cpu)
    setattr(DedupStage, name, wrapper)

timed("plan")
timed("finish")
with Store(sys.argv[1]) as store:
    load = os.getloadavg()[0]
    wall, driver, workers = time.perf_counter(), me(), kids()
    stats = run_stage(DedupStage(DedupConfig(jobs=int(sys.argv[2]))), store)
    wall, driver, workers = time.perf_counter() - wall, me() - driver, kids() - workers
    rows = store.count("dedup")
print(json.dumps({"wall": wall, "cpu": driver + workers, "driver_cpu": driver, "workers_cpu": workers, "rows": rows,
                  "phases": phases, "load": [load, os.getloadavg()[0]],
                  "driver_rss_mib": hwm_mib(),
                  "counts": dict(stats.counts)}))
"""


def fill_store(workspace: Path, codes: list[str]) -> None:
    from cotbuilder.store import Store

    rows = synthetic.unit_rows(codes)
    with Store(workspace) as store:
        store.insert("sources", [synthetic.source_row()])
        for i in range(0, len(rows), 10_000):
            store.insert("units", rows[i : i + 10_000], validate=False)


def baseline_tree(ref: str, into: Path) -> Path:
    """The package as it was at `ref` (git archive), to import instead of this tree's."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


_WARM = "from cotbuilder.dedup import clusters; clusters.sign_shard(['int x = 1;'] * 8, clusters.ClusterParams())"


def run_stage_in(tree: Path, workspace: Path, jobs: int) -> dict:
    """DedupStage in a process that imports cotbuilder from `tree`. The tree's compiled code (numba, if it has any)
    is compiled into its cache first, not timed: a fresh checkout pays that once, not on every run."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, "-c", _WARM], env=env, cwd=workspace, check=True, capture_output=True)
    out = subprocess.run(
        [sys.executable, "-c", _STAGE_RUN, str(workspace), str(jobs)],
        env=env,
        cwd=workspace,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


_COLUMNS = (
    "cluster_id",
    "cluster_size",
    "is_representative",
    "method",
    "similarity",
    "representative_id",
    "code_hash",
    "input_hash",
)


def table_agreement(before: Path, after: Path) -> str:
    """The two `dedup` tables compared unit by unit, column by column (created_at aside)."""
    import duckdb

    con = duckdb.connect()
    con.execute(f"ATTACH '{before / 'store.duckdb'}' AS b (READ_ONLY)")
    con.execute(f"ATTACH '{after / 'store.duckdb'}' AS a (READ_ONLY)")
    same = ", ".join(f"count(*) FILTER (b.{c} = a.{c})" for c in _COLUMNS)
    every = " AND ".join(f"b.{c} = a.{c}" for c in _COLUMNS)
    n, *counts, whole = con.execute(
        f"SELECT count(*), {same}, count(*) FILTER ({every}) FROM b.dedup b JOIN a.dedup a USING (unit_id)"
    ).fetchone()
    sizes = con.execute("SELECT (SELECT count(*) FROM b.dedup), (SELECT count(*) FROM a.dedup)").fetchone()
    per_column = ", ".join(f"{c} {k / max(1, n):.3%}" for c, k in zip(_COLUMNS, counts, strict=True))
    return (
        f"  dedup tables, unit by unit ({sizes[0]:,} rows before, {sizes[1]:,} after, {n:,} units in both): the same "
        f"row on {whole / max(1, n):.3%}; per column: {per_column}"
    )


def stage_end_to_end(codes: list[str], jobs: int, ref: str, filled: Path | None = None, repeat: int = 1) -> None:
    """The stage of `ref` and of this tree, each on its own copy of one filled store; `filled`: keep that store there
    (made when absent, else reused: repeated runs skip generating and filling); `repeat`: pairs of runs, alternating."""
    with tempfile.TemporaryDirectory(prefix="bench-dedup-") as tmp:
        tmp = Path(tmp)
        if filled is None or not (filled / "store.duckdb").exists():
            filled = filled or tmp / "filled"
            fill_store(filled, codes)
        tree = baseline_tree(ref, tmp / "baseline")
        for _ in range(repeat):
            _stage_pair(filled, tree, tmp, jobs, ref)


def _stage_pair(filled: Path, tree: Path, tmp: Path, jobs: int, ref: str) -> None:
    results = {}
    for label, source in (("before", tree), ("after", REPO)):
        shutil.rmtree(tmp / label, ignore_errors=True)
        shutil.copytree(filled, tmp / label)
        results[label] = run_stage_in(source, tmp / label, jobs)
        r = results[label]
        print(_line(f"stage {label} ({ref if label == 'before' else 'this tree'})", r["rows"], r["wall"], r["cpu"]))
        plan, finish = r["phases"].get("plan", (0, 0)), r["phases"].get("finish", (0, 0))
        print(
            f"    driver {r['driver_cpu']:.1f} CPU-s (plan {plan[0]:.1f} s wall / {plan[1]:.1f} CPU-s, finish "
            f"{finish[0]:.1f} s / {finish[1]:.1f} CPU-s: before and after the workers, one core), workers "
            f"{r['workers_cpu']:.1f} CPU-s; driver peak RSS {r['driver_rss_mib']:,.0f} MiB; load average "
            f"{r['load'][0]:.1f} -> {r['load'][1]:.1f}"
        )
    b, a = results["before"], results["after"]
    print(f"  stage ratio after / before: {b['wall'] / a['wall']:.2f}x wall, {b['cpu'] / a['cpu']:.2f}x CPU")
    print(table_agreement(tmp / "before", tmp / "after"))


def _line(label: str, n: int, wall: float, cpu: float) -> str:
    return f"  {label:40s} {n / wall:9,.0f} records/s  ({wall:6.1f} s, {n / cpu:9,.0f} per CPU-second)"


def bench(
    n: int, jobs: int, stage: bool, ref: str, memory: bool = True, filled: Path | None = None, repeat: int = 1
) -> None:
    print(f"\n== {n:,} kernels, {jobs} jobs (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    if not memory and filled is not None and (filled / "store.duckdb").exists():
        stage_end_to_end([], jobs, ref, filled, repeat)  # the kept store: no kernels to make
        return
    codes = synthetic.kernels(n, max_variants=3)
    if not memory:
        stage_end_to_end(codes, jobs, ref, filled, repeat)
        return
    in_memory(codes[:SHARD], jobs, sign_after)  # warm: the compiled code's cache, imports
    old, old_signed, t_old = in_memory(codes, jobs, sign_before)
    print(_line("in memory, before (polars regex tokens)", n, t_old.wall, t_old.cpu))
    new, new_signed, t_new = in_memory(codes, jobs, sign_after)
    print(_line("in memory, after (compiled lexer)", n, t_new.wall, t_new.cpu))
    print(f"  in-memory ratio after / before: {t_old.wall / t_new.wall:.2f}x wall, {t_old.cpu / t_new.cpu:.2f}x CPU")
    same_sig = all(np.array_equal(a.signatures, b.signatures) for a, b in zip(old_signed, new_signed, strict=True))
    same_hash = all(a.code_hashes == b.code_hashes for a, b in zip(old_signed, new_signed, strict=True))
    print(f"  signatures identical: {same_sig}; exact hashes identical: {same_hash}")
    print(agreement(codes, old.groups, new.groups))
    if stage:
        stage_end_to_end(codes, jobs, ref, filled, repeat)
    print(f"  peak RSS: this process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--baseline-ref",
        default="7b4716f4",
        help="git ref whose dedup stage is the 'before' (default: issue 16's start)",
    )
    ap.add_argument("--no-stage", action="store_true", help="in memory only (no store, no stage runs)")
    ap.add_argument("--stage-only", action="store_true", help="the stage runs only (not the in-memory signing)")
    ap.add_argument("--keep-store", type=Path, help="keep the filled store here and reuse it when there (one size)")
    ap.add_argument("--repeat", type=int, default=1, help="stage runs: this many before/after pairs, alternating")
    args = ap.parse_args(argv)
    for n in args.sizes:
        bench(n, args.jobs, not args.no_stage, args.baseline_ref, not args.stage_only, args.keep_store, args.repeat)


if __name__ == "__main__":
    main()
