"""`cotbuilder dedup`'s settings (light: the CLI reads them for --help without importing numpy or the MinHash code)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..stages.options import option

BACKENDS = ("rensa", "datasketch")


@dataclass
class DedupConfig:
    """Cluster duplicate units (exact, then MinHash LSH near-duplicates over code tokens) and choose one
    representative per cluster: verified > licence allowed > has harness > better annotation > unit_id.
    Results go to the `dedup` table; an unchanged re-run does nothing."""

    threshold: float = option(
        0.7,
        "--threshold",
        min=0.0,
        max=1.0,
        help="Jaccard similarity of code-token shingles at which units are duplicates.",
    )
    num_perm: int = option(256, "--num-perm", min=16, help="MinHash permutations.")
    ngram: int = option(5, "--ngram", min=1, help="Shingle length in code tokens.")
    verify_jaccard: bool = option(
        False, "--verify-jaccard", help="Check each LSH candidate pair with the exact Jaccard."
    )
    # signature computation; see minhash.py for why rensa
    backend: str = option("rensa", "--backend", help="MinHash signatures: rensa (fast) or datasketch.")
    jobs: int = option(2, "--jobs", "-j", min=1, help="Shards of units (2,048 each) signed at once, in processes.")
    seed: int = 1
    shard_size: int = 2048  # units signed per work item: bounds a worker's memory (tokens of one shard at a time)
    licenses: list[str] | None = None  # licence allowlist used for ranking (default: the publish default)
    allow_cann_license: bool = False

    def params(self) -> Any:
        from .clusters import ClusterParams

        return ClusterParams(self.threshold, self.num_perm, self.ngram, self.verify_jaccard, self.backend, self.seed)

    def hash_dict(self) -> dict[str, Any]:
        """The settings that decide the result (how the work is split and spread does not)."""
        return {k: v for k, v in asdict(self).items() if k not in _EXECUTION_ONLY}


_EXECUTION_ONLY = ("jobs", "shard_size")
