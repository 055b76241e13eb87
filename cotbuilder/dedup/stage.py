"""The dedup stage: cluster every unit's code, pick one representative per cluster, write the `dedup` table.

Representative priority (first difference wins):
  1. verified (the latest verification per backend passed and none failed: verify.current.verdict_of)
  2. licence on the publish allowlist (default permissive list, see cotbuilder/publish/data/licenses.toml)
  3. has a harness (host main, input generator, result checker or verify_spec.toml)
  4. better annotation: has a publishable one (status ok, gates passed), then the longer rationale
  5. smallest unit_id (determinism)

plan: unless the input hash (config + every unit's code and ranking facts) is the one the table was written from,
the units in shards of `shard_size` (codes read in bulk, in the store's order: codes.read). A run of more than one
shard has its codes written once to a file in the workspace's cache (codes.CodeFile, one Arrow record batch per
shard, written by a thread while the workers start) and each shard names its batch there: a worker reads its own
shard, the driver neither pickles 500 MB of code to the pool nor keeps it. work (anywhere the cache folder is: a pool
process, a Ray task): a shard's tokens, exact hashes, MinHash signatures and LSH band keys, in compiled code
(tokens.id_batch, shingling.flat_shingles, rensa); commit: the driver puts each shard's signatures (1 KiB per unit)
at its units' places in unit_id order; finish: once every shard is signed, exact groups, LSH and union-find over all
of them (has_harness read beside them), one representative per cluster, and the table replaced whole in one
transaction. A shard that failed leaves the table as it was (clusters over part of the units would be wrong). The
summary counts are counted from the rows written, so they agree with the table.
"""

from __future__ import annotations

import concurrent.futures as cf
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl
import pyarrow as pa

from ..hashing import config_hash, sha256_text
from ..stages.base import PROCESS, Stage
from . import clusters, codes
from .codes import unit_code
from .config import BACKENDS, DedupConfig

# The driver's side (store, facts of other stages) is imported where it is used: a worker that unpickles this stage
# to sign shards needs none of it (it was a third of a worker's start-up).
if TYPE_CHECKING:
    from ..stats import StageStats
    from ..store import Store
    from .facts import UnitFacts

__all__ = ["DedupConfig", "DedupStage", "rank_key", "run", "unit_code"]


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


# Runs of this many units and more sign with the compiled lexer (clusters.sign_shard): below, numba's start in each
# worker costs more than it saves. The signatures are the same either way.
COMPILED_FROM = 10_000
_INPUT_SEED = 0x636F69  # polars' row hash seed of the input hash (any fixed value)


@dataclass
class DedupShard:
    start: int  # index of its first unit in the plan's order (the store's scan order, codes.Codes)
    codes: pl.Series | pa.Array | Sequence[str] | None = None  # the codes themselves (a run of one shard) ...
    compiled: bool = True  # sign with the compiled lexer (see COMPILED_FROM)
    source: codes.CodeSlice | None = None  # ... or where its worker reads them (the run's code file)

    def __len__(self) -> int:
        return len(self.source) if self.source is not None else len(self.codes)

    def read(self) -> pa.Array | Sequence[str]:
        if self.source is not None:
            return self.source.read()
        return self.codes.to_arrow() if isinstance(self.codes, pl.Series) else self.codes


@dataclass
class ShardResult:
    start: int
    signed: clusters.SignedShard


@dataclass
class _Plan:
    """What the driver keeps between plan and finish (never sent to a worker: see DedupStage.__getstate__)."""

    unit_ids: list[str]
    order: np.ndarray  # order[i]: the row of unit_ids[i] in the shards (codes.Codes.order)
    codes: pa.ChunkedArray | None  # kept only for verify_jaccard (the exact shingles of candidate pairs)
    code_file: codes.CodeFile | None  # the run's code file (being written while the workers start), removed by finish
    facts: pl.DataFrame  # what ranks cluster members, a row per unit in unit_id order (Ranking.columns)
    config_hash: str
    input_hash: str
    signed: _Signatures = field(init=False)

    def __post_init__(self) -> None:
        self.signed = _Signatures(self.order)


class _Signatures:
    """The shards' signatures put at their units' places in unit_id order as each shard comes in (while the others are
    still being signed), so finish starts from them as they are."""

    def __init__(self, order: np.ndarray):
        self.place = np.empty(len(order), dtype=np.int64)  # place[row]: the unit_id-order index of a shard row
        self.place[order] = np.arange(len(order))
        self.code_hashes: list[str | None] = [None] * len(order)
        self.signatures: np.ndarray | None = None  # (units, num_perm), allocated with the first shard
        self.has_shingles = np.zeros(len(order), dtype=bool)
        self.band_keys: np.ndarray | None = None
        self.keys_from_every_shard = True
        self.starts: set[int] = set()
        self.units = 0  # units signed so far

    def add(self, start: int, shard: clusters.SignedShard) -> None:
        if start in self.starts:  # the same shard twice (a retried task): once is enough
            return
        rows = self.place[start : start + len(shard.code_hashes)]
        if self.signatures is None:
            self.signatures = np.empty((len(self.place), shard.signatures.shape[1]), dtype=shard.signatures.dtype)
        self.signatures[rows] = shard.signatures
        self.has_shingles[rows] = shard.has_shingles
        if shard.band_keys is None:
            self.keys_from_every_shard = False  # cluster_signed makes them all
        elif self.keys_from_every_shard:
            if self.band_keys is None:
                self.band_keys = np.empty((len(self.place), shard.band_keys.shape[1]), dtype=np.uint64)
            self.band_keys[rows] = shard.band_keys
        for row, code_hash in zip(rows.tolist(), shard.code_hashes, strict=True):
            self.code_hashes[row] = code_hash
        self.starts.add(start)
        self.units += len(rows)


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
        return f"units {item.start}-{item.start + len(item) - 1}"

    def plan(self, store: Store, stats: StageStats) -> list[DedupShard]:
        from ..publish.licenses import allowlist
        from .facts import ranking

        config = self.config
        chash = config_hash(config.hash_dict())
        units = codes.read(store)
        ranks = ranking(store, set(allowlist(config.licenses, config.allow_cann_license)))
        # The text itself decides the result (its tokens), so its digest stands for it here; tokenising every unit
        # in the driver just to decide whether anything changed would cost as much as the work. Hashed as columns
        # (polars' row hash, a new polars version may change it: then one run does the work again).
        ids = pl.Series("unit_id", units.unit_ids, dtype=pl.String)  # typed: an empty store has no values to tell
        inputs = pl.DataFrame({"unit_id": ids, "digest": units.digests[units.order]}).join(
            ranks.columns(), on="unit_id", how="left", maintain_order="left"
        )
        input_hash = sha256_text(chash + inputs.hash_rows(seed=_INPUT_SEED).to_numpy().tobytes().hex())
        ids = units.unit_ids
        done = store.scalar("SELECT count(*) FROM dedup WHERE input_hash = ?", [input_hash])
        if ids and done == len(ids) == store.count("dedup"):
            stats.skip("already deduplicated with this config and input", len(ids))
            return []
        size = config.shard_size
        compiled = len(ids) >= COMPILED_FROM
        kept = units.codes if config.verify_jaccard else None
        if len(ids) <= size:
            one = units.codes.combine_chunks()
            self._plan = _Plan(ids, units.order, kept, None, inputs, chash, input_hash)
            return [DedupShard(0, one, compiled)] if ids else []
        code_file = codes.CodeFile(_code_file(store, input_hash), units.codes, units.digests, size)
        self._plan = _Plan(ids, units.order, kept, code_file, inputs, chash, input_hash)
        return [DedupShard(k * size, None, compiled, source) for k, source in enumerate(code_file.slices)]

    def work(self, item: DedupShard) -> ShardResult:
        return ShardResult(item.start, clusters.sign_shard(item.read(), self.config.params(), item.compiled))

    def commit(self, store: Store, results: list[ShardResult], stats: StageStats) -> None:
        # Nothing is written per shard: the table is one snapshot of every unit, written by `finish`.
        assert self._plan is not None
        for r in results:
            self._plan.signed.add(r.start, r.signed)
        stats.add("shards_signed", len(results))

    def _clusters(self, plan: _Plan) -> clusters.Clustering:
        params = self.config.params()
        signed = plan.signed
        return clusters.cluster_signed(
            signed.code_hashes,
            signed.signatures if signed.signatures is not None else np.zeros((0, params.num_perm), dtype=np.uint32),
            signed.has_shingles,
            params,
            None if plan.codes is None else clusters.exact_shingles_of(_InShardOrder(plan.codes, plan.order), params),
            signed.band_keys if signed.keys_from_every_shard else None,
        )

    def finish(self, store: Store, stats: StageStats) -> None:
        plan, self._plan = self._plan, None
        if plan is None:
            return
        # The code file goes while the driver clusters (freeing 500 MB of a file system's blocks takes a while).
        removing = threading.Thread(target=_remove, args=(plan.code_file,), name="dedup-codes-rm", daemon=True)
        removing.start()
        try:
            self._cluster_and_write(store, stats, plan)
        finally:
            removing.join()

    def _cluster_and_write(self, store: Store, stats: StageStats, plan: _Plan) -> None:
        from .facts import harness_frame

        if plan.signed.units != len(plan.unit_ids):
            stats.add("not_clustered", len(plan.unit_ids))  # a shard failed (see errors): the table is left as is
            return
        # has_harness is read (DuckDB, beside this thread) while the clusters are made (numpy and Python, one core);
        # the store is not touched here until it is read.
        with cf.ThreadPoolExecutor(1, thread_name_prefix="dedup-harness") as reader:
            harness = reader.submit(harness_frame, store)
            result = self._clusters(plan)
            rep_of = representatives(plan.facts, result.labels, harness.result)
        params = self.config.params()
        rows = _rows(plan, result, params, rep_of)
        with store.transaction():
            # The whole table is one snapshot of one run: old rows (units gone, other config) go with it.
            store.execute("DELETE FROM dedup")
            store.insert_frame("dedup", rows)
        counts = summary_counts(rows)
        for key, value in counts.items():
            stats.add(key, value)
        duplicates = counts["units"] - counts["kept"]
        if duplicates:
            stats.skip("duplicate of a cluster representative", duplicates)
        for key in ("candidate_pairs", "pairs_rejected_by_jaccard"):  # what LSH looked at (not in the table)
            stats.add(key, result.counts[key])


def representatives(facts: pl.DataFrame, labels: np.ndarray, harness: Callable[[], pl.DataFrame]) -> np.ndarray:
    """The index of each unit's representative: in a cluster of two or more, the member with the smallest `rank_key`
    (facts: a row per unit in unit_id order, `Ranking.columns()`; labels: clusters.Clustering.labels; harness(): a
    frame of unit_id, has_harness, called only when a cluster has two members). One sort over the members of shared
    clusters, not a rank_key tuple per member."""
    n = len(labels)
    rep_of = np.arange(n)
    shared = np.flatnonzero(np.bincount(labels, minlength=n)[labels] > 1)
    if not len(shared):
        return rep_of
    members = (
        facts[shared]
        .with_columns(index=pl.Series(shared), cluster=pl.Series(labels[shared]))
        .join(harness(), on="unit_id", how="left", maintain_order="left")
    )
    first = members.sort(  # rank_key's order, field for field; the index last stands for the unit_id (same order)
        pl.col("cluster"),
        pl.col("verified").fill_null(False).not_(),
        pl.col("license_allowed").fill_null(False).not_(),
        pl.col("has_harness").fill_null(False).not_(),
        pl.col("annotation_id").is_null(),
        -pl.col("rationale_chars").fill_null(0),
        pl.col("index"),
    ).unique(subset="cluster", keep="first", maintain_order=True)
    best = np.empty(n, dtype=np.int64)
    best[first["cluster"].to_numpy()] = first["index"].to_numpy()
    rep_of[shared] = best[labels[shared]]
    return rep_of


def _remove(code_file: codes.CodeFile | None) -> None:
    if code_file is not None:
        code_file.remove()


_CODE_FILES = "dedup"  # the cache folder of the runs' code files


def _code_file(store: Store, input_hash: str) -> Path:
    """This run's code file; files that runs before it left (a run killed before its finish) are removed. One process
    writes a workspace at a time, so no other run's file is in use."""
    path = store.cache_path(_CODE_FILES, f"codes-{input_hash[:16]}.arrow")
    for old in path.parent.glob("codes-*"):
        old.unlink(missing_ok=True)
    return path


class _InShardOrder:
    """The codes, held in the shards' order, indexed in unit_id order (exact shingles of a pair, verify_jaccard)."""

    def __init__(self, codes: pa.ChunkedArray, order: np.ndarray):
        self.codes, self.order = codes, order

    def __getitem__(self, i: int) -> str:
        return self.codes[int(self.order[i])].as_py()


def _rows(plan: _Plan, result: clusters.Clustering, params: clusters.ClusterParams, rep_of: np.ndarray) -> pl.DataFrame:
    """The `dedup` table, one row per unit, as columns."""
    from ..store import utcnow

    n = len(plan.unit_ids)
    first_of = result.labels  # the cluster's smallest index: its smallest unit_id
    size_of = np.bincount(first_of, minlength=n)[first_of]
    ids = pl.Series(plan.unit_ids)
    hashes = pl.Series(result.code_hashes)
    is_rep = rep_of == np.arange(n)
    same_code = (hashes == hashes.gather(rep_of)).to_numpy()
    members = np.flatnonzero(~is_rep & ~same_code)  # joined their representative by MinHash: a Jaccard to give
    similarity = np.ones(n)
    similarity[members] = [round(x, 4) for x in _similarities(result, members, rep_of[members], params)]
    method = np.where(size_of == 1, "unique", np.where(same_code, "exact", "minhash"))
    return pl.DataFrame(
        {
            "unit_id": ids,
            "cluster_id": ids.gather(first_of),
            "cluster_size": size_of,
            "is_representative": is_rep,
            "method": method,
            "similarity": similarity,
            "representative_id": ids.gather(rep_of),
            "code_hash": hashes,
            "config_hash": pl.Series([plan.config_hash]).new_from_index(0, n),
            "input_hash": pl.Series([plan.input_hash]).new_from_index(0, n),
            "created_at": pl.Series([utcnow()]).new_from_index(0, n),
        }
    )


def _similarities(
    result: clusters.Clustering, a: np.ndarray, b: np.ndarray, params: clusters.ClusterParams
) -> list[float]:
    """clusters.similarity of each pair (a[k], b[k]): the MinHash estimates a numpy call at a time."""
    rows = result.row_of_hash
    la = [rows.get(result.code_hashes[i]) for i in a.tolist()]
    lb = [rows.get(result.code_hashes[i]) for i in b.tolist()]
    if params.verify_jaccard or result.signatures is None or None in la or None in lb:
        return [clusters.similarity(result, i, j, params) for i, j in zip(a.tolist(), b.tolist(), strict=True)]
    sig = result.signatures
    out: list[float] = []
    for k in range(0, len(la), 8192):
        out += (sig[la[k : k + 8192]] == sig[lb[k : k + 8192]]).mean(axis=1).tolist()
    return out


def summary_counts(rows: pl.DataFrame) -> dict[str, int]:
    """The stats table's counts, from the rows themselves: `SELECT method, is_representative, count(*) FROM dedup`
    gives the same numbers (a member counts by how it joined its representative)."""
    members = rows.filter(~pl.col("is_representative"))["method"]
    return {
        "kept": int(rows["is_representative"].sum()),
        "clusters": rows["cluster_id"].n_unique(),
        "units": len(rows),
        "exact_duplicates": int((members == "exact").sum()),
        "minhash_duplicates": int((members == "minhash").sum()),
    }


def run(store: Store, config: DedupConfig | None = None) -> StageStats:
    """Deduplicate in this process (library and test use); the CLI goes through the same stage."""
    from ..stages.driver import run_stage

    return run_stage(DedupStage(config or DedupConfig()), store)
