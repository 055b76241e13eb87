"""The README's main command: the whole flow offline on the demo corpus, then a re-run that costs nothing.

The pipeline itself runs once per test run (the `demo_run` fixture in tests/conftest.py); these tests read it or work
on a copy of its workspace."""

from __future__ import annotations

import json
from pathlib import Path

from cotbuilder.store import Store

REPO = Path(__file__).resolve().parents[2]


def _q(workspace: Path, sql: str):
    with Store(workspace, read_only=True) as store:
        return store.rows(sql)


def test_demo_pipeline_runs_every_stage_and_publishes(demo_run):
    workspace, first = demo_run.workspace, demo_run
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-5000:]
    stages = {r["stage"] for r in _q(workspace, "SELECT DISTINCT stage FROM runs")}
    assert stages >= {"crawl", "annotate", "verify", "dedup", "decontaminate", "push"}
    units = _q(workspace, "SELECT layout, count(*) AS n FROM units GROUP BY layout")
    by_layout = {r["layout"]: r["n"] for r in units}
    assert by_layout.get("kernel_launch", 0) >= 16 and by_layout.get("op_project", 0) >= 6
    passed = _q(
        workspace,
        "SELECT count(DISTINCT v.unit_id) AS n FROM verifications v JOIN units u USING (unit_id) "
        "WHERE v.status = 'passed' AND u.layout = 'kernel_launch'",
    )[0]["n"]
    assert passed == by_layout["kernel_launch"]
    shards = list((workspace / "dataset" / "data").rglob("*.parquet"))
    assert shards, "push wrote no parquet shard"
    assert (workspace / "dataset" / "README.md").is_file()
    assert "pipeline demo" in first.stderr  # the closing summary table


def test_demo_rerun_does_no_new_work(demo_workspace, cli):
    workspace = demo_workspace
    before = _q(
        workspace,
        "SELECT (SELECT count(*) FROM units) u, (SELECT count(*) FROM annotations) a, "
        "(SELECT count(*) FROM verifications) v",
    )[0]
    again = cli("run", str(REPO / "pipelines" / "demo.toml"), workspace=workspace, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    after = _q(
        workspace,
        "SELECT (SELECT count(*) FROM units) u, (SELECT count(*) FROM annotations) a, "
        "(SELECT count(*) FROM verifications) v",
    )[0]
    assert after == before
    last = _q(
        workspace,
        "SELECT stage, counts FROM runs QUALIFY row_number() OVER (PARTITION BY stage ORDER BY started_at DESC) = 1",
    )
    kept = {r["stage"]: r["counts"].get("kept", 0) for r in last if r["stage"] in ("annotate", "verify", "crawl")}
    assert kept == {"crawl": 0, "annotate": 0, "verify": 0}, json.dumps(kept)


def test_explore_notebook_executes_on_the_demo_dataset(demo_workspace, tmp_path):
    """CI executes notebooks/explore.ipynb against the dataset the demo pipeline published."""
    import os

    import nbformat
    from nbclient import NotebookClient

    workspace = demo_workspace
    nb = nbformat.read(REPO / "notebooks" / "explore.ipynb", as_version=4)
    env_before = dict(os.environ)
    os.environ["COTBUILDER_DATASET"] = str(workspace / "dataset")
    os.environ["COTBUILDER_WORKSPACE"] = str(workspace)
    try:
        NotebookClient(
            nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
        ).execute()
    finally:
        os.environ.clear()
        os.environ.update(env_before)
    # a cell's stdout is one text: under load the kernel may flush one printed line in several stream messages
    # (nbclient does not coalesce them by default), so chunks are joined as they came, stderr left out
    outputs = "\n".join(
        "".join(o.get("text", "") for o in c.get("outputs", []) if o.get("name") == "stdout")
        for c in nb.cells
        if c.cell_type == "code"
    )
    (line,) = [ln for ln in outputs.splitlines() if ln.startswith("summary: ")]
    summary = json.loads(line.removeprefix("summary: "))
    # What the notebook computed must be what the dataset and the store hold, read here another way.
    import collections

    import pyarrow.parquet as pq

    shards = sorted((workspace / "dataset" / "data").rglob("*.parquet"))
    rows = [r for shard in shards for r in pq.read_table(shard).to_pylist()]
    assert summary["rows"] == len(rows) > 0
    assert summary["categories"] == dict(collections.Counter(r["category"] for r in rows))
    assert summary["licences"] == dict(collections.Counter(r["provenance"]["license"] for r in rows))
    assert summary["verdicts"] == {"clean": len(rows)}
    with Store(workspace, read_only=True) as store:
        statuses = {
            r["status"]: r["n"] for r in store.rows("SELECT status, count(*) AS n FROM verifications GROUP BY 1")
        }
    assert summary["store_verifications"] == statuses and statuses.get("passed", 0) >= len(rows)
