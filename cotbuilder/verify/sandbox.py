"""Run untrusted crawled code (generators, checkers, the compiler on crawled sources, built kernels) confined.

`run(argv, workdir, limits, session=...)` has this process's warm zygote (`sandbox_zygote.py`) fork a child for the
step, or starts `sandbox_shim.py`; either confines itself (namespaces, a private root,
rlimits, seccomp, no capabilities) and runs the command under its own init. The parent enforces the wall-time limit,
gives every step a memory cgroup and a pids cgroup (all its processes together), captures stdout/stderr into files it
owns (read back capped), reads the shim's status pipe, and classifies the end: ok, exit status, timeout, limit hit,
or sandbox violation. What is enforced, and how: SANDBOX.md.

A `Session` is one verify run's sandbox: a private directory under the workspace (`<workspace>/sandbox/<run id>/`,
mode 0700, locked by its owner while it lives) that holds every step's work dir, and a parent cgroup per controller.
Both are removed when the session closes; a run killed with SIGKILL leaves them, and the next session of the same
workspace removes them (its lock is free once its owner is dead) before it starts.
"""

from __future__ import annotations

import array
import ast
import contextlib
import fcntl
import functools
import itertools
import json
import os
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..paths import package_data

SHIM = Path(__file__).resolve().parent / "sandbox_shim.py"
ZYGOTE = Path(__file__).resolve().parent / "sandbox_zygote.py"
OUTPUT_LIMIT = "output size limit"  # how a `limit` outcome's reason starts when RLIMIT_FSIZE stopped a write
ZYGOTE_SWITCH = "COTBUILDER_SANDBOX_ZYGOTE"  # "0": start every step through a fresh shim (the benchmark's baseline)
_counter = itertools.count()

# Every isolation feature, in the words the refusal message and the store use.
FEATURES = {
    "pid_ns": "PID namespace (no other process visible, daemons killed)",
    "mount_view": "private filesystem view (only the work dir, toolchain, emulator, Python)",
    "net_ns": "no network (empty network namespace)",
    "seccomp": "no UNIX-domain sockets (seccomp filter)",
    "memory_cgroup": "memory cgroup (all processes of a step together)",
    "process_limit": "process-count limit (pids cgroup)",
    "drop_caps": "no capabilities, no_new_privs",
}
# /etc entries the toolchain and Python need (the dynamic loader cache, user names, time zone): nothing else of /etc
# (no shadow, ssh keys, credentials) is visible
_ETC = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "passwd",
    "group",
    "nsswitch.conf",
    "localtime",
    "hosts",
    "os-release",
)


@dataclass(frozen=True)
class Limits:
    cpu_s: int = 60  # RLIMIT_CPU (seconds of CPU, all threads)
    wall_s: float = 120.0  # killed after this many seconds of wall time
    memory_mb: int = 4096  # memory cgroup of the step (all processes together) and RLIMIT_AS of each process
    file_mb: int = 256  # RLIMIT_FSIZE: largest file the command may write (its stdout/stderr files too)
    nproc: int = 256  # pids cgroup (and RLIMIT_NPROC where the kernel enforces it): processes + threads
    nofile: int = 256  # RLIMIT_NOFILE
    capture_bytes: int = 256 * 1024  # how much of stdout / stderr is read back


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


# ---------------------------------------------------------------------------------------------------- cgroups


@dataclass(frozen=True)
class Controller:
    kind: str  # memory | pids (cgroup v1), or v2 (one unified hierarchy with both)
    parent: str  # the cgroup this process is in, for that controller: our cgroups are made below it


def _own_cgroups() -> list[Controller]:
    """Where this process sits in each hierarchy we can use (v1 memory and pids, or v2 with both controllers)."""
    mounts: dict[str, str] = {}
    v2_mount = None
    with open("/proc/self/mountinfo", encoding="utf-8") as fh:
        for line in fh:
            left, _, right = line.partition(" - ")
            fstype, _src, options = (right.split() + ["", "", ""])[:3]
            point = left.split()[4]
            if fstype == "cgroup":
                for opt in options.split(","):
                    if opt in ("memory", "pids"):
                        mounts[opt] = point
            elif fstype == "cgroup2":
                v2_mount = point
    found: list[Controller] = []
    with open("/proc/self/cgroup", encoding="utf-8") as fh:
        for line in fh:
            _, names, path = line.rstrip("\n").split(":", 2)
            for name in names.split(","):
                if name in mounts:
                    found.append(Controller(name, os.path.join(mounts[name], path.lstrip("/"))))
            if names == "" and v2_mount:
                ctrl = Path(v2_mount, path.lstrip("/"), "cgroup.controllers")
                try:
                    have = set(ctrl.read_text().split())
                except OSError:
                    have = set()
                if {"memory", "pids"} <= have and not found:
                    found.append(Controller("v2", os.path.join(v2_mount, path.lstrip("/"))))
    return found


def _write_file(path: Path, text: str) -> bool:
    try:
        path.write_text(text)
        return True
    except OSError:
        return False


def _set_limits(cgroup: Path, kind: str, limits: Limits) -> bool:
    mem = str(limits.memory_mb << 20)
    if kind == "memory":
        ok = _write_file(cgroup / "memory.limit_in_bytes", mem)
        if (cgroup / "memory.memsw.limit_in_bytes").exists():  # no escape into swap
            _write_file(cgroup / "memory.memsw.limit_in_bytes", mem)
        return ok
    if kind == "pids":
        return _write_file(cgroup / "pids.max", str(limits.nproc))
    ok = _write_file(cgroup / "memory.max", mem) and _write_file(cgroup / "pids.max", str(limits.nproc))
    _write_file(cgroup / "memory.swap.max", "0")
    return ok


def _events(cgroup: Path, kind: str) -> dict[str, int]:
    """{'oom_kill': n, 'pids_max': n} from whichever files the controller has."""
    out = {"oom_kill": 0, "pids_max": 0}
    files = {"memory": ("memory.oom_control",), "pids": ("pids.events",), "v2": ("memory.events", "pids.events")}
    for name in files[kind]:
        try:
            text = (cgroup / name).read_text()
        except OSError:
            continue
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                out["oom_kill"] += int(value)
            elif key == "max" and name == "pids.events" and value.strip().isdigit():
                out["pids_max"] += int(value)
    return out


def _cgroup_pids(path: Path) -> list[int]:
    """The processes of the cgroup and of its children."""
    pids: list[int] = []
    for procs in [path / "cgroup.procs", *path.glob("*/cgroup.procs")]:
        with contextlib.suppress(OSError):
            pids += [int(p) for p in procs.read_text().split()]
    return pids


def _kill_cgroup(path: Path) -> None:
    """SIGKILL every process of the cgroup (and of its children) until it is empty."""
    for _ in range(200):
        pids = _cgroup_pids(path)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def _remove_cgroup(path: Path) -> None:
    """Remove a cgroup and its children (children first); a cgroup with a dying process takes a moment to empty."""
    if not path.is_dir():
        return
    _kill_cgroup(path)
    for child in sorted((p for p in path.iterdir() if p.is_dir()), reverse=True):
        _remove_cgroup(child)
    for _ in range(100):
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)


# ---------------------------------------------------------------------------------------------------- what this machine can do


def _probe_spec(feature_set: set[str], workdir: Path, mount_point: Path, user_ns: bool) -> dict:
    return {
        "workdir": str(workdir),
        "mount_point": str(mount_point),
        "argv": ["true"],
        "env": {"PATH": "/usr/bin:/bin"},
        "ro_paths": default_ro_paths(),
        "mount_ns": "mount_view" in feature_set,
        "net_ns": "net_ns" in feature_set,
        "pid_ns": "pid_ns" in feature_set,
        "seccomp": "seccomp" in feature_set,
        "drop_caps": "drop_caps" in feature_set,
        "user_ns": user_ns,
    }


def _probe_run(spec: dict) -> str | None:
    """Run the shim on `true`; None when it worked, else the error it reported."""
    read_fd, write_fd = os.pipe()
    spec = {**spec, "status_fd": write_fd, "parent_pid": os.getpid()}
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", str(SHIM), repr(spec)],
            capture_output=True,
            text=True,
            timeout=30,
            pass_fds=(write_fd,),
        )
    finally:
        os.close(write_fd)
    status = _read_status(read_fd)
    if status.get("error"):
        return status["error"]
    if done.returncode != 0 or status.get("exit", 0) != 0:
        return (done.stderr.strip() or f"exit status {done.returncode}")[:200]
    return None


@dataclass(frozen=True)
class Capabilities:
    """What this machine lets the sandbox enforce (probed once per process)."""

    root: bool
    user_ns: bool  # namespaces need a user namespace (not root)
    available: frozenset[str]
    controllers: tuple[Controller, ...]
    notes: tuple[str, ...] = ()

    @property
    def missing(self) -> list[str]:
        return [f for f in FEATURES if f not in self.available]

    def enforced(self) -> list[str]:
        return [FEATURES[f] for f in FEATURES if f in self.available]


@functools.lru_cache(maxsize=1)
def capabilities() -> Capabilities:
    """Probe each isolation feature by running the shim on `true` with it; keep what works."""
    root = os.geteuid() == 0
    notes: list[str] = []
    controllers = []
    for ctl in _own_cgroups():
        probe = Path(ctl.parent, f"cotbuilder-probe-{os.getpid()}")
        try:
            probe.mkdir()
            if _set_limits(probe, ctl.kind, Limits()):
                controllers.append(ctl)
            else:
                notes.append(f"cgroup {ctl.kind} at {ctl.parent}: cannot set limits")
        except OSError as exc:
            notes.append(f"cgroup {ctl.kind} at {ctl.parent}: {exc.strerror}")
        finally:
            with contextlib.suppress(OSError):
                probe.rmdir()
    kinds = {c.kind for c in controllers}
    available: set[str] = set()
    if kinds & {"memory", "v2"}:
        available.add("memory_cgroup")
    if kinds & {"pids", "v2"} or not root:  # RLIMIT_NPROC counts for a normal user (not for root)
        available.add("process_limit")
    namespaced = {"pid_ns", "mount_view", "net_ns", "seccomp", "drop_caps"}
    tmp = Path(tempfile.mkdtemp(prefix="cotbuilder-probe-"))
    user_ns = False
    try:
        (tmp / "work").mkdir()
        (tmp / "mnt").mkdir()
        for candidate in (False, True) if root else (True,):
            error = _probe_run(_probe_spec(namespaced, tmp / "work", tmp / "mnt", candidate))
            if error is None:
                available |= namespaced
                user_ns = candidate
                break
            notes.append(f"all namespaces (user_ns={candidate}): {error}")
        else:
            user_ns = not root
            for feature in sorted(namespaced):
                error = _probe_run(_probe_spec({feature}, tmp / "work", tmp / "mnt", user_ns))
                if error is None:
                    available.add(feature)
                else:
                    notes.append(f"{feature}: {error}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return Capabilities(root, user_ns, frozenset(available), tuple(controllers), tuple(notes))


@functools.lru_cache(maxsize=1)
def default_ro_paths() -> list[str]:
    """What every confined command may read: the toolchain (/usr and the top-level library dirs that are not symlinks
    into it), a few /etc entries, and the running Python (its prefixes and site-packages, which hold numpy). Never the
    home directory itself or a folder holding it: a Python installed under $HOME is bound by its own prefix only."""
    home = Path.home().resolve()
    paths: list[str] = []
    for top in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.isdir(top) and not os.path.islink(top):
            paths.append(top)
    paths += [f"/etc/{name}" for name in _ETC if os.path.lexists(f"/etc/{name}")]
    import site

    runtime = {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix, *site.getsitepackages()}
    with contextlib.suppress(AttributeError):
        runtime.add(site.getusersitepackages())
    for path in sorted(runtime):
        real = os.path.realpath(path)
        if not os.path.isdir(real) or Path(real) in (Path("/"), home, *home.parents):
            continue
        paths.append(real)
    return _outermost(paths)


def _outermost(paths: list[str]) -> list[str]:
    """Drop paths that lie inside another path of the list (their bind mount would be redundant)."""
    out: list[str] = []
    for p in sorted(set(paths), key=len):
        if not any(p == q or p.startswith(q.rstrip("/") + "/") for q in out if not q.startswith("/etc/")):
            out.append(p)
    return out


# ---------------------------------------------------------------------------------------------------- sessions


class IsolationMissing(RuntimeError):
    """The machine lacks an isolation feature and the user did not accept that (message: what is missing)."""


@dataclass(frozen=True)
class Session:
    """One verify run's sandbox (picklable: pool workers receive it with their job)."""

    run_id: str
    root: Path  # <workspace>/sandbox/<run id>/: every step's work dir lives here
    controllers: tuple[Controller, ...]  # parent cgroup per controller: <own cgroup>/cotbuilder-<run id>
    use: frozenset[str]  # features in force
    missing: tuple[str, ...] = ()  # features this machine lacks (verdicts record them)
    user_ns: bool = False
    keep: bool = False

    @property
    def mount_point(self) -> Path:
        return self.root / ".mnt"

    def new_dir(self, prefix: str) -> Path:
        """A fresh, empty directory for one unit (its steps' work dirs go below it)."""
        return Path(tempfile.mkdtemp(prefix=prefix, dir=self.root))


_OWNER = "owner.json"
_LOCK = "owner.lock"
_held_locks: dict[str, int] = {}


def check_isolation(allow_missing: bool) -> Capabilities:
    """Raise IsolationMissing (one line: what is missing, and the flag that accepts it) unless every isolation
    feature is available or the user allowed running without."""
    caps = capabilities()
    if caps.missing and not allow_missing:
        raise IsolationMissing(
            "this machine cannot fully isolate the code verify runs: missing "
            + "; ".join(FEATURES[f] for f in caps.missing)
            + (f" ({'; '.join(caps.notes)[:300]})" if caps.notes else "")
            + ". Pass --allow-weak-sandbox to verify anyway (each verdict then records what was missing)."
        )
    return caps


def open_session(base: Path, *, allow_missing: bool = False, keep: bool = False) -> Session:
    """Start a run's sandbox under `base` (e.g. <workspace>/sandbox), after removing what dead runs left there.
    Raises IsolationMissing when an isolation feature is missing and `allow_missing` is False."""
    caps = check_isolation(allow_missing)
    base = Path(base).resolve()  # the shim mounts by absolute path
    base.mkdir(parents=True, exist_ok=True)
    base.chmod(0o700)
    cleanup_dead_runs(base)
    run_id = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}-{secrets.token_hex(3)}"
    root = base / run_id
    root.mkdir(mode=0o700)
    lock_fd = os.open(root / _LOCK, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
    fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    _held_locks[str(root)] = lock_fd
    controllers = tuple(Controller(c.kind, os.path.join(c.parent, f"cotbuilder-{run_id}")) for c in caps.controllers)
    # the record first, then the cgroups: a kill between the two leaves nothing the next run cannot find
    (root / _OWNER).write_text(
        json.dumps({"pid": os.getpid(), "run_id": run_id, "cgroups": [c.parent for c in controllers], "keep": keep})
    )
    made = []
    for ctl in controllers:
        with contextlib.suppress(OSError):
            os.mkdir(ctl.parent)
            made.append(ctl)
    (root / ".mnt").mkdir()
    return Session(run_id, root, tuple(made), caps.available, tuple(caps.missing), caps.user_ns, keep)


def close_session(session: Session) -> None:
    """Kill anything left in the run's cgroups, remove them and (unless kept) the run's directory."""
    for ctl in session.controllers:
        _remove_cgroup(Path(ctl.parent))
    if not session.keep:
        remove_tree(session.root)
    fd = _held_locks.pop(str(session.root), None)
    if fd is not None:
        os.close(fd)


def cleanup_dead_runs(base: Path) -> list[str]:
    """Remove the sandbox dirs and cgroups of runs under `base` whose owner is dead (its lock is free): what a run
    killed with SIGKILL left behind. Returns the run ids cleaned."""
    cleaned = []
    if not base.is_dir():
        return cleaned
    for run_dir in sorted(p for p in base.iterdir() if p.is_dir() and not p.is_symlink()):
        if str(run_dir) in _held_locks:
            continue
        lock_path = run_dir / _LOCK
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            if time.time() - run_dir.stat().st_mtime < 60:  # just being created by a live run
                continue
            fd = None
        except OSError:
            continue
        try:
            if fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # its owner is alive
            try:
                owner = json.loads((run_dir / _OWNER).read_text())
            except (OSError, ValueError):
                owner = {}
            if owner.get("keep"):
                continue
            for cgroup in owner.get("cgroups", []):
                if Path(cgroup).name == f"cotbuilder-{run_dir.name}":  # only what the record names as its own
                    _remove_cgroup(Path(cgroup))
            remove_tree(run_dir)
            cleaned.append(run_dir.name)
        finally:
            if fd is not None:
                os.close(fd)
    return cleaned


def remove_tree(path: Path) -> None:
    """rmtree that never follows a symlink the unit left (shutil's fd-based walk) and clears modes it set."""

    def onerror(func, p, _exc):
        with contextlib.suppress(OSError):
            parent = os.path.dirname(p)
            os.chmod(parent, 0o700, follow_symlinks=False)
            if os.path.isdir(p) and not os.path.islink(p):
                os.chmod(p, 0o700)
                shutil.rmtree(p, ignore_errors=True)
            else:
                os.unlink(p)

    shutil.rmtree(path, onerror=onerror)


_default: Session | None = None


def default_session() -> Session:
    """For callers outside a verify run (tests, tools): a session in a private temp dir, closed at exit. Missing
    isolation is accepted here; `verify` itself refuses unless the user allows it."""
    global _default
    if _default is None or not _default.root.exists():
        import atexit

        base = Path(tempfile.mkdtemp(prefix="cotbuilder-sandbox-"))
        _default = open_session(base, allow_missing=True)
        atexit.register(lambda s=_default, b=base: (close_session(s), shutil.rmtree(b, ignore_errors=True)))
    return _default


# ---------------------------------------------------------------------------------------------------- running


@functools.lru_cache(maxsize=1)
def _signatures() -> dict:
    return tomllib.loads(package_data("verify/data/sandbox_signatures.toml").read_text(encoding="utf-8"))


def _read_capped(path: Path, cap: int) -> str:
    with open(path, "rb") as fh:
        data = fh.read(cap + 1)
    text = data[:cap].decode("utf-8", "replace")
    return text + ("\n[... output capped]" if len(data) > cap else "")


def _read_status(fd: int, wait_s: float = 5.0) -> dict:
    """The last line the shim wrote on its status pipe, a Python literal ({} when none)."""
    chunks = []
    deadline = time.monotonic() + wait_s
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            data = os.read(fd, 65536)
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(fd)
    for line in reversed(b"".join(chunks).decode("utf-8", "replace").splitlines()):
        try:
            value = ast.literal_eval(line)
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, dict):
            return value
    return {}


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


def _wait(proc: subprocess.Popen, seconds: float) -> bool:
    """Wait for `proc` to end, at most `seconds`; True when it ended. A pidfd wakes us the moment it exits (Popen's
    own timed wait polls with sleeps of up to 50 ms, a large share of a short step)."""
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        try:
            proc.wait(timeout=seconds)
            return True
        except subprocess.TimeoutExpired:
            return False
    try:
        ready, _, _ = select.select([fd], [], [], seconds)
    finally:
        os.close(fd)
    if not ready:
        return False
    proc.wait()
    return True


def _step_cgroups(session: Session, limits: Limits) -> tuple[list[tuple[Path, str]], str]:
    """The step's cgroup under each of the session's controllers, with its limits set; and, when one could not be
    made, why (the step must then not run: the session promised those limits, and its verdicts record them)."""
    made: list[tuple[Path, str]] = []
    name = f"s{os.getpid()}-{next(_counter)}"
    for ctl in session.controllers:
        path = Path(ctl.parent, name)
        try:
            path.mkdir()
        except OSError as exc:
            error = f"cannot create the step's {ctl.kind} cgroup under {ctl.parent}: {exc.strerror or exc}"
        else:
            if _set_limits(path, ctl.kind, limits):
                made.append((path, ctl.kind))
                continue
            _remove_cgroup(path)
            error = f"cannot set the step's {ctl.kind} cgroup limits under {ctl.parent}"
        for path, _ in made:
            _remove_cgroup(path)
        return [], error
    return made, ""


# ---------------------------------------------------------------------------------------------------- the zygote


class _Zygote:
    """This process's warm starter (sandbox_zygote.py): one per process, used from its main thread, one step at a
    time. Any failure of the channel marks it dead; the step in flight then ends as a sandbox error and later steps
    start a new one (or, after a few deaths, the plain shim)."""

    START_S = 30.0

    def __init__(self, preload: tuple[str, ...] = ()) -> None:
        _remove_orphan_zygote_homes()
        self.home = Path(tempfile.mkdtemp(prefix=f"{ZYGOTE_HOME_PREFIX}{os.getpid()}-"))
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock = ours
        env = _env(self.home, None)  # start-up variables of a step, nothing of ours (no token reaches it)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, str(ZYGOTE), str(theirs.fileno()), str(os.getpid()), *preload],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=self.home,
                env=env,
                pass_fds=(theirs.fileno(),),
            )
        finally:
            theirs.close()
        try:
            reply = self._reply(self.START_S)
            os.close(os.pidfd_open(os.getpid()))  # steps are awaited and killed by pidfd (Linux 5.3)
        except OSError as exc:
            self.close()
            raise OSError(f"zygote did not start: {exc}") from exc
        if not reply.get("ready"):
            self.close()
            raise OSError(f"zygote did not start: {reply.get('error') or 'no answer'}")

    def _reply(self, wait_s: float = 10.0) -> dict:
        ready, _, _ = select.select([self.sock], [], [], wait_s)
        if not ready:
            raise OSError("zygote did not answer")
        data = self.sock.recv(1 << 16)
        if not data:
            raise OSError("zygote closed its socket")
        try:
            value = ast.literal_eval(data.decode())
        except (ValueError, SyntaxError) as exc:
            raise OSError(f"zygote sent {data[:80]!r}") from exc
        if not isinstance(value, dict):
            raise OSError("zygote sent no dict")
        return value

    def request(self, spec: dict, fds: tuple[int, int, int]) -> None:
        """Ask for a confined child for `spec` (stdout, stderr, status fds passed); `spawned` gives its pid."""
        self.sock.sendmsg(
            [repr({"spec": spec}).encode()], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
        )

    def spawned(self) -> int:
        """The requested child's pid: unreaped until `reap`."""
        reply = self._reply(60.0)
        if "pid" not in reply:
            raise OSError(str(reply.get("error") or "no pid"))
        return int(reply["pid"])

    def reap(self, pid: int) -> tuple[int, float]:
        """(wait status, CPU seconds of the child and everything it reaped) once it has ended."""
        self.sock.send(repr({"reap": pid}).encode())
        reply = self._reply(30.0)
        if "status" not in reply:
            raise OSError(str(reply.get("error") or "no status"))
        return int(reply["status"]), float(reply.get("cpu") or 0.0)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
        proc = getattr(self, "proc", None)
        if proc is not None:
            try:
                proc.wait(timeout=5)  # EOF ends it; waiting counts its CPU (and its children's) into ours
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(self.home, ignore_errors=True)


ZYGOTE_HOME_PREFIX = "cotbuilder-zygote-"


def _remove_orphan_zygote_homes() -> None:
    """A process killed outright (SIGKILL, a lost pool worker) never ran its exit hooks: its zygote's empty home stays
    in the temp dir. Each home is named after the process that owns it; remove those whose owner is gone."""
    for home in Path(tempfile.gettempdir()).glob(f"{ZYGOTE_HOME_PREFIX}*-*"):
        owner = home.name[len(ZYGOTE_HOME_PREFIX) :].split("-", 1)[0]
        if not owner.isdigit():
            continue
        try:
            os.kill(int(owner), 0)
        except ProcessLookupError:
            shutil.rmtree(home, ignore_errors=True)
        except OSError:  # alive, owned by another user
            continue


# preload -> (owner pid, zygote): a forked child never uses its parent's. A step that asks for torch gets a zygote
# that imported it; every other step a plain one, so torch's 500 MB of address space never counts against the
# memory limit of a step that does not import it.
_zygotes: dict[tuple[str, ...], tuple[int, _Zygote]] = {}
_zygote_deaths = 0
_ZYGOTE_MAX_DEATHS = 3


def _close_zygote() -> None:
    for key, (owner, zygote) in list(_zygotes.items()):
        if owner == os.getpid():
            zygote.close()
        del _zygotes[key]


def _the_zygote(preload: tuple[str, ...] = ()) -> _Zygote | None:
    """This process's zygote for `preload`, started on first use; None when it is switched off, cannot start, or the
    caller is not the main thread (the zygote dies with the thread that started it: PR_SET_PDEATHSIG)."""
    global _zygote_deaths
    if os.environ.get(ZYGOTE_SWITCH, "1") == "0" or _zygote_deaths >= _ZYGOTE_MAX_DEATHS:
        return None
    if threading.current_thread() is not threading.main_thread():
        return None
    mine = _zygotes.get(preload)
    if mine is not None and mine[0] == os.getpid():
        if mine[1].proc.poll() is None:
            return mine[1]
        _zygote_lost(preload)
        if _zygote_deaths >= _ZYGOTE_MAX_DEATHS:
            return None
    try:
        zygote = _Zygote(preload)
    except OSError:
        _zygote_deaths += 1
        return None
    if not any(owner == os.getpid() for owner, _ in _zygotes.values()):
        # first start in this process: stop them at exit (pool workers exit through multiprocessing)
        import atexit
        import multiprocessing.util

        atexit.register(_close_zygote)
        multiprocessing.util.Finalize(None, _close_zygote, exitpriority=0)
    _zygotes[preload] = (os.getpid(), zygote)
    return zygote


def _zygote_lost(preload: tuple[str, ...] = ()) -> None:
    global _zygote_deaths
    mine = _zygotes.pop(preload, None)
    if mine is not None and mine[0] == os.getpid():
        zygote = mine[1]
        with contextlib.suppress(OSError):
            zygote.sock.close()
        with contextlib.suppress(OSError):
            zygote.proc.kill()
        zygote.proc.wait()
        shutil.rmtree(zygote.home, ignore_errors=True)
    _zygote_deaths += 1


# The wall limit is for a step that does not finish - blocked, deadlocked, sleeping - not for one a busy host gives
# little CPU: past it, a step that still gets at least MIN_SHARE of a CPU each second runs on, up to STARVED_STRETCH
# times the limit. RLIMIT_CPU still bounds what it may use; a step that stopped using the CPU ends at the limit.
STARVED_STRETCH = 4.0
MIN_SHARE = 0.05
_SAMPLE_S = 1.0
_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")


def _cpu_seconds(cgroups: list[Path]) -> float:
    """CPU seconds of the step's live processes and of the children they reaped (/proc/<pid>/stat utime, stime,
    cutime, cstime)."""
    ticks = 0
    for pid in {pid for path in cgroups for pid in _cgroup_pids(path)}:
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            ticks += sum(int(f) for f in fields[11:15])
    return ticks * _TICK_S


def _wait_own_time(proc: _Started, wall_s: float, cgroups: list[Path], start: float) -> bool:
    """Wait for the step under its wall-time limit, stretched while the host starves it (see STARVED_STRETCH); False
    when the limit passed. A step that ends within the limit costs one wait, as before."""
    nominal, cap = start + wall_s, start + wall_s * (STARVED_STRETCH if cgroups else 1.0)
    last_t, last_cpu = start, 0.0
    while True:
        now = time.monotonic()
        if now >= cap:
            return False
        if proc.wait(nominal - now if now < nominal else min(_SAMPLE_S, cap - now)):
            return True
        now = time.monotonic()
        if now < nominal:
            continue
        cpu = _cpu_seconds(cgroups)
        if cpu - last_cpu < MIN_SHARE * (now - last_t):
            return False
        last_t, last_cpu = now, cpu


class _Started:
    """A step's first process, however it was started: wait for it, kill it, collect how it ended."""

    def __init__(self, spec: dict, out: int, err: int, status_fd: int, workdir: Path) -> None:
        self.key = tuple(spec.get("preload") or ())
        self.zygote = _the_zygote(self.key)
        self.proc: subprocess.Popen | None = None
        self.cpu_s: float | None = None  # from the zygote's wait4; None: the caller measures its own children
        self.lost = False
        if self.zygote is not None:
            try:
                self.zygote.request(spec, (out, err, status_fd))
            except OSError:  # it never got the request: nothing runs, start the step the old way
                _zygote_lost(self.key)
                self.zygote = None
        if self.zygote is not None:
            try:
                self.pid = self.zygote.spawned()
                self.pidfd = os.pidfd_open(self.pid)  # unreaped until we say so: the pid cannot be reused
            except OSError:  # it may have forked: never start the step a second time; the caller kills the cgroups
                self.lost, self.pid = True, 0
                _zygote_lost(self.key)  # its child, if any, dies with it (die-with-parent)
            return
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", str(SHIM), repr(spec)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            cwd=workdir,
            pass_fds=(status_fd,),
        )
        self.pid = self.proc.pid

    def wait(self, seconds: float) -> bool:
        if self.lost:
            return True
        if self.proc is not None:
            return _wait(self.proc, seconds)
        ready, _, _ = select.select([self.pidfd], [], [], seconds)
        return bool(ready)

    def kill(self) -> None:
        """The first process, and its process group (the shim's session: its init, the command's group)."""
        if self.lost:
            return
        if self.proc is None:
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)

    def finish(self) -> int | None:
        """Wait for the (killed) first process; its return code as Popen gives it."""
        if self.proc is not None:
            return self.proc.wait()
        if self.lost:
            return None
        try:
            select.select([self.pidfd], [], [])
            status, self.cpu_s = self.zygote.reap(self.pid)
            return os.waitstatus_to_exitcode(status)
        except (OSError, ValueError):
            self.lost = True  # the zygote died with the step in flight: the step's end is unknown
            _zygote_lost(self.key)
            return None
        finally:
            os.close(self.pidfd)


def run(
    argv: list[str],
    workdir: Path,
    limits: Limits = Limits(),
    *,
    env: dict[str, str] | None = None,
    session: Session | None = None,
    ro_paths: list[str] | tuple[str, ...] = (),
    devices: list[str] | tuple[str, ...] = (),
    preload: tuple[str, ...] = (),
) -> SandboxResult:
    """Run `argv` confined to `workdir` and say how it ended. Never raises for anything the command does.
    `ro_paths`: what it may read besides the toolchain and Python (the emulator headers, the PCH). `preload`: heavy
    libraries a Python step will import (torch), imported once by this process's zygote so the step's fork starts
    with them (as numpy always is); the step runs as `python script.py` would either way."""
    session = session or default_session()
    caps_root = os.geteuid() == 0
    workdir = Path(workdir).resolve()
    rlimits = {
        "RLIMIT_CPU": int(limits.cpu_s),
        "RLIMIT_AS": limits.memory_mb << 20,
        "RLIMIT_FSIZE": limits.file_mb << 20,
        "RLIMIT_NOFILE": limits.nofile,
        "RLIMIT_CORE": 0,
    }
    if not caps_root:
        rlimits["RLIMIT_NPROC"] = limits.nproc
    cgroups, cgroup_error = _step_cgroups(session, limits)
    if cgroup_error:  # fail closed: never run a step with less confinement than the session's verdicts claim
        return SandboxResult(None, "", "", 0.0, "sandbox_error", cgroup_error)
    read_fd, write_fd = os.pipe()
    use = session.use
    spec = {
        "workdir": str(workdir),
        "mount_point": str(session.mount_point),
        "argv": list(argv),
        "env": _env(workdir, env),
        "rlimits": rlimits,
        "ro_paths": _outermost(default_ro_paths() + [os.path.realpath(p) for p in ro_paths]),
        "devices": list(devices),
        "mount_ns": "mount_view" in use,
        "net_ns": "net_ns" in use,
        "pid_ns": "pid_ns" in use,
        "seccomp": "seccomp" in use,
        "drop_caps": "drop_caps" in use,
        "user_ns": session.user_ns,
        "cgroups": [str(p) for p, _ in cgroups],
        "status_fd": write_fd,
        "parent_pid": os.getpid(),
        "preload": list(preload),
    }
    capture = Path(tempfile.mkdtemp(prefix="capture-", dir=session.root))
    start = time.monotonic()
    timed_out = False
    usage_before = os.times()
    try:
        try:
            with open(capture / "out", "wb") as out, open(capture / "err", "wb") as err:
                proc = _Started(spec, out.fileno(), err.fileno(), write_fd, workdir)
                os.close(write_fd)
                write_fd = -1
                try:
                    timed_out = not _wait_own_time(proc, limits.wall_s, [path for path, _ in cgroups], start)
                finally:
                    proc.kill()  # the shim (or the zygote's child), its init, and the command's group
                    for path, _ in cgroups:
                        _kill_cgroup(path)  # also processes that left the group
                    returncode = proc.finish()
        finally:
            if write_fd >= 0:
                os.close(write_fd)
        status = _read_status(read_fd, 0.5 if timed_out else 5.0)
        if proc.lost:
            status = {"error": "the sandbox's zygote died while the step ran"}
        wall = time.monotonic() - start
        usage = os.times()
        cpu = (usage.children_user - usage_before.children_user) + (
            usage.children_system - usage_before.children_system
        )
        if proc.cpu_s is not None:
            cpu = proc.cpu_s
        stdout = _read_capped(capture / "out", limits.capture_bytes)
        stderr = _read_capped(capture / "err", limits.capture_bytes)
    finally:
        shutil.rmtree(capture, ignore_errors=True)
    events = {"oom_kill": 0, "pids_max": 0}
    for path, kind in cgroups:
        for key, value in _events(path, kind).items():
            events[key] += value
        _remove_cgroup(path)
    if "signal" in status:
        rc: int | None = -int(status["signal"])
    elif "exit" in status:
        rc = int(status["exit"])
    else:
        rc = returncode
    result = SandboxResult(rc, stdout, stderr, wall, "ok", cpu_s=cpu)
    return _classify(result, status, events, timed_out, limits, workdir)


def _file_at_limit(workdir: Path, limit: int) -> bool:
    """A file in the step's folder that RLIMIT_FSIZE stopped at the limit (symlinks not followed)."""
    for root, _dirs, files in os.walk(workdir):
        for name in files:
            try:
                if os.lstat(os.path.join(root, name)).st_size >= limit:
                    return True
            except OSError:
                continue
    return False


def _classify(
    result: SandboxResult, status: dict, events: dict[str, int], timed_out: bool, limits: Limits, workdir: Path
) -> SandboxResult:
    rc, text = result.returncode, result.stderr + "\n" + result.stdout

    def end(outcome: str, reason: str) -> SandboxResult:
        result.outcome, result.reason = outcome, reason
        return result

    if status.get("error"):
        return end("sandbox_error", str(status["error"])[:300])
    if timed_out:
        return end("timeout", f"wall-time limit {limits.wall_s:g}s")
    if events["pids_max"]:  # the pids cgroup refused a fork: exact, whatever the command made of the error
        return end("violation", "process limit")
    if events["oom_kill"]:
        return end("limit", f"memory limit ({limits.memory_mb} MB for all processes of the step together)")
    if not status:
        # the shim (or the zygote's confined child) always reports how the command ended; silence means it never ran
        # (its file missing, the interpreter unable to start): the host's fault, never a verdict on the command
        return end("sandbox_error", f"the sandbox reported nothing (exit status {rc}): {text.strip()[-200:]}")
    if status.get("leftover"):
        names = ", ".join(status.get("leftover_names") or [])
        return end("violation", f"left {status['leftover']} process(es) running after it ended ({names})")
    if rc == 0:
        return result
    if rc == -signal.SIGXCPU or (rc == -signal.SIGKILL and result.cpu_s >= limits.cpu_s * 0.9):
        return end("timeout", f"CPU-time limit {limits.cpu_s}s")
    sigs = _signatures()
    violation = _match(sigs["violation"], text)
    if violation:  # before the output limit: a step that also fills a file to the limit is still the violation
        return end("violation", violation)
    if rc == -signal.SIGXFSZ or _file_at_limit(workdir, limits.file_mb << 20):
        # Python ignores SIGXFSZ: its write fails instead and the program exits 1 with its own words (numpy says
        # "N requested and M written"), so a file the limit cut short is the evidence
        return end("limit", f"{OUTPUT_LIMIT} {limits.file_mb} MB")
    limit = _match(sigs["limit"], text)
    if limit:
        return end("limit", limit)
    if rc is not None and rc < 0:
        try:
            return end("exit", f"killed by signal {signal.Signals(-rc).name}")
        except ValueError:
            return end("exit", f"killed by signal {-rc}")
    return end("exit", f"exit status {rc}")
