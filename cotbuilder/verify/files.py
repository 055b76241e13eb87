"""Moving files across the sandbox wall without trusting what the unit left behind.

After untrusted code ran in a work dir, any name in it may be a symlink, a FIFO, a device node or a huge file. The
parent therefore never opens a path there by name: it walks from a directory fd with O_NOFOLLOW at every component,
accepts regular files only, and reads at most a cap (`read_tree`, `read_file`). Into a sandbox it writes only fresh
directories it just created itself (`write_tree`), before any untrusted code ran in them.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path, PurePosixPath

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
MAX_FILE = 1 << 30  # one file copied out of a sandbox
MAX_TOTAL = 2 << 30  # everything copied out of one step


class Unsafe(ValueError):
    """A path in the sandbox that is not a plain file or directory (a symlink, FIFO, device) or is too large."""


def _read_fd(fd: int, cap: int, name: str) -> bytes:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise Unsafe(f"{name} is not a regular file")
    if info.st_size > cap:
        raise Unsafe(f"{name} is larger than {cap} bytes")
    chunks, total = [], 0
    while True:
        data = os.read(fd, 1 << 20)
        if not data:
            break
        total += len(data)
        if total > cap:
            raise Unsafe(f"{name} is larger than {cap} bytes")
        chunks.append(data)
    return b"".join(chunks)


def _open_dir(root: Path, parts: tuple[str, ...]) -> int:
    fd = os.open(root, _DIR_FLAGS)
    try:
        for part in parts:
            nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = nxt
    except OSError:
        os.close(fd)
        raise
    return fd


def read_file(root: Path, rel: str, cap: int = MAX_FILE) -> bytes | None:
    """The bytes of `root/rel` if it is a regular file reached without following any symlink; None when absent.
    Raises Unsafe for a symlink, FIFO, device or a file over `cap`."""
    parts = PurePosixPath(rel).parts
    if not parts or any(p in ("..", "/") for p in parts):
        raise Unsafe(f"{rel} leaves the work dir")
    try:
        dfd = _open_dir(root, parts[:-1])
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Unsafe(f"{rel}: {exc.strerror}") from exc
    try:
        try:
            fd = os.open(parts[-1], _FILE_FLAGS, dir_fd=dfd)
        except FileNotFoundError:
            return None
        except OSError as exc:  # ELOOP: a symlink
            raise Unsafe(f"{rel}: {exc.strerror}") from exc
        try:
            return _read_fd(fd, cap, rel)
        finally:
            os.close(fd)
    finally:
        os.close(dfd)


def read_tree(root: Path, sub: str = "", total_cap: int = MAX_TOTAL) -> tuple[dict[str, bytes], list[str]]:
    """Every regular file under `root/sub` -> bytes (paths relative to root), walking by directory fd without
    following symlinks; plus the names skipped as unsafe (symlinks, FIFOs, devices, over the caps)."""
    files: dict[str, bytes] = {}
    skipped: list[str] = []
    total = 0
    parts = PurePosixPath(sub).parts if sub else ()
    try:
        top = _open_dir(root, parts)
    except FileNotFoundError:
        return files, skipped
    except OSError:
        return files, [sub]
    stack = [(top, "/".join(parts))]
    while stack:
        dfd, prefix = stack.pop()
        try:
            for entry in os.scandir(dfd):
                rel = f"{prefix}/{entry.name}" if prefix else entry.name
                if entry.is_dir(follow_symlinks=False):
                    try:
                        stack.append((os.open(entry.name, _DIR_FLAGS, dir_fd=dfd), rel))
                    except OSError:
                        skipped.append(rel)
                    continue
                if not entry.is_file(follow_symlinks=False):
                    skipped.append(rel)
                    continue
                try:
                    fd = os.open(entry.name, _FILE_FLAGS, dir_fd=dfd)
                except OSError:
                    skipped.append(rel)
                    continue
                try:
                    data = _read_fd(fd, min(MAX_FILE, total_cap - total), rel)
                except Unsafe:
                    skipped.append(rel)
                    continue
                finally:
                    os.close(fd)
                total += len(data)
                files[rel] = data
        finally:
            os.close(dfd)
    return dict(sorted(files.items())), sorted(skipped)


def write_tree(dest: Path, files: dict[str, bytes], executable: tuple[str, ...] = ()) -> None:
    """Write `files` (relative path -> bytes) into `dest`, a directory the caller has just created and no untrusted
    code has run in yet (so no name in it can be a planted symlink)."""
    for rel, data in files.items():
        parts = PurePosixPath(rel).parts
        if not parts or ".." in parts or PurePosixPath(rel).is_absolute():
            continue
        target = dest.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if rel in executable or rel.endswith((".sh", ".py")):
            target.chmod(0o755)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
