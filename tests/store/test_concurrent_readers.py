"""Readers (`cotbuilder status`, `cotbuilder query`, a read-only Store) while another process writes the store.

The writer here is a real second process running a tight loop of transactions on the real store, each replacing the
whole `sources` table by one batch of BATCH rows: a reader that saw part of a transaction would see a row count other
than BATCH, or rows of two batches at once.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cotbuilder.store import Store, StoreError, utcnow

BATCH = 40

WRITE_LOOP = r"""
import sys, time
from pathlib import Path
from cotbuilder.store import Store, utcnow
workspace, stop = sys.argv[1], Path(sys.argv[2])
with Store(workspace) as store:
    i = 0
    while not stop.exists():
        rows = [{"source_id": f"{i:032x}{j:032x}", "kind": "local", "url": f"batch-{i}/{j}", "status": "ok",
                 "crawled_at": utcnow()} for j in range(BATCH)]
        with store.transaction():
            store.execute("DELETE FROM sources")
            store.insert("sources", rows)
        i += 1
        if i == 1:
            print("first batch committed", flush=True)
    print(f"batches {i}", flush=True)
""".replace("BATCH", str(BATCH))


@pytest.fixture
def write_loop(workspace, tmp_path):
    stop = tmp_path / "stop"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITE_LOOP, str(workspace), str(stop)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "first batch committed"
    yield proc
    stop.touch()
    proc.communicate(timeout=60)
    assert proc.returncode == 0


def _one_whole_batch(rows: list[dict]) -> None:
    assert len(rows) == BATCH, f"saw {len(rows)} rows: part of a transaction"
    assert len({r["url"].split("/")[0] for r in rows}) == 1, "saw rows of two batches at once"


def test_readers_see_whole_batches_while_another_process_commits_in_a_loop(workspace, write_loop, cli):
    seen_batches = set()
    for _ in range(15):
        with Store(workspace, read_only=True) as store:
            rows = store.rows("SELECT url FROM sources")
        _one_whole_batch(rows)
        seen_batches.add(rows[0]["url"].split("/")[0])
        time.sleep(0.02)
    assert len(seen_batches) > 5, "the writer must have kept committing between the reads"

    res = cli("query", "SELECT url FROM sources", "--json", workspace=workspace)
    assert res.returncode == 0, res.stderr
    _one_whole_batch([json.loads(line) for line in res.stdout.splitlines()])

    status = cli("status", workspace=workspace)
    assert status.returncode == 0, status.stderr
    assert re.search(rf"│ sources\s*│ {BATCH}\s*│", status.stdout), status.stdout


def test_status_names_the_stage_that_is_writing(workspace, write_loop, cli):
    res = cli("status", workspace=workspace)
    assert res.returncode == 0, res.stderr
    assert f"running: pid {write_loop.pid}" in res.stdout


def test_a_second_writer_is_refused_at_once_with_the_first_ones_command(workspace, write_loop):
    start = time.monotonic()
    with pytest.raises(StoreError, match=rf"another cotbuilder process is writing .* \(pid {write_loop.pid}: "):
        Store(workspace)
    assert time.monotonic() - start < 5


def test_a_writer_in_this_process_lets_a_reader_in_while_it_idles(workspace):
    with Store(workspace) as writer:
        writer.insert("sources", [_source(1)])
        reader_done = []
        # A read-only Store in the same process needs the writer's connection closed (another DuckDB mode): the idle
        # release gives it.
        with Store(workspace, read_only=True, wait_s=10) as reader:
            reader_done.append(reader.count("sources"))
        writer.insert("sources", [_source(2)])
        assert reader_done == [1] and writer.count("sources") == 2


def test_a_reader_that_waits_past_its_deadline_gets_one_clear_error(workspace, tmp_path):
    Store(workspace).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True); time.sleep(60)",
            str(workspace / "store.duckdb"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        start = time.monotonic()
        with pytest.raises(StoreError, match="stayed in use by another process for 0.5 s"):
            Store(workspace, read_only=True, wait_s=0.5)
        assert time.monotonic() - start < 5
    finally:
        holder.kill()
        holder.wait()


def _source(i: int) -> dict:
    return {"source_id": f"{i:064x}", "kind": "local", "url": f"/src{i}", "status": "ok", "crawled_at": utcnow()}


def test_readers_marker_folder_is_left_empty(workspace, write_loop):
    for _ in range(3):
        with Store(workspace, read_only=True) as store:
            store.count("sources")
    markers = Path(str(workspace / "store.duckdb") + ".readers")
    assert not markers.exists() or not any(markers.iterdir())
