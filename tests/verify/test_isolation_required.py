"""On a machine that cannot give an isolation feature, `verify` refuses with one clear line (exit 2) and stores
nothing, unless --allow-weak-sandbox is passed; verdicts made that way record what was missing.

The machine without a memory cgroup is real: the CLI runs in a private mount namespace in which the memory cgroup
hierarchy is mounted read-only (`unshare --mount`, as root, as on this machine)."""

from __future__ import annotations

import json
import shutil
import subprocess

from cotbuilder.store import Store

from .conftest import FIXTURES, verify_in_private_mount
from .unitdir import add_units, unit_from_dir


def _without_memory_cgroup(workspace, *args: str) -> subprocess.CompletedProcess:
    return verify_in_private_mount(workspace, "mount -o remount,bind,ro /sys/fs/cgroup/memory", *args)


def test_verify_refuses_without_a_memory_cgroup_and_runs_only_when_allowed(verify_workspace, tmp_path):
    add_units(verify_workspace, unit_from_dir(shutil.copytree(FIXTURES / "tiny_add", tmp_path / "tiny_add")))
    refused = _without_memory_cgroup(verify_workspace)
    assert refused.returncode == 2, (refused.stdout, refused.stderr)
    message = refused.stdout + refused.stderr
    assert "memory cgroup" in message and "--allow-weak-sandbox" in message and len(message.splitlines()) == 1
    with Store(verify_workspace) as store:
        assert not store.has_table("verifications") or store.count("verifications") == 0
    allowed = _without_memory_cgroup(verify_workspace, "--allow-weak-sandbox", "--jobs", "1")
    assert allowed.returncode == 0, (allowed.stdout, allowed.stderr)
    with Store(verify_workspace) as store:
        [row] = store.rows("SELECT status, isolation FROM verifications")
    isolation = row["isolation"] if isinstance(row["isolation"], dict) else json.loads(row["isolation"])
    assert row["status"] == "passed" and isolation == {"missing": ["memory_cgroup"]}
