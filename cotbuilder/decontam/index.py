"""A benchmark's searchable index: n-gram postings per stream, exact answer hashes, MinHash of kernel answers.

Shared-text filter (why a kernel that only shares the AddCustom one-shot example or a licence header stays clean):
an n-gram is dropped from the postings when
  - it occurs in at least `common_fraction` of the benchmark's tasks (and in at least 2 of them): text every task
    shows, like the one-shot example embedded in every prompt or the question templates' includes; or
  - it occurs in the benchmark's shared text (MultiKernelBench's `prompts/` one-shot examples); or
  - it occurs in the background set `cotbuilder/decontam/data/background/*` (licence notices, common includes and the
    tiling/op-definition boilerplate every op project writes the same way).
The index is cached in the workspace (`cache/benchmarks/index/<hash>.json`), keyed by the benchmark's content hash and
the index parameters, so an unchanged benchmark is parsed once.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..dedup import minhash, tokens
from ..hashing import sha256_text, stable_json
from ..paths import package_data
from . import ngrams
from .benchmarks import Benchmark

INDEX_VERSION = 1


@dataclass(frozen=True)
class IndexParams:
    n: int = 13  # n-gram length (tokens / words / CJK characters)
    common_fraction: float = 0.5  # drop n-grams present in at least this fraction of tasks
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

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["postings"] = {s: [[h, t] for h, t in p.items()] for s, p in self.postings.items()}
        d["kernel_sigs"] = self.kernel_sigs.tolist()
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BenchIndex:
        d = dict(d)
        d["postings"] = {s: {int(h): t for h, t in p} for s, p in d["postings"].items()}
        d["kernel_sigs"] = np.array(d["kernel_sigs"], dtype=np.uint64).reshape(len(d["kernel_refs"]), -1)
        return cls(**d)


def background_ngrams(n: int) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {s: set() for s in ngrams.STREAMS}
    for path in sorted(package_data("decontam/data/background").iterdir()):
        text = path.read_text(encoding="utf-8")
        for stream in ngrams.STREAMS:
            out[stream] |= ngrams.ngram_set(stream, text, n)
    return out


def abstract_shingles(code: str, shingle: int) -> np.ndarray:
    return minhash.shingle_hashes(tokens.abstract_tokens(tokens.tokens(code)), shingle)


def build(bench: Benchmark, params: IndexParams) -> BenchIndex:
    n = params.n
    per_task: dict[str, list[set[int]]] = {s: [] for s in ngrams.STREAMS}
    for task in bench.tasks:
        # A task's prompt is its own text plus the shared one-shot examples every prompt embeds; the filter below
        # then drops the shared part (present in every task) instead of the shared part never being looked at.
        code_texts = [t for _, t in task.answers + task.prompt_code + bench.shared]
        prose_texts = [t for _, t in task.prose]
        per_task["code"].append(set().union(*[ngrams.ngram_set("code", t, n) for t in code_texts]))
        for stream in ("en", "zh"):
            per_task[stream].append(set().union(*[ngrams.ngram_set(stream, t, n) for t in prose_texts]))
    background = background_ngrams(n)
    for _, text in bench.shared:
        for stream in ngrams.STREAMS:
            background[stream] |= ngrams.ngram_set(stream, text, n)

    n_tasks = len(bench.tasks)
    postings: dict[str, dict[int, list[int]]] = {}
    dropped: dict[str, int] = {}
    for stream, sets in per_task.items():
        owners: dict[int, list[int]] = defaultdict(list)
        for i, s in enumerate(sets):
            for h in s:
                owners[h].append(i)
        limit = max(2, params.common_fraction * n_tasks)
        keep = {h: t for h, t in owners.items() if len(t) < limit and h not in background[stream]}
        dropped[stream] = len(owners) - len(keep)
        postings[stream] = keep

    exact: dict[str, list[list[Any]]] = defaultdict(list)
    refs: list[list[Any]] = []
    shingle_sets = []
    for i, task in enumerate(bench.tasks):
        for path, text in task.answers:
            exact[tokens.code_hash(text)].append([i, path])
        for path, text in task.kernel_answers():
            refs.append([i, path])
            shingle_sets.append(abstract_shingles(text, params.shingle))
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
    )


def index_hash(content_hash: str, params: IndexParams) -> str:
    return sha256_text(stable_json([INDEX_VERSION, content_hash, asdict(params)]))[:16]


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
