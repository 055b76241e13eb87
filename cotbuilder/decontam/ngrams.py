"""The three n-gram streams decontamination compares: code tokens, English words, Chinese characters.

Chinese is written without spaces between words, so "13 words" has no cheap meaning there; its n-grams are 13
consecutive CJK characters (punctuation and Latin text removed), the usual choice for CJK overlap checks.
"""

from __future__ import annotations

import re

import numpy as np

from ..dedup import minhash, tokens

_EN_WORD = re.compile(r"[a-z0-9]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
STREAMS = ("code", "en", "zh")


def units_of(stream: str, text: str) -> list[str]:
    if stream == "code":
        return tokens.tokens(text)
    if stream == "en":
        return _EN_WORD.findall(text.lower())
    if stream == "zh":
        return _CJK.findall(text)
    raise ValueError(stream)


def ngram_hashes(units: list[str], n: int) -> np.ndarray:
    """Hash of every window of n units, in position order (empty when the text is shorter than n)."""
    if len(units) < n:
        return np.zeros(0, dtype=np.uint64)
    ids = minhash.token_ids(units)
    with np.errstate(over="ignore"):
        acc = np.zeros(len(ids) - n + 1, dtype=np.uint64)
        for k in range(n):
            acc = acc * np.uint64(0x9E3779B97F4A7C15) + ids[k : len(ids) - n + 1 + k]
        return minhash._mix(acc)


def ngram_set(stream: str, text: str, n: int) -> set[int]:
    return set(ngram_hashes(units_of(stream, text), n).tolist())


# Scalar types vanish with the names in the skeleton view: the same pipeline over half or over float is one skeleton.
_SCALAR_TYPES = frozenset(
    "half float double bfloat16_t float16_t int int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t "
    "bool size_t".split()
)


def skeleton_view(toks: list[str]) -> list[str]:
    """Tokens with every name that is not an AscendC API, keyword or macro, and every scalar type, as ID."""
    return ["ID" if t in _SCALAR_TYPES else t for t in tokens.abstract_tokens(toks)]


SKELETON_GRAM = 6  # skeleton coverage is found with short windows: the skeleton's pieces recombine in every kernel


def skeleton_mask(units: list[str], n: int, skeleton: frozenset[int]) -> np.ndarray:
    """For each code n-gram window: is it all skeleton? A token is skeleton when some SKELETON_GRAM-token window
    around it, in skeleton view, is in the background's skeleton (index.skeleton_ngrams); an n-gram window is
    skeleton when every token in it is. The windows left are those that reach code of the kernel's own."""
    windows = max(0, len(units) - n + 1)
    if not skeleton or not windows:
        return np.zeros(windows, dtype=bool)
    short = ngram_hashes(skeleton_view(units), SKELETON_GRAM)
    hit = np.isin(short, np.fromiter(skeleton, dtype=np.uint64, count=len(skeleton)))
    # token i is covered when a hit window starts in [i - SKELETON_GRAM + 1, i]
    starts = np.concatenate(([0], np.cumsum(hit)))
    idx = np.arange(len(units))
    lo = np.clip(idx - SKELETON_GRAM + 1, 0, len(hit))
    hi = np.clip(idx + 1, 0, len(hit))
    covered = (starts[hi] - starts[lo]) > 0
    uncovered = np.concatenate(([0], np.cumsum(~covered)))
    return (uncovered[n : n + windows] - uncovered[:windows]) == 0


def code_ngram_set(text: str, n: int, skeleton: frozenset[int]) -> set[int]:
    """The code n-grams of `text` that are not skeleton."""
    units = units_of("code", text)
    hashes = ngram_hashes(units, n)
    return set(hashes[~skeleton_mask(units, n, skeleton)].tolist())


def render(stream: str, units: list[str], pos: int, n: int) -> str:
    joiner = "" if stream == "zh" else " "
    return joiner.join(units[pos : pos + n])
