"""`cotbuilder mutate` on a demo unit, verified for real (g++, the emulator, the sandbox), then `push`: a mutant that
still passes is stored and counted but never becomes a repair row; a failing one does, with the verified original as
its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from cotbuilder.mutate import make_mutants
from cotbuilder.store import Store

# sub_tail (examples/kernel_launch): its first rounded-up division is the per-core share, which AlignUp rounds up
# again, so dropping it still covers every element (the mutant passes); losing the per-core GM offset does not.
STILL_PASSES, FAILS = "dropped_tail", "gm_offset"


def _unit(ws: Path, name: str) -> dict:
    with Store(ws) as store:
        return store.rows("SELECT * FROM units WHERE name = ?", [name])[0]


def test_a_mutant_that_still_passes_is_counted_but_never_published_as_a_repair(cli, demo_workspace, tmp_path):
    unit = _unit(demo_workspace, "sub_tail")
    assert {STILL_PASSES, FAILS} <= {m.kind for m in make_mutants(unit)}
    out = cli(
        "mutate", "--unit", unit["unit_id"][:16], "--kind", STILL_PASSES, "--kind", FAILS, "--jobs", "2",
        "--no-progress", workspace=demo_workspace,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    report = out.stdout + out.stderr
    assert "mutants per kind" in report
    with Store(demo_workspace) as store:
        mutants = {m["kind"]: m for m in store.rows("SELECT * FROM mutants WHERE unit_id = ?", [unit["unit_id"]])}
    assert mutants[STILL_PASSES]["status"] == "passed" and not mutants[STILL_PASSES]["really_fails"]
    assert mutants[STILL_PASSES]["rationale"] is None and mutants[STILL_PASSES]["feedback"] is None
    failing = mutants[FAILS]
    assert failing["status"] == "wrong_answer" and failing["really_fails"]
    assert "status: wrong_answer" in failing["feedback"] and failing["before"] in json.dumps(failing["rationale"])

    again = cli("mutate", "--unit", unit["unit_id"][:16], "--no-progress", "--kind", FAILS, workspace=demo_workspace)
    assert again.returncode == 0 and "already verified" in again.stdout + again.stderr  # nothing is rebuilt

    dest = tmp_path / "dataset"
    pushed = cli("push", "--local-dir", str(dest), workspace=demo_workspace)
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    rows = pq.read_table(sorted(dest.glob("data/messages/train-*.parquet"))).to_pylist()
    repairs = [r for r in rows if r["kind"] == "repair" and r["id"] == unit["unit_id"]]
    assert [r["repair"]["mutation"] for r in repairs] == [FAILS]  # the passing mutant is not there
    (row,) = repairs
    assert row["id"] == unit["unit_id"] and row["verification"]["status"] == "passed"
    user, assistant = row["messages"][0]["content"], row["messages"][1]["content"]
    assert failing["broken_code"].strip() in user and "status: wrong_answer" in user
    assert unit["kernel_code"].strip() in assistant  # the fix is the verified unit's own code
    assert failing["after"] in user and failing["after"] not in unit["kernel_code"]

    skipped = cli("push", "--local-dir", str(tmp_path / "no-repairs"), "--no-repairs", workspace=demo_workspace)
    assert skipped.returncode == 0
    plain = pq.read_table(sorted((tmp_path / "no-repairs").glob("data/messages/train-*.parquet"))).to_pylist()
    assert {r["kind"] for r in plain} == {"cot"} and len(plain) == len([r for r in rows if r["kind"] == "cot"])


def test_an_unknown_kind_is_refused_before_anything_runs(cli, workspace):
    out = cli("mutate", "--kind", "off_by_two", workspace=workspace)
    assert out.returncode == 2 and "unknown --kind off_by_two" in out.stdout + out.stderr
