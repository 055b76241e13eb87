"""Run untrusted crawled code (generators, checkers, built kernels) confined: see SANDBOX.md for what is enforced.

`run(argv, workdir, limits)` starts `sandbox_shim.py`, which confines itself (namespaces, read-only mounts, rlimits,
no capabilities) and execs the command with the work dir as cwd, HOME and TMPDIR. The parent enforces the wall-time
limit (kill the process group, and every process of the run's pids cgroup), captures stdout/stderr into files it owns
(read back capped), and classifies the end: ok, exit status, timeout, limit hit, or sandbox violation.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..paths import package_data

SHIM = Path(__file__).resolve().parent / "sandbox_shim.py"
_CGROUP_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))
_counter = itertools.count()


@dataclass(frozen=True)
class Limits:
    cpu_s: int = 60  # RLIMIT_CPU (seconds of CPU, all threads)
    wall_s: float = 120.0  # killed after this many seconds of wall time
    memory_mb: int = 4096  # RLIMIT_AS (address space)
    file_mb: int = 256  # RLIMIT_FSIZE: largest file the command may write (its stdout/stderr files too)
    nproc: int = 256  # pids cgroup (and RLIMIT_NPROC where the kernel enforces it): processes + threads
    nofile: int = 256  # RLIMIT_NOFILE
    capture_bytes: int = 256 * 1024  # how much of stdout / stderr is read back


@dataclass
class Capabilities:
    """What this machine lets the sandbox enforce (probed once per process)."""

    root: bool
    mount_ns: bool = False
    net_ns: bool = False
    user_ns: bool = False
    drop_caps: bool = False
    cgroup_root: str | None = None
    notes: list[str] = field(default_factory=list)

    def enforced(self) -> list[str]:
        got = [
            "own work dir as cwd/HOME/TMPDIR",
            "rlimits: CPU, address space, file size, open files",
            "wall-time kill of the process group",
        ]
        if self.net_ns:
            got.append("no network (empty network namespace)")
        if self.mount_ns:
            got.append("no writes outside the work dir (read-only mounts)")
        if self.cgroup_root:
            got.append("process count (pids cgroup)")
        elif not self.root:
            got.append("process count (RLIMIT_NPROC)")
        if self.drop_caps:
            got.append("no capabilities, no_new_privs")
        return got


@dataclass
class SandboxResult:
    returncode: int | None
    stdout: str
    stderr: str
    wall_s: float
    outcome: str  # ok | exit | timeout | limit | violation | sandbox_error
    reason: str = ""  # one line, for the record
    cpu_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"


@functools.lru_cache(maxsize=1)
def _signatures() -> dict:
    return tomllib.loads(package_data("verify/data/sandbox_signatures.toml").read_text(encoding="utf-8"))


def _cgroup_root() -> str | None:
    for root in _CGROUP_ROOTS:
        if (root / "cgroup.procs").exists() and os.access(root, os.W_OK):
            probe = root / f"cotbuilder-probe-{os.getpid()}"
            try:
                probe.mkdir()
                ok = (probe / "pids.max").exists()
                probe.rmdir()
            except OSError:
                continue
            if ok:
                return str(root)
    return None


@functools.lru_cache(maxsize=1)
def capabilities() -> Capabilities:
    """Probe namespaces by running the shim itself on `true` with each feature; keep what works."""
    caps = Capabilities(root=os.geteuid() == 0)
    caps.cgroup_root = _cgroup_root()
    if not caps.cgroup_root and caps.root:
        caps.notes.append("no writable pids cgroup and running as root: the process count is NOT limited")
    probe_dir = Path(tempfile.mkdtemp(prefix="cotbuilder-probe-"))
    try:
        for user_ns in (False, True) if caps.root else (True,):
            spec = {
                "workdir": str(probe_dir),
                "argv": ["true"],
                "env": {"PATH": "/usr/bin:/bin"},
                "mount_ns": True,
                "net_ns": True,
                "user_ns": user_ns,
                "drop_caps": True,
            }
            done = subprocess.run(
                [sys.executable, "-I", "-S", str(SHIM), json.dumps(spec)], capture_output=True, text=True, timeout=30
            )
            if done.returncode == 0:
                caps.mount_ns = caps.net_ns = caps.drop_caps = True
                caps.user_ns = user_ns
                break
            caps.notes.append(f"namespaces (user_ns={user_ns}) unavailable: {done.stderr.strip()[:200]}")
        if not caps.mount_ns:
            caps.notes.append(
                "no namespaces: network and writes outside the work dir are NOT blocked, only detected "
                "afterwards from the command's errors"
            )
    finally:
        shutil.rmtree(probe_dir, ignore_errors=True)
    return caps


def new_workdir(prefix: str = "unit-") -> Path:
    """A fresh directory whose ancestors the confined command can traverse (under the system temp dir)."""
    base = Path(tempfile.gettempdir()) / f"cotbuilder-sandbox-{os.getuid()}"
    base.mkdir(mode=0o711, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))


def _make_cgroup(root: str, nproc: int) -> Path | None:
    path = Path(root) / f"cotbuilder-{os.getpid()}-{next(_counter)}"
    try:
        path.mkdir()
        (path / "pids.max").write_text(str(nproc))
        return path
    except OSError:
        return None


def _kill_cgroup(path: Path) -> None:
    """SIGKILL every process of the run (also ones that left the process group) until the cgroup is empty."""
    for _ in range(200):
        try:
            pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
        except OSError:
            return
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.01)


def _remove_cgroup(path: Path) -> None:
    for _ in range(100):
        try:
            path.rmdir()
            return
        except OSError:
            time.sleep(0.02)


def _cgroup_hit_max(path: Path | None) -> bool:
    if path is None:
        return False
    try:
        for line in (path / "pids.events").read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "max" and int(value) > 0:
                return True
    except OSError:
        pass
    return False


def _read_capped(path: Path, cap: int) -> str:
    with open(path, "rb") as fh:
        data = fh.read(cap + 1)
    text = data[:cap].decode("utf-8", "replace")
    return text + ("\n[... output capped]" if len(data) > cap else "")


def _match(groups: list[dict], text: str) -> str | None:
    for group in groups:
        if any(p in text for p in group["patterns"]):
            return group["kind"]
    return None


def _env(workdir: Path, extra: dict[str, str] | None) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": str(workdir),
        "TMPDIR": str(workdir),
        "LANG": "C.UTF-8",
        # one thread per numeric library: thread pools reserve address space and count against the process limit
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
    }
    env.update(extra or {})
    return env


def run(
    argv: list[str], workdir: Path, limits: Limits = Limits(), *, env: dict[str, str] | None = None
) -> SandboxResult:
    """Run `argv` confined to `workdir` and say how it ended. Never raises for anything the command does."""
    caps = capabilities()
    workdir = Path(workdir).resolve()
    rlimits = {
        "RLIMIT_CPU": int(limits.cpu_s),
        "RLIMIT_AS": limits.memory_mb << 20,
        "RLIMIT_FSIZE": limits.file_mb << 20,
        "RLIMIT_NOFILE": limits.nofile,
        "RLIMIT_CORE": 0,
    }
    if not caps.root:
        rlimits["RLIMIT_NPROC"] = limits.nproc
    cgroup = _make_cgroup(caps.cgroup_root, limits.nproc) if caps.cgroup_root else None
    spec = {
        "workdir": str(workdir),
        "argv": list(argv),
        "env": _env(workdir, env),
        "rlimits": rlimits,
        "mount_ns": caps.mount_ns,
        "net_ns": caps.net_ns,
        "user_ns": caps.user_ns,
        "drop_caps": caps.drop_caps,
        "cgroup": str(cgroup) if cgroup else None,
    }
    capture = Path(tempfile.mkdtemp(prefix="cotbuilder-capture-"))
    start = time.monotonic()
    timed_out = False
    usage_before = os.times()
    try:
        with open(capture / "out", "wb") as out, open(capture / "err", "wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(SHIM), json.dumps(spec)],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                cwd=workdir,
            )
            try:
                proc.wait(timeout=limits.wall_s)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # also stray children left behind by a finished command
                except (ProcessLookupError, PermissionError):
                    pass
                if cgroup is not None:
                    _kill_cgroup(cgroup)
                proc.wait()
        wall = time.monotonic() - start
        usage = os.times()
        cpu = (usage.children_user - usage_before.children_user) + (
            usage.children_system - usage_before.children_system
        )
        stdout = _read_capped(capture / "out", limits.capture_bytes)
        stderr = _read_capped(capture / "err", limits.capture_bytes)
    finally:
        shutil.rmtree(capture, ignore_errors=True)
    rc = proc.returncode
    hit_pids = _cgroup_hit_max(cgroup)
    if cgroup is not None:
        _remove_cgroup(cgroup)
    result = SandboxResult(rc, stdout, stderr, wall, "ok", cpu_s=cpu)
    if timed_out:
        result.outcome, result.reason = "timeout", f"wall-time limit {limits.wall_s:g}s"
        return result
    if hit_pids:  # the pids cgroup refused a fork: exact, whatever the command made of the error
        result.outcome, result.reason = "violation", "process limit"
        return result
    if rc == 0:
        return result
    if rc == 126 and "COTBUILDER_SANDBOX_ERROR" in stderr:
        result.outcome, result.reason = "sandbox_error", stderr.strip().splitlines()[-1][:300]
        return result
    if rc == -signal.SIGXCPU or (rc == -signal.SIGKILL and cpu >= limits.cpu_s * 0.9):
        result.outcome, result.reason = "timeout", f"CPU-time limit {limits.cpu_s}s"
        return result
    if rc == -signal.SIGXFSZ:
        result.outcome, result.reason = "limit", f"output size limit {limits.file_mb} MB"
        return result
    text = stderr + "\n" + stdout
    sigs = _signatures()
    violation = _match(sigs["violation"], text)
    if violation:
        result.outcome, result.reason = "violation", violation
        return result
    limit = _match(sigs["limit"], text)
    if limit:
        result.outcome, result.reason = "limit", limit
        return result
    result.outcome = "exit"
    result.reason = f"killed by signal {signal.Signals(-rc).name}" if rc < 0 else f"exit status {rc}"
    return result
