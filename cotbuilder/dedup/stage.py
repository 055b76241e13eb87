"""The dedup stage: cluster every unit's code, pick one representative per cluster, write the `dedup` table.

Representative priority (first difference wins):
  1. verified (the latest verification per backend passed and none failed: verify.current.verdict_of)
  2. licence on the publish allowlist (default permissive list, see cotbuilder/publish/data/licenses.toml)
  3. has a harness (host main, input generator, result checker or verify_spec.toml)
  4. better annotation: has a publishable one (status ok, gates passed), then the longer rationale
  5. smallest unit_id (determinism)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..hashing import config_hash, sha256_text, stable_json
from ..stats import StageStats, stage_run
from ..store import Store, utcnow
from . import clusters
from .facts import UnitFacts, fingerprint_of, load_unit_facts


@dataclass
class DedupConfig:
    threshold: float = 0.7  # Jaccard over code-token shingles at which two units are duplicates
    num_perm: int = 256  # MinHash permutations
    ngram: int = 5  # shingle length in tokens
    verify_jaccard: bool = False  # check candidate pairs with the exact Jaccard instead of the MinHash estimate
    backend: str = "rensa"  # rensa | datasketch (signature computation; see minhash.py for why rensa)
    seed: int = 1
    licenses: list[str] | None = None  # licence allowlist used for ranking (default: the publish default)
    allow_cann_license: bool = False

    def params(self) -> clusters.ClusterParams:
        return clusters.ClusterParams(
            self.threshold, self.num_perm, self.ngram, self.verify_jaccard, self.backend, self.seed
        )

    def hash_dict(self) -> dict[str, Any]:
        return asdict(self)


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


def run(store: Store, config: DedupConfig | None = None) -> StageStats:
    from ..publish.licenses import allowlist, is_allowed

    config = config or DedupConfig()
    cfg = config.hash_dict()
    chash = config_hash(cfg)
    allowed = set(allowlist(config.licenses, config.allow_cann_license))
    with stage_run(store, "dedup", cfg) as stats:
        units = store.rows("SELECT unit_id, kernel_code, host_code FROM units ORDER BY unit_id")
        facts = load_unit_facts(store)
        codes = [unit_code(u) for u in units]
        from .tokens import code_hash

        hashes = [code_hash(c) for c in codes]
        input_hash = sha256_text(
            stable_json(
                [
                    chash,
                    [
                        [h] + fingerprint_of(facts[u["unit_id"]], is_allowed(facts[u["unit_id"]].license, allowed))
                        for u, h in zip(units, hashes, strict=False)
                    ],
                ]
            )
        )
        done = store.scalar("SELECT count(*) FROM dedup WHERE input_hash = ?", [input_hash])
        if units and done == len(units) == store.count("dedup"):
            stats.skip("already deduplicated with this config and input", len(units))
            return stats
        if not units:
            store.execute("DELETE FROM dedup")
            return stats

        result = clusters.cluster_codes(codes, config.params())
        now = utcnow()
        rows = []
        for group in result.groups:
            ids = [units[i]["unit_id"] for i in group]
            ranked = sorted(
                group,
                key=lambda i: rank_key(
                    facts[units[i]["unit_id"]], is_allowed(facts[units[i]["unit_id"]].license, allowed)
                ),
            )
            rep = ranked[0]
            cluster_id = min(ids)
            for i in group:
                is_rep = i == rep
                if len(group) == 1:
                    method = "unique"
                elif hashes[i] == hashes[rep]:
                    method = "exact"
                else:
                    method = "minhash"
                rows.append(
                    {
                        "unit_id": units[i]["unit_id"],
                        "cluster_id": cluster_id,
                        "cluster_size": len(group),
                        "is_representative": is_rep,
                        "method": method,
                        "similarity": 1.0 if is_rep else round(clusters.similarity(result, i, rep, config.params()), 4),
                        "representative_id": units[rep]["unit_id"],
                        "code_hash": hashes[i],
                        "config_hash": chash,
                        "input_hash": input_hash,
                        "created_at": now,
                    }
                )
            stats.kept(1)
            stats.add("units", len(group))
            if len(group) > 1:
                stats.skip("duplicate of a cluster representative", len(group) - 1)
        for key, value in result.counts.items():
            stats.add(key, value)
        stats.add("clusters", len(result.groups))
        # The whole table is one snapshot of one run: old rows (units gone, other config) go in the same transaction.
        with store.transaction():
            store.execute("DELETE FROM dedup")
            store.insert("dedup", rows)
    return stats
