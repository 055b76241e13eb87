"""A warm sandbox starter: a long-lived Python with numpy imported that forks one confined child per step.

Started by `sandbox.py` (one per worker process, from its main thread; a second one for steps that import torch) as
`PYTHON sandbox_zygote.py SOCKET_FD PARENT_PID [PRELOAD...]`, with a clean environment (the step environment's
start-up variables only: never the parent's, so it holds no token) and a private empty dir as cwd, HOME and TMPDIR.
It is started the way a step's `python script.py` starts (same interpreter, no -I/-S, same start-up variables), so
what it has imported is what such a step would import.

Why: every step used to start a Python for `sandbox_shim.py`, and every Python step (the generator runner, the
unit's checker) started another one that imported numpy: ~0.1 s of CPU per step on a 1.5 s unit. A fork of this
process costs a few milliseconds.

Protocol (a SOCK_SEQPACKET socketpair, one message per packet, Python literals of plain data):
- parent -> zygote: {"spec": SPEC} with three fds attached (SCM_RIGHTS): stdout, stderr, the status pipe's write end;
  the zygote forks, closes its copies and answers {"pid": PID} (or {"error": ...} when it cannot).
- parent -> zygote: {"reap": PID} once the parent has seen the child end (or killed it): the zygote waits for it and
  answers {"status": WAIT_STATUS, "cpu": CPU_S}. Until then the child stays unreaped, so its PID cannot be reused
  while the parent may still signal it.
- EOF on the socket: the zygote exits. It dies with its parent (PR_SET_PDEATHSIG), and its children with it.

The child: stdout/stderr/status on fds 1/2/3, every other fd closed (the zygote's socket too), then exactly what
`sandbox_shim.py` does (`confine_and_run`: session, die-with-parent, cgroups, namespaces, init, private root, rlimits,
seccomp, no capabilities, no_new_privs). The confined command process then either execs the step's argv as the shim
would, or - for `python script.py ARGS` with this very interpreter and the same start-up variables - runs the script
in-process (`_run_script`) as `python script.py ARGS` would. What a step does to its copy of this process (monkeypatch
numpy, start threads) stays in the child: the zygote itself never runs unit code.
"""

import sys

# Modules a fresh `python script.py` has loaded before the script runs (this file is started the same way): a unit
# file named like a module imported only here (numpy, ctypes, ...) would shadow it in a fresh run, not here.
_STARTUP_MODULES = frozenset(sys.modules)

import array  # noqa: E402
import ast  # noqa: E402
import atexit  # noqa: E402
import builtins  # noqa: E402
import gc  # noqa: E402
import io  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
import types  # noqa: E402
from importlib.machinery import SourceFileLoader  # noqa: E402

import sandbox_shim as shim  # noqa: E402

try:  # what nearly every generator and checker imports; a Python without numpy still serves (the steps find out)
    import numpy
    import numpy.random
except Exception:
    numpy = None

# Environment variables that shape a Python's start (or numpy's / torch's import): a step runs in-process only when
# its values of these equal the zygote's.
_STARTUP_ENV = (
    *("PYTHON", "LANG", "LC_", "OMP_", "OPENBLAS_", "MKL_", "GOTO", "NUMPY", "LD_", "MALLOC", "GLIBC"),
    *("TORCH", "PYTORCH", "KMP_"),
)
# Heavy libraries the parent may have a zygote import at start (a benchmark reference imports torch: 1.7 s per fresh
# Python), for the steps that will import them. Only these names: a zygote imports installed libraries, never anything
# of a unit.
_PRELOADABLE = frozenset({"torch"})
_MAX_MSG = 1 << 20
_SHADOW_SUFFIXES = (".py", ".pyc", ".so", ".pyd", ".pyw")
PR_SET_NAME = 15


def _startup_env(env):
    return {k: v for k, v in env.items() if k.startswith(_STARTUP_ENV)}


def _preloaded_only():
    """Top-level names of the modules imported here that a fresh Python would still have to find on sys.path."""
    startup = {name.partition(".")[0] for name in _STARTUP_MODULES}
    return frozenset(name.partition(".")[0] for name in sys.modules) - startup - {"__main__"}


def _which(name, path):
    if "/" in name:
        return name
    for folder in path.split(":"):
        candidate = os.path.join(folder or ".", name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def _in_process_script(spec):
    """The absolute interpreter path and the script when the step is `python script.py ...` with this interpreter
    (same venv) and the same start-up environment; else None (the step execs, as under the shim)."""
    argv, env = spec["argv"], spec["env"]
    if len(argv) < 2 or argv[1].startswith("-") or _startup_env(env) != _startup_env(os.environ):
        return None
    found = _which(argv[0], env.get("PATH", ""))
    if not found:
        return None
    found = os.path.join(os.path.abspath(os.path.dirname(found)), os.path.basename(found))
    me = sys.executable
    if os.path.dirname(found) != os.path.dirname(me) or os.path.realpath(found) != os.path.realpath(me):
        return None
    return found


def _shadowed(root, names, limit=5000):
    """Whether the work dir holds a module named like one imported here only, or a user site (.local): then a fresh
    Python could import something else than what this process already has."""
    if os.path.lexists(os.path.join(root, ".local")):
        return True
    seen = 0
    for _dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            seen += 1
            if seen > limit:
                return True
            stem = name.partition(".")[0]
            if stem in names and (name in dirs or name.endswith(_SHADOW_SUFFIXES)):
                return True
    return False


def _script_frames(tb, script):
    """The traceback from the script's first frame on (what `python script.py` prints), None when it has none."""
    while tb is not None and tb.tb_frame.f_code.co_filename != script:
        tb = tb.tb_next
    return tb


def _exit_code(exc):
    """Python's own handling of SystemExit at the top level (printing a non-int code)."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:
        pass
    return 1


def _run_script(interpreter, names):
    """The confined command process of an in-process Python step: become `python script.py ARGS`, never return."""

    def command(spec):
        argv, env = spec["argv"], spec["env"]
        script = os.path.abspath(argv[1])
        if not os.path.isfile(script) or not os.access(interpreter, os.X_OK) or _shadowed(os.getcwd(), names):
            return  # exec as the shim does: the fresh interpreter reports a missing script its own way
        os.environ.clear()
        os.environ.update(env)
        # what exec'ing the interpreter would reset: the process name, and dumpable (the init made it 0; an exec'd
        # command is dumpable again, so its /proc/self entries are its own)
        shim._libc.prctl(PR_SET_NAME, os.path.basename(interpreter)[:15].encode(), 0, 0, 0)
        shim._libc.prctl(shim.PR_SET_DUMPABLE, 1, 0, 0, 0)
        sys.executable = interpreter
        sys.argv = [argv[1], *argv[2:]]
        sys.path[0] = os.path.dirname(script)
        if "tempfile" in sys.modules:
            sys.modules["tempfile"].tempdir = None  # TMPDIR is the step's
        if numpy is not None:
            numpy.random.seed()  # fresh entropy for numpy's global generator (random reseeds itself after fork)
        atexit._clear()
        code = 0
        try:
            main = types.ModuleType("__main__")  # what `python script.py` runs the script in
            main.__dict__.update(
                __file__=script,
                __cached__=None,
                __loader__=SourceFileLoader("__main__", script),
                __builtins__=builtins,
                __annotations__={},
            )
            sys.modules["__main__"] = main
            with io.open_code(script) as fh:
                source = fh.read()
            exec(compile(source, script, "exec", dont_inherit=True), main.__dict__)
        except SystemExit as exc:
            code = _exit_code(exc)
        except BaseException as exc:  # the interpreter's top level: the hook prints the script's frames only
            try:
                tb = _script_frames(exc.__traceback__, script)
                sys.excepthook(type(exc), exc.with_traceback(tb), tb)
            except BaseException:
                pass
            code = 1
        try:
            threading._shutdown()  # non-daemon threads are joined, then atexit handlers run, as at interpreter exit
        except BaseException:
            pass
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                code = code or 120
        os._exit(code)

    return command


def _child(spec, fds, sock):
    """The forked child: its fds only, then the shim's confinement; never returns."""
    try:
        out, err, status = fds
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.dup2(status, 3)
        sock.detach()  # the fd is closed below; the object must not close a reused number later
        os.closerange(4, os.sysconf("SC_OPEN_MAX"))
        os.chdir(spec["workdir"])
        spec = {**spec, "status_fd": 3}
        interpreter = _in_process_script(spec)
        command = _run_script(interpreter, _preloaded_only()) if interpreter else None
        shim.confine_and_run(spec, command)
    except BaseException as exc:  # never fall back into the zygote's loop
        try:
            os.write(3, (repr({"error": f"zygote child: {exc}"}) + "\n").encode())
        except BaseException:
            pass
    os._exit(126)


def _recv(sock):
    fds = array.array("i")
    data, ancdata, _flags, _addr = sock.recvmsg(_MAX_MSG, socket.CMSG_SPACE(3 * fds.itemsize))
    for level, kind, payload in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - (len(payload) % fds.itemsize)])
    return (ast.literal_eval(data.decode()) if data else None), list(fds)


def _send(sock, payload):
    sock.sendmsg([repr(payload).encode()])


def serve(sock):
    while True:
        msg, fds = _recv(sock)
        if msg is None:
            return
        if "spec" in msg and len(fds) == 3:
            for stream in (sys.stdout, sys.stderr):
                stream.flush()
            # the child dies with this process; it checks the zygote is still its parent once that is set
            msg["spec"]["parent_pid"] = os.getpid()
            try:
                pid = os.fork()
            except OSError as exc:
                pid, error = -1, str(exc)
            if pid == 0:
                _child(msg["spec"], fds, sock)
            for fd in fds:
                os.close(fd)
            _send(sock, {"pid": pid} if pid > 0 else {"error": f"fork: {error}"})
        elif "reap" in msg:
            for fd in fds:
                os.close(fd)
            try:
                _, status, usage = os.wait4(int(msg["reap"]), 0)
                _send(sock, {"status": status, "cpu": usage.ru_utime + usage.ru_stime})
            except ChildProcessError as exc:
                _send(sock, {"error": f"reap: {exc}"})
        else:
            for fd in fds:
                os.close(fd)
            _send(sock, {"error": "unknown request"})


def main():
    sock_fd, parent = int(sys.argv[1]), int(sys.argv[2])
    shim._libc.prctl(shim.PR_SET_PDEATHSIG, shim.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(125)
    sock = socket.socket(fileno=sock_fd)
    for name in sys.argv[3:]:
        if name in _PRELOADABLE:
            try:
                __import__(name)
            except Exception:  # not installed or broken: the step imports it itself and fails its own way
                pass
    threads = len(os.listdir("/proc/self/task"))
    if threads != 1:  # forking a threaded process copies locks held by the other threads: refuse, steps fall back
        _send(sock, {"error": f"zygote has {threads} threads after start-up"})
        return
    gc.collect()
    gc.freeze()  # start-up objects stay out of the collector: children do not copy their pages by touching them
    _send(sock, {"ready": True, "executable": sys.executable})
    serve(sock)


if __name__ == "__main__":
    main()
