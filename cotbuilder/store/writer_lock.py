"""One writing process per workspace.

The store lets readers in between a stage's batches (see lease.py), which DuckDB's own file lock no longer prevents
for writers either: two stages in two processes would interleave their batches, and a stage's plan (what it read)
could be stale by the time it commits. `<db>.writer` is therefore locked (POSIX `lockf`) by the process that writes,
for as long as it has a writing store open, and says who holds it, so a second stage stops at once with that in its
message. POSIX locks belong to the process (not inherited by worker processes, released by the kernel when the
process dies, also by SIGKILL), so every writing Store of one process shares one descriptor, counted here.
"""

from __future__ import annotations

import datetime as _dt
import fcntl
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

_held: dict[Path, list[Any]] = {}  # lock path -> [fd, number of stores of this process holding it]
_guard = threading.Lock()


class WorkspaceBusy(RuntimeError):
    """Another process is writing this workspace."""


def acquire(db_path: Path) -> Path:
    path = lock_path(db_path)
    with _guard:
        if path in _held:
            _held[path][1] += 1
            return path
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _note(fd)
            os.close(fd)
            who = f"pid {holder.get('pid')}: {holder.get('command')}" if holder else "another process"
            raise WorkspaceBusy(
                f"another cotbuilder process is writing {db_path.parent} ({who}); wait for it to finish "
                "(`cotbuilder status` shows what runs) or use another --workspace"
            ) from None
        note = {
            "pid": os.getpid(),
            "command": " ".join(["cotbuilder", *sys.argv[1:]])[:300],
            "since": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(note).encode(), 0)
        _held[path] = [fd, 1]
        return path


def release(db_path: Path) -> None:
    path = lock_path(db_path)
    with _guard:
        entry = _held.get(path)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] == 0:
            del _held[path]
            fd = entry[0]
            os.ftruncate(fd, 0)
            os.close(fd)  # closing releases the lock


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".writer")


def read_holder(db_path: Path) -> dict[str, Any] | None:
    """Who writes the workspace now ({pid, command, since}), or None when no process does."""
    path = lock_path(db_path)
    with _guard:
        if path in _held:  # this process: read through its own descriptor (closing another one would drop the lock)
            return _note(_held[path][0])
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            try:  # a shared lock we can take means nobody holds the exclusive one
                fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return None
            except OSError:
                return _note(fd)
        finally:
            os.close(fd)  # also drops the probe's shared lock


def _note(fd: int) -> dict[str, Any] | None:
    try:
        return json.loads(os.pread(fd, 4096, 0) or b"null")
    except ValueError:
        return None
