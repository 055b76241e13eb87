"""The background writer: one thread that does, in the order it is handed them, the work that must not hold up the
requests - teacher answers into the cache (atomic files with fsync), then the repaired unit and gates of each
annotation and its row into DuckDB, in batches (one transaction per batch).

Resuming relies on one order: an answer is in the cache before any row built from it is written. Answers are written
by a few threads at once (each file is fsynced, and parallel fsyncs share the filesystem's journal commits instead of
queueing one behind the other); the row thread waits for every answer handed over before a batch of rows, then writes
the batch. A kill loses at most the rows not yet written, whose answers are already cached, so the resumed run
rebuilds them without a request.

(Gates and schema checks run on the row thread too. A worker process for them was tried and lost: starting one costs
more CPU than the checks of a few hundred annotations, on a machine where the event loop needs that CPU.)
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ..store import Store
from .annotator import Conversation, Outcome, finish_validated


class BackgroundWriter:
    def __init__(self, store: Store, *, make_unit: Any = None, max_rows: int = 64, max_age_s: float = 0.5):
        self.store = store
        self.make_unit = make_unit
        self.max_rows = max_rows
        self.max_age_s = max_age_s
        self.outcomes: list[Outcome] = []  # every stored row, for the stage's counts (read after close())
        self.error: BaseException | None = None
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._cache_writers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="annotate-cache")
        self._unsaved: list[Future] = []  # answers being written (row thread only)
        self._thread = threading.Thread(target=self._work, name="annotate-writer", daemon=True)
        self._thread.start()

    @property
    def failed(self) -> bool:
        """A write failed: the stage stops starting requests whose answers could not be stored."""
        return self.error is not None

    # -- called from the event loop (cheap: a queue put) ------------------------------------------------------------
    def save_answer(self, cache: Any, key: str, response: Any, meta: dict[str, Any]) -> None:
        self._jobs.put(("answer", (cache, key, response, meta)))

    def add(self, conversation: Conversation) -> None:
        self._jobs.put(("row", conversation))

    def close(self) -> None:
        """Write everything handed over so far, stop the thread, raise the first write error if there was one."""
        self._jobs.put(None)
        self._thread.join()
        self._cache_writers.shutdown(wait=True)
        if self.error is not None:
            raise self.error

    # -- the thread ------------------------------------------------------------------------------------------------
    def _work(self) -> None:
        pending: list[Outcome] = []
        oldest = 0.0
        while True:
            timeout = max(0.0, oldest + self.max_age_s - time.monotonic()) if pending else None
            try:
                job = self._jobs.get(timeout=timeout)
            except queue.Empty:
                job = "flush"
            if job is None:
                self._write(pending)
                return
            if job != "flush":
                kind, payload = job
                try:
                    if kind == "answer":
                        cache, key, response, meta = payload
                        self._unsaved.append(self._cache_writers.submit(cache.put, key, response, meta))
                    else:
                        if not pending:
                            oldest = time.monotonic()
                        pending.append(finish_validated(payload, self.make_unit))
                except BaseException as exc:  # noqa: BLE001 -- kept and raised by close(), on the stage's thread
                    self.error = self.error or exc
            if pending and (
                job == "flush" or len(pending) >= self.max_rows or time.monotonic() - oldest >= self.max_age_s
            ):
                self._write(pending)
                pending = []

    def _write(self, batch: list[Outcome]) -> None:
        saving, self._unsaved = self._unsaved, []
        for future in saving:  # every answer handed over so far is on disk before these rows
            if future.exception() is not None:
                self.error = self.error or future.exception()
        if not batch:
            return
        try:
            with self.store.transaction():  # a repaired unit lands together with its annotation or not at all
                units = [o.new_unit for o in batch if o.new_unit is not None]
                if units:
                    self.store.insert("units", units, validate=False)  # checked by finish_validated
                self.store.insert("annotations", [o.row for o in batch], validate=False)
        except BaseException as exc:  # noqa: BLE001
            self.error = self.error or exc
            return
        self.outcomes.extend(batch)
