"""The batch path dedup uses (polars/Rust regexes, vectorised shingles) against the one-document path it replaces:
the same tokens, the same exact hashes, the same shingle construction."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cotbuilder.dedup import minhash, shingling, synthetic, tokens

from . import corpus


def test_batch_tokens_equal_the_one_document_lexer_on_tricky_and_real_code():
    codes = corpus.codes()
    assert len(codes) > 200
    batch = tokens.token_lists(codes).to_list()
    for code, got in zip(codes, batch, strict=True):
        assert got == tokens.tokens(code), code[:200]


def test_batch_exact_hashes_equal_code_hash():
    codes = corpus.codes()
    assert tokens.code_hashes(tokens.token_lists(codes)) == [tokens.code_hash(c) for c in codes]


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_compiled_shingles_are_the_numpy_shingles_bit_for_bit(n):
    """Documents of every length around n, and real kernels: the rolled polynomial gives the same values."""
    rng = random.Random(n)
    lengths = np.array([0, 1, n - 1, n, n + 1, 0, 2, 17, n - 1, 40, 0] + [rng.randrange(0, 300) for _ in range(50)])
    ids = np.array([rng.getrandbits(64) for _ in range(int(lengths.sum()))], dtype=np.uint64)
    batch = tokens.id_batch(corpus.codes())
    for i, c in ((ids, lengths), (batch.ids, batch.counts)):
        want, got = minhash.flat_shingles(i, c, n), shingling.flat_shingles(i, c, n)
        assert np.array_equal(want[0], got[0]) and np.array_equal(want[1], got[1])


@pytest.mark.parametrize("n", [1, 3, 5])
def test_flat_shingles_are_the_per_document_shingles_for_the_same_token_ids(n):
    """Documents of every length around n (none, shorter than a shingle, exactly one, many), side by side."""
    rng = random.Random(n)
    docs = [[f"t{rng.randrange(30)}" for _ in range(k)] for k in (0, 1, n - 1, n, n + 1, 0, 2, 17, n - 1, 40, 0)]
    docs = [d for d in docs]
    ids = minhash.token_ids([t for d in docs for t in d])
    flat, counts = minhash.flat_shingles(ids, np.array([len(d) for d in docs]), n)
    assert counts.sum() == len(flat)
    per_doc = np.split(flat, np.cumsum(counts)[:-1])
    for doc, got in zip(docs, per_doc, strict=True):
        assert np.array_equal(np.unique(got), minhash.shingle_hashes(doc, n)), doc


def test_batch_signatures_estimate_the_exact_jaccard_like_the_one_document_path():
    rng = random.Random(3)
    base = synthetic.base_kernel(rng)
    docs = [base] + [synthetic.variant(base, k, rng) for k in ("renamed", "shared80")] + [synthetic.base_kernel(rng)]
    flat, counts = minhash.batch_shingles(tokens.token_lists(docs), 5)
    sig = minhash.signature_matrix(flat, counts, 256)
    exact = [minhash.shingle_hashes(tokens.tokens(d), 5) for d in docs]
    for j in range(1, len(docs)):
        truth = minhash.exact_jaccard(exact[0], exact[j])
        assert abs(minhash.estimated_jaccard(sig[0], sig[j]) - truth) < 0.1


def test_a_document_without_tokens_gets_no_shingles_and_an_all_max_signature():
    flat, counts = minhash.batch_shingles(tokens.token_lists(["// nothing", "int x;"]), 5)
    assert counts.tolist() == [0, 1]
    sig = minhash.signature_matrix(flat, counts, 64)
    assert (sig[0] == np.iinfo(sig.dtype).max).all() and not (sig[1] == np.iinfo(sig.dtype).max).all()


def test_signatures_do_not_depend_on_how_many_documents_go_to_rensa_at_once(monkeypatch):
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 40, 700)
    counts[::9] = 0  # documents without shingles, some at the edge of a call
    counts[128:140] = 0
    flat = rng.integers(0, 2**63, int(counts.sum()), dtype=np.uint64)
    whole = minhash.signature_matrix(flat, counts, 64)
    monkeypatch.setattr(minhash, "_RENSA_ROWS", 128)
    assert np.array_equal(minhash.signature_matrix(flat, counts, 64), whole)
    monkeypatch.setattr(minhash, "_RENSA_ROWS", 1)
    assert np.array_equal(minhash.signature_matrix(flat, counts, 64), whole)
    assert (whole[counts == 0] == np.iinfo(np.uint32).max).all() and (whole[counts > 0] < np.iinfo(np.uint32).max).all()
