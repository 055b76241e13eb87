"""Local executor vs Ray on the same cores, in one run: verify of distinct kernel variants, dedup signatures of
synthetic kernels, and how fast the driver commits (the rate a cluster run needs from it).

    python benchmarks/bench_executor.py [--variants 24] [--dedup 100000] [--cpus 2] [--skip-verify] [--skip-dedup]

- verify: N distinct variants of the demo's kernel_launch samples (each kernel file gets its own unused constant, so
  every unit has its own source hash and its own build: no unit and no cached binary is shared), `verify --jobs
  CPUS` on the local pool vs on a local Ray cluster of CPUS CPUs (`ray.init(num_cpus=CPUS)`), each from a fresh
  workspace whose precompiled header is built before the clock starts. The verdicts of both runs are compared.
- dedup: the dedup stage's shards (2,048 synthetic kernels each: tokens, exact hashes, MinHash signatures) on the local
  pool with --jobs CPUS vs as Ray tasks; the signatures of both are compared.
- commit: `verifications` rows (copies of the ones just written) and `dedup` rows inserted by the stage's own commit,
  in its batch size, rows/s: the most a single driver can record.
Ray's start-up (seconds, once per cluster) is not in the Ray timings; it is printed on its own.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "verify"))
sys.path.insert(0, str(REPO / "benchmarks"))

from unitdir import unit_from_dir  # noqa: E402

from cotbuilder.stages.driver import run_stage  # noqa: E402
from cotbuilder.stages.executors import Done, Failed, LocalExecutor  # noqa: E402
from cotbuilder.stats import StageStats  # noqa: E402
from cotbuilder.store import Store  # noqa: E402

DEMO = REPO / "examples" / "kernel_launch"


def kernel_variants(n: int, tmp: Path) -> list[dict]:
    """n units, each a demo sample whose kernel file carries one more, unused constant: distinct sources."""
    samples = sorted(p for p in DEMO.iterdir() if p.is_dir() and any(p.iterdir()))
    units = []
    for i in range(n):
        sample = samples[i % len(samples)]
        folder = tmp / "variants" / f"{sample.name}_v{i}"
        shutil.copytree(sample, folder)
        kernel = folder / f"{sample.name}.cpp"
        if not kernel.is_file():
            kernel = next(p for p in folder.glob("*.cpp") if p.name != "main.cpp")
        text = kernel.read_text()
        marker = '#include "kernel_operator.h"\n'
        kernel.write_text(text.replace(marker, marker + f"constexpr int32_t BENCH_VARIANT_{i} = {i};\n", 1))
        units.append(unit_from_dir(folder, name=f"{sample.name}_v{i}"))
    return units


def verify_once(units: list[dict], ws: Path, cpus: int, executor) -> tuple[float, dict[str, str]]:
    from cotbuilder.verify import build as buildmod
    from cotbuilder.verify.stage import VerifyConfig, VerifyStage

    config = VerifyConfig(jobs=cpus, seeds=[0], progress=False)
    with Store(ws) as store:
        store.insert("units", units)
        buildmod.ensure_pch(store.cache_path("verify", "x").parent, config.soc, config.opt)  # warm, not timed
        start = time.perf_counter()
        stats = run_stage(VerifyStage(config), store, executor=executor)
        seconds = time.perf_counter() - start
        verdicts = {r["unit_id"]: r["status"] for r in store.rows("SELECT unit_id, status FROM verifications")}
    assert stats.counts["kept"] == len(units), stats.counts
    return seconds, verdicts


def bench_verify(n: int, cpus: int, ray_executor, tmp: Path) -> None:
    from cotbuilder.verify.stage import VerifyConfig, VerifyStage

    units = kernel_variants(n, tmp)
    local_s, local_v = verify_once(units, tmp / "ws-local", cpus, LocalExecutor())
    ray_s, ray_v = verify_once(units, tmp / "ws-ray", cpus, ray_executor)
    same = sum(local_v[u] == ray_v.get(u) for u in local_v)
    print(f"\n== verify: {n} distinct kernel variants, {cpus} CPUs (load average {os.getloadavg()[0]:.1f})")
    print(f"  {'local pool (--jobs ' + str(cpus) + ')':26s}: {n / local_s:6.2f} kernels/s  ({local_s:.1f} s)")
    print(f"  Ray, local cluster        : {n / ray_s:6.2f} kernels/s  ({ray_s:.1f} s)")
    print(f"  ratio Ray / local         : {local_s / ray_s:6.2f}x   (goal >= 0.85)")
    print(f"  verdicts equal            : {same}/{len(local_v)}  {sorted(set(local_v.values()))}")
    stage = VerifyStage(VerifyConfig())
    print(f"  CPU-seconds per kernel    : {local_s * cpus / n:.2f} (local), {ray_s * cpus / n:.2f} (Ray)")
    print(f"  a verify task asks Ray for: {stage.task_resources()}")
    bench_commit_verify(tmp / "ws-local")


def bench_commit_verify(ws: Path, copies: int = 100) -> None:
    """The driver's side of verify: `verifications` rows through VerifyStage.commit, 32 per transaction."""
    import hashlib

    from cotbuilder.verify.stage import VerifyConfig, VerifyResult, VerifyStage

    with Store(ws) as store:
        rows = store.rows("SELECT * FROM verifications")
        stage = VerifyStage(VerifyConfig())
        stage.check()
        results = []
        for k in range(copies):
            for r in rows:
                verdict = {c: r[c] for c in r if c not in _NOT_VERDICT}
                vid = hashlib.sha256(f"{r['verification_id']}{k}".encode()).hexdigest()
                results.append(VerifyResult(r["unit_id"], "x", vid, r["source_hash"], {"verdict": verdict}))
        stats = StageStats("verify", {})
        start = time.perf_counter()
        for i in range(0, len(results), stage.batch_size):
            with store.transaction():
                stage.commit(store, results[i : i + stage.batch_size], stats)
        seconds = time.perf_counter() - start
    print(
        f"  driver commit, verify     : {len(results) / seconds:8,.0f} rows/s "
        f"({len(results)} rows, {stage.batch_size} per transaction, schema-checked)"
    )


_NOT_VERDICT = {
    "verification_id",
    "unit_id",
    "backend",
    "backend_version",
    "soc",
    "source_hash",
    "device",
    "created_at",
}


def bench_dedup(n: int, cpus: int, ray_executor) -> None:
    from cotbuilder.dedup.config import DedupConfig
    from cotbuilder.dedup.stage import DedupShard, DedupStage
    from cotbuilder.dedup.synthetic import kernels as generate

    codes = generate(n)
    stage = DedupStage(DedupConfig(jobs=cpus))
    size = stage.config.shard_size
    shards = [DedupShard(s, codes[s : s + size]) for s in range(0, n, size)]

    def sign(executor) -> tuple[float, np.ndarray]:
        start = time.perf_counter()
        results = {}
        for event in executor.run(stage, shards):
            if isinstance(event, Done):
                results[event.result.start] = event.result.signed.signatures
            elif isinstance(event, Failed):
                raise RuntimeError(f"shard failed: {event.error}")
        seconds = time.perf_counter() - start
        return seconds, np.concatenate([results[s] for s in sorted(results)])

    local_s, local_sig = sign(LocalExecutor())
    ray_s, ray_sig = sign(ray_executor)
    print(f"\n== dedup signatures: {n:,} synthetic kernels in {len(shards)} shards, {cpus} CPUs")
    print(f"  {'local pool (--jobs ' + str(cpus) + ')':26s}: {n / local_s:9,.0f} records/s  ({local_s:.1f} s)")
    print(f"  Ray, local cluster        : {n / ray_s:9,.0f} records/s  ({ray_s:.1f} s)")
    print(f"  ratio Ray / local         : {local_s / ray_s:9.2f}x   (goal >= 0.85)")
    print(f"  signatures equal          : {bool(np.array_equal(local_sig, ray_sig))}")
    print(f"  CPU-seconds per record    : {local_s * cpus / n * 1e3:.2f} ms (local)")
    bench_commit_dedup(min(n, 20_000))


def bench_commit_dedup(n: int) -> None:
    """The driver's last step of dedup: the whole `dedup` table written at once, schema-checked."""
    import hashlib

    from cotbuilder.store import utcnow

    def h(*parts: object) -> str:
        return hashlib.sha256(repr(parts).encode()).hexdigest()

    now = utcnow()
    rows = [
        {
            "unit_id": h(i),
            "cluster_id": h(i // 3),
            "cluster_size": 3,
            "is_representative": i % 3 == 0,
            "method": "minhash",
            "similarity": 0.8,
            "representative_id": h(i - i % 3),
            "code_hash": h("c", i),
            "config_hash": h("config"),
            "input_hash": h("input"),
            "created_at": now,
        }
        for i in range(n)
    ]
    with tempfile.TemporaryDirectory(prefix="bench-commit-") as tmp, Store(Path(tmp)) as store:
        start = time.perf_counter()
        store.insert("dedup", rows)
        seconds = time.perf_counter() - start
    print(f"  driver commit, dedup      : {n / seconds:8,.0f} rows/s ({n:,} rows in one transaction, schema-checked)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", type=int, default=24)
    ap.add_argument("--dedup", type=int, default=100_000)
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--skip-verify", action="store_true")
    ap.add_argument("--skip-dedup", action="store_true")
    args = ap.parse_args()

    import ray

    from cotbuilder.stages.ray_executor import RayExecutor

    start = time.perf_counter()
    ray.init(address="local", num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    print(f"Ray local cluster of {args.cpus} CPUs started in {time.perf_counter() - start:.1f} s (not in the timings)")
    executor = RayExecutor()
    list(executor.run(WarmUp(), list(range(2 * args.cpus))))  # Ray's worker processes exist before the clock starts
    random.seed(0)
    with tempfile.TemporaryDirectory(prefix="bench-executor-") as tmp:
        if not args.skip_verify:
            bench_verify(args.variants, args.cpus, executor, Path(tmp))
        if not args.skip_dedup:
            bench_dedup(args.dedup, args.cpus, executor)
    ray.shutdown()


class WarmUp:
    """A no-op process stage: Ray's worker processes are started (as on a long-lived cluster), but nothing is
    imported or set up in them ahead of the timed stages."""

    name = "warm"
    mode = "process"
    isolate_failures = True

    def task_resources(self) -> dict[str, float]:
        return {"CPU": 1.0}

    def workers(self) -> int:
        return 1

    def setup(self) -> None:
        pass

    def work(self, item: int) -> int:
        return item


if __name__ == "__main__":
    main()
