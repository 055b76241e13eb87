"""kill -9 in the middle of a crawl, run it again: every unit exactly once, nothing half-written (a real generated
corpus large enough that the kill lands midway; no test hooks in the crawler)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from crawl_helpers import crawl, kernel, rows, write_files

N_SOURCES = 10
OPS_PER_SOURCE = 24


def _corpus(root: Path) -> list[str]:
    sources = []
    for s in range(N_SOURCES):
        files = {"LICENSE": "Apache License\nVersion 2.0\n"}
        for k in range(OPS_PER_SOURCE):
            name = f"op_{s}_{k}"
            files[f"{name}/{name}.cpp"] = kernel(name) + f"// variant {s}-{k}\n" * 40
            files[f"{name}/main.cpp"] = f"int main() {{ return {k}; }}\n"
            files[f"{name}/CMakeLists.txt"] = f"project({name})\n"
        write_files(root / f"src{s:02d}", files)
        sources.append(str(root / f"src{s:02d}"))
    return sources


def _invariants(workspace: Path) -> None:
    assert rows(workspace, "SELECT count(*) - count(DISTINCT unit_id) AS d FROM units")[0]["d"] == 0
    orphans = rows(
        workspace, "SELECT count(*) AS n FROM files f LEFT JOIN sources s USING (source_id) WHERE s.fingerprint IS NULL"
    )
    assert orphans[0]["n"] == 0, "a file whose source is not complete was committed"
    dangling = rows(
        workspace,
        "SELECT count(*) AS n FROM (SELECT unnest(from_json(files, '[\"json\"]')) AS m "
        "FROM units) WHERE json_extract_string(m, '$.file_id') IS NOT NULL AND "
        "json_extract_string(m, '$.file_id') NOT IN (SELECT file_id FROM files)",
    )
    assert dangling[0]["n"] == 0, "a unit points at a file that is not stored"
    counts = rows(workspace, "SELECT sum(n_files) AS f, sum(n_units) AS u FROM sources WHERE fingerprint IS NOT NULL")
    assert counts[0]["f"] == rows(workspace, "SELECT count(*) AS n FROM files")[0]["n"]
    assert counts[0]["u"] == rows(workspace, "SELECT count(*) AS n FROM units")[0]["n"]


def test_sigkill_midway_then_rerun_holds_every_unit_exactly_once(tmp_path, cli):
    sources = _corpus(tmp_path / "corpus")
    clean = tmp_path / "clean"
    crawl(clean, sources=sources, jobs=2)
    expected = {k: rows(clean, f"SELECT count(*) AS n FROM {k}")[0]["n"] for k in ("files", "units")}
    assert expected["units"] >= N_SOURCES * OPS_PER_SOURCE

    workspace = tmp_path / "ws"
    args = [sys.executable, "-m", "cotbuilder.cli", "--workspace", str(workspace), "crawl", "--jobs", "1"]
    for s in sources:
        args += ["--source", s]
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    done = 0
    deadline = time.monotonic() + 120
    assert proc.stderr is not None
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        if " units, " in line:  # one source committed
            done += 1
            if done == 2:
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    complete = rows(workspace, "SELECT count(*) AS n FROM sources WHERE fingerprint IS NOT NULL")[0]["n"]
    assert 2 <= complete < N_SOURCES, f"the kill must land midway ({complete} of {N_SOURCES} sources complete)"
    _invariants(workspace)

    again = cli("crawl", "--jobs", "2", *[a for s in sources for a in ("--source", s)], workspace=workspace)
    assert again.returncode == 0, again.stderr
    assert again.stderr.count("unchanged, skipped") == complete
    _invariants(workspace)
    for table, n in expected.items():
        assert rows(workspace, f"SELECT count(*) AS n FROM {table}")[0]["n"] == n
    q = "SELECT unit_id FROM units ORDER BY 1"
    assert rows(workspace, q) == rows(clean, q)
