"""A benchmark's searchable index: n-gram postings per stream, exact answer hashes, MinHash of kernel answers.

Shared text is not evidence (why a kernel that only shares the AddCustom one-shot example, a licence header, the
include block or the standard Init/Process/CopyIn/Compute/CopyOut skeleton stays clean). Three levels:
  - skeleton: code whose identifier-abstracted form (names that are not AscendC APIs, keywords or types become ID) is
    in the background's C++ files (`vector_kernel_skeleton.cpp`: queues, copy-in/compute/copy-out, the big-core/
    small-core split, host tiling boilerplate, written for cotbuilder) is not compared at all: neither its 13-grams
    nor its MinHash shingles, on either side, whatever the names;
  - dropped: an n-gram in at least `common_fraction` of the benchmark's tasks (text every task shows: the one-shot
    example in every prompt, the question templates' includes), in the benchmark's shared text (MultiKernelBench's
    `prompts/`), or in the background set `cotbuilder/decontam/data/background/*` (licence notices, common includes,
    op-definition boilerplate) never counts; an answer file found in `common_tasks` or more tasks (a header every
    Foreach task ships) is infrastructure, not an answer;
  - not specific: an n-gram (or abstracted MinHash shingle) found in `common_tasks` or more tasks is the skeleton that
    families of tasks share (the big-core/small-core tiling split, the copy-in/compute/copy-out pipeline). It still
    counts towards how much of a unit a task's answer covers, but a hit on a task needs evidence specific to that
    task: `min_specific` n-grams or shingles found in fewer than `common_tasks` tasks. So a copy of Rsqrt's answer
    (the shared unary-op skeleton plus Rsqrt's own compute lines) matches Rsqrt, and a Reciprocal kernel written on
    the same skeleton matches nothing.
Comments never count: the code tokenizer drops them (licence headers included).

The index is cached in the workspace (`cache/benchmarks/index/<hash>.json`), keyed by the benchmark's content hash and
the index parameters, so an unchanged benchmark is parsed once.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..dedup import minhash, tokens
from ..hashing import sha256_text, stable_json
from ..paths import package_data
from . import ngrams
from .benchmarks import Benchmark

INDEX_VERSION = 2
_HEADER_SUFFIXES = {".h", ".hpp", ".hh", ".inc"}  # helper files: a copy of one is not a copy of the answer


@dataclass(frozen=True)
class IndexParams:
    n: int = 13  # n-gram length (tokens / words / CJK characters)
    common_fraction: float = 0.5  # drop n-grams present in at least this fraction of tasks
    common_tasks: int = 3  # n-grams / shingles in this many tasks are not specific; answer files in as many are shared
    shingle: int = 5  # MinHash shingle length over abstracted code tokens
    num_perm: int = 128


@dataclass
class BenchIndex:
    name: str
    layout: str
    location: str
    commit: str | None
    content_hash: str
    index_hash: str
    tasks: list[str]
    postings: dict[str, dict[int, list[int]]]  # stream -> n-gram hash -> task indices
    exact: dict[str, list[list[Any]]]  # normalised code hash -> [[task index, path]]
    kernel_refs: list[list[Any]]  # [[task index, path]] one per row of kernel_sigs
    kernel_sigs: np.ndarray
    dropped: dict[str, int] = field(default_factory=dict)
    common_tasks: int = 3
    # per task: its kernel answers' abstracted shingles found in fewer than `common_tasks` tasks (sorted)
    specific_shingles: list[np.ndarray] = field(default_factory=list)
    entry_answers: list[str] = field(default_factory=list)  # answer source files with a __global__ entry (not headers)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["postings"] = {s: [[h, t] for h, t in p.items()] for s, p in self.postings.items()}
        d["kernel_sigs"] = self.kernel_sigs.tolist()
        d["specific_shingles"] = [a.tolist() for a in self.specific_shingles]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BenchIndex:
        d = dict(d)
        d["postings"] = {s: {int(h): t for h, t in p} for s, p in d["postings"].items()}
        d["kernel_sigs"] = np.array(d["kernel_sigs"], dtype=np.uint64).reshape(len(d["kernel_refs"]), -1)
        d["specific_shingles"] = [np.array(a, dtype=np.uint64) for a in d["specific_shingles"]]
        return cls(**d)

    def is_specific(self, ngram: int, stream: str) -> bool:
        """Is this (kept) n-gram found in fewer than `common_tasks` tasks, i.e. evidence for the task it names?"""
        return len(self.postings[stream][ngram]) < self.common_tasks

    def specific_shared(self, task_i: int, shingles: np.ndarray) -> int:
        """How many of `shingles` are specific to task `task_i`'s kernel answers."""
        return len(np.intersect1d(shingles, self.specific_shingles[task_i], assume_unique=True))


@lru_cache(maxsize=1)
def skeleton_ngrams(_n: int = 0) -> frozenset[int]:
    """The background C++ files' short windows (ngrams.SKELETON_GRAM tokens) in skeleton view (ngrams.skeleton_view):
    code they cover is skeleton, whatever the n of the n-grams compared."""
    out: set[int] = set()
    for path in _background_code():
        view = ngrams.skeleton_view(tokens.tokens(path.read_text(encoding="utf-8")))
        out |= set(ngrams.ngram_hashes(view, ngrams.SKELETON_GRAM).tolist())
    return frozenset(out)


@lru_cache(maxsize=4)
def skeleton_shingles(shingle: int) -> np.ndarray:
    """Identifier-abstracted MinHash shingles of the background's C++ files (sorted)."""
    parts = [abstract_shingles(p.read_text(encoding="utf-8"), shingle) for p in _background_code()]
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.uint64)


def _background_code() -> list[Path]:
    return sorted(p for p in package_data("decontam/data/background").iterdir() if p.suffix in (".cpp", ".h"))


def background_digest() -> str:
    """Part of the index hash: editing the background must rebuild cached indexes."""
    files = sorted(package_data("decontam/data/background").iterdir())
    return sha256_text("".join(p.name + sha256_text(p.read_text(encoding="utf-8")) for p in files))[:16]


def specific_shingles(code: str, shingle: int) -> np.ndarray:
    """A kernel's abstracted shingles without the skeleton's: what MinHash compares."""
    return np.setdiff1d(abstract_shingles(code, shingle), skeleton_shingles(shingle), assume_unique=True)


def background_ngrams(n: int) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {s: set() for s in ngrams.STREAMS}
    for path in sorted(package_data("decontam/data/background").iterdir()):
        text = path.read_text(encoding="utf-8")
        for stream in ngrams.STREAMS:
            out[stream] |= ngrams.ngram_set(stream, text, n)
    return out


def abstract_shingles(code: str, shingle: int) -> np.ndarray:
    """MinHash shingles of the code's skeleton view (ngrams.skeleton_view): renaming and retyping change nothing."""
    return minhash.shingle_hashes(ngrams.skeleton_view(tokens.tokens(code)), shingle)


def build(bench: Benchmark, params: IndexParams) -> BenchIndex:
    n = params.n
    per_task: dict[str, list[set[int]]] = {s: [] for s in ngrams.STREAMS}
    for task in bench.tasks:
        # A task's prompt is its own text plus the shared one-shot examples every prompt embeds; the filter below
        # then drops the shared part (present in every task) instead of the shared part never being looked at.
        code_texts = [t for _, t in task.answers + task.prompt_code + bench.shared]
        prose_texts = [t for _, t in task.prose]
        skeleton = skeleton_ngrams(n)
        per_task["code"].append(set().union(*[ngrams.code_ngram_set(t, n, skeleton) for t in code_texts]))
        for stream in ("en", "zh"):
            per_task[stream].append(set().union(*[ngrams.ngram_set(stream, t, n) for t in prose_texts]))
    background = background_ngrams(n)
    for _, text in bench.shared:
        for stream in ngrams.STREAMS:
            background[stream] |= ngrams.ngram_set(stream, text, n)

    n_tasks = len(bench.tasks)
    limit = max(2, params.common_fraction * n_tasks)
    postings: dict[str, dict[int, list[int]]] = {}
    dropped: dict[str, int] = {}
    for stream, sets in per_task.items():
        owners: dict[int, list[int]] = defaultdict(list)
        for i, s in enumerate(sets):
            for h in s:
                owners[h].append(i)
        keep = {h: t for h, t in owners.items() if len(t) < limit and h not in background[stream]}
        dropped[stream] = len(owners) - len(keep)
        postings[stream] = keep

    exact_owners: dict[str, list[list[Any]]] = defaultdict(list)
    entry_answers = []
    refs: list[list[Any]] = []
    shingle_sets = []
    for i, task in enumerate(bench.tasks):
        for path, text in task.answers:
            exact_owners[tokens.code_hash(text)].append([i, path])
            if Path(path).suffix.lower() not in _HEADER_SUFFIXES and "__global__" in text:
                entry_answers.append(path)
        for path, text in task.kernel_answers():
            shingles = specific_shingles(text, params.shingle)
            if len(shingles):  # a kernel that is all skeleton has nothing to compare
                refs.append([i, path])
                shingle_sets.append(shingles)
    exact = {h: hits for h, hits in exact_owners.items() if len({t for t, _ in hits}) < params.common_tasks}
    dropped["shared_answer_files"] = len(exact_owners) - len(exact)

    tasks_per_shingle: dict[int, set[int]] = defaultdict(set)
    for (i, _path), sh in zip(refs, shingle_sets, strict=True):
        for h in sh.tolist():
            tasks_per_shingle[h].add(i)
    specific: list[set[int]] = [set() for _ in bench.tasks]
    for (i, _path), sh in zip(refs, shingle_sets, strict=True):
        specific[i].update(h for h in sh.tolist() if len(tasks_per_shingle[h]) < params.common_tasks)
    sigs = (
        minhash.signatures(shingle_sets, params.num_perm)
        if shingle_sets
        else np.zeros((0, params.num_perm), dtype=np.uint64)
    )
    content = bench.content_hash()
    return BenchIndex(
        bench.name,
        bench.layout,
        bench.location,
        bench.commit,
        content,
        index_hash(content, params),
        [t.task_id for t in bench.tasks],
        postings,
        dict(exact),
        refs,
        sigs,
        dropped,
        params.common_tasks,
        [np.array(sorted(t), dtype=np.uint64) for t in specific],
        sorted(set(entry_answers)),
    )


def index_hash(content_hash: str, params: IndexParams) -> str:
    return sha256_text(stable_json([INDEX_VERSION, content_hash, asdict(params), background_digest()]))[:16]


def load_or_build(bench: Benchmark, params: IndexParams, cache_dir: Path) -> tuple[BenchIndex, bool]:
    """(index, came_from_cache)."""
    path = cache_dir / "benchmarks" / "index" / f"{index_hash(bench.content_hash(), params)}.json"
    if path.is_file():
        idx = BenchIndex.from_json(json.loads(path.read_text(encoding="utf-8")))
        idx.name, idx.location = bench.name, bench.location  # same content may be registered under another name
        return idx, True
    idx = build(bench, params)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(idx.to_json()), encoding="utf-8")
    tmp.replace(path)
    return idx, False
