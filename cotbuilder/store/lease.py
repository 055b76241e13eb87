"""The store's DuckDB connection, held only while it is used, so that `status` and `query` can read while a stage runs.

DuckDB lets one process write a database file, and while it holds the file no other process can open it, not even to
read. So a writing store opens its connection when it is used and closes it again:
  - when it has been idle for `idle_s` (a stage computing between batches holds nothing), and
  - at the end of the current read or commit when a reader has said that it waits (a marker file in `<db>.readers/`),
    and then lets the reader in before it opens again.
A reader (and a writer) that finds the file held retries until its deadline. What a reader sees is always a whole
number of committed transactions: a DuckDB commit is atomic, and a reader that opens the file replays the committed
write-ahead log, never a transaction in progress.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import uuid
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb

# A reader's marker older than this is left by a reader that died: writers ignore it.
MARKER_STALE_S = 2.0
# How long a writer that is about to open holds back for a waiting reader to get in (then it competes again).
YIELD_TO_READERS_S = 2.0
_REAPER_INTERVAL_S = 0.02


class StoreBusy(RuntimeError):
    """The database file stayed held by another process until the deadline."""


def is_lock_conflict(exc: BaseException) -> bool:
    """True for DuckDB's "another process (or another mode in this process) holds the file" errors."""
    text = str(exc)
    return (isinstance(exc, duckdb.IOException) and "lock" in text.lower()) or (
        isinstance(exc, duckdb.ConnectionException) and "different configuration" in text
    )


class Lease:
    def __init__(
        self,
        path: Path,
        *,
        read_only: bool,
        config: dict[str, Any] | None = None,
        wait_s: float = 600.0,
        idle_s: float | None = 0.2,
    ):
        """`idle_s=None`: keep the connection from first use until close() (short-lived readers)."""
        self.path = path
        self.read_only = read_only
        self.config = dict(config or {})
        self.wait_s = wait_s
        self.idle_s = idle_s
        self.readers_dir = path.with_name(path.name + ".readers")
        self._con: duckdb.DuckDBPyConnection | None = None
        self._lock = threading.RLock()
        self._depth = 0
        self._last_used = 0.0
        self._closed = False
        self.opens = 0  # how many times the file was opened (tests and benchmarks look)

    # -- use -----------------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def connection(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The open connection, for one read or one whole transaction (nested uses share it)."""
        with self._lock:
            if self._closed:
                raise RuntimeError(f"the store {self.path} is closed")
            if self._con is None:
                self._con = self._open()
                if self.idle_s is not None:
                    _reaper.watch(self)
            self._depth += 1
            try:
                yield self._con
            finally:
                self._depth -= 1
                self._last_used = time.monotonic()
                if self._depth == 0 and self.idle_s is not None and readers_waiting(self.readers_dir):
                    self._release()

    def release_if_idle(self, force: bool = False) -> None:
        """Called by the reaper thread: close the connection when nobody uses it and it idled long enough (or a reader
        waits). Never blocks: a connection in use is left alone."""
        if self._con is None or not self._lock.acquire(blocking=False):
            return
        try:
            if self._con is None or self._depth:
                return
            idle = time.monotonic() - self._last_used
            if force or (self.idle_s is not None and idle >= self.idle_s) or readers_waiting(self.readers_dir):
                self._release()
        finally:
            self._lock.release()

    @property
    def is_open(self) -> bool:
        return self._con is not None

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._release()

    # -- open / release ------------------------------------------------------------------------------------------
    def _release(self) -> None:
        if self._con is not None:
            con, self._con = self._con, None
            con.close()

    def _open(self) -> duckdb.DuckDBPyConnection:
        deadline = time.monotonic() + self.wait_s
        marker: Path | None = None
        pause = 0.002
        try:
            while True:
                if not self.read_only:
                    _yield_to_readers(self.readers_dir, min(deadline, time.monotonic() + YIELD_TO_READERS_S))
                try:
                    con = duckdb.connect(str(self.path), read_only=self.read_only, config=self.config)
                    self.opens += 1
                    return con
                except (duckdb.IOException, duckdb.ConnectionException) as exc:
                    if not is_lock_conflict(exc):
                        raise
                    if time.monotonic() >= deadline:
                        raise StoreBusy(
                            f"{self.path} stayed in use by another process for {self.wait_s:g} s: {exc}"
                        ) from exc
                if self.read_only:
                    marker = _announce(self.readers_dir, marker)
                time.sleep(pause)
                pause = min(pause * 2, 0.02)
        finally:
            if marker is not None:
                with contextlib.suppress(OSError):
                    marker.unlink()


# -- readers' markers --------------------------------------------------------------------------------------------------
def _announce(folder: Path, marker: Path | None) -> Path | None:
    """Create (or refresh) this reader's marker; a reader that cannot write there (read-only workspace) just waits."""
    try:
        if marker is None:
            folder.mkdir(exist_ok=True)
            marker = folder / f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        marker.touch()
        return marker
    except OSError:
        return marker


def readers_waiting(folder: Path) -> bool:
    """Is some live reader waiting for the file? (A marker refreshed within MARKER_STALE_S.)"""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return False
    now = time.time()
    for entry in entries:
        try:
            if now - entry.stat().st_mtime < MARKER_STALE_S:
                return True
        except OSError:
            continue
    return False


def _yield_to_readers(folder: Path, until: float) -> None:
    while readers_waiting(folder) and time.monotonic() < until:
        time.sleep(0.002)


# -- the reaper: one daemon thread closes idle connections of every lease in the process ------------------------------
class _Reaper:
    def __init__(self) -> None:
        self._leases: weakref.WeakSet[Lease] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def watch(self, lease: Lease) -> None:
        with self._lock:
            self._leases.add(lease)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cotbuilder-store-reaper", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(_REAPER_INTERVAL_S)
            with self._lock:
                leases = [lease for lease in self._leases if lease.is_open]
                if not leases and not self._leases:
                    self._thread = None
                    return
            for lease in leases:
                lease.release_if_idle()
            del leases


_reaper = _Reaper()
