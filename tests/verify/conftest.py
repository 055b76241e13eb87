"""Verify-stage fixtures: workspaces on the run's build cache (tests/conftest.py: shared_verify_cache)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cotbuilder.verify import build as buildmod
from cotbuilder.verify import steps

from ..conftest import link_run_pch

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def ctx(shared_verify_cache: Path) -> steps.Context:
    """A verify context on the run's build cache, one seed: the op-project and core-build tests call the harnesses
    with it directly."""
    context = steps.Context(cache_dir=shared_verify_cache, python=sys.executable, seeds=(0,))
    context.pch = buildmod.ensure_pch(shared_verify_cache, context.soc, context.opt)
    return context


@pytest.fixture
def fresh_verify_cache(shared_verify_cache: Path, tmp_path: Path) -> Path:
    """An empty build cache that reuses the run's precompiled header (for tests that count what a build compiles)."""
    return link_run_pch(tmp_path / "cache", shared_verify_cache)


def copy_run_pch(shared_verify_cache: Path, cache: Path, opt: str, soc: str = "ascend910b") -> Path:
    """The run's precompiled header and runtime library for (soc, opt) - built once per test run, in the run's build
    cache - copied into `cache` (a workspace's cache/verify) under the same key, where ensure_pch finds it: for tests
    about a cache that holds a PCH of its own, not about building one (a build is ~12 CPU-s)."""
    pch = buildmod.ensure_pch(shared_verify_cache, soc, opt)
    assert pch.header is not None and pch.runtime is not None, pch.error
    folder = cache / "pch" / pch.header.parent.name
    shutil.copytree(pch.header.parent, folder, ignore=shutil.ignore_patterns(".lock"))
    return folder


@pytest.fixture
def verify_workspace(tmp_path, shared_verify_cache) -> Path:
    ws = tmp_path / "ws"
    (ws / "cache").mkdir(parents=True)
    os.symlink(shared_verify_cache, ws / "cache" / "verify")
    return ws


def copy_fixture(name: str, dest: Path, edits: list[tuple[str, str, str]] = ()) -> Path:
    """Copy fixtures/<name> to dest and apply text edits (file, old, new); each `old` must occur."""
    shutil.copytree(FIXTURES / name, dest)
    for rel, old, new in edits:
        path = dest / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"edit target not found in {rel}: {old!r}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    return dest


def verify_in_private_mount(workspace: Path, setup: str, *args: str) -> subprocess.CompletedProcess:
    """`cotbuilder verify ARGS` after the shell command `setup` changed the mounts it sees (a tmpfs, a read-only
    cgroup tree): in its own mount namespace, so the change never reaches the host or the other tests."""
    cli = " ".join([sys.executable, "-m", "cotbuilder.cli", "--workspace", str(workspace), "verify", *args])
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", f"{setup} && exec {cli}"],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "200", "NO_COLOR": "1", "HOME": str(workspace.parent)},
    )
