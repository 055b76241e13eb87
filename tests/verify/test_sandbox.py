"""Hostile code is stopped by the sandbox and the way it was stopped is named.

Every case is bounded twice: by the sandbox limit under test and by a small wall-time limit, so a limit that fails to
hold cannot take the machine down (the fork bomb is capped at 16 processes by the pids cgroup).
"""

from __future__ import annotations

import os
import re
import socket
import sys
import threading
from pathlib import Path

import pytest

from cotbuilder.verify import sandbox

SMALL = sandbox.Limits(cpu_s=2, wall_s=8, memory_mb=512, nproc=16, file_mb=1)


@pytest.fixture
def workdir():
    wd = sandbox.default_session().new_dir("test-")
    yield wd
    sandbox.remove_tree(wd)


def py(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_this_machine_enforces_every_isolation_feature():
    caps = sandbox.capabilities()
    assert caps.missing == [], caps.notes
    assert {c.kind for c in caps.controllers} >= {"memory"} or {c.kind for c in caps.controllers} == {"v2"}


def test_well_behaved_command_runs_in_its_own_dir_with_home_there(workdir):
    res = sandbox.run(["sh", "-c", "echo data > f.txt && cat f.txt && echo $HOME && pwd"], workdir, SMALL)
    assert res.ok, res.stderr
    assert res.stdout.split() == ["data", str(workdir), str(workdir)]


def test_environment_is_not_inherited(workdir, monkeypatch):
    monkeypatch.setenv("COTBUILDER_TEST_SECRET", "s3cr3t")
    res = sandbox.run(["env"], workdir, SMALL)
    assert res.ok and "s3cr3t" not in res.stdout


def test_infinite_loop_is_stopped_by_the_cpu_limit(workdir):
    limits = sandbox.Limits(cpu_s=1, wall_s=120, memory_mb=512, nproc=16)  # a loaded machine gives it little CPU
    res = sandbox.run(py("while True: pass"), workdir, limits)
    assert res.outcome == "timeout" and "CPU" in res.reason, res
    assert res.wall_s < limits.wall_s


def test_sleeping_forever_is_stopped_by_the_wall_limit(workdir):
    res = sandbox.run(["sleep", "60"], workdir, sandbox.Limits(cpu_s=2, wall_s=1, nproc=16))
    assert res.outcome == "timeout" and "wall" in res.reason and res.wall_s < 5


def _hogs_on_cpu0(n: int) -> list:
    """n busy processes pinned to CPU 0 (each ends by itself after 60 s if the test dies)."""
    import subprocess

    code = (
        "import time, os  # a hog\nos.sched_setaffinity(0, {0})\nend = time.time() + 60\nwhile time.time() < end: pass"
    )
    # each in a session of its own: with autogroup scheduling, hogs sharing one session would share one CPU share
    return [subprocess.Popen(py(code), start_new_session=True) for _ in range(n)]


def test_a_step_starved_of_cpu_by_the_host_is_not_a_timeout_but_a_sleeping_one_still_is(workdir):
    """The wall limit stops a step that does not finish, not one a busy host starves: a kernel that needs 1 s of CPU,
    pinned to a core three busy processes share with it (it gets ~1/4: ~4 s of wall), finishes under a 3 s wall limit
    because it still gets CPU each second. A step that sleeps on the same busy core uses none and is stopped at it."""
    hogs = _hogs_on_cpu0(3)
    try:
        code = (
            "import time, os  # starved\nos.sched_setaffinity(0, {0})\nt = time.process_time()\n"
            "while time.process_time() - t < 1.0: pass\nprint('done')"
        )
        res = sandbox.run(py(code), workdir, sandbox.Limits(cpu_s=5, wall_s=3, memory_mb=512, nproc=16))
        assert res.ok and res.stdout.strip() == "done", res
        assert res.wall_s > 3, f"the step was not starved ({res.wall_s:.1f} s): the test proves nothing"
        res = sandbox.run(["taskset", "-c", "0", "sleep", "60"], workdir, sandbox.Limits(cpu_s=2, wall_s=1, nproc=16))
        assert res.outcome == "timeout" and "wall" in res.reason and res.wall_s < 5, res
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def test_a_step_that_keeps_using_some_cpu_forever_is_stopped_at_the_stretched_wall_limit(workdir):
    """Hostile: a step that never ends but spins half the time (so it is never "not using the CPU") and stays far
    under its CPU limit. The stretch of a starved step must not let it run on: it ends at STARVED_STRETCH x the wall
    limit, as a timeout."""
    code = "import time\nwhile True:\n    t = time.process_time()\n    while time.process_time() - t < 0.05: pass\n    time.sleep(0.05)"
    res = sandbox.run(py(code), workdir, sandbox.Limits(cpu_s=60, wall_s=1, memory_mb=512, nproc=16))
    assert res.outcome == "timeout" and "wall" in res.reason, res
    assert sandbox.STARVED_STRETCH * 1 <= res.wall_s < sandbox.STARVED_STRETCH * 1 + 3, res.wall_s


def test_giant_allocation_fails_with_the_memory_limit(workdir):
    res = sandbox.run(py("x = bytearray(8 * 1024**3)"), workdir, SMALL)
    assert res.outcome == "limit" and res.reason == "memory limit"


def test_several_processes_together_over_the_memory_limit_are_stopped(workdir):
    """Four processes of 200 MB each: every one is under the per-process address-space limit (512 MB), together
    they are over the step's memory cgroup (512 MB) - the cgroup, not RLIMIT_AS, stops them."""
    code = (
        "import os, time\n"
        "for _ in range(3):\n"
        "    if os.fork() == 0: break\n"
        "b = bytearray(200 * 1024 * 1024)\n"
        "for i in range(0, len(b), 4096): b[i] = 1\n"
        "time.sleep(3)\n"
    )
    res = sandbox.run(py(code), workdir, sandbox.Limits(cpu_s=5, wall_s=20, memory_mb=512, nproc=16))
    assert res.outcome == "limit" and "memory limit" in res.reason and "together" in res.reason, (res, res.stderr)


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


def test_a_daemon_left_running_is_killed_and_named(workdir):
    marker = f"cotbuilder-daemon-{os.getpid()}"
    code = (
        "import os, sys, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        sys.argv[0] = {marker!r}\n"
        "        time.sleep(30)\n"
        "    os._exit(0)\n"
        "print('parent done')\n"
    )
    res = sandbox.run(py(code), workdir, SMALL)
    # 2 when the middle process is caught between its fork and its exit
    assert res.outcome == "violation" and re.search(r"left [12] process\(es\) running", res.reason), (
        res.reason,
        res.stderr,
    )
    assert res.wall_s < 5  # not waited for
    assert not [p for p in os.listdir("/proc") if p.isdigit() and marker in _cmdline(p)]


def test_a_daemon_hopping_from_pid_to_pid_is_still_named(workdir):
    """A daemon that forks and exits over and over is at a new pid by the time its /proc entry is read; counting it
    needs everything stopped first (with a plain /proc scan it came out `ok` in about half the runs, hence five)."""
    code = "import os\nif os.fork() == 0:\n    os.setsid()\n    while True:\n        if os.fork():\n            os._exit(0)\n"
    for _ in range(5):
        res = sandbox.run(py(code), workdir, SMALL)
        assert res.outcome == "violation", (res.outcome, res.reason, res.stderr)
        assert "left" in res.reason or "process limit" in res.reason, res.reason


def test_no_other_process_is_visible(workdir):
    """A PID namespace per run: /proc lists the init and the command only, never a sibling or the host."""
    res = sandbox.run(
        py("import os; print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))"), workdir, SMALL
    )
    assert res.ok, res.stderr
    assert res.stdout.strip() == "[1, 2]"


def test_host_files_outside_the_view_cannot_be_read(workdir, tmp_path):
    secret = Path.home() / f".cotbuilder-test-token-{os.getpid()}"
    secret.write_text("hf_secretsecretsecret")
    try:
        code = (
            f"import os\nfor p in ['/etc/shadow', {str(secret)!r}, {str(tmp_path)!r}]:\n"
            "    try:\n        print(p, open(p).read()[:20])\n"
            "    except OSError as e:\n        print(p, type(e).__name__)\n"
            "print(sorted(os.listdir(os.path.expanduser('~'))))\n"
        )
        res = sandbox.run(py(code), workdir, SMALL)
    finally:
        secret.unlink()
    assert res.ok, res.stderr
    assert "hf_secret" not in res.stdout and "FileNotFoundError" in res.stdout
    assert "/etc/shadow FileNotFoundError" in res.stdout


def test_a_step_reads_the_folders_it_is_shown_but_cannot_write_into_them(workdir, tmp_path):
    """Compile steps are shown the PCH folder read-only. A step that could write there could plant the harness PCH,
    which is built lazily after units have run (build.ensure_harness_pch), or replace the runtime library every
    later unit links: a sibling taken over. The step sees the library, and neither write lands."""
    pch = tmp_path / "pch"
    pch.mkdir()
    (pch / "libcbemu.a").write_bytes(b"real")
    code = (
        f"import os\nprint('read', open(os.path.join({str(pch)!r}, 'libcbemu.a')).read())\n"
        "for name in ['cotbuilder_harness_pch.h.gch', 'libcbemu.a']:\n"
        f"    try:\n        open(os.path.join({str(pch)!r}, name), 'wb').write(b'planted')\n"
        "        print(name, 'written')\n"
        "    except OSError as e:\n        print(name, type(e).__name__)\n"
    )
    res = sandbox.run(py(code), workdir, SMALL, ro_paths=[str(pch)])
    assert "read real" in res.stdout, res.stdout + res.stderr
    assert "written" not in res.stdout, res.stdout
    assert sorted(p.name for p in pch.iterdir()) == ["libcbemu.a"] and (pch / "libcbemu.a").read_bytes() == b"real"


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


def test_a_write_python_survives_is_still_the_output_size_limit_and_a_generator_hitting_it_is_unsupported(workdir):
    """Python ignores SIGXFSZ, so numpy's tofile fails with its own words ('N requested and M written') and the
    program exits 1: the file cut at the limit is what names the limit. A unit's data generator that needs more room
    than a step gets is a gap of cotbuilder (unsupported), a kernel over it is a failed run."""
    from cotbuilder.verify import steps

    code = "import numpy as np; np.zeros(1 << 20, dtype=np.float32).tofile('big.bin')"
    res = sandbox.run(py(code), workdir, SMALL)
    assert "requested and" in res.stderr and res.returncode == 1, res.stderr
    assert res.outcome == "limit" and res.reason == "output size limit 1 MB"
    assert steps.stopped(res, "generator") == (
        "unsupported",
        "generator writes a file over the sandbox's output size limit 1 MB",
    )
    assert steps.stopped(res, "kernel")[0] == "failed_run"
    # a program that fails for its own reason, below the limit, is not said to have hit it
    (workdir / "big.bin").unlink()
    small = sandbox.run(py("open('f', 'wb').write(b'0' * 1000); raise SystemExit(1)"), workdir, SMALL)
    assert small.outcome == "exit" and steps.stopped(small, "generator")[0] == "failed_run"


def test_a_step_that_fills_a_file_to_the_limit_and_writes_outside_is_the_violation_not_the_limit(workdir):
    """Hostile: a generator at the output limit is `unsupported` (no verdict), so one that also tries to escape must
    not hide its escape behind the limit."""
    outside = Path("/tmp") / f"cotbuilder-limit-escape-{os.getpid()}"
    code = f"open('big', 'wb').write(b'0' * (1 << 20)); open({str(outside)!r}, 'w')"
    res = sandbox.run(py(code), workdir, SMALL)
    assert (workdir / "big").stat().st_size == 1 << 20  # at the limit: what alone would be the output size limit
    assert res.outcome == "violation" and res.reason == "write outside sandbox", (res.outcome, res.reason)
    assert not outside.exists()


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


def test_unix_domain_sockets_of_the_host_are_unreachable(workdir, tmp_path):
    """A listening path socket and an abstract socket on the host: neither is reached, and the attempt is named."""
    path = tmp_path / "host.sock"
    servers = []
    for address in (str(path), f"\0cotbuilder-test-{os.getpid()}"):
        s = socket.socket(socket.AF_UNIX)
        s.bind(address)
        s.listen()
        s.setblocking(False)
        servers.append(s)
    try:
        for address in (str(path), f"\0cotbuilder-test-{os.getpid()}"):
            res = sandbox.run(py(f"import socket; socket.socket(socket.AF_UNIX).connect({address!r})"), workdir, SMALL)
            assert res.outcome == "violation" and res.reason == "UNIX-domain socket", res.stderr
        for s in servers:
            with pytest.raises(BlockingIOError):
                s.accept()
    finally:
        for s in servers:
            s.close()


def test_cannot_remount_or_regain_privileges(workdir):
    res = sandbox.run(["sh", "-c", "mount -o remount,rw / 2>&1; touch /tmp/cotbuilder-remount-probe"], workdir, SMALL)
    assert not res.ok
    assert not Path("/tmp/cotbuilder-remount-probe").exists()


def test_two_runs_at_once_cannot_see_each_other(tmp_path):
    """Siblings: run A waits; run B looks for A in /proc and tries A's work dir through /proc/<pid>/cwd."""
    session = sandbox.default_session()
    a_dir, b_dir = session.new_dir("a-"), session.new_dir("b-")
    (a_dir / "checker.py").write_text("print('honest')\n")
    results = {}
    t = threading.Thread(target=lambda: results.update(a=sandbox.run(["sleep", "2"], a_dir, SMALL)))
    t.start()
    code = (
        "import os, glob\n"
        "found = [p for p in glob.glob('/proc/[0-9]*/cwd') if os.path.exists(os.path.join(p, 'checker.py'))]\n"
        f"print('found', found, os.path.exists({str(a_dir / 'checker.py')!r}))\n"
    )
    b = sandbox.run(py(code), b_dir, SMALL)
    t.join()
    assert b.ok, b.stderr
    assert b.stdout.strip() == "found [] False"
    assert (a_dir / "checker.py").read_text() == "print('honest')\n"


def test_a_session_removes_its_dirs_and_cgroups_and_the_next_one_cleans_a_dead_runs(tmp_path):
    base = tmp_path / "sandbox"
    session = sandbox.open_session(base)
    assert session.root.is_dir() and oct(base.stat().st_mode & 0o777) == "0o700"
    assert all(Path(c.parent).is_dir() for c in session.controllers)
    sandbox.close_session(session)
    assert not session.root.exists() and not any(Path(c.parent).exists() for c in session.controllers)
    # a "dead" run: its record and cgroups exist, nobody holds its lock
    dead = base / "20200101T000000-1-abcdef"
    dead.mkdir()
    (dead / "owner.lock").write_text("")
    cgroups = [Path(c.parent) / f"cotbuilder-{dead.name}" for c in sandbox.capabilities().controllers]
    for cg in cgroups:
        cg.mkdir()
    import json

    (dead / "owner.json").write_text(json.dumps({"pid": 1, "cgroups": [str(c) for c in cgroups]}))
    (dead / "unit-x").mkdir()
    live = sandbox.open_session(base)
    try:
        assert not dead.exists() and not any(cg.exists() for cg in cgroups)
    finally:
        sandbox.close_session(live)


def test_a_step_whose_cgroup_cannot_be_made_does_not_run_and_says_why(tmp_path):
    """The session's cgroup vanishes under it (another process cleaned it up): a step must not then run with only
    rlimits while its verdict would claim the cgroup limits - it does not start, and the reason names the cgroup."""
    session = sandbox.open_session(tmp_path / "sandbox")
    try:
        assert session.controllers, "this machine has cgroups (test above)"
        Path(session.controllers[0].parent).rmdir()
        wd = session.new_dir("step-")
        res = sandbox.run(["sh", "-c", "touch ran"], wd, SMALL, session=session)
        assert res.outcome == "sandbox_error" and "cgroup" in res.reason, res
        assert not (wd / "ran").exists()
        assert not [p for c in session.controllers[1:] for p in Path(c.parent).iterdir() if p.is_dir()]
    finally:
        sandbox.close_session(session)
