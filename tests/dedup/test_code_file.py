"""A dedup run of more than one shard hands its codes to the workers through one file in the workspace's cache
(codes.write_file): a worker signs exactly what the in-process path signs, and a file that is damaged, cut short or
gone fails its shards with a message saying so, never clusters over other codes."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import pickle
from pathlib import Path

import numpy as np
import pytest

from cotbuilder.dedup import clusters, codes, synthetic, tokens
from cotbuilder.dedup.stage import DedupConfig, DedupStage, run
from cotbuilder.stages.driver import run_stage
from cotbuilder.store import Store

from ..dedup_store import dedup_rows, fill


def _fill(workspace: Path, extra: list[dict] | None = None) -> list[str]:
    texts, _ = synthetic.corpus(30, dup_fraction=0.5, seed=8)
    fill(workspace, texts)
    if extra:
        with Store(workspace) as store:
            store.insert("units", extra)
    return texts


def _table(workspace: Path) -> list[tuple]:
    return dedup_rows(workspace, "unit_id, cluster_id, is_representative, method, similarity, code_hash")


def _code_files(workspace: Path) -> list[Path]:
    return sorted((workspace / "cache").rglob("codes-*.arrow"))


def test_a_worker_signs_its_shard_from_the_code_file_as_the_in_process_path_signs_the_codes(tmp_path):
    _fill(tmp_path / "ws")
    stage = DedupStage(DedupConfig(shard_size=9))
    with Store(tmp_path / "ws") as store:
        items = stage.plan(store, stats=None)
        text_of = {r["unit_id"]: r["kernel_code"] for r in store.rows("SELECT unit_id, kernel_code FROM units")}
    plan_codes = stage._plan
    in_shard_order = [""] * len(plan_codes.unit_ids)  # shards hold the units in the store's order
    for unit_id, row in zip(plan_codes.unit_ids, plan_codes.order.tolist(), strict=True):
        in_shard_order[row] = text_of[unit_id]
    texts = in_shard_order
    assert len(items) > 3 and all(item.codes is None and item.source is not None for item in items)
    copy = pickle.loads(pickle.dumps(stage))  # what a pool worker unpickles: the config, not the plan
    assert copy._plan is None and plan_codes is not None
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = list(pool.map(copy.work, items))
    params = stage.config.params()
    for item, result in zip(items, results, strict=True):
        here = clusters.sign_shard(texts[item.start : item.start + len(item)], params)
        assert result.signed.code_hashes == here.code_hashes
        assert np.array_equal(result.signed.signatures, here.signatures)
        assert np.array_equal(result.signed.band_keys, here.band_keys)
        assert result.signed.code_hashes == [tokens.code_hash(t) for t in texts[item.start : item.start + len(item)]]


def test_one_file_one_table_and_no_file_left_behind(tmp_path):
    """The same table from one shard (codes inline) and from many (the code file), and the file goes with the run."""
    one, many = tmp_path / "one", tmp_path / "many"
    _fill(one)
    _fill(many)
    with Store(one) as store:
        run(store, DedupConfig())
    with Store(many) as store:
        leftover = store.cache_path("dedup", "codes-0123456789abcdef.arrow")  # from a run killed before its end
        leftover.write_bytes(b"left by a killed run")
        stats = run_stage(DedupStage(DedupConfig(shard_size=6, jobs=2)), store)
    assert stats.counts["shards_signed"] > 5
    assert _table(one) == _table(many) != []
    assert _code_files(one) == _code_files(many) == []


def test_units_with_host_code_only_are_signed_by_their_host_code_from_the_file(tmp_path):
    rows = synthetic.unit_rows(["int host_only_a(int x) { return x * 3 + 1; }", "int host_b(void) { return 7; }"])
    for row in rows:  # no device code: dedup compares the host side
        row["host_code"], row["kernel_code"] = row["kernel_code"], "  \n\t"
    _fill(tmp_path / "ws", extra=rows)
    with Store(tmp_path / "ws") as store:
        run_stage(DedupStage(DedupConfig(shard_size=5, jobs=2)), store)
        got = {
            r["unit_id"]: r["code_hash"]
            for r in store.rows(
                "SELECT unit_id, code_hash FROM dedup WHERE unit_id IN (SELECT unnest(?))",
                [[r["unit_id"] for r in rows]],
            )
        }
    assert got == {r["unit_id"]: tokens.code_hash(r["host_code"]) for r in rows}


def _planned(workspace: Path) -> list:
    stage = DedupStage(DedupConfig(shard_size=9))
    with Store(workspace) as store:
        items = stage.plan(store, stats=None)
    stage._plan.code_file.wait()  # written by a thread of the driver
    return items


def test_a_damaged_code_is_refused_by_the_worker_that_reads_it(tmp_path):
    _fill(tmp_path / "ws")
    items = _planned(tmp_path / "ws")
    path = Path(items[0].source.path)
    data = path.read_bytes()
    pieces = (text[200:260].encode() for text in items[1].read().to_pylist())  # of the second shard's codes
    victim = next(piece for piece in pieces if data.count(piece) == 1 and b"(" in piece)
    path.write_bytes(data.replace(victim, victim.replace(b"(", b"[", 1)))
    with pytest.raises(codes.CodeFileError, match="shard 1 .* does not hold the codes planned"):
        items[1].read()
    assert len(items[0].read()) == len(items[0])  # the other shards are intact


def test_a_file_cut_short_or_gone_says_so(tmp_path):
    _fill(tmp_path / "ws")
    items = _planned(tmp_path / "ws")
    path = Path(items[0].source.path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(codes.CodeFileError, match="cannot be read .*damaged"):
        items[0].read()
    path.unlink()
    with pytest.raises(codes.CodeFileError, match="is not there"):
        items[0].read()


class _FileDamagedAfterPlan(DedupStage):
    """Someone overwrites the code file between the plan and the workers."""

    def plan(self, store, stats):
        items = super().plan(store, stats)
        self._plan.code_file.wait()
        path = Path(items[0].source.path)
        data = bytearray(path.read_bytes())
        middle = len(data) // 2
        data[middle : middle + 64] = bytes(64)
        path.write_bytes(bytes(data))
        return items


def test_a_damaged_file_fails_its_shards_and_leaves_the_table_as_it_was(tmp_path):
    ws = tmp_path / "ws"
    _fill(ws)
    with Store(ws) as store:
        run(store, DedupConfig())
    before = _table(ws)
    with Store(ws) as store:
        store.insert("units", synthetic.unit_rows(["int changed(void) { return 42; }"]))  # the input changed
        stats = run_stage(_FileDamagedAfterPlan(DedupConfig(shard_size=9, jobs=2)), store)
    assert stats.counts["failed"] >= 1 and stats.counts["not_clustered"] > 0
    assert any("dedup's code file" in e["error"] for e in stats.errors)
    assert _table(ws) == before  # no clusters over codes other than the planned ones
    assert _code_files(ws) == []


def test_verify_jaccard_checks_pairs_against_the_codes_of_the_right_units(tmp_path):
    """--verify-jaccard keeps the codes in the driver (in the store's order): each pair's exact Jaccard must be taken
    from the two units' own codes, whichever order the shards came in."""
    from cotbuilder.dedup import minhash

    ws = tmp_path / "ws"
    _fill(ws)
    with Store(ws) as store:
        run_stage(DedupStage(DedupConfig(shard_size=8, jobs=2, verify_jaccard=True)), store)
        rows = store.rows("SELECT unit_id, representative_id, similarity FROM dedup WHERE method = 'minhash'")
        text = {r["unit_id"]: r["kernel_code"] for r in store.rows("SELECT unit_id, kernel_code FROM units")}
    assert rows
    for r in rows:
        exact = minhash.exact_jaccard(
            minhash.shingle_hashes(tokens.tokens(text[r["unit_id"]]), 5),
            minhash.shingle_hashes(tokens.tokens(text[r["representative_id"]]), 5),
        )
        assert r["similarity"] == round(exact, 4)


def test_a_worker_early_for_its_shard_waits_for_the_file_and_a_failed_write_stops_the_wait(tmp_path, monkeypatch):
    """The driver writes the file while the workers start: a shard read before the file is whole waits for it; a
    write that fails is said to the workers at once (no waiting for a file that will not come)."""
    import threading

    _fill(tmp_path / "ws")
    write, go = codes.write_file, threading.Event()

    def slow_write(*args):
        go.wait(30)
        write(*args)

    monkeypatch.setattr(codes, "write_file", slow_write)
    stage = DedupStage(DedupConfig(shard_size=9))
    with Store(tmp_path / "ws") as store:
        items = stage.plan(store, stats=None)
    path = Path(items[0].source.path)
    assert not path.exists()  # not whole yet: nothing under its name
    threading.Timer(0.5, go.set).start()
    assert len(items[2].read()) == len(items[2])  # waited, then read and checked
    stage._plan.code_file.remove()

    def failing_write(part, *args):
        part.write_bytes(b"ARROW1 half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(codes, "write_file", failing_write)
    stage = DedupStage(DedupConfig(shard_size=9))
    with Store(tmp_path / "ws") as store:
        items = stage.plan(store, stats=None)
    with pytest.raises(codes.CodeFileError, match="could not write dedup's code file .*No space left"):
        items[0].read()
    stage._plan.code_file.remove()
    assert _code_files(tmp_path / "ws") == [] and not list((tmp_path / "ws" / "cache").rglob("codes-*"))
