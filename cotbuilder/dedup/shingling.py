"""`minhash.flat_shingles`, compiled (numba): one pass over a shard's token ids.

The numpy version runs the n-gram polynomial and the splitmix64 finaliser over the whole shard at once, ~20 passes
over arrays of millions of ids that do not fit in cache; this loop makes each shingle in registers. The values are
the same bit for bit (tests/dedup pin it), so either may sign a shard.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MULT = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def _mix(x):
    """splitmix64's finaliser (minhash._mix)."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True, nogil=True)
def _shingles(ids, lengths, n, out):
    top = np.uint64(1)  # _MULT ** (n - 1), the weight of a shingle's first id (wrapping, like the sums)
    for _ in range(n - 1):
        top *= _MULT
    at = 0
    start = 0
    for d in range(len(lengths)):
        k = lengths[d]
        if k >= n:
            # the polynomial of the first n ids, then rolled on: drop the oldest id's term, shift, add the next
            acc = np.uint64(0)
            for i in range(start, start + n):
                acc = acc * _MULT + ids[i]
            out[at] = _mix(acc)
            at += 1
            for i in range(start + n, start + k):
                acc = (acc - ids[i - n] * top) * _MULT + ids[i]
                out[at] = _mix(acc)
                at += 1
        elif k > 0:  # a document shorter than a shingle is one shingle of all its tokens
            acc = np.uint64(0)
            for i in range(start, start + k):
                acc = acc * _MULT + ids[i]
            out[at] = _mix(acc)
            at += 1
        start += k
    return at


def flat_shingles(ids: np.ndarray, lengths: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(every document's shingle hashes one after the other, shingles per document), as minhash.flat_shingles."""
    lengths = np.asarray(lengths, dtype=np.int64)
    if int(lengths.sum()) != len(ids) or (lengths < 0).any() or n < 1:  # the loop below trusts them: no bounds checks
        raise ValueError("token counts do not add up to the ids given")
    counts = np.where(lengths >= n, lengths - n + 1, np.minimum(lengths, 1))
    out = np.empty(int(counts.sum()), dtype=np.uint64)
    made = _shingles(np.ascontiguousarray(ids, dtype=np.uint64), lengths, n, out)
    assert made == len(out)
    return out, counts
