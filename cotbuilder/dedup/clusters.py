"""Duplicate clusters of code documents: exact groups first, then MinHash LSH over the exact-group leaders.

The work is split so that the costly part runs anywhere, shard by shard (`sign_shard`: tokens, exact hash,
shingles, signature, the signature's LSH band keys), and only the part that needs every document at once runs in one
place (`cluster_signed`: exact groups, LSH buckets, union-find). `cluster_codes` does both in this process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import minhash, tokens
from .unionfind import UnionFind

if TYPE_CHECKING:
    import pyarrow as pa


@dataclass(frozen=True)
class ClusterParams:
    threshold: float = 0.7
    num_perm: int = 256
    ngram: int = 5
    verify_jaccard: bool = False
    backend: str = "rensa"
    seed: int = 1


@dataclass
class SignedShard:
    """What a shard of documents contributes to clustering (small: 1 KiB per document at 256 permutations)."""

    code_hashes: list[str]  # tokens.code_hash of each document
    signatures: np.ndarray  # (documents, num_perm) MinHash signatures
    has_shingles: np.ndarray  # bool per document: False for a document without tokens (nothing to compare)
    band_keys: np.ndarray | None = None  # (documents, bands) uint64: minhash.band_key_matrix of the signatures


def sign_shard(codes: Sequence[str] | pa.Array, params: ClusterParams, compiled: bool = True) -> SignedShard:
    """Tokens, exact hashes and signatures of a batch of documents. compiled: the numba lexer and shingles
    (tokens.id_batch, shingling.flat_shingles), else polars' regexes (tokens.token_lists, minhash.batch_shingles):
    the same signatures bit for bit; the compiled path is ~1.7x faster per document but starts numba in each process
    (~0.5 s), so it pays from some thousands of documents per process on."""
    if compiled:
        from . import shingling

        batch = tokens.id_batch(codes)
        hashes, ids, lengths = batch.code_hashes, batch.ids, batch.counts
        flat, counts = shingling.flat_shingles(ids, lengths, params.ngram)
    else:
        lists = tokens.token_lists(codes.to_pylist() if hasattr(codes, "to_pylist") else codes)
        hashes = tokens.code_hashes(lists)
        flat, counts = minhash.batch_shingles(lists, params.ngram)
    sig = minhash.signature_matrix(flat, counts, params.num_perm, params.seed, params.backend)
    bands, rows = minhash.optimal_bands(params.threshold, params.num_perm)
    return SignedShard(hashes, sig, counts > 0, minhash.band_key_matrix(sig, bands, rows))


@dataclass
class Clustering:
    labels: np.ndarray  # int64 per document: the smallest index in its cluster (a document alone: its own index)
    code_hashes: list[str]
    signatures: np.ndarray | None  # rows for `leaders` only
    leaders: list[int]  # one index per exact group that has shingles (the documents that went into LSH)
    row_of_hash: dict[str, int]  # code hash -> its row in `signatures`
    joined_by: dict[int, str]  # index -> "exact" | "minhash" (absent: unique)
    counts: dict[str, int]
    exact_shingles: Callable[[int], np.ndarray] | None = None  # index -> its shingle set (for exact Jaccard)

    @property
    def groups(self) -> list[list[int]]:
        """Indices into the input, one ascending list per cluster, clusters in the order of their smallest index."""
        order = np.argsort(self.labels, kind="stable")
        cuts = np.flatnonzero(np.diff(self.labels[order])) + 1
        return [part.tolist() for part in np.split(order, cuts)] if len(order) else []


def cluster_signed(
    code_hashes: Sequence[str],
    signatures: np.ndarray,
    has_shingles: np.ndarray,
    params: ClusterParams,
    exact_shingles: Callable[[int], np.ndarray] | None = None,
    band_keys: np.ndarray | None = None,
) -> Clustering:
    """Clusters of documents from their exact hashes and signatures (rows in input order). `exact_shingles(i)` gives
    a document's shingle set when `params.verify_jaccard` asks for the exact Jaccard of each candidate pair;
    `band_keys` (rows in input order, as `sign_shard` makes them) saves making them here."""
    n = len(code_hashes)
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
    lsh_docs = [i for i in leaders if has_shingles[i]]
    sig = signatures[lsh_docs] if len(lsh_docs) >= 2 else None
    counts = {
        "exact_duplicates": n - len(leaders),
        "candidate_pairs": 0,
        "pairs_rejected_by_jaccard": 0,
        "minhash_duplicates": 0,
    }
    if sig is not None:
        if params.verify_jaccard and exact_shingles is None:
            raise ValueError("verify_jaccard needs the documents' exact shingle sets")
        bands, rows = minhash.optimal_bands(params.threshold, params.num_perm)
        keys = None if band_keys is None else band_keys[lsh_docs]
        pairs = minhash.candidate_pair_array(sig, bands, rows, keys=keys)
        counts["candidate_pairs"] = len(pairs)
        if params.verify_jaccard:
            sims = [minhash.exact_jaccard(exact_shingles(lsh_docs[a]), exact_shingles(lsh_docs[b])) for a, b in pairs]
        else:
            sims = _estimated_jaccards(sig, pairs)
        for (a, b), sim in zip(pairs.tolist(), sims, strict=True):
            if sim < params.threshold:
                counts["pairs_rejected_by_jaccard"] += 1
                continue
            ia, ib = lsh_docs[a], lsh_docs[b]
            if uf.find(ia) != uf.find(ib):
                uf.union(ia, ib)
                joined_by.setdefault(max(ia, ib), "minhash")
    counts["minhash_duplicates"] = sum(1 for m in joined_by.values() if m == "minhash")
    row_of_hash = {code_hashes[d]: k for k, d in enumerate(lsh_docs)}
    return Clustering(uf.labels(), list(code_hashes), sig, lsh_docs, row_of_hash, joined_by, counts, exact_shingles)


def _estimated_jaccards(sig: np.ndarray, pairs: np.ndarray, chunk: int = 8192) -> list[float]:
    """minhash.estimated_jaccard of each pair, a chunk of pairs per numpy call."""
    out: list[float] = []
    for k in range(0, len(pairs), chunk):
        a, b = pairs[k : k + chunk, 0], pairs[k : k + chunk, 1]
        out += (sig[a] == sig[b]).mean(axis=1).tolist()
    return out


def cluster_codes(codes: Sequence[str], params: ClusterParams) -> Clustering:
    """Sign and cluster `codes` in this process (tests, benchmarks; the stage signs shard by shard)."""
    shard = sign_shard(codes, params)
    return cluster_signed(
        shard.code_hashes, shard.signatures, shard.has_shingles, params, exact_shingles_of(codes, params)
    )


def exact_shingles_of(codes: Sequence[str], params: ClusterParams) -> Callable[[int], np.ndarray]:
    """index -> the distinct shingle set of codes[index] (computed when first asked: only candidate pairs need it)."""
    cache: dict[int, np.ndarray] = {}

    def get(i: int) -> np.ndarray:
        if i not in cache:
            cache[i] = minhash.shingle_hashes(tokens.tokens(codes[i]), params.ngram)
        return cache[i]

    return get


def similarity(clustering: Clustering, i: int, j: int, params: ClusterParams) -> float:
    """Jaccard of two documents' shingle sets: exact when asked, else the MinHash estimate."""
    if clustering.code_hashes[i] == clustering.code_hashes[j]:
        return 1.0
    li, lj = (
        clustering.row_of_hash.get(clustering.code_hashes[i]),
        clustering.row_of_hash.get(clustering.code_hashes[j]),
    )
    if params.verify_jaccard or clustering.signatures is None or li is None or lj is None:
        if clustering.exact_shingles is None:
            return 0.0  # a document without shingles shares nothing
        return minhash.exact_jaccard(clustering.exact_shingles(i), clustering.exact_shingles(j))
    return minhash.estimated_jaccard(clustering.signatures[li], clustering.signatures[lj])
