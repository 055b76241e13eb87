"""`kill -9` of a running `cotbuilder verify`: its sandboxes die with it, and the next run removes what it left (its
sandbox dirs under the workspace and its cgroups), found by the dead run's own record, not by guessing names."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from .unitdir import add_units, unit_from_dir

SLEEPER = (
    "#include <unistd.h>\n#include <cstdio>\n"
    'int main() { fork(); std::puts("sleeping"); std::fflush(stdout); sleep(120); return 0; }\n'
)


def _sandbox_processes(workspace: Path, command: str = "") -> list[int]:
    """Processes whose working directory is a sandbox dir of this workspace (and whose command line has `command`)."""
    found = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            if os.readlink(f"/proc/{pid}/cwd").startswith(str(workspace / "sandbox")):
                if command in Path(f"/proc/{pid}/cmdline").read_text():
                    found.append(int(pid))
        except OSError:
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie is dead, only not reaped yet by the host's init


def test_a_verify_killed_with_sigkill_leaves_no_process_cgroup_or_dir_after_the_next_run(verify_workspace, tmp_path):
    folder = tmp_path / "sleeper"
    folder.mkdir()
    (folder / "main.cpp").write_text(SLEEPER)
    add_units(verify_workspace, unit_from_dir(folder))
    cmd = [sys.executable, "-m", "cotbuilder.cli", "--workspace", str(verify_workspace), "verify"]
    proc = subprocess.Popen(
        [*cmd, "--jobs", "2", "--wall-seconds", "300", "--cpu-seconds", "300"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and len(_sandbox_processes(verify_workspace, "cotbuilder_kernel")) < 2:
            time.sleep(0.2)
        running = _sandbox_processes(verify_workspace, "cotbuilder_kernel")
        assert len(running) >= 2, "the sleeper (and its child) never started"
        [run_dir] = list((verify_workspace / "sandbox").iterdir())
        owner = json.loads((run_dir / "owner.json").read_text())
        assert owner["cgroups"] and all(Path(c).is_dir() for c in owner["cgroups"])
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    killed_at = time.monotonic()
    # the workers die with the run, the shims with the workers (no wall-time limit needed); a dying process can
    # already have lost its cwd while /proc still shows it running, so both are waited for
    while (_sandbox_processes(verify_workspace) or any(_alive(pid) for pid in running)) and (
        time.monotonic() - killed_at < 10
    ):
        time.sleep(0.1)
    assert _sandbox_processes(verify_workspace) == []
    assert not [pid for pid in running if _alive(pid)]
    assert run_dir.exists()  # left behind until the next run
    nxt = subprocess.run([*cmd, "--limit", "0"], capture_output=True, text=True, timeout=120)
    assert nxt.returncode == 0, nxt.stderr
    assert not run_dir.exists() and list((verify_workspace / "sandbox").iterdir()) == []
    assert not any(Path(c).exists() for c in owner["cgroups"])
