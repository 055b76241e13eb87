"""`push --docs`: grounded doc samples (`cotbuilder apidocs` on the doc tree written in tests/apidocs) as kind=doc
rows with their source URL, under the docs' licence; and the row schema still demands a passed verification of
every kernel row."""

from __future__ import annotations

import copy

import pyarrow.parquet as pq
import pytest

from cotbuilder import records
from cotbuilder.store import Store

from .doc_tree import write_tree

URL = "https://docs.example.org/api/"


def _rows(folder):
    return pq.read_table(sorted(folder.glob("data/messages/train-*.parquet"))).to_pylist()


def test_grounded_doc_samples_are_published_with_their_url_only_when_asked_and_licensed(cli, demo_workspace, tmp_path):
    docs = write_tree(tmp_path / "docs")
    assert cli("apidocs", "--docs", str(docs), "--url", URL, "--no-progress", workspace=demo_workspace).returncode == 0
    with Store(demo_workspace) as store:  # one page's sample made ungrounded: the gate's verdict is what push reads
        store.execute("UPDATE api_docs SET grounded = false WHERE path LIKE '%Scale.md'")

    plain = cli("push", "--local-dir", str(tmp_path / "plain"), workspace=demo_workspace)
    assert plain.returncode == 0 and {r["kind"] for r in _rows(tmp_path / "plain")} == {"cot"}

    unlicensed = cli("push", "--local-dir", str(tmp_path / "nolic"), "--docs", workspace=demo_workspace)
    assert unlicensed.returncode == 0
    assert "5 sample(s): doc licence not allowed" in unlicensed.stdout + unlicensed.stderr
    assert not [r for r in _rows(tmp_path / "nolic") if r["kind"] == "doc"]

    out = cli(
        "push", "--local-dir", str(tmp_path / "docs-out"), "--docs", "--allow-cann-license", workspace=demo_workspace
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 sample(s): doc sample not grounded" in out.stdout + out.stderr
    doc = [r for r in _rows(tmp_path / "docs-out") if r["kind"] == "doc"]
    assert len(doc) == 5 and all(r["source_url"].startswith(URL) and r["lang"] == "zh" for r in doc)
    assert all(r["verification"]["status"] == "not_run" and r["contamination"]["verdict"] == "not_checked" for r in doc)
    assert not [r for r in doc if r["source_url"].endswith("Scale.md")]


def test_a_kernel_row_must_still_be_passed_and_checked_against_the_benchmarks(demo_workspace):
    from cotbuilder.publish import rows as rowmod
    from cotbuilder.publish.select import publishable

    with Store(demo_workspace) as store:
        picked, _ = publishable(store, ["Apache-2.0"])
        (row, *_), _ = rowmod.build_rows(store, picked[:1], "messages")
    records.validate("dataset_row", row)
    for change in (
        lambda r: r["verification"].update(status="not_run"),
        lambda r: r["contamination"].update(verdict="not_checked"),
        lambda r: r["contamination"].update(benchmarks=[]),
    ):
        bad = copy.deepcopy(row)
        change(bad)
        with pytest.raises(records.RecordError):
            records.validate("dataset_row", bad)
    doc = {**copy.deepcopy(row), "kind": "doc"}
    with pytest.raises(records.RecordError):
        records.validate("dataset_row", doc)  # a doc row without its source URL
