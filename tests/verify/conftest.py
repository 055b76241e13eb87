"""Verify-stage fixtures: a session-wide build cache (the precompiled header is built once per test session)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def shared_verify_cache(tmp_path_factory) -> Path:
    """cache/verify shared by every workspace of the session: PCH and build products are reused across tests."""
    return tmp_path_factory.mktemp("verify-cache")


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
