"""Dedup throughput: records/s for MinHash signatures and for LSH at 10k and 100k generated kernels, against
datasketch's plain per-record MinHash loop measured on the same records in the same run.

    python benchmarks/bench_dedup.py [--sizes 10000 100000] [--baseline-records 2000]

Kernels come from cotbuilder.dedup.synthetic (templated AscendC kernels, ~600-1000 tokens, with exact / reformatted /
renamed / 80%-shared duplicates). The datasketch loop (`MinHash(num_perm=256).update_batch(shingles)` per record) is
timed on the first --baseline-records records of each size (its rate does not depend on the corpus size; running it on
100k records would take minutes by itself). Both sides start from the same shingle sets, so the ratio compares the
signature step only; tokenising + shingling is reported separately (it is the same for either backend).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cotbuilder.dedup import minhash, synthetic, tokens  # noqa: E402

NUM_PERM = 256
NGRAM = 5
THRESHOLD = 0.7


def generate(n: int, seed: int = 0) -> list[str]:
    """n kernels: bases with duplicate variants (30% of bases get some), by templating + mutation."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        base = synthetic.base_kernel(rng)
        out.append(base)
        if rng.random() < 0.3:
            for kind in rng.sample(synthetic.VARIANTS, rng.randint(1, 3)):
                out.append(synthetic.variant(base, kind, rng))
    return out[:n]


def datasketch_loop(shingle_sets: list[np.ndarray]) -> np.ndarray:
    from datasketch import MinHash

    out = np.empty((len(shingle_sets), NUM_PERM), dtype=np.uint64)
    for i, s in enumerate(shingle_sets):
        m = MinHash(num_perm=NUM_PERM)
        m.update_batch([v.tobytes() for v in s])
        out[i] = m.hashvalues
    return out


def bench(n: int, baseline_records: int) -> None:
    t0 = time.perf_counter()
    codes = generate(n)
    t_gen = time.perf_counter() - t0

    t0 = time.perf_counter()
    shingles = [minhash.shingle_hashes(tokens.tokens(c), NGRAM) for c in codes]
    t_shingle = time.perf_counter() - t0
    mean_tokens = np.mean([len(tokens.tokens(c)) for c in codes[:1000]])

    t0 = time.perf_counter()
    sig = minhash.signatures(shingles, NUM_PERM, backend="rensa")
    t_sig = time.perf_counter() - t0

    bands, rows = minhash.optimal_bands(THRESHOLD, NUM_PERM)
    t0 = time.perf_counter()
    pairs = minhash.lsh_candidate_pairs(sig, bands, rows)
    t_lsh = time.perf_counter() - t0

    k = min(baseline_records, n)
    t0 = time.perf_counter()
    ds_sig = datasketch_loop(shingles[:k])
    t_ds = time.perf_counter() - t0

    sig_rate, ds_rate = n / t_sig, k / t_ds
    # agreement: both estimators against the exact Jaccard on candidate pairs (which are the pairs that matter)
    sample = [p for p in sorted(pairs) if p[1] < k][:500]
    err_r = (
        np.mean(
            [
                abs(minhash.estimated_jaccard(sig[a], sig[b]) - minhash.exact_jaccard(shingles[a], shingles[b]))
                for a, b in sample
            ]
        )
        if sample
        else float("nan")
    )
    err_d = (
        np.mean(
            [
                abs(minhash.estimated_jaccard(ds_sig[a], ds_sig[b]) - minhash.exact_jaccard(shingles[a], shingles[b]))
                for a, b in sample
            ]
        )
        if sample
        else float("nan")
    )
    dup_r = {p for p in sample if minhash.estimated_jaccard(sig[p[0]], sig[p[1]]) >= THRESHOLD}
    dup_d = {p for p in sample if minhash.estimated_jaccard(ds_sig[p[0]], ds_sig[p[1]]) >= THRESHOLD}
    agree = len(dup_r & dup_d) / max(1, len(dup_r | dup_d))

    print(f"\n== {n:,} kernels (mean {mean_tokens:.0f} tokens; generated in {t_gen:.1f}s)")
    print(f"tokenise + {NGRAM}-gram shingles : {n / t_shingle:12,.0f} records/s  ({t_shingle:.1f}s)")
    print(f"signatures, rensa (used)      : {sig_rate:12,.0f} records/s  ({t_sig:.2f}s)")
    print(f"signatures, datasketch loop   : {ds_rate:12,.0f} records/s  (on {k:,} of the same records)")
    print(f"  ratio rensa / datasketch    : {sig_rate / ds_rate:12.1f}x   (goal >= 10)")
    print(
        f"LSH {bands} bands x {rows} rows     : {n / t_lsh:12,.0f} records/s  ({t_lsh:.2f}s, {len(pairs):,} candidate pairs)"
    )
    print(
        f"end to end (shingle+sig+LSH)  : {n / (t_shingle + t_sig + t_lsh):12,.0f} records/s; with the datasketch "
        f"loop instead: {n / (t_shingle + n / ds_rate + t_lsh):,.0f} records/s"
    )
    print(
        f"agreement on {len(sample)} candidate pairs: mean |estimate - exact Jaccard| rensa {err_r:.3f}, "
        f"datasketch {err_d:.3f}; duplicate decisions agree on {agree:.1%}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--baseline-records", type=int, default=2000)
    args = ap.parse_args()
    for n in args.sizes:
        bench(n, args.baseline_records)


if __name__ == "__main__":
    main()
