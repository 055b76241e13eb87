"""The sandbox's warm zygote (sandbox_zygote.py): a Python step runs in a fork of it exactly as `python script.py`
would, confined the same way, and nothing a step does to its copy reaches the zygote, the next step, or the parent.

Each test that relies on the in-process path first checks the step really ran there (numpy already imported before
the script's first line): a test that silently fell back to a fresh interpreter could not fail.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from cotbuilder.verify import sandbox

SMALL = sandbox.Limits(cpu_s=5, wall_s=20, memory_mb=1024, nproc=32, file_mb=1)
IN_ZYGOTE = "import sys\nassert 'numpy' in sys.modules, 'not run in the zygote'\n"


@pytest.fixture
def workdir():
    wd = sandbox.default_session().new_dir("zygote-")
    yield wd
    sandbox.remove_tree(wd)


def script(workdir: Path, name: str, text: str) -> list[str]:
    (workdir / name).write_text(text)
    return [sys.executable, name]


def both_ways(argv: list[str], workdir: Path, monkeypatch) -> tuple[sandbox.SandboxResult, sandbox.SandboxResult]:
    """The same step through the zygote and through a fresh shim + interpreter (the switch, as the benchmark uses)."""
    warm = sandbox.run(argv, workdir, SMALL)
    monkeypatch.setenv(sandbox.ZYGOTE_SWITCH, "0")
    cold = sandbox.run(argv, workdir, SMALL)
    monkeypatch.delenv(sandbox.ZYGOTE_SWITCH)
    return warm, cold


def same_end(a: sandbox.SandboxResult, b: sandbox.SandboxResult) -> None:
    assert (a.outcome, a.reason, a.returncode, a.stdout, a.stderr) == (
        b.outcome,
        b.reason,
        b.returncode,
        b.stdout,
        b.stderr,
    )


def test_a_python_step_ends_as_it_would_in_a_fresh_interpreter(workdir, monkeypatch):
    cases = {
        "argv.py": "import os, sys\nprint(sys.argv, sys.path[0] == os.getcwd(), sorted(dir()), __name__)\n",
        "raises.py": "def f():\n    raise ValueError('an error in the generator')\nf()\n",
        "syntax.py": "x = (\n",
        "exits.py": "import sys\nsys.exit('a message')\n",
        "exit7.py": "raise SystemExit(7)\n",
        "thread.py": "import threading, time\nthreading.Thread(target=lambda: (time.sleep(0.2), print('joined'))).start()\n",
        "atexit_.py": "import atexit\natexit.register(lambda: print('bye'))\n",
    }
    for name, text in cases.items():
        warm, cold = both_ways(script(workdir, name, text), workdir, monkeypatch)
        same_end(warm, cold)
    warm, _ = both_ways(script(workdir, "check.py", IN_ZYGOTE), workdir, monkeypatch)
    assert warm.ok, warm.stderr


def test_tampering_with_numpy_builtins_or_threads_does_not_reach_the_next_step(workdir):
    tamper = IN_ZYGOTE + (
        "import builtins, os, threading, time, numpy\n"
        "numpy.add = lambda *a, **k: 42\n"
        "numpy.random.seed = lambda *a, **k: None\n"
        "numpy.tampered = True\n"
        "builtins.open = None\n"
        "os.environ['TAMPERED'] = '1'\n"
        "sys.modules['json'] = None\n"
        "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
    )
    assert sandbox.run(script(workdir, "tamper.py", tamper), workdir, SMALL).ok
    check = IN_ZYGOTE + (
        "import builtins, io, json, os, threading, numpy\n"
        "assert int(numpy.add(1, 2)) == 3 and not hasattr(numpy, 'tampered')\n"
        "assert builtins.open is io.open and 'TAMPERED' not in os.environ\n"
        "assert threading.active_count() == 1, threading.enumerate()\n"
        "assert len(os.listdir('/proc/self/task')) == 1\n"
        "print('clean')\n"
    )
    res = sandbox.run(script(workdir, "check.py", check), workdir, SMALL)
    assert res.ok and res.stdout.strip() == "clean", res.stderr


def test_unseeded_generators_get_fresh_numbers_in_every_step(workdir):
    argv = script(workdir, "draw.py", IN_ZYGOTE + "import numpy, random\nprint(numpy.random.rand(), random.random())\n")
    draws = {sandbox.run(argv, workdir, SMALL).stdout for _ in range(3)}
    assert len(draws) == 3, draws


def test_a_step_holds_no_fd_of_the_zygote_and_cannot_reach_it(workdir):
    probe = IN_ZYGOTE + (
        "import os, socket\n"
        "fds = sorted(int(f) for f in os.listdir('/proc/self/fd'))\n"
        "open_fds = []\n"
        "for fd in range(3, 256):\n"
        "    try:\n"
        "        os.fstat(fd)\n"
        "        open_fds.append(fd)\n"
        "    except OSError:\n"
        "        pass\n"
        "print(open_fds)\n"
        "procs = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "print(sorted(procs, key=int))\n"
        "try:\n"
        "    socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)\n"
        "    print('unix socket made')\n"
        "except OSError as exc:\n"
        "    print('refused', exc.errno)\n"
    )
    res = sandbox.run(script(workdir, "probe.py", probe), workdir, SMALL)
    assert res.ok, res.stderr
    fds, procs, sock = res.stdout.splitlines()
    assert fds == "[]"  # only stdin, stdout, stderr: no socket, no status pipe, nothing of the zygote
    assert procs == "['1', '2']"  # the init and the step: the zygote is not in its PID namespace
    assert sock.startswith("refused")
    assert sandbox.run(script(workdir, "after.py", IN_ZYGOTE), workdir, SMALL).ok  # the zygote still serves


def test_the_zygote_never_sees_the_parents_environment(workdir, monkeypatch):
    sandbox._close_zygote()
    monkeypatch.setenv("COTBUILDER_TEST_SECRET", "s3cr3t-token")
    res = sandbox.run(
        script(
            workdir, "env.py", IN_ZYGOTE + "print(open('/proc/self/environ', 'rb').read().decode(errors='replace'))\n"
        ),
        workdir,
        SMALL,
    )
    assert res.ok, res.stderr
    assert "s3cr3t" not in res.stdout
    zygote = sandbox._the_zygote()
    assert zygote is not None
    assert b"s3cr3t" not in Path(f"/proc/{zygote.proc.pid}/environ").read_bytes()


def test_a_unit_module_named_like_a_preloaded_one_is_imported_as_in_a_fresh_interpreter(workdir, monkeypatch):
    (workdir / "numpy.py").write_text("VALUE = 'the unit numpy'\n")
    warm, cold = both_ways(script(workdir, "gen.py", "import numpy\nprint(numpy.VALUE)\n"), workdir, monkeypatch)
    same_end(warm, cold)
    assert warm.stdout.strip() == "the unit numpy"


def test_an_in_process_step_is_stopped_by_the_wall_and_cpu_limits_and_leaves_nothing(workdir):
    sleeper = script(workdir, "sleep.py", IN_ZYGOTE + "import time\ntime.sleep(60)\n")
    res = sandbox.run(sleeper, workdir, sandbox.Limits(cpu_s=5, wall_s=1, nproc=32))
    assert res.outcome == "timeout" and "wall" in res.reason and res.wall_s < 10
    spin = script(workdir, "spin.py", IN_ZYGOTE + "while True:\n    pass\n")
    res = sandbox.run(spin, workdir, sandbox.Limits(cpu_s=1, wall_s=120, nproc=32))
    assert res.outcome == "timeout" and "CPU" in res.reason, res
    daemon = script(workdir, "daemon.py", IN_ZYGOTE + "import os, time\nif os.fork() == 0:\n    time.sleep(60)\n")
    res = sandbox.run(daemon, workdir, SMALL)
    assert res.outcome == "violation" and "left 1 process" in res.reason, res


def test_a_dead_zygote_is_replaced_and_one_killed_mid_step_gives_a_sandbox_error(workdir):
    argv = script(workdir, "ok.py", IN_ZYGOTE)
    assert sandbox.run(argv, workdir, SMALL).ok
    first = sandbox._the_zygote()
    os.kill(first.proc.pid, signal.SIGKILL)
    first.proc.wait()
    assert sandbox.run(argv, workdir, SMALL).ok  # a new zygote started
    second = sandbox._the_zygote()
    assert second is not first and second.proc.poll() is None

    import threading

    killer = threading.Timer(1.0, os.kill, (second.proc.pid, signal.SIGKILL))
    killer.start()
    start = time.monotonic()
    res = sandbox.run(script(workdir, "long.py", IN_ZYGOTE + "import time\ntime.sleep(30)\n"), workdir, SMALL)
    killer.join()
    assert res.outcome == "sandbox_error" and "zygote" in res.reason, res
    assert time.monotonic() - start < 15  # the step died with its zygote (die-with-parent), it did not run on
    sandbox._zygote_deaths = 0
    assert sandbox.run(argv, workdir, SMALL).ok


def test_the_home_of_a_killed_processs_zygote_is_removed_by_the_next_one(tmp_path):
    """A process SIGKILLed while its zygote runs cannot clean up; the next zygote started on the machine removes the
    home of an owner that is gone, and never one whose owner still runs (this process's own)."""
    import subprocess
    import tempfile

    killed = subprocess.run(
        [sys.executable, "-c",
         "import os, signal, sys\nfrom cotbuilder.verify import sandbox\n"
         "wd = sandbox.default_session().new_dir('z-')\nopen(wd / 's.py', 'w').write('print(1)')\n"
         "assert sandbox.run([sys.executable, 's.py'], wd).ok\n"
         "print(sandbox._zygotes[()][1].home, flush=True)\nos.kill(os.getpid(), signal.SIGKILL)\n"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    orphan = Path(killed.stdout.strip())
    assert orphan.is_dir() and orphan.parent == Path(tempfile.gettempdir())
    ours = Path(tempfile.mkdtemp(prefix=f"{sandbox.ZYGOTE_HOME_PREFIX}{os.getpid()}-"))
    try:
        sandbox._remove_orphan_zygote_homes()
        assert not orphan.exists() and ours.is_dir()
    finally:
        ours.rmdir()


def test_a_step_that_asks_for_torch_forks_from_a_zygote_that_imported_it_and_others_never_see_it(workdir):
    """A benchmark reference imports torch (1.7 s in a fresh Python): its step forks from a second zygote that
    imported torch at start, and computes as a fresh interpreter would. A step that does not ask gets the plain
    zygote: torch is not in its address space (its memory limit is its own), and a name outside the allow-list is
    never imported by a zygote."""
    probe = script(
        workdir,
        "probe.py",
        IN_ZYGOTE + "had = 'torch' in sys.modules\nimport torch\nprint(had, int(torch.arange(5).sum()))\n",
    )
    warm = sandbox.run(probe, workdir, SMALL, preload=("torch",))
    assert warm.outcome == "ok" and warm.stdout.split() == ["True", "10"], warm.stderr
    plain = sandbox.run(script(workdir, "plain.py", IN_ZYGOTE + "print('torch' in sys.modules)\n"), workdir, SMALL)
    assert plain.outcome == "ok" and plain.stdout.strip() == "False", plain.stderr
    assert sandbox._zygotes[("torch",)][1] is not sandbox._zygotes[()][1]
    odd = sandbox.run(
        script(workdir, "odd.py", IN_ZYGOTE + "print('antigravity' in sys.modules)\n"),
        workdir,
        SMALL,
        preload=("antigravity",),
    )
    assert odd.outcome == "ok" and odd.stdout.strip() == "False", odd.stderr


def test_a_unit_file_named_torch_shadows_the_preloaded_one_as_in_a_fresh_interpreter(workdir):
    """`python script.py` puts the script's folder first on sys.path: a unit's own torch.py is what it imports. The
    preloaded torch must not stand in for it, so that step runs in a fresh interpreter."""
    (workdir / "torch.py").write_text("WHO = 'the unit'\n")
    argv = script(workdir, "uses.py", "import torch\nprint(torch.WHO)\n")
    res = sandbox.run(argv, workdir, SMALL, preload=("torch",))
    assert res.outcome == "ok" and res.stdout.strip() == "the unit", res.stderr
