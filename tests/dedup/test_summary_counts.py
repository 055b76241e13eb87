"""Dedup's stats table counts what its `dedup` table holds: a member counts by how it joined its representative."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from cotbuilder.dedup import synthetic
from cotbuilder.dedup.stage import DedupConfig, run
from cotbuilder.store import Store


def _factory():
    spec = importlib.util.spec_from_file_location(
        "cb_records_factory", Path(__file__).resolve().parents[1] / "publish" / "records_factory.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_summary_counts_agree_with_the_table_when_the_representative_is_not_the_first_copy(tmp_path):
    """Two exact copies (a, b) and a renamed near copy (c) that is verified, so c represents the cluster: a and b
    joined c by MinHash, not each other exactly, and the summary must say so (it used to count one exact duplicate
    the table did not have)."""
    f = _factory()
    rng = random.Random(11)
    base = synthetic.base_kernel(rng)
    with Store(tmp_path / "ws") as store:
        f.source(store)
        f.unit(store, "a_copy", base)
        f.unit(store, "b_reformatted", synthetic.reformat(base, rng))
        rep = f.unit(store, "c_renamed", synthetic.rename(base, rng))
        f.unit(store, "d_other", synthetic.base_kernel(rng))
        f.unit(store, "e_other_copy_1", (other := synthetic.base_kernel(rng)))
        f.unit(store, "f_other_copy_2", other + "\n// the same code again\n")
        f.verification(store, rep, "passed")
        stats = run(store, DedupConfig())
        table = store.rows(
            "SELECT count(*) AS units, count(DISTINCT cluster_id) AS clusters, "
            "count(*) FILTER (is_representative) AS kept, count(*) FILTER (NOT is_representative) AS skipped, "
            "count(*) FILTER (NOT is_representative AND method = 'exact') AS exact_duplicates, "
            "count(*) FILTER (NOT is_representative AND method = 'minhash') AS minhash_duplicates FROM dedup"
        )[0]
    counted = {k: stats.counts[k] for k in table}
    assert counted == table
    assert table == {"units": 6, "clusters": 3, "kept": 3, "skipped": 3, "exact_duplicates": 1, "minhash_duplicates": 2}
