"""The local executor: a process pool for CPU-bound work (a dying worker costs only its item; workers die with the
driver), an event loop for I/O-bound work, the driver's own process for one item or a DRIVER stage."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # stage_kit, importable by the pool's worker processes
from stage_kit import AsyncKit, InDriverStage, KitConfig, PoolStage  # noqa: E402

from cotbuilder.stages.driver import run_stage  # noqa: E402
from cotbuilder.stages.executors import Done, Failed, LocalExecutor  # noqa: E402
from cotbuilder.store import Store  # noqa: E402

HERE = Path(__file__).resolve().parent


def outcomes(stage, items):
    events = list(LocalExecutor(poll_s=0.05).run(stage, items))
    done = {items[e.index]: e.result for e in events if isinstance(e, Done)}
    failed = {items[e.index]: e.error for e in events if isinstance(e, Failed)}
    return done, failed


def test_pool_runs_work_in_other_processes_and_streams_every_result_back():
    done, failed = outcomes(PoolStage(KitConfig(jobs=2)), ["a", "b", "c", "d", "e"])
    assert failed == {} and sorted(done) == ["a", "b", "c", "d", "e"]
    pids = {r["pid"] for r in done.values()}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2


def test_a_worker_that_dies_costs_its_item_only_after_one_retry():
    done, failed = outcomes(PoolStage(KitConfig(jobs=2, die_on=["boom"])), ["a", "boom", "b", "c"])
    assert sorted(done) == ["a", "b", "c"]
    assert list(failed) == ["boom"] and "worker died" in failed["boom"]


def test_work_that_raises_fails_its_item_with_the_error_and_the_rest_goes_on():
    for jobs in (1, 2):  # in the driver's process and on the pool
        done, failed = outcomes(PoolStage(KitConfig(jobs=jobs, raise_on=["bad"])), ["a", "bad", "b"])
        assert sorted(done) == ["a", "b"]
        assert "ValueError: bad item bad" in failed["bad"]


def test_one_worker_or_a_driver_stage_runs_in_the_driver_process():
    done, _ = outcomes(PoolStage(KitConfig(jobs=1)), ["a", "b"])
    assert {r["pid"] for r in done.values()} == {os.getpid()}
    done, _ = outcomes(InDriverStage(KitConfig(jobs=4)), ["a", "b", "c"])
    assert {r["pid"] for r in done.values()} == {os.getpid()}


def test_async_stage_keeps_workers_requests_in_flight_on_one_event_loop(workspace):
    stage = AsyncKit(KitConfig(jobs=4, sleep_s=0.05, raise_on=["req3"]))
    with Store(workspace) as store:
        stats = run_stage(stage, store)
    assert stage.most_in_flight == 4 and len(stage.thread_ids) == 1
    assert stats.counts["kept"] == 11 and stats.counts["failed"] == 1
    assert "ConnectionError: server hung up on req3" in stats.errors[0]["error"]
    assert stats.counts["requests_sent"] == 12  # the worker's own counts, from teardown


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")  # a zombie has exited; only its parent's wait is missing


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_sigkill_of_the_driver_leaves_no_worker_process_behind(tmp_path):
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    proc = subprocess.Popen([sys.executable, str(HERE / "orphan_driver.py"), str(tmp_path / "ws"), str(pid_dir)])
    try:
        deadline = time.monotonic() + 60
        while len(list(pid_dir.iterdir())) < 2 and time.monotonic() < deadline:
            assert proc.poll() is None, "the driver ended early"
            time.sleep(0.1)
        workers = [int(p.name) for p in pid_dir.iterdir()]
        assert len(workers) == 2 and all(_alive(pid) for pid in workers)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 15
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    survivors = [pid for pid in workers if _alive(pid)]
    for pid in survivors:  # do not leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert survivors == [], "pool workers outlived the killed driver"
