"""Shingles, MinHash signatures and the LSH band/row choice.

Signature backend: **rensa** (Rust R-MinHash over our pre-hashed shingles, one call for the whole batch). Measured on
the same 5-gram shingles of the same generated kernels (benchmarks/bench_dedup.py, 2 cores shared with other jobs):
rensa 2.4k-7k records/s vs datasketch's per-record `MinHash.update_batch` loop 62-250 records/s, i.e. 28-39x; on 500
candidate pairs both estimate the exact Jaccard equally well (mean abs error 0.009 rensa, 0.010 datasketch) and make
the same duplicate decision on 97% of them (the rest sit at the threshold); on a 637-kernel set with known groups both
reach pairwise precision 1.0, recall 0.89 (rensa) / 0.90 (datasketch). So: same quality, an order of magnitude faster -> rensa. datasketch stays selectable
(`backend="datasketch"`) as the reference implementation. The LSH banding is ours (numpy over the signature matrix)
so bands x rows are exactly the ones `optimal_bands` picks, whichever backend signed.

Two ways to the same kind of shingle set:
- `shingle_hashes(tokens, n)`: one document; token ids are blake2b digests, stable across processes and versions
  (decontamination keeps benchmark signatures made this way);
- `flat_shingles(ids, counts, n)`: a batch (dedup), from the token ids of `tokens.id_batch` (polars' 64-bit string
  hash with a fixed seed, see tokens.TOKEN_HASH_SEED); the n-gram polynomial runs over the whole batch in numpy.
  `batch_shingles(token_lists, n)` is the same from a `tokens.token_lists` batch.
  Same construction as `shingle_hashes` (polynomial of the n token ids, splitmix64 finaliser, a document shorter
  than n is one shingle of all its tokens); only the token ids differ, so signatures agree in distribution, not
  bit for bit. Duplicate shingles are not removed: a MinHash is a minimum, which repeats do not change.
"""

from __future__ import annotations

import array
import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from . import tokens

if TYPE_CHECKING:
    import polars as pl

_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)
_MULT = np.uint64(0x9E3779B97F4A7C15)


def _token_hash(token: str) -> int:
    # Stable across processes (Python's hash() is salted), so cached benchmark signatures stay valid.
    return int.from_bytes(hashlib.blake2b(token.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")


_TOKEN_IDS: dict[str, int] = {}
_MAX_TOKEN_IDS = 2_000_000  # bound the memo (random identifiers of a huge corpus would grow it forever)


def token_ids(toks: Sequence[str]) -> np.ndarray:
    """Stable 64-bit ids of tokens; the dict lookup runs in C via map(), the hash only for tokens not seen yet."""
    try:
        return np.fromiter(map(_TOKEN_IDS.__getitem__, toks), dtype=np.uint64, count=len(toks))
    except KeyError:
        if len(_TOKEN_IDS) > _MAX_TOKEN_IDS:
            _TOKEN_IDS.clear()
        for t in set(toks):
            if t not in _TOKEN_IDS:
                _TOKEN_IDS[t] = _token_hash(t)
        return np.fromiter(map(_TOKEN_IDS.__getitem__, toks), dtype=np.uint64, count=len(toks))


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser: spreads the combined shingle value over all 64 bits."""
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def shingle_hashes(toks: Sequence[str], n: int) -> np.ndarray:
    """64-bit hashes of the distinct n-token shingles (a document shorter than n is one shingle)."""
    if not toks:
        return np.zeros(0, dtype=np.uint64)
    ids = token_ids(toks)
    if len(ids) < n:
        n = len(ids)
    with np.errstate(over="ignore"):
        acc = np.zeros(len(ids) - n + 1, dtype=np.uint64)
        for k in range(n):  # polynomial combination of the n token hashes, wrapping mod 2^64
            acc = acc * _MULT + ids[k : len(ids) - n + 1 + k]
        return np.unique(_mix(acc))


TOKEN_HASH_SEED = tokens.TOKEN_HASH_SEED  # the polars hash seed of batch token ids


def batch_shingles(token_lists: pl.Series, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(flat shingle hashes of every document, one after the other; the number of shingles of each document).

    A document of k >= n tokens has k - n + 1 shingles, one of 1 <= k < n tokens has one, an empty one none."""
    lengths = token_lists.list.len().fill_null(0).to_numpy().astype(np.int64)
    ids = token_lists.explode().drop_nulls().hash(TOKEN_HASH_SEED).to_numpy()
    return flat_shingles(ids, lengths, n)


def flat_shingles(ids: np.ndarray, lengths: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """`batch_shingles` from token ids already made: `ids` holds every document's ids one after the other."""
    lengths = np.asarray(lengths, dtype=np.int64)
    ends = np.cumsum(lengths)
    counts = np.where(lengths >= n, lengths - n + 1, np.minimum(lengths, 1))
    if len(ids) < n:
        flat = np.zeros(0, dtype=np.uint64)
    else:
        m = len(ids) - n + 1
        with np.errstate(over="ignore"):
            acc = ids[:m].copy()
            for k in range(1, n):  # the same polynomial as shingle_hashes, over every start position at once
                acc *= _MULT
                acc += ids[k : k + m]
            acc = _mix(acc)
        # a start position is a shingle when its n tokens lie in one document: not in the last n - 1 of any document
        keep = np.ones(m, dtype=bool)
        for k in range(1, n):
            cut = ends - k
            keep[cut[(cut >= 0) & (cut < m)]] = False
        flat = acc[keep]
    short = np.flatnonzero((lengths > 0) & (lengths < n))
    if len(short):  # rare: whole documents shorter than one shingle; spliced in where they belong
        starts = ends - lengths
        pieces, at = [], 0
        out_offsets = np.concatenate(([0], np.cumsum(np.where(lengths >= n, lengths - n + 1, 0))))
        for d in short:
            pieces.append(flat[out_offsets[at] : out_offsets[d]])
            pieces.append(_short_shingle(ids[starts[d] : ends[d]]))
            at = d
        pieces.append(flat[out_offsets[at] :])
        flat = np.concatenate(pieces)
    return flat, counts


def _short_shingle(ids: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        acc = np.zeros(1, dtype=np.uint64)
        for v in ids:
            acc = acc * _MULT + v
        return _mix(acc)


def signature_matrix(
    flat: np.ndarray, counts: np.ndarray, num_perm: int, seed: int = 1, backend: str = "rensa"
) -> np.ndarray:
    """`signatures` of documents given as one flat shingle buffer and per-document counts (`batch_shingles`)."""
    if backend != "rensa":
        offsets = np.cumsum(counts)[:-1]
        return signatures(np.split(flat, offsets) if len(counts) else [], num_perm, seed, backend)
    import rensa

    ends = np.cumsum(counts, dtype=np.uint64)
    out = array.array("I")
    for a in range(0, len(counts), _RENSA_ROWS):
        b = min(len(counts), a + _RENSA_ROWS)
        first = ends[a - 1] if a else np.uint64(0)
        offsets = np.concatenate(([0], ends[a:b] - first)).astype(np.uint64)
        matrix = rensa.RMinHash.digest_matrix_from_flat_token_hashes(flat[first : ends[b - 1]], offsets, num_perm, seed)
        for row in matrix.to_rows():  # the values are 32-bit: half the memory of uint64
            out.extend(row)  # array.array takes a list in one C loop (5x numpy's per-item conversion)
    sig = np.frombuffer(out, dtype=np.uint32).reshape(len(counts), num_perm)
    sig[counts == 0] = np.iinfo(sig.dtype).max
    return sig


# Documents signed per rensa call. rensa 0.5 hands its matrix out only as lists of Python ints: a call over a whole
# shard makes 500k of them at once, whose memory goes back to the system and is faulted in again every shard (as much
# system time as rensa's own work); 128 rows (32k ints) fit in memory Python keeps. Same signatures either way.
_RENSA_ROWS = 128


def signatures(shingle_sets: Sequence[np.ndarray], num_perm: int, seed: int = 1, backend: str = "rensa") -> np.ndarray:
    """A (len(shingle_sets), num_perm) uint32/uint64 signature matrix. Empty sets get an all-max row."""
    if backend == "rensa":
        import rensa

        offsets = np.zeros(len(shingle_sets) + 1, dtype=np.uint64)
        if shingle_sets:
            offsets[1:] = np.cumsum([len(s) for s in shingle_sets])
        flat = np.concatenate(shingle_sets) if shingle_sets else np.zeros(0, dtype=np.uint64)
        matrix = rensa.RMinHash.digest_matrix_from_flat_token_hashes(flat, offsets, num_perm, seed)
        sig = np.array(matrix.to_rows(), dtype=np.uint64).reshape(len(shingle_sets), num_perm)
    elif backend == "datasketch":
        from datasketch import MinHash

        sig = np.empty((len(shingle_sets), num_perm), dtype=np.uint64)
        for i, s in enumerate(shingle_sets):
            m = MinHash(num_perm=num_perm, seed=seed, hashfunc=lambda b: int.from_bytes(b, "little") & 0xFFFFFFFF)
            m.update_batch([int(v).to_bytes(8, "little") for v in s])
            sig[i] = m.hashvalues
    else:
        raise ValueError(f"unknown MinHash backend {backend!r} (rensa | datasketch)")
    empty = np.array([len(s) == 0 for s in shingle_sets], dtype=bool)
    if empty.any():
        sig[empty] = np.iinfo(np.uint64).max
    return sig


def estimated_jaccard(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean(a == b))


def exact_jaccard(a: np.ndarray, b: np.ndarray) -> float:
    if len(a) == 0 and len(b) == 0:
        return 1.0
    inter = len(np.intersect1d(a, b, assume_unique=True))
    return inter / (len(a) + len(b) - inter)


def _integrate(f, lo: float, hi: float, steps: int = 200) -> float:
    x = np.linspace(lo, hi, steps)
    return float(np.trapezoid(f(x), x))


@lru_cache(maxsize=64)
def optimal_bands(threshold: float, num_perm: int, fp_weight: float = 0.5, fn_weight: float = 0.5) -> tuple[int, int]:
    """(bands, rows) with bands*rows <= num_perm minimising the weighted false-positive + false-negative areas.

    The same objective datasketch's MinHashLSH uses: P(candidate | s) = 1 - (1 - s^r)^b; the false-positive area is its
    integral over s in [0, threshold], the false-negative area the integral of 1 - P over [threshold, 1].
    """
    best, best_err = (1, 1), float("inf")
    for b in range(1, num_perm + 1):
        for r in range(1, num_perm // b + 1):
            fp = _integrate(lambda s, r=r, b=b: 1 - (1 - s**r) ** b, 0.0, threshold)
            fn = _integrate(lambda s, r=r, b=b: 1 - (1 - (1 - s**r) ** b), threshold, 1.0)
            err = fp_weight * fp + fn_weight * fn
            if err < best_err:
                best, best_err = (b, r), err
    return best


def lsh_candidate_pairs(sig: np.ndarray, bands: int, rows: int, max_bucket_pairs: int = 50) -> set[tuple[int, int]]:
    """Index pairs (i < j) that share at least one band. Large buckets are linked as a star from their smallest index
    (keeps the pair count linear; union-find still joins them all)."""
    return {(int(i), int(j)) for i, j in candidate_pair_array(sig, bands, rows, max_bucket_pairs)}


def candidate_pair_array(
    sig: np.ndarray, bands: int, rows: int, max_bucket_pairs: int = 50, keys: np.ndarray | None = None
) -> np.ndarray:
    """`lsh_candidate_pairs` as a sorted (pairs, 2) array, built with numpy: per band, rows are sorted by their band
    key, and the pairs inside each bucket are made by comparing each sorted position with the ones d places on (a
    bucket of s members has its pairs at d = 1 .. s-1), so no Python loop runs per bucket; at 100k signatures
    the per-bucket loop was most of dedup's clustering time. `keys`: `band_key_matrix(sig, bands, rows)` when the
    caller has it already (dedup's workers make it with the signatures)."""
    n = sig.shape[0]
    found: list[np.ndarray] = []
    if keys is None and n >= 2:
        keys = band_key_matrix(sig, bands, rows)
    if n >= 2:
        for b in range(bands):
            band_keys = np.ascontiguousarray(keys[:, b])
            order = np.argsort(band_keys)  # not stable (5x faster): a large bucket's star centre is chosen below
            sorted_keys = band_keys[order]
            new_bucket = np.concatenate(([True], sorted_keys[1:] != sorted_keys[:-1]))
            bucket = np.cumsum(new_bucket) - 1
            starts = np.flatnonzero(new_bucket)
            size = np.diff(np.append(starts, n))[bucket]  # the size of each sorted position's bucket
            small = size <= max_bucket_pairs
            k, d = np.flatnonzero(small & (size >= 2)), 1
            while len(k):  # all pairs in small buckets: k -> k + d while both are in one bucket
                k = k[k + d < n]
                k = k[bucket[k] == bucket[k + d]]
                found.append(np.stack((order[k], order[k + d]), axis=1))
                d += 1
            big = np.flatnonzero(~small)  # a star from the smallest index of each large bucket to the others
            if len(big):
                centre = np.minimum.reduceat(order, starts)[bucket[big]]
                leaf = order[big] != centre
                found.append(np.stack((centre[leaf], order[big][leaf]), axis=1))
    if not found:
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.concatenate(found).astype(np.int64)
    key = np.unique(np.minimum(pairs[:, 0], pairs[:, 1]) * n + np.maximum(pairs[:, 0], pairs[:, 1]))  # i < j, sorted
    return np.stack((key // n, key % n), axis=1)


def band_key_matrix(sig: np.ndarray, bands: int, rows: int) -> np.ndarray:
    """(documents, bands) uint64: the key of each band of each signature (`_band_keys`)."""
    out = np.empty((sig.shape[0], bands), dtype=np.uint64)
    for b in range(bands):
        out[:, b] = _band_keys(sig[:, b * rows : (b + 1) * rows])
    return out


def _band_keys(band: np.ndarray) -> np.ndarray:
    """One 64-bit key per row of a band (the same polynomial + finaliser as the shingles): sorting uint64 keys is
    several times faster than sorting the rows' bytes. Two different bands meeting on a key (p ~ n^2 / 2^64) only add a
    candidate pair, which the similarity check then rejects."""
    with np.errstate(over="ignore"):
        acc = band[:, 0].astype(np.uint64)
        for k in range(1, band.shape[1]):
            acc *= _MULT
            acc += band[:, k].astype(np.uint64)
        return _mix(acc)
