"""Per-unit contamination checks against one benchmark index.

A unit is compared through what it would publish: its code (kernel + host) and its annotations' task and rationale.
  exact      the normalised kernel code (or a kernel file) equals a benchmark answer file
  minhash    Jaccard estimate over identifier-abstracted code shingles >= minhash_threshold against a kernel answer
             (catches renamed identifiers + reformatting: both vanish under abstraction)
  code       13-grams of code tokens shared with a task's answers/prompt code (after the shared-text filter):
             at least code_min_matches of them AND at least code_min_fraction of the unit's code 13-grams
  en / zh    13-word (EN) or 13-character (ZH) windows shared with a task's description: at least prose_min_matches
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dedup import minhash, tokens
from . import ngrams
from .index import BenchIndex, abstract_shingles

SAMPLE = 3


@dataclass(frozen=True)
class CheckParams:
    minhash_threshold: float = 0.8
    code_min_matches: int = 8
    code_min_fraction: float = 0.2
    prose_min_matches: int = 3


@dataclass
class UnitText:
    unit_id: str
    kernel_code: str
    host_code: str
    kernel_files: list[str]
    prose: list[str]


def _stream_texts(unit: UnitText) -> dict[str, list[str]]:
    return {"code": [unit.kernel_code, unit.host_code], "en": unit.prose, "zh": unit.prose}


def check_unit(
    unit: UnitText,
    idx: BenchIndex,
    params: CheckParams,
    n: int,
    shingle: int,
    signature_cache: dict[str, np.ndarray] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """{task_id: [evidence, ...]} for every task of `idx` this unit is contaminated by (empty: clean)."""
    hits: dict[int, list[dict[str, Any]]] = defaultdict(list)

    for text in [unit.kernel_code, *unit.kernel_files]:
        if not text.strip():
            continue
        for task_i, path in idx.exact.get(tokens.code_hash(text), []):
            if not any(e["kind"] == "exact" and e["answer"] == path for e in hits[task_i]):
                hits[task_i].append({"kind": "exact", "answer": path})

    if len(idx.kernel_refs) and unit.kernel_code.strip():
        sig = signature_cache.get(unit.unit_id) if signature_cache is not None else None
        if sig is None:
            sig = minhash.signatures([abstract_shingles(unit.kernel_code, shingle)], idx.kernel_sigs.shape[1])[0]
            if signature_cache is not None:
                signature_cache[unit.unit_id] = sig
        sims = (idx.kernel_sigs == sig[None, :]).mean(axis=1)
        best: dict[int, tuple[float, str]] = {}
        for row in np.flatnonzero(sims >= params.minhash_threshold):
            task_i, path = idx.kernel_refs[row]
            if sims[row] > best.get(task_i, (-1.0, ""))[0]:
                best[task_i] = (float(sims[row]), path)
        for task_i, (sim, path) in best.items():
            hits[task_i].append({"kind": "minhash", "similarity": round(sim, 4), "answer": path})

    for stream, texts in _stream_texts(unit).items():
        postings = idx.postings.get(stream, {})
        matched: Counter[int] = Counter()
        samples: dict[int, list[str]] = defaultdict(list)
        total = 0
        seen: set[int] = set()
        for text in texts:
            units = ngrams.units_of(stream, text)
            hashes = ngrams.ngram_hashes(units, n)
            total += len(hashes)
            for pos, h in enumerate(hashes.tolist()):
                if h in seen or h not in postings:
                    continue
                seen.add(h)
                for task_i in postings[h]:
                    matched[task_i] += 1
                    if len(samples[task_i]) < SAMPLE:
                        samples[task_i].append(ngrams.render(stream, units, pos, n))
        for task_i, count in matched.items():
            fraction = count / total if total else 0.0
            if stream == "code":
                flagged = count >= params.code_min_matches and fraction >= params.code_min_fraction
            else:
                flagged = count >= params.prose_min_matches
            if flagged:
                hits[task_i].append(
                    {
                        "kind": f"{stream}_ngram",
                        "count": count,
                        "fraction": round(fraction, 4),
                        "sample": samples[task_i],
                    }
                )
    return {idx.tasks[i]: ev for i, ev in hits.items() if ev}


def strength(evidence: list[dict[str, Any]]) -> tuple:
    """Order hits: exact first, then highest similarity, then most shared n-grams."""
    kinds = {e["kind"] for e in evidence}
    return (
        "exact" in kinds,
        max((e.get("similarity", 0.0) for e in evidence), default=0.0),
        sum(e.get("count", 0) for e in evidence),
    )
