"""The Ray executor: the same stages, their `work` run as Ray tasks on a cluster (or on a local Ray started here).

It is an executor like the local one (executors.py): `run(stage, items, ...)` yields Done / Failed / Tick events in
completion order, and the driver (this process) alone commits, in batches. What changes is where `work` runs:

- process stages (crawl, verify, dedup, decontaminate): one Ray task per item, with the resources the stage asks for
  per call (`Stage.task_resources()`: verify 1 CPU + the memory of one build; dedup 1 CPU per shard; `npu:N`
  verification one `NPU`, the resource Ray advertises on Ascend nodes). The stage is put in Ray's object store once;
  each worker process unpickles it and runs `setup()` once per run, as a pool process does.
  A worker lost mid-task (crash, OOM kill, node lost) is retried by Ray (`max_retries`); an item whose every attempt
  loses its worker fails alone ("worker died"), as on the local pool. An exception raised by `work` is not retried: it
  is the item's failure (the same code would raise again).
- async stages (annotate): one Ray actor runs the event loop, with `stage.workers()` calls in flight at once: the
  teacher's concurrency, request rate, token rate and budget are one set of limits for the whole run (several actors
  would each need a share of them).
- driver stages (push): in this process, as locally.

At most a window of tasks is in flight (twice what the cluster's resources can run at once), so a million items are
not all serialised into the object store upfront. Closing the event generator (Ctrl-C, a stop reason) cancels the
tasks still running. If the driver dies, Ray ends its job and the job's tasks; the next run plans from the store as
after any kill, so nothing committed is redone.

What a Ray worker needs: the same cotbuilder and dependencies as the driver (a Ray cluster's nodes share one image),
and, for stages with a cache folder (verify's builds, annotate's responses, crawl's clones), the workspace's cache
path reachable on every node (a shared file system; on one machine it is simply there). Progress notes from inside
one item (`stages.progress.note`) are not forwarded from Ray workers; the bar advances per committed result.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import os
import traceback
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from typing import Any

from .base import ASYNC, DRIVER, Stage, StageRefused
from .executors import Counts, Done, Event, Failed, LocalExecutor, Notes, Tick

MAX_RETRIES = 3  # attempts after the first when a worker is lost (Ray's own default for tasks)


class RayUnavailable(StageRefused):
    """Ray is not installed, the cluster cannot be reached, or no node has what the stage asks for: one line for the
    user, exit 2 (as any stage that cannot run here)."""


def require_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(
            "--executor ray needs Ray, which is not installed: pip install 'cotbuilder[ray]'"
        ) from None
    return ray


def ray_options(stage: Stage, *, max_retries: int = MAX_RETRIES) -> dict[str, Any]:
    """The Ray options of one `work` call of `stage`: its resources (`Stage.task_resources()`, CPU -> num_cpus,
    memory -> memory, anything else -> a custom resource such as NPU) and the retry policy."""
    need = dict(stage.task_resources())
    options: dict[str, Any] = {"num_cpus": float(need.pop("CPU", 0.0))}
    memory = need.pop("memory", 0)
    if memory:
        options["memory"] = int(memory)
    if need:
        options["resources"] = {k: float(v) for k, v in need.items()}
    if stage.mode == ASYNC:
        options.update(max_concurrency=stage.workers(), max_restarts=max_retries, max_task_retries=max_retries)
    else:
        options.update(max_retries=max_retries, retry_exceptions=False)
    return options


class RayExecutor:
    def __init__(
        self,
        address: str | None = None,
        *,
        poll_s: float = 0.5,
        max_retries: int = MAX_RETRIES,
        announce: Callable[[str], None] | None = None,
    ):
        """`address`: a Ray cluster (`ray://host:10001`, `host:6379`, `auto`), `local` for a new one-machine cluster,
        or None for Ray's own rule ($RAY_ADDRESS, else a cluster started with `ray start` here, else a new local one).
        If this process is already connected (ray.init was called), that connection is used."""
        self.address = address
        self.poll_s = poll_s
        self.max_retries = max_retries
        self.announce = announce
        require_ray()  # fail before any stage starts, not at its first item

    def connect(self) -> Any:
        ray = require_ray()
        if not ray.is_initialized():
            try:
                ray.init(
                    address=self.address,
                    include_dashboard=False,
                    log_to_driver=False,  # a task's stray prints are not the user's console
                    logging_level=logging.WARNING,
                )
            except (ConnectionError, ValueError, RuntimeError) as exc:
                where = self.address or os.environ.get("RAY_ADDRESS") or "a local cluster"
                hint = ""
                if "auth" in str(exc).lower() and os.environ.get("RAY_AUTH_MODE") != "token":
                    # Ray >= 2.5x starts clusters with token authentication; a given address does not turn it on
                    hint = " (a cluster with token authentication: set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN_PATH)"
                raise RayUnavailable(f"cannot start or reach Ray ({where}){hint}: {_first_line(exc)}") from exc
            if self.announce:
                cpus = ray.cluster_resources().get("CPU", 0)
                nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
                self.announce(f"Ray: {nodes} node(s), {cpus:g} CPUs ({ray.get_runtime_context().gcs_address})")
        return ray

    def run(
        self, stage: Stage, items: list[Any], *, notes: Notes | None = None, counts: Counts | None = None
    ) -> Iterator[Event]:
        if stage.mode == DRIVER:
            return LocalExecutor(self.poll_s)._run_here(stage, items, notes, counts)
        ray = self.connect()
        if stage.mode == ASYNC:
            return self._run_actor(ray, stage, items, counts)
        return self._run_tasks(ray, stage, items)

    # -- one task per item ---------------------------------------------------------------------------------------
    def _run_tasks(self, ray: Any, stage: Stage, items: list[Any]) -> Iterator[Event]:
        options = ray_options(stage, max_retries=self.max_retries)
        _check_feasible(ray, stage, options)
        remote = ray.remote(_work_in_task).options(**options)
        box = [ray.put(stage)]  # in a list, so Ray passes the reference and the worker fetches it once per run
        token = uuid.uuid4().hex

        def submit(i: int) -> Any:
            return remote.remote(token, box, items[i])

        yield from self._stream(ray, stage, len(items), submit, _window(ray, options), cancel=_cancel_tasks(ray))

    # -- one actor, its event loop running `workers()` calls at once ---------------------------------------------
    def _run_actor(self, ray: Any, stage: Stage, items: list[Any], counts: Counts | None) -> Iterator[Event]:
        actor = ray.remote(_AsyncStageActor).options(**ray_options(stage, max_retries=self.max_retries))
        handle = actor.remote([ray.put(stage)])
        try:

            def submit(i: int) -> Any:
                return handle.work.remote(items[i])

            yield from self._stream(ray, stage, len(items), submit, stage.workers(), cancel=lambda refs: None)
            try:
                extra = ray.get(handle.teardown.remote())
            except ray.exceptions.RayError:  # the actor is gone (its calls already failed): its counts with it
                extra = None
            if extra and counts:
                counts(extra)
        finally:
            with contextlib.suppress(Exception):
                ray.kill(handle)

    # -- the common loop: a window of calls in flight, results in completion order --------------------------------
    def _stream(
        self,
        ray: Any,
        stage: Stage,
        total: int,
        submit: Callable[[int], Any],
        window: int,
        *,
        cancel: Callable[[list[Any]], None],
    ) -> Iterator[Event]:
        waiting = deque(range(total))
        running: dict[Any, int] = {}
        try:
            while waiting or running:
                while waiting and len(running) < window:
                    i = waiting.popleft()
                    running[submit(i)] = i
                ready, _ = ray.wait(list(running), num_returns=1, timeout=self.poll_s)
                if not ready:
                    yield Tick()
                    continue
                rest = [r for r in running if r not in ready]
                if rest:
                    more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
                    ready += more
                for ref in ready:
                    i = running.pop(ref)
                    yield self._outcome(ray, stage, i, ref)
        finally:
            if running:
                cancel(list(running))

    def _outcome(self, ray: Any, stage: Stage, i: int, ref: Any) -> Event:
        from ray import exceptions as rx

        try:
            return Done(i, ray.get(ref))
        except rx.RayTaskError as exc:  # `work` raised: the item's own failure, not retried
            cause = exc.cause if isinstance(exc.cause, BaseException) else exc
            if not stage.isolate_failures:
                raise cause from None
            return Failed(i, _task_error(cause, exc))
        except (rx.WorkerCrashedError, rx.OutOfMemoryError, rx.NodeDiedError, rx.ActorDiedError) as exc:
            return Failed(
                i,
                f"worker died: the process running this item was lost {self.max_retries + 1} times "
                f"(crash, OOM kill, node lost): {type(exc).__name__}: {str(exc).strip()[:500]}",
            )
        except rx.RayError as exc:  # unschedulable, object lost, ...: the item fails, the run goes on
            if not stage.isolate_failures:
                raise
            return Failed(i, f"{type(exc).__name__}: {str(exc).strip()[:2000]}")


def _check_feasible(ray: Any, stage: Stage, options: dict[str, Any]) -> None:
    """A task asking for a resource no node has would wait forever (Ray keeps it pending for an autoscaler): refuse
    instead, naming what is missing. Checked against the cluster's total, so a busy cluster is not refused."""
    have = ray.cluster_resources()
    need = {"CPU": options.get("num_cpus", 0), **options.get("resources", {})}
    missing = [f"{k} {v:g} (cluster has {have.get(k, 0):g})" for k, v in need.items() if v and have.get(k, 0) < v]
    if missing:
        raise RayUnavailable(
            f"{stage.name}: no node of the Ray cluster offers what one item needs: {', '.join(missing)}"
        )


def _window(ray: Any, options: dict[str, Any]) -> int:
    """Twice as many calls in flight as the cluster can run at once (by its most limiting resource)."""
    have = ray.cluster_resources()
    need = {"CPU": options.get("num_cpus", 0), "memory": options.get("memory", 0), **options.get("resources", {})}
    slots = [have.get(k, 0) / v for k, v in need.items() if v]
    return max(2, int(2 * min(slots))) if slots else 64


def _cancel_tasks(ray: Any) -> Callable[[list[Any]], None]:
    def cancel(refs: list[Any]) -> None:
        for ref in refs:  # force: a unit's build may take minutes; its worker is killed, not waited for
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)

    return cancel


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:500]


def _task_error(cause: BaseException, exc: BaseException) -> str:
    text = f"{type(cause).__name__}: {cause}\n"
    return text + (str(exc) if cause is not exc else "".join(traceback.format_exception(exc)))[-3000:]


# -- inside a Ray worker process --------------------------------------------------------------------------------------
_STAGES: OrderedDict[str, tuple[Stage | None, str | None]] = OrderedDict()  # run token -> (stage, setup error)


def _work_in_task(token: str, box: list[Any], item: Any) -> Any:
    """One item's `work`, in a Ray worker. The stage is fetched and set up once per worker and run (a worker process
    serves many tasks in a row); a setup that fails fails every item of this worker with its error."""
    entry = _STAGES.get(token)
    if entry is None:
        import ray

        try:
            stage = ray.get(box[0])
            _maybe_run(stage.setup())
            entry = (stage, None)
        except Exception as exc:  # noqa: BLE001 -- raised for each item below, with the cause
            entry = (None, f"worker setup failed: {type(exc).__name__}: {exc}")
        _STAGES[token] = entry
        while len(_STAGES) > 2:  # earlier runs' stages (a long-lived worker serves several stages in turn)
            _STAGES.popitem(last=False)
    stage, error = entry
    if error is not None:
        raise RuntimeError(error)
    assert stage is not None
    return stage.work(item)


def _maybe_run(value: Any) -> Any:
    if inspect.isawaitable(value):
        import asyncio

        return asyncio.run(value)
    return value


class _AsyncStageActor:
    """An async stage on one event loop (Ray runs an actor whose methods are coroutines on its own loop)."""

    def __init__(self, box: list[Any]):
        self._box = box
        self._stage: Stage | None = None
        self._ready: Any = None

    async def _stage_ready(self) -> Stage:
        import asyncio

        if self._ready is None:
            self._ready = asyncio.ensure_future(self._setup())
        await self._ready
        assert self._stage is not None
        return self._stage

    async def _setup(self) -> None:
        stage = await self._box[0]
        setup = stage.setup()
        if inspect.isawaitable(setup):
            await setup
        self._stage = stage

    async def work(self, item: Any) -> Any:
        stage = await self._stage_ready()
        return await stage.work(item)

    async def teardown(self) -> dict[str, float] | None:
        if self._stage is None:
            return None
        extra = self._stage.teardown()
        return await extra if inspect.isawaitable(extra) else extra
