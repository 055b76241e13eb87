"""Dedup signs its units shard by shard (anywhere) and clusters them once (in the driver): how the units are split and
where the shards run does not change the table; a shard that fails leaves the table as it was."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cotbuilder.dedup import synthetic
from cotbuilder.dedup.stage import DedupConfig, DedupStage, run
from cotbuilder.stages.driver import run_stage
from cotbuilder.store import Store

from ..dedup_store import dedup_rows, fill


def _fill(workspace: Path, n_bases: int = 40, seed: int = 4) -> None:
    codes, _ = synthetic.corpus(n_bases, dup_fraction=0.6, seed=seed)
    codes += ["", "// a file with only a comment"]  # documents without tokens: nothing to compare
    fill(workspace, codes)


def _table(workspace: Path) -> list[tuple]:
    return dedup_rows(
        workspace,
        "unit_id, cluster_id, cluster_size, is_representative, method, similarity, representative_id, code_hash",
    )


def test_shard_size_and_worker_count_do_not_change_the_clusters(tmp_path):
    one, many = tmp_path / "one-shard", tmp_path / "many-shards"
    _fill(one)
    _fill(many)
    with Store(one) as store:
        whole = run(store, DedupConfig())
    with Store(many) as store:
        split = run_stage(DedupStage(DedupConfig(shard_size=7, jobs=2)), store)
    assert split.counts["shards_signed"] > 5 and whole.counts["shards_signed"] == 1
    table = _table(one)
    assert table == _table(many)
    assert any(r[4] == "exact" for r in table) and any(r[4] == "minhash" for r in table)
    for key in ("kept", "clusters", "exact_duplicates", "minhash_duplicates", "candidate_pairs"):
        assert whole.counts[key] == split.counts[key], key


def test_the_compiled_and_the_regex_lexer_give_the_same_table(tmp_path, monkeypatch):
    """Large runs sign with the compiled lexer, small ones with polars' regexes (stage.COMPILED_FROM): the table is
    the same; both paths run in pool workers here (the choice travels with each shard)."""
    from cotbuilder.dedup import stage

    tables = []
    for name, threshold in (("compiled", 0), ("regex", 10**9)):
        _fill(tmp_path / name)
        monkeypatch.setattr(stage, "COMPILED_FROM", threshold)
        with Store(tmp_path / name) as store:
            items = DedupStage(DedupConfig(shard_size=30)).plan(store, stats=None)
            assert {item.compiled for item in items} == {threshold == 0}
            run_stage(DedupStage(DedupConfig(shard_size=30, jobs=2)), store)
        tables.append(_table(tmp_path / name))
    assert tables[0] == tables[1]


def test_the_shard_layout_is_not_part_of_the_result_key(tmp_path):
    _fill(tmp_path / "ws")
    with Store(tmp_path / "ws") as store:
        run(store, DedupConfig(shard_size=5))
        again = run_stage(DedupStage(DedupConfig(shard_size=50, jobs=2)), store)
    assert again.counts["kept"] == 0 and again.counts["skipped"] > 0  # same input, same config: nothing to redo


class _OneShardFails(DedupStage):
    def work(self, item):
        if item.start == 14:
            raise MemoryError("a shard too big for its worker")
        return super().work(item)


def test_a_failed_shard_leaves_the_previous_table_and_says_so(tmp_path):
    ws = tmp_path / "ws"
    _fill(ws)
    with Store(ws) as store:
        run(store, DedupConfig())
    before = _table(ws)
    with Store(ws) as store:
        rng = random.Random(9)
        store.insert("units", synthetic.unit_rows([synthetic.base_kernel(rng)]))  # the input changed: work to do
        stats = run_stage(_OneShardFails(DedupConfig(shard_size=7)), store)
        status = store.scalar("SELECT status FROM runs WHERE stage = 'dedup' ORDER BY started_at DESC LIMIT 1")
    assert stats.counts["failed"] == 1 and "a shard too big" in stats.errors[0]["error"]
    assert stats.errors[0]["item"] == "units 14-20"
    assert stats.counts["not_clustered"] > 0 and stats.counts["kept"] == 0
    assert status == "failed"  # nothing was written
    assert _table(ws) == before  # clusters over part of the units would be wrong: none are written


def test_bad_shard_size_is_refused_before_anything_runs(tmp_path):
    from cotbuilder.stages.base import StageRefused

    with Store(tmp_path / "ws") as store, pytest.raises(StageRefused, match="shard_size"):
        run_stage(DedupStage(DedupConfig(shard_size=0)), store)


def test_a_workspace_without_units_gets_an_empty_table(tmp_path):
    ws = tmp_path / "ws"
    _fill(ws)
    with Store(ws) as store:
        run(store, DedupConfig())
        assert store.count("dedup") > 0
        store.execute("DELETE FROM units")  # every unit gone: so are their rows
        stats = run(store, DedupConfig(shard_size=7, jobs=2))
        assert store.count("dedup") == 0
    assert stats.counts["units"] == 0 and not stats.errors


def test_a_shard_result_that_comes_twice_counts_once(tmp_path):
    """A result delivered again (a task retried after its first answer was sent) must not make the units look signed
    when another shard is missing, nor shift anything."""
    _fill(tmp_path / "ws")
    with Store(tmp_path / "ws") as store:
        stage = DedupStage(DedupConfig(shard_size=10))
        items = stage.plan(store, stats=None)
        results = [stage.work(item) for item in items]
        stage.commit(store, results[:1] * 3 + results[2:], stats=_Counts())
        assert stage._plan.signed.units == sum(len(item) for item in items) - len(items[1])
        stage.commit(store, results[1:2], stats=_Counts())
        assert stage._plan.signed.units == sum(len(item) for item in items)


class _Counts:
    def add(self, key, value):
        pass
