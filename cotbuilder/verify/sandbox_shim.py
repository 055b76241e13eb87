"""The sandbox's first process: confine itself, then exec the untrusted command.

Run as `python -I -S sandbox_shim.py SPEC_JSON` by `sandbox.py` (stdlib only, no cotbuilder import, so it starts fast
and sees nothing of the parent's environment). In order, it:

1. starts a new session (so the parent can kill the whole process group) and joins the run's pids cgroup, if any;
2. enters new mount + network namespaces (a new user namespace too when not root), so the command has no network
   (only a down loopback) and a private mount table;
3. bind-mounts the work dir onto itself and remounts every other mount read-only: writes outside the work dir fail
   with EROFS;
4. sets the rlimits (CPU, address space, file size, open files, processes);
5. drops every capability and sets no_new_privs, so the command can neither undo the mounts nor regain privileges;
6. chdirs into the work dir and execs the command.

A step the spec asks for that fails exits 126 with a `COTBUILDER_SANDBOX_ERROR` line: a sandbox that was requested and
could not be set up never silently runs the command unconfined.
"""

import ctypes
import json
import os
import resource
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP = 38, 24
_OPTION_FLAGS = {
    "nosuid": MS_NOSUID,
    "nodev": MS_NODEV,
    "noexec": MS_NOEXEC,
    "noatime": MS_NOATIME,
    "nodiratime": MS_NODIRATIME,
    "relatime": MS_RELATIME,
}

_libc = ctypes.CDLL(None, use_errno=True)


def _fail(step, detail=""):
    err = ctypes.get_errno()
    os.write(2, f"COTBUILDER_SANDBOX_ERROR {step}: {detail or os.strerror(err)}\n".encode())
    os._exit(126)


def _check(rc, step, detail=""):
    if rc != 0:
        _fail(step, detail)


def _write(path, text):
    with open(path, "w") as fh:
        fh.write(text)


def _mount_points():
    """Mount points of this namespace with their per-mount flags (field 5 and 6 of mountinfo)."""
    points = []
    with open("/proc/self/mountinfo") as fh:
        for line in fh:
            parts = line.split()
            point = parts[4].replace("\\040", " ")
            flags = 0
            for opt in parts[5].split(","):
                flags |= _OPTION_FLAGS.get(opt, 0)
            points.append((point, flags))
    return points


def _read_only_except(workdir):
    mount = _libc.mount
    mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]
    _check(mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "make mounts private")
    wd = workdir.encode()
    _check(mount(wd, wd, None, MS_BIND | MS_REC, None), "bind work dir")
    inside = workdir.rstrip("/") + "/"
    for point, flags in _mount_points():
        if point == workdir or point.startswith(inside):
            continue
        rc = mount(None, point.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | flags, None)
        if rc != 0 and ctypes.get_errno() not in (2, 13):  # ENOENT/EACCES: a mount we cannot even see
            _fail("remount read-only", f"{point}: {os.strerror(ctypes.get_errno())}")


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


def main():
    spec = json.loads(sys.argv[1])
    workdir = spec["workdir"]
    os.setsid()
    if spec.get("cgroup"):
        try:
            _write(os.path.join(spec["cgroup"], "cgroup.procs"), str(os.getpid()))
        except OSError as exc:
            _fail("join pids cgroup", str(exc))
    flags = 0
    if spec.get("mount_ns"):
        flags |= CLONE_NEWNS
    if spec.get("net_ns"):
        flags |= CLONE_NEWNET
    if flags and spec.get("user_ns"):
        uid, gid = os.getuid(), os.getgid()
        _check(_libc.unshare(flags | CLONE_NEWUSER), "unshare user namespace")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
    elif flags:
        _check(_libc.unshare(flags), "unshare")
    if spec.get("mount_ns"):
        _read_only_except(workdir)
    for name, value in spec.get("rlimits", {}).items():
        limit = getattr(resource, name)
        # CPU: SIGXCPU at the soft limit names the cause; the hard limit (1 s later) kills a command that ignores it
        hard = value + 1 if name == "RLIMIT_CPU" else value
        try:
            resource.setrlimit(limit, (value, hard))
        except (ValueError, OSError) as exc:
            _fail(f"setrlimit {name}", str(exc))
    if spec.get("drop_caps"):
        _drop_capabilities()
    os.chdir(workdir)
    argv = spec["argv"]
    try:
        os.execvpe(argv[0], argv, spec["env"])
    except OSError as exc:
        os.write(2, f"cannot execute {argv[0]}: {exc.strerror}\n".encode())
        os._exit(127)


if __name__ == "__main__":
    main()
