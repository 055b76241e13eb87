"""The dedup stage: cluster every unit's code, pick one representative per cluster, write the `dedup` table.

Representative priority (first difference wins):
  1. verified (the latest verification per backend passed and none failed: verify.current.verdict_of)
  2. licence on the publish allowlist (default permissive list, see cotbuilder/publish/data/licenses.toml)
  3. has a harness (host main, input generator, result checker or verify_spec.toml)
  4. better annotation: has a publishable one (status ok, gates passed), then the longer rationale
  5. smallest unit_id (determinism)

plan: one item (clustering needs every unit at once) unless the input hash (config + every unit's code hash and
ranking facts) is the one the table was written from; work: cluster and build the rows; commit: the table, replaced
whole. The summary counts are counted from the rows written, so they agree with the table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..hashing import config_hash, sha256_text, stable_json
from ..stages.base import PROCESS, Stage
from ..stages.driver import run_stage
from ..stats import StageStats
from ..store import Store, utcnow
from .config import BACKENDS, DedupConfig
from .facts import UnitFacts, fingerprint_of, load_unit_facts

__all__ = ["DedupConfig", "DedupStage", "rank_key", "run", "unit_code"]


def unit_code(unit: dict[str, Any]) -> str:
    """What is compared: the device code (the host side is mostly op-definition boilerplate that every op shares);
    a unit without device code is compared by its host code."""
    return unit["kernel_code"] if unit["kernel_code"].strip() else unit["host_code"]


def rank_key(f: UnitFacts, license_allowed: bool) -> tuple:
    """Sort key for the priority above (smallest first); push reuses it to pick among a cluster's publishable units."""
    return (
        not f.verified,
        not license_allowed,
        not f.has_harness,
        not f.publishable_annotation,
        -f.rationale_chars,
        f.unit_id,
    )


@dataclass
class DedupInput:
    unit_ids: list[str]
    codes: list[str]
    code_hashes: list[str]
    ranks: list[tuple]  # rank_key per unit
    config_hash: str
    input_hash: str


@dataclass
class DedupOutput:
    rows: list[dict[str, Any]]
    lsh_counts: dict[str, int]  # what LSH looked at (not in the table): candidate and rejected pairs


class DedupStage(Stage[DedupConfig, DedupInput, DedupOutput]):
    name = "dedup"
    config_type = DedupConfig
    mode = PROCESS

    def check(self) -> None:
        from ..stages.base import StageRefused

        if self.config.backend not in BACKENDS:
            raise StageRefused(f"--backend must be rensa or datasketch, not {self.config.backend!r}")

    def recorded_config(self) -> dict[str, Any]:
        return self.config.hash_dict()

    def plan(self, store: Store, stats: StageStats) -> list[DedupInput]:
        from ..publish.licenses import allowlist, is_allowed
        from .tokens import code_hash

        config = self.config
        chash = config_hash(config.hash_dict())
        allowed = set(allowlist(config.licenses, config.allow_cann_license))
        units = store.rows("SELECT unit_id, kernel_code, host_code FROM units ORDER BY unit_id")
        facts = load_unit_facts(store)
        codes = [unit_code(u) for u in units]
        hashes = [code_hash(c) for c in codes]
        allowed_of = {u["unit_id"]: is_allowed(facts[u["unit_id"]].license, allowed) for u in units}
        input_hash = sha256_text(
            stable_json(
                [
                    chash,
                    [
                        [h] + fingerprint_of(facts[u["unit_id"]], allowed_of[u["unit_id"]])
                        for u, h in zip(units, hashes, strict=True)
                    ],
                ]
            )
        )
        done = store.scalar("SELECT count(*) FROM dedup WHERE input_hash = ?", [input_hash])
        if units and done == len(units) == store.count("dedup"):
            stats.skip("already deduplicated with this config and input", len(units))
            return []
        ids = [u["unit_id"] for u in units]
        ranks = [rank_key(facts[i], allowed_of[i]) for i in ids]
        return [DedupInput(ids, codes, hashes, ranks, chash, input_hash)]

    def work(self, item: DedupInput) -> DedupOutput:
        from . import clusters

        params = self.config.params()
        result = clusters.cluster_codes(item.codes, params)
        now = utcnow()
        rows = []
        for group in result.groups:
            rep = min(group, key=lambda i: item.ranks[i])
            cluster_id = min(item.unit_ids[i] for i in group)
            for i in group:
                is_rep = i == rep
                if len(group) == 1:
                    method = "unique"
                elif item.code_hashes[i] == item.code_hashes[rep]:
                    method = "exact"
                else:
                    method = "minhash"
                rows.append(
                    {
                        "unit_id": item.unit_ids[i],
                        "cluster_id": cluster_id,
                        "cluster_size": len(group),
                        "is_representative": is_rep,
                        "method": method,
                        "similarity": 1.0 if is_rep else round(clusters.similarity(result, i, rep, params), 4),
                        "representative_id": item.unit_ids[rep],
                        "code_hash": item.code_hashes[i],
                        "config_hash": item.config_hash,
                        "input_hash": item.input_hash,
                        "created_at": now,
                    }
                )
        lsh = {k: v for k, v in result.counts.items() if k in ("candidate_pairs", "pairs_rejected_by_jaccard")}
        return DedupOutput(rows, lsh)

    def commit(self, store: Store, results: list[DedupOutput], stats: StageStats) -> None:
        (out,) = results
        # The whole table is one snapshot of one run: old rows (units gone, other config) go in the same transaction.
        store.execute("DELETE FROM dedup")
        store.insert("dedup", out.rows)
        for key, value in summary_counts(out.rows).items():
            stats.add(key, value)
        duplicates = sum(1 for r in out.rows if not r["is_representative"])
        if duplicates:
            stats.skip("duplicate of a cluster representative", duplicates)
        for key, value in out.lsh_counts.items():
            stats.add(key, value)


def summary_counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    """The stats table's counts, from the rows themselves: `SELECT method, is_representative, count(*) FROM dedup`
    gives the same numbers (a member counts by how it joined its representative)."""
    members = Counter(r["method"] for r in rows if not r["is_representative"])
    reps = sum(1 for r in rows if r["is_representative"])
    return {
        "kept": reps,
        "clusters": len({r["cluster_id"] for r in rows}),
        "units": len(rows),
        "exact_duplicates": members["exact"],
        "minhash_duplicates": members["minhash"],
    }


def run(store: Store, config: DedupConfig | None = None) -> StageStats:
    """Deduplicate in this process (library and test use); the CLI goes through the same stage."""
    return run_stage(DedupStage(config or DedupConfig()), store)
