"""The status vocabulary is defined once (schema enum, explained in docs/statuses.md), and what publishing and the
dataset card do with each status follows it."""

from __future__ import annotations

import re
from pathlib import Path

from cotbuilder.publish.card import stage_counts
from cotbuilder.store import Store
from cotbuilder.verify.current import verdict_of
from cotbuilder.verify.verdict import statuses

DOCS = Path(__file__).resolve().parents[2] / "docs" / "statuses.md"


def test_docs_explain_exactly_the_schemas_statuses():
    documented = re.findall(r"^\| `(\w+)` \|", DOCS.read_text(encoding="utf-8"), re.M)
    assert documented == list(statuses())
    assert {"passed", "unchecked", "unsupported", "sandbox_violation"} <= set(statuses())


def _row(status: str, backend: str = "cpu-emulator", when: str = "2026-01-01") -> dict:
    return {"status": status, "backend": backend, "created_at": when, "verification_id": status + backend}


def test_unchecked_neither_publishes_nor_blocks_a_pass_elsewhere():
    assert verdict_of([_row("unchecked")])[0] is False
    assert verdict_of([_row("unchecked"), _row("passed", "npu")])[0] is True
    assert verdict_of([_row("sandbox_violation"), _row("passed", "npu")])[0] is False


def test_the_card_counts_each_unit_once_by_its_deciding_status_and_names_weak_isolation(tmp_path):
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "publish"))
    import records_factory as rf

    with Store(tmp_path / "ws") as store:
        rf.source(store)
        units = [rf.unit(store, f"k{i}", f"kernel {i}") for i in range(4)]
        for uid, status in zip(units, ["passed", "passed", "unchecked", "wrong_answer"], strict=True):
            rf.verification(store, uid, status)
        store.execute(
            'UPDATE verifications SET isolation = \'{"missing": ["memory_cgroup"]}\' WHERE unit_id = ?', [units[0]]
        )
        counts = dict(stage_counts(store))
    assert counts["units whose verification is `passed`"] == "2"
    assert counts["units whose verification is `unchecked`"] == "1"
    assert counts["units whose verification is `wrong_answer`"] == "1"
    assert counts["units verified without full sandbox isolation (`--allow-weak-sandbox`)"] == "1"
