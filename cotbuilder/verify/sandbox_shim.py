"""The sandbox's first process: confine itself, then run the untrusted command as the child of a tiny init.

Run as `python -I -S sandbox_shim.py SPEC` by `sandbox.py` (SPEC: a Python literal of plain dicts, lists, strings and
numbers; stdlib only, no cotbuilder import and no module heavier than ctypes - json, signal and platform would double
its start-up - so it starts fast and sees nothing of the parent's environment). In order:

1. a new session (the parent kills the whole process group), die-with-parent, no core files; join the step's cgroups
   (memory for all its processes together, pids);
2. new mount, network, PID, IPC and UTS namespaces (and a user namespace when not root);
3. fork: the child is PID 1 of the new PID namespace (the *init*). It builds a private root: an empty read-only tmpfs
   holding only the work dir (read-write), the read-only paths the parent lists (toolchain, emulator, Python runtime),
   a few /etc files, a minimal /dev and a fresh /proc that shows only this namespace. `pivot_root` into it and detach
   the host's tree: $HOME, the workspace, the store, /etc/shadow are not there;
4. the init forks the command: rlimits, a seccomp filter that refuses UNIX-domain sockets (the empty network
   namespace already refuses IP), every capability dropped, no_new_privs, then exec;
5. the init reaps until the command ends, stops and counts the processes the command left running (a daemon),
   reports on the status pipe, and exits: the kernel then kills whatever is left in the namespace.

The status pipe (an fd the command never holds) is the only channel the parent trusts: one line, a Python literal
{"exit"|"signal", "leftover"} or {"error"}. A step the spec asks for that fails reports {"error"} and exits 126: a
sandbox that was requested and could not be set up never runs the command unconfined.
"""

import ctypes
import os
import resource
import struct
import sys

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_SECCOMP = 1, 4, 22
PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP = 38, 24
SIGKILL, SIGSTOP = 9, 19
MACHINE = os.uname().machine
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO = 0x7FFF0000, 0x00050000
EAFNOSUPPORT, ENOSYS = 97, 38
AF_UNIX = 1
# (audit arch, socket syscall number) per machine: the filter only knows these; elsewhere it is not installed and the
# probe reports the feature missing
_SECCOMP_ARCH = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198)}
_DEV_NODES = ("null", "zero", "full", "random", "urandom")

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]
_libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
_status_fd = -1


class SetupError(Exception):
    pass


def _report(payload):
    if _status_fd >= 0:
        try:
            os.write(_status_fd, (repr(payload) + "\n").encode())
        except OSError:
            pass


def _fail(step, detail=""):
    _report({"error": f"{step}: {detail or os.strerror(ctypes.get_errno())}"})
    os._exit(126)


def _check(rc, step, detail=""):
    if rc != 0:
        raise SetupError(f"{step}: {detail or os.strerror(ctypes.get_errno())}")


def _write(path, text):
    with open(path, "w") as fh:
        fh.write(text)


def _mount(source, target, fstype, flags, data, step):
    rc = _libc.mount(
        source.encode() if source else None,
        target.encode(),
        fstype.encode() if fstype else None,
        flags,
        data.encode() if data else None,
    )
    _check(rc, step, f"{target}: {os.strerror(ctypes.get_errno())}")


def _bind(source, target, read_only, extra=0):
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            open(target, "w").close()
    _mount(source, target, None, MS_BIND | MS_REC, None, "bind " + source)
    flags = MS_REMOUNT | MS_BIND | MS_NOSUID | extra | (MS_RDONLY if read_only else 0)
    _mount(None, target, None, flags, None, "remount " + source)


def _mirror_top_level(root):
    """Every top-level name of the host exists in the new root (empty dirs, same symlinks), so a write anywhere outside
    the work dir fails with EROFS (named a violation) and a read finds nothing."""
    for name in os.listdir("/"):
        path = os.path.join("/", name)
        target = os.path.join(root, name)
        if os.path.islink(path):
            os.symlink(os.readlink(path), target)
        elif os.path.isdir(path):
            os.mkdir(target, 0o755)


def _make_dev(root, devices):
    dev = os.path.join(root, "dev")
    os.makedirs(dev, exist_ok=True)
    _mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=755", "mount /dev")
    for node in list(_DEV_NODES) + list(devices):
        host = node if node.startswith("/dev/") else "/dev/" + node
        if os.path.exists(host):
            _bind(host, root + host, read_only=False, extra=MS_NOEXEC)
    shm = os.path.join(dev, "shm")
    os.mkdir(shm)
    _mount("tmpfs", shm, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=64m,mode=1777", "mount /dev/shm")
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1")):
        os.symlink(target, os.path.join(dev, name))
    os.symlink("/proc/self/fd/2", os.path.join(dev, "stderr"))


def _private_root(spec):
    """Build the unit's view of the filesystem and pivot into it."""
    root = spec["mount_point"]
    _mount(None, "/", None, MS_REC | MS_PRIVATE, None, "make mounts private")
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755", "mount new root")
    _mirror_top_level(root)
    for path in spec.get("ro_paths", []):
        if os.path.lexists(path) and not os.path.islink(path):
            _bind(path, root + path, read_only=True, extra=MS_NODEV)
        elif os.path.islink(path):  # an /etc entry that is a symlink (os-release -> ../usr/lib/os-release)
            os.makedirs(os.path.dirname(root + path), exist_ok=True)
            if not os.path.lexists(root + path):
                os.symlink(os.readlink(path), root + path)
    _bind(spec["workdir"], root + spec["workdir"], read_only=False, extra=MS_NODEV)
    _make_dev(root, spec.get("devices", []))
    proc = os.path.join(root, "proc")
    os.makedirs(proc, exist_ok=True)
    _mount("proc", proc, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None, "mount /proc")
    old = os.path.join(root, ".old-root")
    os.mkdir(old)
    os.chdir(root)
    _check(_libc.syscall(155 if MACHINE == "x86_64" else 41, b".", b".old-root"), "pivot_root")
    os.chdir("/")
    _check(_libc.umount2(b"/.old-root", MNT_DETACH), "detach the host tree")
    os.rmdir("/.old-root")
    _mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, None, "read-only root")


def _seccomp_no_unix_sockets():
    arch, nr_socket = _SECCOMP_ARCH[MACHINE]

    def stmt(code, k, jt=0, jf=0):
        return struct.pack("HBBI", code, jt, jf, k)

    deny = SECCOMP_RET_ERRNO | EAFNOSUPPORT
    prog = b"".join(
        [
            stmt(0x20, 4),  # A = arch
            stmt(0x15, arch, 1, 0),  # native arch? skip next
            stmt(0x06, SECCOMP_RET_ERRNO | ENOSYS),  # another ABI (32-bit socketcall): refused
            stmt(0x20, 0),  # A = syscall number
            stmt(0x35, 0x40000000, 0, 1),  # x32 ABI bit set?
            stmt(0x06, SECCOMP_RET_ERRNO | ENOSYS),
            stmt(0x15, nr_socket, 0, 3),  # socket()? else allow
            stmt(0x20, 16),  # A = low word of args[0] (the address family)
            stmt(0x15, AF_UNIX, 0, 1),
            stmt(0x06, deny),
            stmt(0x06, SECCOMP_RET_ALLOW),
        ]
    )

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]

    fprog = SockFprog(len(prog) // 8, prog)
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0), "seccomp filter")


def _drop_capabilities():
    for cap in range(64):
        _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the last capability: ignored

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (Data * 2)()
    _check(_libc.capset(ctypes.byref(header), ctypes.byref(data)), "drop capabilities")
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def _exec_command(spec, command=None):
    """The command's process (PID 2 when namespaced): limits, filter, no privileges, exec. `command` (the zygote's):
    called instead of exec once the process is confined; it never returns."""
    try:
        for name, value in spec.get("rlimits", {}).items():
            # CPU: SIGXCPU at the soft limit names the cause; the hard limit (1 s later) kills a command ignoring it
            hard = value + 1 if name == "RLIMIT_CPU" else value
            try:
                resource.setrlimit(getattr(resource, name), (value, hard))
            except (ValueError, OSError) as exc:
                raise SetupError(f"setrlimit {name}: {exc}") from exc
        if spec.get("drop_caps"):
            _drop_capabilities()
        if spec.get("seccomp"):
            _seccomp_no_unix_sockets()
        os.chdir(spec["workdir"])
    except (SetupError, OSError) as exc:
        _report({"error": str(exc)})
        os._exit(126)
    if _status_fd >= 0:
        os.close(_status_fd)
    if command is not None:
        command(spec)
    argv = spec["argv"]
    try:
        os.execvpe(argv[0], argv, spec["env"])
    except OSError as exc:
        os.write(2, f"cannot execute {argv[0]}: {exc.strerror}\n".encode())
        os._exit(127)


def _leftovers():
    """Processes of this PID namespace still alive besides the init (zombies reaped first).

    Everything left is stopped first: a daemon that double-forks while /proc is read could otherwise slip through
    (its parent listed, then a zombie when its stat is read; the grandchild born after the listing). A stopped process
    cannot fork (a fork with a signal pending is undone), and passes repeat until one reaps nothing and finds nobody
    new. What is counted is every process seen alive in any pass."""
    try:
        os.kill(-1, SIGSTOP)  # from the namespace's init: every process of the namespace but the init
    except OSError:
        pass  # nobody left to stop
    seen = {}
    while True:
        reaped = _reap()
        new = {pid: name for pid, name in _alive().items() if pid not in seen}
        seen.update(new)
        if not reaped and not new:
            return list(seen.values())


def _reap():
    """Zombie children collected without waiting; how many."""
    n = 0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return n
        if pid == 0:
            return n
        n += 1


def _alive():
    """{pid: name} of the namespace's processes besides the init that are not zombies."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and entry != "1":
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    stat = fh.read()
            except OSError:
                continue
            if stat.rsplit(")", 1)[-1].split()[0] != "Z":
                out[entry] = stat[stat.find("(") + 1 : stat.rfind(")")]
    return out


def _init(spec, command=None):
    """PID 1 of the namespace: build the view, run the command, reap, report."""
    _libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)
    try:
        if spec.get("mount_ns"):
            _private_root(spec)
    except (SetupError, OSError) as exc:
        _report({"error": str(exc)})
        os._exit(126)
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # the command cannot ptrace or read the init's memory
    child = os.fork()
    if child == 0:
        _exec_command(spec, command)
    status = None
    while status is None:
        try:
            pid, st = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        if pid == child:
            status = st
    left = _leftovers() if spec.get("pid_ns") else []
    report = {"leftover": len(left), "leftover_names": left[:5]}
    if status is not None and os.WIFSIGNALED(status):
        report["signal"] = os.WTERMSIG(status)
    elif status is not None:
        report["exit"] = os.WEXITSTATUS(status)
    _report(report)
    os._exit(0)


def main():
    confine_and_run(eval(sys.argv[1], {"__builtins__": {}}))  # a literal the parent wrote (repr of plain data)


def confine_and_run(spec, command=None):
    """Steps 1-5 above; never returns. `command`: run in the confined command process instead of exec'ing
    spec["argv"] (sandbox_zygote.py's in-process Python); it never returns either."""
    global _status_fd
    _status_fd = spec.get("status_fd", -1)
    os.setsid()
    _libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)
    if os.getppid() != spec.get("parent_pid", os.getppid()):
        os._exit(125)  # the parent died before the line above: nobody is waiting for this run
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for cgroup in spec.get("cgroups", []):
        try:
            _write(os.path.join(cgroup, "cgroup.procs"), str(os.getpid()))
        except OSError as exc:
            _fail("join cgroup", f"{cgroup}: {exc}")
    flags = 0
    for key, flag in (("mount_ns", CLONE_NEWNS), ("net_ns", CLONE_NEWNET), ("pid_ns", CLONE_NEWPID)):
        if spec.get(key):
            flags |= flag
    if flags:
        flags |= CLONE_NEWIPC | CLONE_NEWUTS
    if flags and spec.get("user_ns"):
        uid, gid = os.getuid(), os.getgid()
        if _libc.unshare(flags | CLONE_NEWUSER) != 0:
            _fail("unshare user namespace")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
    elif flags and _libc.unshare(flags) != 0:
        _fail("unshare")
    if not spec.get("pid_ns"):  # no init of our own: confine this process and exec (weaker: no daemon reaping)
        if spec.get("mount_ns"):
            try:
                _private_root(spec)
            except (SetupError, OSError) as exc:
                _fail("private root", str(exc))
        _exec_command(spec, command)
    child = os.fork()
    if child == 0:
        _init(spec, command)
    if _status_fd >= 0:
        os.close(_status_fd)
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except InterruptedError:
            continue
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


if __name__ == "__main__":
    main()
