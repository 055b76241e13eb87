"""Per-unit contamination checks against one benchmark index, and the verdict they give.

A unit is compared through what it would publish: its code (kernel + host) and its annotations' task and rationale.
Every check counts only evidence specific to one task (index.py's shared-text filter). Two verdicts:

contaminated - a copy of a benchmark answer or task:
  exact      the normalised kernel code, or a kernel file, equals a task's answer file that holds its entry kernel
  minhash    Jaccard estimate over identifier-abstracted code shingles (the skeleton's left out) >= minhash_threshold
             against a kernel answer (a renamed and reformatted copy: both vanish under abstraction)
  code       at least code_copy_fraction of the unit's code 13-grams are in a task's answers / prompt code
  en / zh    13-word (EN) or 13-character (ZH) windows of a task's description: at least prose_min_matches
near - shares a kernel body with a task's answer, without being a copy of it:
  exact      a kernel file equals one of a task's helper files (a header, no entry kernel)
  minhash    Jaccard between near_threshold and minhash_threshold
  code       at least code_min_fraction of the unit's code 13-grams are in a task's answers / prompt code
A code or MinHash hit on a task also needs `min_specific` pieces of evidence specific to that task (index.py): 13-grams
or shingles found in fewer than `common_tasks` tasks. Without them the unit shares only the skeleton that whole
families of tasks share, and names no task.

`push` drops both by default (`--allow-near` keeps `near`); synthesis refuses both (`benchmark_matched`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dedup import minhash, tokens
from . import ngrams
from .index import BenchIndex, skeleton_ngrams, specific_shingles

SAMPLE = 3


VERDICTS = ("clean", "near", "contaminated")  # in order of strength
CHECKS_VERSION = 2  # part of the config hash: a change of these rules re-checks every unit


@dataclass(frozen=True)
class CheckParams:
    minhash_threshold: float = 0.8
    near_threshold: float = 0.5
    code_min_matches: int = 8
    code_min_fraction: float = 0.2
    code_copy_fraction: float = 0.5
    prose_min_matches: int = 3
    min_specific: int = 20


@dataclass
class UnitText:
    unit_id: str
    kernel_code: str
    host_code: str
    kernel_files: list[str]
    prose: list[str]


def _stream_texts(unit: UnitText) -> dict[str, list[str]]:
    # Code: the kernel body. Host code (tiling functions, op definitions, tiling structs) is written from a few
    # templates across whole op libraries; sharing it with an answer shows the template, not the answer.
    return {"code": [unit.kernel_code], "en": unit.prose, "zh": unit.prose}


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
                verdict = "contaminated" if path in idx.entry_answers else "near"
                hits[task_i].append({"kind": "exact", "verdict": verdict, "answer": path})

    if len(idx.kernel_refs) and unit.kernel_code.strip():
        cached = signature_cache.get(unit.unit_id) if signature_cache is not None else None
        if cached is None:
            shingles = specific_shingles(unit.kernel_code, shingle)
            sig = minhash.signatures([shingles], idx.kernel_sigs.shape[1])[0] if len(shingles) else None
            cached = (shingles, sig)
            if signature_cache is not None:
                signature_cache[unit.unit_id] = cached
        shingles, sig = cached
        sims = (idx.kernel_sigs == sig[None, :]).mean(axis=1) if sig is not None else np.zeros(0)
        best: dict[int, tuple[float, str]] = {}
        for row in np.flatnonzero(sims >= params.near_threshold):
            task_i, path = idx.kernel_refs[row]
            if sims[row] > best.get(task_i, (-1.0, ""))[0]:
                best[task_i] = (float(sims[row]), path)
        for task_i, (sim, path) in best.items():
            specific = idx.specific_shared(task_i, shingles)
            if specific < params.min_specific:
                continue  # only the skeleton many tasks share
            hits[task_i].append(
                {
                    "kind": "minhash",
                    "verdict": "contaminated" if sim >= params.minhash_threshold else "near",
                    "similarity": round(sim, 4),
                    "specific": specific,
                    "answer": path,
                }
            )

    skeleton = skeleton_ngrams(n)
    for stream, texts in _stream_texts(unit).items():
        postings = idx.postings.get(stream, {})
        matched: Counter[int] = Counter()
        specific: Counter[int] = Counter()
        samples: dict[int, list[str]] = defaultdict(list)
        total = 0
        seen: set[int] = set()
        for text in texts:
            units = ngrams.units_of(stream, text)
            hashes = ngrams.ngram_hashes(units, n)
            skip = ngrams.skeleton_mask(units, n, skeleton) if stream == "code" else np.zeros(len(hashes), dtype=bool)
            total += int(len(hashes) - skip.sum())  # the unit's own code, skeleton left out
            for pos, h in enumerate(hashes.tolist()):
                if skip[pos] or h in seen or h not in postings:
                    continue
                seen.add(h)
                owners = postings[h]
                is_specific = len(owners) < idx.common_tasks
                for task_i in owners:
                    matched[task_i] += 1
                    if is_specific:
                        specific[task_i] += 1
                        if len(samples[task_i]) < SAMPLE:  # samples show what names the task, not the skeleton
                            samples[task_i].append(ngrams.render(stream, units, pos, n))
        for task_i, count in matched.items():
            fraction = count / total if total else 0.0
            verdict = None
            if stream != "code":
                verdict = "contaminated" if count >= params.prose_min_matches else None
            elif specific[task_i] < params.min_specific:
                verdict = None  # only the skeleton many tasks share
            elif count >= params.code_min_matches and fraction >= params.code_copy_fraction:
                verdict = "contaminated"
            elif count >= params.code_min_matches and fraction >= params.code_min_fraction:
                verdict = "near"
            if verdict:
                hits[task_i].append(
                    {
                        "kind": f"{stream}_ngram",
                        "verdict": verdict,
                        "count": count,
                        "specific": specific[task_i],
                        "fraction": round(fraction, 4),
                        "sample": samples[task_i] or ["(only n-grams shared by several tasks)"],
                    }
                )
    return {idx.tasks[i]: ev for i, ev in hits.items() if ev}


def hit_verdict(evidence: list[dict[str, Any]]) -> str:
    """A hit is as strong as its strongest check."""
    return max((e["verdict"] for e in evidence), key=VERDICTS.index)


def strength(evidence: list[dict[str, Any]]) -> tuple:
    """Order hits: contaminated before near, then exact first, then highest similarity, then most shared n-grams."""
    kinds = {e["kind"] for e in evidence}
    return (
        VERDICTS.index(hit_verdict(evidence)),
        "exact" in kinds,
        max((e.get("similarity", 0.0) for e in evidence), default=0.0),
        sum(e.get("count", 0) for e in evidence),
    )
