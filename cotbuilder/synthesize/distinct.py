"""Distinct solutions of one task: answers whose code is a near copy of one already kept (MinHash over code-token
shingles, dedup's own tokenizer and signatures) are one solution, so a teacher repeating itself does not inflate a
task."""

from __future__ import annotations


def distinct_indices(codes: list[dict[str, str]], threshold: float) -> tuple[list[int], int]:
    """(indices of the codes kept, in order; how many were dropped as the same solution as an earlier one)."""
    if not codes:
        return [], 0
    from ..dedup import minhash, tokens

    texts = ["\n".join(text for _, text in sorted(code.items())) for code in codes]
    sigs = minhash.signatures([minhash.shingle_hashes(tokens.tokens(t), 5) for t in texts], 128)
    kept: list[int] = []
    for i, sig in enumerate(sigs):
        if not any((sigs[j] == sig).mean() >= threshold for j in kept):
            kept.append(i)
    return kept, len(codes) - len(kept)
