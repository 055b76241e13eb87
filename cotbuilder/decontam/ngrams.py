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


def render(stream: str, units: list[str], pos: int, n: int) -> str:
    joiner = "" if stream == "zh" else " "
    return joiner.join(units[pos : pos + n])
