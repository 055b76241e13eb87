"""What a stage is: one small object with three parts, in the spirit of datatrove's PipelineStep.

    plan(store, stats)            -> the items still to do (driver; reads the store; the one resume rule: an item whose
                                     content-hash key is already stored is counted `skipped` and not planned)
    work(item)                    -> a result (anywhere: a pool process, the event loop, a Ray task; pure and
                                     picklable: no store, no console)
    commit(store, results, stats)    (driver; the only writer; called with a batch inside one store transaction)

Everything else is the base's job (`stages/driver.py`): counting into StageStats, the `runs` row, progress callbacks,
batching results into transactions, and choosing where `work` runs (`stages/executors.py`).

The stage object carries its config (and whatever `plan` prepared for the workers, e.g. a benchmark index) to where
`work` runs: it is pickled once per worker, so nothing on it may hold the store, a console or an open connection until
`setup()` builds such things on the worker side.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

if TYPE_CHECKING:
    from ..stats import StageStats
    from ..store import Store

ConfigT = TypeVar("ConfigT")
ItemT = TypeVar("ItemT")
ResultT = TypeVar("ResultT")

# Where `work` runs (the executor decides how, see executors.py):
PROCESS = "process"  # CPU-bound: a process pool of `workers()` processes (in the driver itself when one is enough)
ASYNC = "async"  # I/O-bound: `work` is a coroutine; `workers()` of them run at once on one event loop
DRIVER = "driver"  # must run beside the driver (e.g. publishing a folder the driver then moves): in its process


class StageRefused(Exception):
    """The stage cannot run with these settings or on this machine. One line for the user, exit 2; raised before
    anything is stored when it comes from `check()`."""


class Stage(Generic[ConfigT, ItemT, ResultT]):
    name: ClassVar[str] = ""  # the registry verb; also `runs.stage`
    config_type: ClassVar[type] = object
    mode: ClassVar[str] = PROCESS
    batch_size: ClassVar[int] = 64  # results committed per transaction ...
    batch_seconds: ClassVar[float] = 1.0  # ... or fewer, once the oldest waiting result is this old
    # Exceptions by which the stage's own code refuses its input (bad manifest, no CANN, ...): the driver turns them
    # into StageRefused (exit 2, the pipeline stops with "refused" rather than "crashed").
    refusals: ClassVar[tuple[type[BaseException], ...]] = ()
    # True: an item whose `work` raises fails alone (counted, the run goes on). False: the exception ends the run
    # (a stage that is all or nothing, like publishing).
    isolate_failures: ClassVar[bool] = True

    def __init__(self, config: ConfigT):
        self.config = config

    # -- driver side -------------------------------------------------------------------------------------------------
    def check(self) -> None:
        """Refuse settings that cannot work, before the store is opened (raise StageRefused or one of `refusals`)."""

    def plan(self, store: Store, stats: StageStats) -> list[ItemT]:
        """The items still to do. Count what is already done with `stats.skip(reason)`."""
        raise NotImplementedError

    def commit(self, store: Store, results: list[ResultT], stats: StageStats) -> None:
        """Write a batch of results (the driver holds a transaction around this call) and count them."""
        raise NotImplementedError

    def finish(self, store: Store, stats: StageStats) -> None:
        """After the last batch (also when nothing was planned): reports, table-wide clean-up."""

    def failed(self, item: ItemT, error: str, stats: StageStats) -> None:
        """`work` raised, or its worker died twice: that item fails, the run goes on."""
        stats.fail("worker error", item=self.label(item), error=error)

    def recorded_config(self) -> dict[str, Any]:
        """The config as `runs.config` keeps it (override to redact credentials)."""
        return dataclasses.asdict(self.config)

    def workers(self) -> int:
        """How many `work` calls may run at once."""
        return max(1, int(getattr(self.config, "jobs", 1) or 1))

    def task_resources(self) -> dict[str, float]:
        """What one `work` call occupies, for an executor that places work by resources (Ray): "CPU" cores,
        "memory" bytes, and any custom resource a node advertises ("NPU" on Ascend nodes). The local pool ignores it
        (its size is `workers()`). Default: a core for CPU-bound work, none for I/O-bound and in-driver work."""
        return {"CPU": 1.0} if self.mode == PROCESS else {"CPU": 0.0}

    def wants_progress(self) -> bool:
        return bool(getattr(self.config, "progress", True))

    def stop_reason(self) -> str | None:
        """Checked after every commit: a reason ends the run early (work not yet started is dropped)."""
        return None

    def label(self, item: ItemT) -> str:
        return str(item)[:80]

    def note(self, result: ResultT) -> str:
        """A few words on the progress bar about the result just committed."""
        return ""

    def log_lines(self, result: ResultT) -> list[str]:
        """Lines printed above the progress bar once `result` is committed (rich markup allowed)."""
        return []

    def explain_failure(self, exc: BaseException) -> str | None:
        """One line for an expected failure outside cotbuilder (network, a remote service): the verb prints it and
        exits 1 instead of a traceback. None: not such a failure."""
        return None

    def closing_lines(self, stats: StageStats) -> list[str]:
        """Lines the CLI prints after the stats table (e.g. where a report was written)."""
        return []

    # -- worker side -------------------------------------------------------------------------------------------------
    def setup(self) -> None:
        """Build what `work` shares on this worker (clients, caches); may be a coroutine for async stages."""

    def work(self, item: ItemT) -> ResultT:
        raise NotImplementedError

    def teardown(self) -> dict[str, float] | None:
        """Release what setup built; may return counts to add to the stats (async and in-driver workers only: a
        pool process's counts must ride on its results). May be a coroutine for async stages."""
        return None
