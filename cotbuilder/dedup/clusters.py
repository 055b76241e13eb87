"""Duplicate clusters of code documents: exact groups first, then MinHash LSH over the exact-group leaders."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import minhash, tokens
from .unionfind import UnionFind


@dataclass(frozen=True)
class ClusterParams:
    threshold: float = 0.7
    num_perm: int = 256
    ngram: int = 5
    verify_jaccard: bool = False
    backend: str = "rensa"
    seed: int = 1


@dataclass
class Clustering:
    groups: list[list[int]]  # indices into the input, one list per cluster
    code_hashes: list[str]
    shingles: list[np.ndarray]
    signatures: np.ndarray | None  # rows for `leaders` only
    leaders: list[int]  # one index per exact group (the documents that went into LSH)
    row_of_hash: dict[str, int]  # code hash -> its row in `signatures`
    joined_by: dict[int, str]  # index -> "exact" | "minhash" (absent: unique)
    counts: dict[str, int]


def cluster_codes(codes: Sequence[str], params: ClusterParams) -> Clustering:
    n = len(codes)
    toks = [tokens.tokens(c) for c in codes]
    code_hashes = [tokens.code_hash(c) for c in codes]
    uf = UnionFind(n)
    joined_by: dict[int, str] = {}

    # 1. exact duplicates: same normalised token stream
    first_of: dict[str, int] = {}
    leaders: list[int] = []
    for i, h in enumerate(code_hashes):
        if h in first_of:
            uf.union(first_of[h], i)
            joined_by[i] = "exact"
        else:
            first_of[h] = i
            leaders.append(i)

    # 2. near duplicates among exact-group leaders (a document without tokens has nothing to compare)
    shingles = [minhash.shingle_hashes(t, params.ngram) for t in toks]
    lsh_docs = [i for i in leaders if len(shingles[i])]
    sig = None
    counts = {
        "exact_duplicates": n - len(leaders),
        "candidate_pairs": 0,
        "pairs_rejected_by_jaccard": 0,
        "minhash_duplicates": 0,
    }
    if len(lsh_docs) >= 2:
        sig = minhash.signatures([shingles[i] for i in lsh_docs], params.num_perm, params.seed, params.backend)
        bands, rows = minhash.optimal_bands(params.threshold, params.num_perm)
        pairs = minhash.lsh_candidate_pairs(sig, bands, rows)
        counts["candidate_pairs"] = len(pairs)
        for a, b in sorted(pairs):
            ia, ib = lsh_docs[a], lsh_docs[b]
            sim = (
                minhash.exact_jaccard(shingles[ia], shingles[ib])
                if params.verify_jaccard
                else minhash.estimated_jaccard(sig[a], sig[b])
            )
            if sim < params.threshold:
                counts["pairs_rejected_by_jaccard"] += 1
                continue
            if uf.find(ia) != uf.find(ib):
                uf.union(ia, ib)
                joined_by.setdefault(max(ia, ib), "minhash")
    groups = uf.groups()
    counts["minhash_duplicates"] = sum(1 for m in joined_by.values() if m == "minhash")
    row_of_hash = {code_hashes[d]: k for k, d in enumerate(lsh_docs)}
    return Clustering(groups, code_hashes, shingles, sig, lsh_docs, row_of_hash, joined_by, counts)


def similarity(clustering: Clustering, i: int, j: int, params: ClusterParams) -> float:
    """Jaccard of two documents' shingle sets: exact when asked, else the MinHash estimate."""
    if clustering.code_hashes[i] == clustering.code_hashes[j]:
        return 1.0
    li, lj = (
        clustering.row_of_hash.get(clustering.code_hashes[i]),
        clustering.row_of_hash.get(clustering.code_hashes[j]),
    )
    if params.verify_jaccard or clustering.signatures is None or li is None or lj is None:
        return minhash.exact_jaccard(clustering.shingles[i], clustering.shingles[j])
    return minhash.estimated_jaccard(clustering.signatures[li], clustering.signatures[lj])
