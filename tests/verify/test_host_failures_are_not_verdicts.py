"""A failure of the host is never a verdict on the kernel: a build that fails because the disk is full, or a sandbox
whose shim never ran, is an infrastructure error (not stored, counted as failed, retried by the next run), not
`failed_compile` / `failed_run`.

The full disk is real: the workspace's sandbox dir is a 250 KiB tmpfs mounted in a private mount namespace
(`unshare --mount`, as root, as on this machine), so the kernel's sources fit and the linker's output does not. The
missing shim is real too: the module's shim path points at a file that does not exist, as in a broken install."""

from __future__ import annotations

import json
import subprocess

from cotbuilder.store import Store
from cotbuilder.verify import diagnostics, sandbox

from .conftest import copy_fixture, verify_in_private_mount
from .unitdir import add_units, unit_from_dir


def _verify_on_a_full_disk(workspace) -> subprocess.CompletedProcess:
    box = workspace / "sandbox"
    box.mkdir(exist_ok=True)
    return verify_in_private_mount(workspace, f"mount -t tmpfs -o size=250k tmpfs {box}", "--jobs", "1")


def test_a_link_that_fails_on_a_full_disk_is_an_infrastructure_error_and_stores_nothing(verify_workspace, tmp_path):
    # a source no other test builds, so the link really runs (no cached binary)
    unit = copy_fixture("tiny_add", tmp_path / "disk_full_add", [("tiny_add.cpp", "\n", "\n// built on a full disk\n")])
    add_units(verify_workspace, unit_from_dir(unit))
    with Store(verify_workspace) as store:
        units_before = store.count("units")
    done = _verify_on_a_full_disk(verify_workspace)
    assert done.returncode != 0, done.stdout + done.stderr
    assert "infrastructure error" in done.stdout + done.stderr
    with Store(verify_workspace) as store:
        assert not store.has_table("verifications") or store.count("verifications") == 0
        assert store.count("units") == units_before
        [run] = store.rows("SELECT errors FROM runs WHERE stage = 'verify'")
    errors = run["errors"] if isinstance(run["errors"], list) else json.loads(run["errors"])
    assert "the host's disk, not the kernel" in errors[0]["error"]


def test_a_kernel_that_only_says_no_space_left_is_still_its_own_compile_error():
    """Hostile: gcc quotes the unit's own #error or source line after `file:line:col:`; only the toolchain's own lines
    (ld, collect2, cc1plus, as) count as the host's disk."""
    faked = (
        "kernel.cpp:3:2: error: #error /usr/bin/ld: final link failed: No space left on device\n"
        '    3 | ld: cannot write: No space left on device"\n'
        "collect2: error: ld returned 1 exit status"
    )
    assert diagnostics.host_disk_error(faked) is None
    real = "/usr/bin/ld: final link failed: No space left on device\ncollect2: error: ld returned 1 exit status"
    assert diagnostics.host_disk_error(real) == "/usr/bin/ld: final link failed: No space left on device"
    assert diagnostics.host_disk_error("cc1plus: fatal error: /w/k.s: No space left on device") is not None


def test_a_sandbox_whose_shim_never_ran_is_a_sandbox_error_not_the_commands_exit(tmp_path, monkeypatch):
    monkeypatch.setenv("COTBUILDER_SANDBOX_ZYGOTE", "0")  # the per-step shim path, the one a missing file breaks
    session = sandbox.open_session(tmp_path / "box", allow_missing=True)
    try:
        ok = sandbox.run(["/bin/true"], session.new_dir("ok-"), sandbox.Limits(), session=session)
        assert ok.outcome == "ok"
        monkeypatch.setattr(sandbox, "SHIM", tmp_path / "not_installed" / "sandbox_shim.py")
        broken = sandbox.run(["/bin/true"], session.new_dir("broken-"), sandbox.Limits(), session=session)
    finally:
        sandbox.close_session(session)
    assert broken.outcome == "sandbox_error", (broken.outcome, broken.reason)
    assert "reported nothing" in broken.reason
