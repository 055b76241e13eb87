"""The dedup stage: cluster every unit's code, pick one representative per cluster, write the `dedup` table.

Representative priority (first difference wins):
  1. verified (the latest verification per backend passed and none failed: verify.current.verdict_of)
  2. licence on the publish allowlist (default permissive list, see cotbuilder/publish/data/licenses.toml)
  3. has a harness (host main, input generator, result checker or verify_spec.toml)
  4. better annotation: has a publishable one (status ok, gates passed), then the longer rationale
  5. smallest unit_id (determinism)

plan: unless the input hash (config + every unit's code and ranking facts) is the one the table was written from,
the units in shards of `shard_size`; work (anywhere: a pool process, a Ray task): a shard's tokens, exact hashes and
MinHash signatures, in compiled code (tokens.token_lists, minhash.batch_shingles); commit: the driver keeps each
shard's signatures (1 KiB per unit); finish: once every shard is signed, exact groups, LSH and union-find over all of
them, one representative per cluster, and the table replaced whole in one transaction. A shard that failed leaves
the table as it was (clusters over part of the units would be wrong). The summary counts are counted from the rows
written, so they agree with the table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from ..hashing import config_hash, sha256_text, stable_json
from ..stages.base import PROCESS, Stage
from ..stages.driver import run_stage
from ..stats import StageStats
from ..store import Store, utcnow
from . import clusters
from .config import BACKENDS, DedupConfig
from .facts import UnitFacts, fingerprint_of, load_unit_facts

__all__ = ["DedupConfig", "DedupStage", "rank_key", "run", "unit_code"]


def unit_code(unit: dict[str, Any]) -> str:
    """What is compared: the device code (the host side is mostly op-definition boilerplate that every op shares);
    a unit without device code is compared by its host code. (`plan` says the same in SQL: _CODE_SQL.)"""
    return unit["kernel_code"] if unit["kernel_code"].strip() else unit["host_code"]


# Python's str.strip() characters, for DuckDB's trim(): a kernel_code of white space only is no device code.
_WHITESPACE = "".join(chr(c) for c in range(0x3001) if chr(c).isspace())
_CODE_SQL = "CASE WHEN trim(kernel_code, ?) = '' THEN host_code ELSE kernel_code END"


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
class DedupShard:
    start: int  # index of its first unit in the plan's order
    codes: pa.Array  # large_string; Arrow, so a shard travels to its worker as buffers, not 2,048 Python strings


@dataclass
class ShardResult:
    start: int
    signed: clusters.SignedShard


@dataclass
class _Plan:
    """What the driver keeps between plan and finish (never sent to a worker: see DedupStage.__getstate__)."""

    unit_ids: list[str]
    codes: pa.Array
    ranks: list[tuple]  # rank_key per unit
    config_hash: str
    input_hash: str
    signed: dict[int, clusters.SignedShard] = field(default_factory=dict)  # shard start -> its signatures


class DedupStage(Stage[DedupConfig, DedupShard, ShardResult]):
    name = "dedup"
    config_type = DedupConfig
    mode = PROCESS
    batch_size = 8
    batch_seconds = 5.0

    def __init__(self, config: DedupConfig):
        super().__init__(config)
        self._plan: _Plan | None = None

    def __getstate__(self) -> dict[str, Any]:
        # Workers get the config only: the plan's codes and signatures stay in the driver.
        return {**self.__dict__, "_plan": None}

    def check(self) -> None:
        from ..stages.base import StageRefused

        if self.config.backend not in BACKENDS:
            raise StageRefused(f"--backend must be rensa or datasketch, not {self.config.backend!r}")
        if self.config.shard_size < 1:
            raise StageRefused("shard_size must be at least 1")

    def recorded_config(self) -> dict[str, Any]:
        return asdict(self.config)

    def workers(self) -> int:
        return max(1, self.config.jobs)

    def label(self, item: DedupShard) -> str:
        return f"units {item.start}-{item.start + len(item.codes) - 1}"

    def plan(self, store: Store, stats: StageStats) -> list[DedupShard]:
        from ..publish.licenses import allowlist, is_allowed

        config = self.config
        chash = config_hash(config.hash_dict())
        allowed = set(allowlist(config.licenses, config.allow_cann_license))
        # One bulk read: the code each unit is compared by and its digest stay Arrow/DuckDB work (at 100k units the
        # codes are ~500 MB; a dict per unit and a Python string per code cost more than signing them).
        units = store.arrow(
            f"SELECT unit_id, {_CODE_SQL} AS code, md5(code) AS digest FROM units ORDER BY unit_id",
            [_WHITESPACE],
        )
        facts = load_unit_facts(store)
        ids = units["unit_id"].to_pylist()
        codes = units["code"].combine_chunks().cast(pa.large_string())
        digests = units["digest"].to_pylist()
        del units
        allowed_of = {i: is_allowed(facts[i].license, allowed) for i in ids}
        # The text itself decides the result (its tokens), so its digest stands for it here; tokenising every unit
        # in the driver just to decide whether anything changed would cost as much as the work.
        input_hash = sha256_text(
            stable_json(
                [chash, [[d] + fingerprint_of(facts[i], allowed_of[i]) for i, d in zip(ids, digests, strict=True)]]
            )
        )
        done = store.scalar("SELECT count(*) FROM dedup WHERE input_hash = ?", [input_hash])
        if ids and done == len(ids) == store.count("dedup"):
            stats.skip("already deduplicated with this config and input", len(ids))
            return []
        ranks = [rank_key(facts[i], allowed_of[i]) for i in ids]
        self._plan = _Plan(ids, codes, ranks, chash, input_hash)
        size = config.shard_size
        # each shard's codes copied out (a slice would pickle the buffers of every unit)
        return [DedupShard(start, pa.concat_arrays([codes.slice(start, size)])) for start in range(0, len(codes), size)]

    def work(self, item: DedupShard) -> ShardResult:
        return ShardResult(item.start, clusters.sign_shard(item.codes, self.config.params()))

    def commit(self, store: Store, results: list[ShardResult], stats: StageStats) -> None:
        # Nothing is written per shard: the table is one snapshot of every unit, written by `finish`.
        assert self._plan is not None
        for r in results:
            self._plan.signed[r.start] = r.signed
        stats.add("shards_signed", len(results))

    def finish(self, store: Store, stats: StageStats) -> None:
        plan, self._plan = self._plan, None
        if plan is None:
            return
        signed = [plan.signed[s] for s in sorted(plan.signed)]
        if sum(len(s.code_hashes) for s in signed) != len(plan.unit_ids):
            stats.add("not_clustered", len(plan.unit_ids))  # a shard failed (see errors): the table is left as is
            return
        params = self.config.params()
        result = clusters.cluster_signed(
            [h for s in signed for h in s.code_hashes],
            np.concatenate([s.signatures for s in signed]),
            np.concatenate([s.has_shingles for s in signed]),
            params,
            clusters.exact_shingles_of(_Texts(plan.codes), params),
        )
        rows = _rows(plan, result, params)
        with store.transaction():
            # The whole table is one snapshot of one run: old rows (units gone, other config) go with it.
            store.execute("DELETE FROM dedup")
            store.insert("dedup", rows)
        for key, value in summary_counts(rows).items():
            stats.add(key, value)
        duplicates = sum(1 for r in rows if not r["is_representative"])
        if duplicates:
            stats.skip("duplicate of a cluster representative", duplicates)
        for key in ("candidate_pairs", "pairs_rejected_by_jaccard"):  # what LSH looked at (not in the table)
            stats.add(key, result.counts[key])


class _Texts:
    """An Arrow string array read as a sequence of str, one element when asked (exact Jaccard of candidate pairs)."""

    def __init__(self, array: pa.Array):
        self.array = array

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, i: int) -> str:
        return self.array[i].as_py()


def _rows(plan: _Plan, result: clusters.Clustering, params: clusters.ClusterParams) -> list[dict[str, Any]]:
    now = utcnow()
    rows = []
    for group in result.groups:
        rep = min(group, key=lambda i: plan.ranks[i])
        cluster_id = min(plan.unit_ids[i] for i in group)
        for i in group:
            is_rep = i == rep
            if len(group) == 1:
                method = "unique"
            elif result.code_hashes[i] == result.code_hashes[rep]:
                method = "exact"
            else:
                method = "minhash"
            rows.append(
                {
                    "unit_id": plan.unit_ids[i],
                    "cluster_id": cluster_id,
                    "cluster_size": len(group),
                    "is_representative": is_rep,
                    "method": method,
                    "similarity": 1.0 if is_rep else round(clusters.similarity(result, i, rep, params), 4),
                    "representative_id": plan.unit_ids[rep],
                    "code_hash": result.code_hashes[i],
                    "config_hash": plan.config_hash,
                    "input_hash": plan.input_hash,
                    "created_at": now,
                }
            )
    return rows


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
