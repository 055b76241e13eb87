"""A benchmark task's test_cases.csv row reaches get_inputs / get_init_inputs typed as the benchmark's framework types
it (pandas, `;`, whole-number numeric columns as int) - not as the CSV's text, which made tasks computing with
`param.get('epsilon')` fail in the reference step (a harness gap, charged to the task)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cotbuilder.verify


def _runner():
    path = Path(cotbuilder.verify.__file__).parent / "data" / "bench_runner.py"
    spec = importlib.util.spec_from_file_location("bench_runner_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_row_values_are_typed_like_the_benchmark_reads_them(tmp_path):
    (tmp_path / "test_cases.csv").write_text(
        "case_id;shape;dtype;epsilon;scale\n0;[4, 8];float16;1e-6;2\n1;[3];float32;0.5;3\n"
    )
    runner = _runner()
    row = runner._row({"row": {"case_id": "1"}, "index": 1}, tmp_path)
    assert row["epsilon"] == 0.5 and isinstance(row["epsilon"], float)
    assert row["scale"] == 3 and not isinstance(row["scale"], str)
    assert row["case_id"] == 1 and row["shape"] == "[3]" and row["dtype"] == "float32"
    assert json.dumps(int(row["scale"])) == "3"
