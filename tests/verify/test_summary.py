"""The table verify ends with: per harness kind, units and cases per status, and the top reasons grouped."""

from __future__ import annotations

from cotbuilder.verify.summary import reason_key, table_data


def _row(harness, status, reason=None, cases=2, golden=2):
    return {
        "harness": harness,
        "status": status,
        "reason": reason,
        "cases_run": cases,
        "cases": [{"check": "golden" if i < golden else "none"} for i in range(cases)],
    }


def test_units_cases_and_top_reasons_per_harness_and_status():
    rows = [
        _row("own", "passed"),
        _row("own", "passed"),
        _row("own", "wrong_answer", "seed 0: output/z.bin: 12/512 elements off"),
        _row("own", "wrong_answer", "seed 1: output/z.bin: 3/512 elements off"),
        _row("own", "unchecked", "no golden: the sample checks itself", cases=1, golden=0),
        _row("spec", "failed_compile", "k.cpp:3:1: error: expected ';'", cases=0, golden=0),
        _row(None, "unsupported", "snippet: no harness", cases=0, golden=0),
    ]
    data = table_data(rows)
    assert list(data) == ["none", "own", "spec"]
    own = {line["status"]: line for line in data["own"]}
    assert [line["status"] for line in data["own"]] == ["passed", "wrong_answer", "unchecked"]  # vocabulary order
    assert own["passed"]["units"] == 2 and own["passed"]["cases"] == 4 and own["passed"]["reasons"] == []
    assert own["wrong_answer"]["reasons"] == [("seed N: output/z.bin: N/N elements off", 2)]
    assert own["unchecked"]["cases"] == 1 and own["unchecked"]["cases_golden"] == 0
    assert data["none"][0]["reasons"] == [("snippet: no harness", 1)]


def test_a_reason_key_is_one_line_with_numbers_blanked():
    assert reason_key("kernel: wall-time limit 30s\nmore") == "kernel: wall-time limit Ns"
    assert reason_key(None) == "" and reason_key("   ") == ""
