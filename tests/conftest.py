"""Shared fixtures: a fresh workspace, the CLI run as a user runs it (a real subprocess), and the demo pipeline's
workspace, built once per test run and copied for each test that uses it."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    return ws


def run_cli(
    *args: str,
    workspace: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 600,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `cotbuilder ARGS` in a subprocess (as a user would) and return the completed process."""
    cmd = [sys.executable, "-m", "cotbuilder.cli"]
    if workspace is not None:
        cmd += ["--workspace", str(workspace)]
    full_env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        cmd + list(args), capture_output=True, text=True, timeout=timeout, env=full_env, cwd=cwd or REPO
    )


@pytest.fixture(scope="session")
def cli():
    return run_cli


@dataclass
class DemoRun:
    """`cotbuilder run pipelines/demo.toml` as it went the one time it ran in this test run."""

    workspace: Path  # the shared original: read it, never write it (copy it with the `demo_workspace` fixture)
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture(scope="session")
def run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder shared by every xdist worker of this run (and only this run): the controller's base temp dir."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def shared_verify_cache(run_root: Path) -> Path:
    return run_verify_cache(run_root)


def run_verify_cache(run_root: Path) -> Path:
    """cache/verify shared by every workspace of the run, across xdist workers: the precompiled header is built once
    (ensure_pch holds a file lock, so the other worker waits) and build products are reused. Builds are keyed by
    content and written atomically, so two workers building one key is safe (test_build_cache pins it)."""
    cache = run_root / "verify-cache"
    cache.mkdir(exist_ok=True)
    return cache


def link_run_pch(cache_verify: Path, shared_verify_cache: Path) -> Path:
    """`cache_verify` (a workspace's cache/verify) with the run's precompiled header and runtime library and its own
    builds: the PCH (~9 CPU-s per build) is built once per test run, not once per workspace."""
    shared = shared_verify_cache / "pch"
    shared.mkdir(parents=True, exist_ok=True)
    cache_verify.mkdir(parents=True, exist_ok=True)
    (cache_verify / "pch").symlink_to(shared, target_is_directory=True)
    return cache_verify


@pytest.fixture(scope="session")
def demo_run(run_root: Path) -> DemoRun:
    """The demo pipeline (crawl, verify, annotate, dedup, decontaminate, push on the own corpus), run once per test
    run: the first worker to get here runs it under a file lock, the others wait for it and read its result. Verifying
    the demo corpus is the suite's most expensive step; it is not repeated per worker or per module."""
    root = run_root / "demo-once"
    root.mkdir(parents=True, exist_ok=True)
    done = root / "result.json"
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if this worker dies
        if not done.is_file():
            ws = root / "ws"
            shutil.rmtree(ws, ignore_errors=True)  # a half-built one from a worker that died
            # on the run's build cache: the tests that verify the demo's units again (edited or not) reuse its
            # objects, and each copy of the workspace is a link to it, not 100 MB of builds
            (ws / "cache").mkdir(parents=True)
            (ws / "cache" / "verify").symlink_to(run_verify_cache(run_root), target_is_directory=True)
            res = run_cli("run", str(REPO / "pipelines" / "demo.toml"), workspace=ws, timeout=900)
            done.write_text(json.dumps({"returncode": res.returncode, "stdout": res.stdout, "stderr": res.stderr}))
    result = json.loads(done.read_text())
    return DemoRun(root / "ws", result["returncode"], result["stdout"], result["stderr"])


@pytest.fixture
def demo_workspace(demo_run: DemoRun, tmp_path: Path) -> Path:
    """A private copy of the demo pipeline's workspace (store, cache, published dataset) to read or change."""
    assert demo_run.returncode == 0, demo_run.stdout[-3000:] + demo_run.stderr[-5000:]
    copy = tmp_path / "demo-ws"
    shutil.copytree(demo_run.workspace, copy, symlinks=True)
    return copy
