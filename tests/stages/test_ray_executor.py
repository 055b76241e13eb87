"""The Ray executor on a real local Ray cluster (2 CPUs, started once per test run, see conftest.py): the same stages
give the same results as on the local executor, a worker lost mid-task is retried and its item committed once, a
driver killed mid-run resumes from the store."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # stage_kit
import stage_kit  # noqa: E402
from stage_kit import AsyncKit, KitConfig, ListedStage  # noqa: E402

from cotbuilder.stages.base import StageRefused  # noqa: E402
from cotbuilder.stages.driver import run_stage  # noqa: E402
from cotbuilder.stages.executors import Done, Failed  # noqa: E402
from cotbuilder.stages.ray_executor import RayExecutor, RayUnavailable, ray_options  # noqa: E402
from cotbuilder.store import Store  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def ray_kit(ray_address):
    """The test kit's stages travel to Ray workers by value (the workers cannot import the tests folder)."""
    import ray.cloudpickle

    ray.cloudpickle.register_pickle_by_value(stage_kit)
    return RayExecutor(ray_address, poll_s=0.05)


def _outcomes(executor, stage, items):
    events = list(executor.run(stage, items))
    done = {items[e.index]: e.result for e in events if isinstance(e, Done)}
    failed = {items[e.index]: e.error for e in events if isinstance(e, Failed)}
    return done, failed


def test_work_runs_in_ray_worker_processes_and_every_result_streams_back(ray_kit):
    items = [f"i{k}" for k in range(12)]
    done, failed = _outcomes(ray_kit, stage_kit.PoolStage(KitConfig()), items)
    assert failed == {} and sorted(done) == sorted(items)
    assert os.getpid() not in {r["pid"] for r in done.values()}


def test_a_task_whose_worker_is_killed_is_retried_and_committed_once(ray_kit, workspace, tmp_path):
    markers = tmp_path / "attempts"
    markers.mkdir()
    stage = ListedStage(KitConfig(die_once_on=["x", "y"], marker_dir=str(markers)))
    with Store(workspace) as store:
        stats = run_stage(stage, store, executor=ray_kit)
    committed = [item for batch in stage.batches for item in batch]
    assert sorted(committed) == ["a", "b", "c", "d", "e", "x", "y"]  # each item once, the retried ones too
    assert stats.counts["kept"] == 7 and stats.counts["failed"] == 0
    for item in ("x", "y"):  # the first attempt's worker died; a second process did it
        pids = (markers / item).read_text().split()
        assert len(pids) == 2 and pids[0] != pids[1]


def test_an_item_that_kills_every_worker_it_gets_fails_alone(ray_address):
    import ray.cloudpickle

    ray.cloudpickle.register_pickle_by_value(stage_kit)
    executor = RayExecutor(ray_address, poll_s=0.05, max_retries=1)
    done, failed = _outcomes(executor, stage_kit.PoolStage(KitConfig(die_on=["boom"])), ["a", "boom", "b"])
    assert sorted(done) == ["a", "b"]
    assert list(failed) == ["boom"] and "worker died" in failed["boom"] and "2 times" in failed["boom"]


def test_work_that_raises_fails_its_item_with_the_error_and_is_not_retried(ray_kit, tmp_path):
    done, failed = _outcomes(ray_kit, stage_kit.PoolStage(KitConfig(raise_on=["bad"])), ["a", "bad", "b"])
    assert sorted(done) == ["a", "b"]
    assert failed["bad"].startswith("ValueError: bad item bad")


def test_an_async_stage_runs_on_one_actor_with_its_workers_in_flight(ray_kit, workspace):
    stage = AsyncKit(KitConfig(jobs=4, sleep_s=0.2, raise_on=["req3"]))
    results = []
    stage.commit = lambda store, batch, stats: (results.extend(batch), stats.kept(len(batch)))
    with Store(workspace) as store:
        stats = run_stage(stage, store, executor=ray_kit)
    assert stats.counts["kept"] == 11 and stats.counts["failed"] == 1
    assert "ConnectionError: server hung up on req3" in stats.errors[0]["error"]
    assert stats.counts["requests_sent"] == 12  # the actor's teardown counts reach the driver
    pids = {r.split("@")[1].split(":")[0] for r in results}
    assert len(pids) == 1 and str(os.getpid()) not in pids  # one actor process, not the driver
    assert max(int(r.split(":")[1]) for r in results) == 4  # `workers()` calls at once on its loop


def test_npu_verification_asks_ray_for_an_npu_and_a_cluster_without_one_refuses_it(ray_kit):
    """No NPU exists here: what is tested is the resource request a verify task makes (one `NPU`, Ray's resource
    name for Ascend devices, plus a core and the sandbox's memory) and that a cluster without that resource refuses
    the stage in one line instead of leaving its tasks pending forever."""
    from cotbuilder.verify.stage import VerifyConfig, VerifyStage

    npu = ray_options(VerifyStage(VerifyConfig(device="npu:0", memory_mb=2048)))
    assert npu["resources"] == {"NPU": 1.0} and npu["num_cpus"] == 1.0 and npu["memory"] == 2048 * 2**20
    assert npu["max_retries"] >= 1 and npu["retry_exceptions"] is False
    assert "resources" not in ray_options(VerifyStage(VerifyConfig(device="cpu")))

    wants_npu = stage_kit.PoolStage(KitConfig(resources={"CPU": 1.0, "NPU": 1.0}))
    with pytest.raises(RayUnavailable, match="NPU 1 \\(cluster has 0\\)"):
        _outcomes(ray_kit, wants_npu, ["a"])
    assert issubclass(RayUnavailable, StageRefused)  # the verb exits 2 with that line


def test_a_ray_node_that_cannot_isolate_as_the_run_records_fails_every_unit_before_running_one(ray_kit, tmp_path):
    """The driver's check() spoke for its own machine; a Ray worker checks its node against the run's sandbox
    session in setup(). Here the session is one from "another node": its directory and cgroup do not exist here."""
    from cotbuilder.verify import sandbox
    from cotbuilder.verify.stage import VerifyConfig, VerifyStage

    stage = VerifyStage(VerifyConfig(device="cpu"))
    stage.session = sandbox.Session(
        "elsewhere",
        tmp_path / "not-on-this-node",
        (sandbox.Controller("v2", str(tmp_path / "no-such-cgroup")),),
        frozenset(sandbox.FEATURES),
    )
    done, failed = _outcomes(ray_kit, stage, ["unit-1", "unit-2"])  # work() would fail on these: it is never reached
    assert done == {} and sorted(failed) == ["unit-1", "unit-2"]
    for error in failed.values():
        assert "worker setup failed" in error and "IsolationMissing" in error
        assert "cannot isolate as the verify run records" in error
        assert "not-on-this-node" in error and "no-such-cgroup" in error


def test_the_verbs_take_the_executor_option_and_refuse_bad_values(cli, workspace):
    bad = cli("dedup", "--executor", "slurm", workspace=workspace)
    assert bad.returncode == 2 and "--executor must be one of local, ray" in bad.stderr
    stray = cli("dedup", "--ray-address", "127.0.0.1:1", workspace=workspace)
    assert stray.returncode == 2 and "--ray-address is for --executor ray" in stray.stderr
    assert not (workspace / "store.duckdb").exists()  # refused before the store was opened


# -- the demo on Ray -------------------------------------------------------------------------------------------------
def fingerprint(workspace: Path) -> dict[str, list]:
    """Units, verdicts, annotation content, dedup clusters and contamination verdicts (no timings, no `runs` rows)."""

    def h(value) -> str:
        return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]

    with Store(workspace, read_only=True) as store:
        q = store.rows
        return {
            "units": sorted(
                (r["unit_id"], r["name"], r["layout"], r["category"])
                for r in q("SELECT unit_id, name, layout, category FROM units")
            ),
            "verdicts": sorted(
                (r["unit_id"], r["status"], r["harness"])
                for r in q("SELECT unit_id, status, harness FROM verifications")
            ),
            "annotations": sorted(
                (r["unit_id"], r["lang"], r["kind"], r["status"], h([r["task"], r["rationale"]]))
                for r in q("SELECT unit_id, lang, kind, status, task, rationale FROM annotations")
            ),
            "dedup": sorted(
                (r["unit_id"], r["cluster_id"], r["is_representative"])
                for r in q("SELECT unit_id, cluster_id, is_representative FROM dedup")
            ),
            "contamination": sorted(
                (r["unit_id"], r["verdict"]) for r in q("SELECT unit_id, verdict FROM contamination")
            ),
        }


def _cmdline(pid: int | str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _run_work(workspace: str, driver: int) -> set[int]:
    """The processes doing the run's work now: the sandboxed steps (their command lines name the workspace's sandbox
    dir) and the Ray workers that started them (their parents), not the driver."""
    steps = {int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != driver and workspace in _cmdline(p)}
    parents = set()
    for pid in steps:
        try:
            parents.add(int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]))
        except (OSError, IndexError, ValueError):
            continue
    return steps | {pid for pid in parents if _cmdline(pid).startswith("ray::")}


def _cli_cmd(workspace: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "cotbuilder.cli", "--workspace", str(workspace), *args]


# its time includes the local demo run (shared by the tests that compare with it) when it is the first to ask for it
@pytest.mark.timeout(900)
def test_demo_on_ray_killed_mid_verify_resumes_and_equals_the_local_run(demo_run, ray_address, cli, tmp_path):
    """crawl on Ray; verify on Ray, its driver SIGKILLed once it has committed results; then the whole recipe on
    Ray: it resumes (crawl unchanged, verify only what was not committed) and every stage's result equals the
    local run's. The Ray workspace starts with the local run's build cache (what a user who moves a workspace to a
    cluster has): every generator, kernel and check still runs on the Ray workers, only the g++ runs
    that would give the same binaries are saved (the test took 4 minutes with them)."""
    assert demo_run.returncode == 0, demo_run.stderr[-3000:]
    ws = tmp_path / "ray-ws"
    (ws / "cache").mkdir(parents=True)  # the local run's build cache (the test run's, shared: a link, not a copy)
    (ws / "cache" / "verify").symlink_to((demo_run.workspace / "cache" / "verify").resolve(), target_is_directory=True)
    # and its statement cache (content-keyed, like the builds): annotate derives statements in the driver, not on Ray
    statements = (demo_run.workspace / "cache" / "statements").resolve()
    (ws / "cache" / "statements").symlink_to(statements, target_is_directory=True)
    ray_opts = ("--executor", "ray", "--ray-address", ray_address)
    crawl = cli("crawl", "--manifest", "demo", *ray_opts, workspace=ws)
    assert crawl.returncode == 0, crawl.stderr[-3000:]

    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.Popen(
        _cli_cmd(ws, "verify", "--jobs", "2", "--no-progress", *ray_opts),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    deadline = time.monotonic() + 600
    while proc.poll() is None and time.monotonic() < deadline:  # until verify has committed a first batch
        with Store(ws, read_only=True) as store:  # a reader gets in between the writer's transactions
            if store.scalar("SELECT count(*) FROM verifications"):
                break
        time.sleep(0.3)
    assert proc.poll() is None, "verify ended before it could be killed: " + proc.stderr.read().decode()[-3000:]
    working = _run_work(str(ws), proc.pid)
    # a moment between two units has no build running: catch one that has (up to 30 s: on a loaded machine Ray's
    # scheduling of the next unit can take seconds)
    for _ in range(300):
        if working:
            break
        time.sleep(0.1)
        working = _run_work(str(ws), proc.pid)
    assert working, "no build or kernel of the run was seen running"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 60  # Ray ends a dead driver's job: its workers, and the sandboxes they ran
    while (alive := [pid for pid in working if Path(f"/proc/{pid}").exists()]) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not alive, f"the killed run's work outlived it: {[_cmdline(pid)[:120] for pid in alive]}"

    with Store(ws, read_only=True) as store:
        committed = store.scalar("SELECT count(*) FROM verifications")
        total = store.scalar("SELECT count(*) FROM units")
    assert 0 < committed < total

    rest = cli("run", str(REPO / "pipelines" / "demo.toml"), *ray_opts, workspace=ws, timeout=900)
    assert rest.returncode == 0, rest.stdout[-3000:] + rest.stderr[-5000:]
    with Store(ws, read_only=True) as store:
        resumed = store.rows(
            "SELECT counts FROM runs WHERE stage = 'verify' AND status = 'ok' ORDER BY started_at DESC LIMIT 1"
        )[0]["counts"]
    assert resumed["skipped"] == committed and resumed["kept"] == total - committed

    assert fingerprint(ws) == fingerprint(demo_run.workspace)
