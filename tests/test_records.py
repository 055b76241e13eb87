"""Record validation: the compiled check (fastjsonschema) and the column-at-a-time check of many rows never pass a
record that jsonschema, the judge, refuses; a refused record gets jsonschema's message."""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
from pathlib import Path
from typing import Any

import jsonschema
import polars as pl
import pytest

from cotbuilder import records
from cotbuilder.store import TABLES, Store, json_safe_row, utcnow
from cotbuilder.tasks.toml_loader import load_folder

_REPLACEMENTS: list[Any] = [None, True, 0, -1, 1.5, float("nan"), "", "x", "0" * 64, "0" * 64 + "\n", [], {}, ["x"]]


def _judge(kind: str, record: dict[str, Any]) -> bool:
    schema = records.schema_of(kind)
    return jsonschema.validators.validator_for(schema)(schema).is_valid(record)


def _passes(kind: str, record: dict[str, Any]) -> bool:
    try:
        records.validate(kind, record)
    except records.RecordError:
        return False
    return True


def _mutants(value: Any, depth: int = 0):
    """The record with one value replaced, one key dropped or one unknown key added, down to depth 3."""
    if depth > 3:
        return
    if isinstance(value, dict):
        yield {**value, "zz_unknown": 1}
        for key in value:
            yield {k: v for k, v in value.items() if k != key}
            for new in _REPLACEMENTS:
                yield {**value, key: new}
            for inner in _mutants(value[key], depth + 1):
                yield {**value, key: inner}
    elif isinstance(value, list) and value:
        yield []
        for new in _REPLACEMENTS[:6]:
            yield [new, *value[1:]]
        for inner in _mutants(value[0], depth + 1):
            yield [inner, *value[1:]]


def _demo_records(workspace) -> list[tuple[str, dict[str, Any]]]:
    out = []
    with Store(workspace, read_only=True) as store:
        for table, spec in TABLES.items():
            if not store.has_table(table):
                continue
            for row in store.rows(f"SELECT * FROM {table} ORDER BY ALL LIMIT 3"):
                out.append((spec.kind, json_safe_row({k: v for k, v in row.items() if v is not None})))
    # the demo run stores no tasks: the task kind is checked on the project's own task files
    tasks, errors = load_folder(Path(__file__).parent.parent / "examples" / "tasks")
    assert tasks and not errors, errors
    out += [("task", json_safe_row(t.record(utcnow()))) for t in tasks[:3]]
    step = {"step": "operator_analysis", "title": "What it computes", "text": "y = x + 1 over 8192 halfs."}
    out.append(("teacher_response", {"task": "Add one to every element.", "rationale": [step]}))
    return out


def test_compiled_validation_passes_exactly_what_jsonschema_passes_on_every_kind(demo_run):
    checked = set()
    for kind, record in _demo_records(demo_run.workspace):
        assert _judge(kind, record), (kind, record)
        assert _passes(kind, record)
        for mutant in _mutants(copy.deepcopy(record)):
            assert _passes(kind, mutant) == _judge(kind, mutant), (kind, mutant)
        checked.add(kind)
    # every table's kind, and the task schema's local $defs refs (which once made the compiled check fail every task)
    assert len(checked) >= 10 and "task" in checked, checked


def test_a_refused_record_gets_jsonschemas_message():
    with pytest.raises(records.RecordError, match=r"invalid dedup record at method: 'copied' is not one of"):
        records.validate("dedup", {**_dedup_rows(1)[0], "method": "copied", "created_at": "2026-01-01T00:00:00"})


def _dedup_rows(n: int) -> list[dict[str, Any]]:
    now = dt.datetime(2026, 1, 1)
    rows = []
    for i in range(n):
        h = hashlib.sha256(str(i).encode()).hexdigest()
        rows.append(
            {
                "unit_id": h,
                "cluster_id": h,
                "cluster_size": 1 + i % 3,
                "is_representative": i % 2 == 0,
                "method": ["unique", "exact", "minhash"][i % 3],
                "similarity": None if i % 5 == 0 else 0.5 + i % 5 / 10,
                "representative_id": h,
                "code_hash": h,
                "config_hash": "c",
                "input_hash": "i",
                "created_at": now,
            }
        )
    return rows


_FRAME_MUTATIONS = [
    ("unit_id", "not a hash"),
    (
        "unit_id",
        "0" * 64 + "\n",
    ),  # Python's `$` matches before a final newline: valid, though the column check doubts it
    ("method", "copied"),
    ("cluster_size", 0),
    ("similarity", 1.5),
    ("similarity", None),
    ("config_hash", None),
    ("is_representative", None),
]


@pytest.mark.parametrize(("column", "value"), _FRAME_MUTATIONS)
def test_validate_frame_refuses_a_frame_exactly_when_one_row_is_refused_with_that_rows_message(column, value):
    rows = _dedup_rows(40)
    rows[17] = {**rows[17], column: value}
    frame = pl.DataFrame(rows, schema_overrides={"similarity": pl.Float64, "cluster_size": pl.Int64}, strict=False)
    expected = None
    for row in rows:
        try:
            records.validate("dedup", json_safe_row(row))
        except records.RecordError as exc:
            expected = str(exc)
            break
    if expected is None:
        records.validate_frame("dedup", frame)
    else:
        with pytest.raises(records.RecordError) as caught:
            records.validate_frame("dedup", frame)
        assert str(caught.value) == expected


def test_validate_frame_checks_every_row_whose_properties_it_cannot_check_by_column():
    """`skipped` is a list of objects: every row goes through `validate`, and a bad item inside one is caught."""
    good = {
        "source_id": "1" * 64,
        "kind": "local",
        "url": "/x",
        "status": "ok",
        "skipped": [{"path": "a.cpp", "reason": "binary"}],
        "crawled_at": dt.datetime(2026, 1, 1),
    }
    records.validate_frame("source", pl.DataFrame([good, good]))
    bad = {**good, "skipped": [{"path": "a.cpp", "reason": None}]}
    with pytest.raises(records.RecordError, match="skipped/0/reason"):
        records.validate_frame("source", pl.DataFrame([good, bad]))
