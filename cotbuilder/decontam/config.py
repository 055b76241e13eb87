"""`cotbuilder decontaminate`'s settings (light: the CLI reads them for --help without importing the checks)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..stages.options import list_option, option


@dataclass
class DecontamConfig:
    """Check every unit (code + annotation text) against benchmarks: exact normalised code, shared 13-grams of code
    tokens / English words / Chinese characters, MinHash similarity to the answers. Verdicts: `contaminated` (a copy of
    a benchmark answer or task), `near` (shares a kernel body with one) or `clean`; the standard kernel skeleton,
    licence headers and includes never count. A benchmark is a folder, a git URL or a bare git repository (a mirror).
    Writes the `contamination` table and <workspace>/reports/contamination.{md,json}."""

    # NAME=PATH_OR_GIT_URL strings (the CLI's form), or a {name = "path"} table (the TOML-friendly form)
    benchmarks: list[str] | dict[str, str] = list_option(
        "--benchmark",
        "-b",
        type=list[str],
        help="NAME=PATH_OR_GIT_URL (repeatable). Layout detected: NPUKernelBench (tasks/level*/...), "
        "MultiKernelBench (reference/ + prompts/), or any folder.",
    )
    ngram: int = 13
    common_fraction: float = option(
        0.5, "--common-fraction", min=0.0, max=1.0, help="Ignore n-grams in at least this share of tasks."
    )
    common_tasks: int = 3  # n-grams / shingles in this many tasks are not task-specific evidence
    minhash_threshold: float = option(
        0.8,
        "--minhash-threshold",
        min=0.0,
        max=1.0,
        help="Similarity to a benchmark answer that makes a unit a copy (`contaminated`).",
    )
    near_threshold: float = option(
        0.5,
        "--near-threshold",
        min=0.0,
        max=1.0,
        help="Similarity to a benchmark answer that makes a unit `near` (shares a kernel body).",
    )
    num_perm: int = 128
    shingle: int = 5
    code_min_matches: int = 8
    code_min_fraction: float = 0.2  # of the unit's kernel 13-grams in a task's code: near
    code_copy_fraction: float = 0.5  # ... contaminated
    prose_min_matches: int = 3
    min_specific: int = 20  # task-specific 13-grams / shingles a code or MinHash hit needs
    jobs: int = option(1, "--jobs", "-j", help="Units checked at once (processes).")

    def __post_init__(self) -> None:
        if isinstance(self.benchmarks, dict):
            self.benchmarks = [f"{name}={where}" for name, where in self.benchmarks.items()]

    def index_params(self) -> Any:
        from .index import IndexParams

        return IndexParams(self.ngram, self.common_fraction, self.common_tasks, self.shingle, self.num_perm)

    def check_params(self) -> Any:
        from .checks import CheckParams

        return CheckParams(
            self.minhash_threshold,
            self.near_threshold,
            self.code_min_matches,
            self.code_min_fraction,
            self.code_copy_fraction,
            self.prose_min_matches,
            self.min_specific,
        )
