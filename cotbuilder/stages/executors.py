"""Executors: where a stage's `work(item)` runs. Separate from the stages (as in datatrove), so the same stage runs
in the driver, on a local process pool, on an event loop, or on Ray (ray_executor.py).

An executor's `run(stage, items, ...)` is a generator of events, in completion order:
    Done(index, result)   work(items[index]) returned
    Failed(index, error)  it raised, or its worker died twice (the item fails, the run goes on)
    Tick()                nothing finished for `poll_s` seconds (the driver commits results that waited long enough)
Results stream back to the driver, which alone writes the store; closing the generator cancels the work not started.

The local executor picks by the stage's `mode`:
- process: a process pool (spawned: the driver has DuckDB's threads, so it must not fork) of `stage.workers()`
  processes, each unpickling the stage once and calling its `setup()`. A worker that dies takes the pool down: the
  items the pool held are retried one by one, each in a pool of its own, so only the item that kills its worker
  fails. Workers die with the driver (PR_SET_PDEATHSIG), so a `kill -9` of a stage leaves no worker
  behind.
  With one worker, or one item, `work` runs in the driver's process: no pool to start.
- async: `work` is a coroutine; `stage.workers()` of them run at once on an event loop in a background thread (the
  driver thread keeps committing while requests are in flight).
- driver: in the driver's process, one item after the other.

`make_executor("ray", ...)` gives the Ray executor (ray_executor.py): the same events, `work` on a Ray cluster.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import inspect
import multiprocessing
import os
import pickle
import queue
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

from . import progress as progress_mod
from .base import ASYNC, DRIVER, Stage


@dataclass
class Done:
    index: int
    result: Any


@dataclass
class Failed:
    index: int
    error: str


@dataclass
class Tick:
    pass


Event = Done | Failed | Tick
Notes = Callable[[str, int | None], None]
Counts = Callable[[dict[str, float]], None]


EXECUTORS = ("local", "ray")


def make_executor(
    kind: str = "local", *, ray_address: str | None = None, announce: Callable[[str], None] | None = None
) -> Any:
    """The executor named `kind` ("local": this machine's process pool / event loop; "ray": a Ray cluster at
    `ray_address`). Raises ValueError for an unknown kind, StageRefused (exit 2) when Ray is not installed."""
    if kind == "local":
        return LocalExecutor()
    if kind == "ray":
        from .ray_executor import RayExecutor

        return RayExecutor(ray_address, announce=announce)
    raise ValueError(f"unknown executor {kind!r}: one of {', '.join(EXECUTORS)}")


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}\n" + "".join(traceback.format_exception(exc))[-3000:]


def _maybe_await(value: Any) -> Any:
    return asyncio.run(value) if inspect.isawaitable(value) else value


class LocalExecutor:
    def __init__(self, poll_s: float = 0.5):
        self.poll_s = poll_s

    def run(
        self, stage: Stage, items: list[Any], *, notes: Notes | None = None, counts: Counts | None = None
    ) -> Iterator[Event]:
        workers = max(1, min(stage.workers(), len(items)))
        if stage.mode == ASYNC:
            return self._run_async(stage, items, workers, notes, counts)
        if stage.mode == DRIVER or workers == 1:
            return self._run_here(stage, items, notes, counts)
        return self._run_pool(stage, items, workers, notes)

    # -- in the driver's process ---------------------------------------------------------------------------------
    def _run_here(self, stage: Stage, items: list[Any], notes: Notes | None, counts: Counts | None) -> Iterator[Event]:
        progress_mod.set_note_sink(notes)
        stage.setup()
        try:
            for i, item in enumerate(items):
                try:
                    result = stage.work(item)
                except Exception as exc:
                    if not stage.isolate_failures:
                        raise
                    yield Failed(i, _error(exc))
                else:
                    yield Done(i, result)
        finally:
            progress_mod.set_note_sink(None)
            extra = stage.teardown()
            if extra and counts:
                counts(extra)

    # -- a process pool ------------------------------------------------------------------------------------------
    def _run_pool(self, stage: Stage, items: list[Any], workers: int, notes: Notes | None) -> Iterator[Event]:
        """A worker that dies breaks the whole pool, and every item it held fails with it. Those items are tried again
        one at a time, each in a pool of its own: the innocent ones pass, the one that kills its worker fails alone."""
        # spawn, not fork (the driver has DuckDB's threads) nor forkserver (its children would be the forkserver's, which
        # stays up as long as they do, so they could not die with the driver).
        mp = multiprocessing.get_context("spawn")
        pool_args = (mp, pickle.dumps(stage), mp.SimpleQueue() if notes else None, notes)
        pending = list(range(len(items)))
        suspects: list[int] = []
        while pending:
            lost, pending = yield from self._pool_round(stage, items, pending, workers, *pool_args)
            suspects += lost
        deaths_in_a_row = 0
        for i in suspects:
            if deaths_in_a_row >= 3:  # workers die whatever they run (a broken setup): stop starting new ones
                yield Failed(i, "worker died: three workers in a row died on their single item; not retried")
                continue
            lost, _ = yield from self._pool_round(stage, items, [i], 1, *pool_args)
            deaths_in_a_row = deaths_in_a_row + 1 if lost else 0
            if lost:
                yield Failed(i, "worker died: the process running this item exited (crash, OOM kill) twice")

    def _pool_round(
        self,
        stage: Stage,
        items: list[Any],
        indices: list[int],
        workers: int,
        mp: Any,
        blob: bytes,
        note_queue: Any,
        notes: Notes | None,
    ) -> Generator[Event, None, tuple[list[int], list[int]]]:
        """Run `indices` on one pool until they are done or it breaks: (items lost with it, items never handed out)."""
        pool = cf.ProcessPoolExecutor(
            max_workers=workers, mp_context=mp, initializer=_init_worker, initargs=(blob, os.getpid(), note_queue)
        )
        waiting = deque(indices)
        window = 4 * workers  # items handed to the pool ahead of time (all at once would pickle every item upfront)
        running: dict[cf.Future, int] = {}
        lost: list[int] = []
        broken = clean = False
        try:
            while (waiting and not broken) or running:
                while waiting and not broken and len(running) < window:
                    i = waiting.popleft()
                    try:
                        running[pool.submit(_work, items[i])] = i
                    except cf.process.BrokenProcessPool:
                        waiting.appendleft(i)
                        broken = True
                done, _ = cf.wait(running, timeout=self.poll_s, return_when=cf.FIRST_COMPLETED)
                _drain(note_queue, notes)
                if not done:
                    yield Tick()
                    continue
                for fut in done:
                    i = running.pop(fut)
                    try:
                        result = fut.result()
                    except cf.process.BrokenProcessPool:
                        broken = True
                        lost.append(i)
                    except Exception as exc:  # work raised (or its result did not pickle)
                        if not stage.isolate_failures:
                            raise
                        yield Failed(i, _error(exc))
                    else:
                        yield Done(i, result)
            clean = True
        finally:
            _drain(note_queue, notes)
            _close_pool(pool, kill=not clean)
        return lost, list(waiting)

    # -- an event loop -------------------------------------------------------------------------------------------
    def _run_async(
        self, stage: Stage, items: list[Any], workers: int, notes: Notes | None, counts: Counts | None
    ) -> Iterator[Event]:
        out: queue.SimpleQueue = queue.SimpleQueue()
        stop = threading.Event()
        loop_box: dict[str, Any] = {}
        end = object()

        async def main() -> None:
            loop_box["loop"] = asyncio.get_running_loop()
            try:
                await _await_if_needed(stage.setup())
            except Exception as exc:  # noqa: BLE001 -- raised again in the driver thread
                out.put((end, exc))
                return
            todo = iter(enumerate(items))

            async def worker() -> None:
                for i, item in todo:
                    if stop.is_set():
                        return
                    try:
                        out.put(Done(i, await stage.work(item)))
                    except Exception as exc:
                        if not stage.isolate_failures:
                            stop.set()
                            out.put((end, exc))  # the driver raises it; teardown's counts are lost with the run
                            return
                        out.put(Failed(i, _error(exc)))

            tasks = [asyncio.ensure_future(worker()) for _ in range(workers)]
            loop_box["tasks"] = tasks
            extra = None
            try:
                await asyncio.gather(*tasks, return_exceptions=True)
            finally:
                try:
                    extra = await _await_if_needed(stage.teardown())
                finally:
                    out.put((end, extra))

        def thread_main() -> None:
            progress_mod.set_note_sink(notes)
            try:
                asyncio.run(main())
            except BaseException as exc:  # noqa: BLE001 -- surfaced in the driver thread
                out.put((end, exc))

        thread = threading.Thread(target=thread_main, name=f"{stage.name}-loop", daemon=True)
        thread.start()
        completed = False
        try:
            while True:
                try:
                    event = out.get(timeout=self.poll_s)
                except queue.Empty:
                    yield Tick()
                    continue
                if isinstance(event, tuple) and event[0] is end:
                    if isinstance(event[1], BaseException):
                        raise event[1]
                    completed = True
                    if event[1] and counts:
                        counts(event[1])
                    return
                yield event
        finally:
            if not completed:
                stop.set()
                loop, tasks = loop_box.get("loop"), loop_box.get("tasks") or []
                if loop is not None:
                    with contextlib.suppress(RuntimeError):  # the loop already closed
                        loop.call_soon_threadsafe(lambda: [t.cancel() for t in tasks])
            thread.join()
            if not completed:
                while not out.empty():  # teardown's counts, if the loop got that far
                    event = out.get()
                    if isinstance(event, tuple) and event[0] is end and isinstance(event[1], dict) and counts:
                        counts(event[1])


async def _await_if_needed(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _drain(note_queue: Any, notes: Notes | None) -> None:
    if note_queue is None or notes is None:
        return
    while not note_queue.empty():
        label, done = note_queue.get()
        notes(label, done)


def _close_pool(pool: cf.ProcessPoolExecutor, *, kill: bool) -> None:
    """Normal end: wait for the workers to exit. Early end (stop, Ctrl-C, a crash in the driver): work already running
    is abandoned, so the workers are killed rather than waited for (a unit may take minutes)."""
    if kill:
        # ProcessPoolExecutor (Python < 3.14) has no public way to stop running work; its process table is the only
        # handle on the workers.
        for proc in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                proc.kill()
    pool.shutdown(wait=True, cancel_futures=True)


# -- inside a pool process ------------------------------------------------------------------------------------------
_stage: Stage | None = None
_setup_error: str | None = None


def _init_worker(blob: bytes, driver_pid: int, note_queue: Any) -> None:
    global _stage, _setup_error
    die_with_parent(driver_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle; it then stops the pool
    if note_queue is not None:
        progress_mod.set_note_sink(lambda label, done: note_queue.put((label, done)))
    try:
        _stage = pickle.loads(blob)
        _maybe_await(_stage.setup())
    except Exception as exc:  # noqa: BLE001 -- every item of this worker fails with it, instead of a silent hang
        _setup_error = f"worker setup failed: {_error(exc)}"


def _work(item: Any) -> Any:
    if _setup_error is not None:
        raise RuntimeError(_setup_error)
    assert _stage is not None
    return _stage.work(item)


def die_with_parent(driver_pid: int) -> None:
    """Ask Linux to SIGKILL this process when its parent (the driver) dies, and if the driver is already gone, go now.
    Elsewhere a no-op: the pool's own shutdown is all there is."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != driver_pid:  # the driver died before the request took effect: we are an orphan already
        os._exit(1)
