"""Hostile code is stopped by the sandbox and the way it was stopped is named.

Every case is bounded twice: by the sandbox limit under test and by a small wall-time limit, so a limit that fails to
hold cannot take the machine down (the fork bomb is capped at 16 processes by the pids cgroup).
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest

from cotbuilder.verify import sandbox

SMALL = sandbox.Limits(cpu_s=2, wall_s=8, memory_mb=512, nproc=16, file_mb=1)


@pytest.fixture
def workdir():
    wd = sandbox.new_workdir("test-")
    yield wd
    import shutil

    shutil.rmtree(wd, ignore_errors=True)


def py(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_this_machine_enforces_namespaces_and_a_process_limit():
    caps = sandbox.capabilities()
    assert caps.net_ns and caps.mount_ns and caps.drop_caps, caps.notes
    assert caps.cgroup_root or not caps.root, caps.notes


def test_well_behaved_command_runs_in_its_own_dir_with_home_there(workdir):
    res = sandbox.run(["sh", "-c", "echo data > f.txt && cat f.txt && echo $HOME && pwd"], workdir, SMALL)
    assert res.ok, res.stderr
    assert res.stdout.split() == ["data", str(workdir), str(workdir)]


def test_environment_is_not_inherited(workdir, monkeypatch):
    monkeypatch.setenv("COTBUILDER_TEST_SECRET", "s3cr3t")
    res = sandbox.run(["env"], workdir, SMALL)
    assert res.ok and "s3cr3t" not in res.stdout


def test_infinite_loop_is_stopped_by_the_cpu_limit(workdir):
    res = sandbox.run(py("while True: pass"), workdir, SMALL)
    assert res.outcome == "timeout" and "CPU" in res.reason
    assert res.wall_s < SMALL.wall_s


def test_sleeping_forever_is_stopped_by_the_wall_limit(workdir):
    res = sandbox.run(["sleep", "60"], workdir, sandbox.Limits(cpu_s=2, wall_s=1, nproc=16))
    assert res.outcome == "timeout" and "wall" in res.reason and res.wall_s < 5


def test_giant_allocation_fails_with_the_memory_limit(workdir):
    res = sandbox.run(py("x = bytearray(8 * 1024**3)"), workdir, SMALL)
    assert res.outcome == "limit" and res.reason == "memory limit"


def test_fork_bomb_is_capped_and_named(workdir):
    code = "import os, time\nwhile True:\n    os.fork()\n"
    res = sandbox.run(py(code), workdir, SMALL)
    assert res.outcome == "violation" and res.reason == "process limit"
    # every process of the run is gone afterwards
    leftovers = [
        p
        for p in os.listdir("/proc")
        if p.isdigit() and _cmdline(p).startswith(sys.executable + "\0-c\0import os, time")
    ]
    assert leftovers == []


def _cmdline(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return ""


def test_writing_to_the_real_home_and_tmp_is_blocked(workdir):
    home_target = Path(os.path.expanduser("~")) / f"cotbuilder-sandbox-escape-{os.getpid()}"
    tmp_target = Path("/tmp") / f"cotbuilder-sandbox-escape-{os.getpid()}"
    for target in (home_target, tmp_target):
        res = sandbox.run(py(f"open({str(target)!r}, 'w').write('x')"), workdir, SMALL)
        assert res.outcome == "violation" and res.reason == "write outside sandbox", res.stderr
        assert not target.exists()


def test_output_file_size_is_capped(workdir):
    res = sandbox.run(py("open('big', 'wb').write(b'0' * (4 << 20))"), workdir, SMALL)
    assert res.outcome == "limit" and "output size" in res.reason
    assert (workdir / "big").stat().st_size <= 1 << 20


def test_stdout_capture_is_capped(workdir):
    res = sandbox.run(
        py("import sys; sys.stdout.write('y' * 600000)"),
        workdir,
        sandbox.Limits(cpu_s=5, wall_s=8, nproc=16, capture_bytes=1000),
    )
    assert res.ok and len(res.stdout) < 1100 and res.stdout.endswith("[... output capped]")


def test_socket_to_a_live_local_server_is_unreachable(workdir):
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    try:
        res = sandbox.run(
            py(f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3)"), workdir, SMALL
        )
        server.setblocking(False)
        with pytest.raises(BlockingIOError):  # nothing ever reached the listening server
            server.accept()
    finally:
        server.close()
    assert res.outcome == "violation" and res.reason == "network access", res.stderr


def test_cannot_remount_or_regain_privileges(workdir):
    res = sandbox.run(["sh", "-c", "mount -o remount,rw / 2>&1; touch /tmp/cotbuilder-remount-probe"], workdir, SMALL)
    assert not res.ok
    assert not Path("/tmp/cotbuilder-remount-probe").exists()
