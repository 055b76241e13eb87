"""Shared fixtures: a fresh workspace, and the CLI run as a user runs it (a real subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
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
