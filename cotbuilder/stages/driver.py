"""Run one stage: plan, hand the items to an executor, commit the results in batches, count, write the `runs` row.

This is the base's part of every stage, written once: a stage only says what is left to do, how one item is done and
how results are written. A batch is committed in one store transaction when it holds `stage.batch_size` results or
its oldest result has waited `stage.batch_seconds`; a kill loses at most the results not yet committed, never part of
a batch. Progress advances when a result is committed, so what the user sees as done is stored.
"""

from __future__ import annotations

import time
from typing import Any

from ..stats import StageStats, stage_run
from ..store import Store
from .base import Stage, StageRefused
from .executors import Done, Failed, LocalExecutor
from .progress import NoProgress, Progress


def check(stage: Stage) -> None:
    """The stage's own settings check, its refusals made StageRefused (call before opening the store; once)."""
    if getattr(stage, "_checked", False):
        return
    try:
        stage.check()
    except stage.refusals as exc:
        raise StageRefused(str(exc)) from exc
    stage._checked = True  # type: ignore[attr-defined]


def run_stage(stage: Stage, store: Store, *, executor: Any = None, progress: Progress | None = None) -> StageStats:
    """Run `stage` against `store`; StageRefused if it refuses its settings or input (its `runs` row says so)."""
    check(stage)
    progress = progress or NoProgress()
    with stage_run(store, stage.name, stage.recorded_config()) as stats:
        try:
            _drive(stage, store, stats, executor or LocalExecutor(), progress)
        except stage.refusals as exc:
            raise StageRefused(str(exc)) from exc
    return stats


def _drive(stage: Stage, store: Store, stats: StageStats, executor: Any, progress: Progress) -> None:
    items = stage.plan(store, stats)
    if items:
        _execute(stage, store, stats, executor, progress, items)
    stage.finish(store, stats)


def _execute(
    stage: Stage, store: Store, stats: StageStats, executor: Any, progress: Progress, items: list[Any]
) -> None:
    batch: list[Any] = []
    oldest = 0.0

    def commit() -> None:
        if not batch:
            return
        with store.transaction():
            stage.commit(store, batch, stats)
        for result in batch:
            progress.advance(stage.note(result), stage.log_lines(result))
        batch.clear()

    def add_counts(counts: dict[str, float]) -> None:
        for key, value in counts.items():
            stats.add(key, value)

    progress.start(stage.name, len(items))
    events = executor.run(stage, items, notes=progress.note, counts=add_counts)
    try:
        for event in events:
            if isinstance(event, Done):
                if not batch:
                    oldest = time.monotonic()
                batch.append(event.result)
            elif isinstance(event, Failed):
                stage.failed(items[event.index], event.error, stats)
                progress.advance("failed")
            if batch and (len(batch) >= stage.batch_size or time.monotonic() - oldest >= stage.batch_seconds):
                commit()
                if stage.stop_reason():
                    break
        commit()
    except KeyboardInterrupt:
        commit()  # finished work is kept; only work in flight is lost
        raise
    finally:
        events.close()
        progress.finish()
