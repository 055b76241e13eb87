"""The stage driver: plan, execute, commit in batches inside transactions, count, write the `runs` row."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stage_kit import KitConfig, ListedStage  # noqa: E402

from cotbuilder.stages.base import StageRefused  # noqa: E402
from cotbuilder.stages.driver import run_stage  # noqa: E402
from cotbuilder.store import Store  # noqa: E402


class Recorder:
    def __init__(self, stage):
        self.stage = stage
        self.total = None

    def start(self, stage, total):
        self.total = total

    def advance(self, note="", lines=None):
        self.stage.events.append("advance")

    def note(self, label, done):
        pass

    def finish(self):
        self.stage.events.append("finish")


def test_results_are_committed_in_batches_and_shown_done_only_after_their_commit(workspace):
    stage = ListedStage(KitConfig(jobs=1))  # batch_size 2
    progress = Recorder(stage)
    with Store(workspace) as store:
        stats = run_stage(stage, store, progress=progress)
        run = store.rows("SELECT stage, status, counts FROM runs")
    assert stage.batches == [["a", "b"], ["c", "d"], ["e"]]
    assert stage.events == ["commit", "advance", "advance"] * 2 + ["commit", "advance", "finish"]
    assert progress.total == 5 and stats.counts["kept"] == 5
    assert run == [{"stage": "kit", "status": "ok", "counts": {"kept": 5}}]


def test_failed_items_are_counted_with_their_error_and_the_run_is_partial(workspace):
    stage = ListedStage(KitConfig(jobs=2, raise_on=["x"]))
    with Store(workspace) as store:
        stats = run_stage(stage, store)
        status = store.scalar("SELECT status FROM runs")
    assert stats.counts["kept"] == 5 and stats.counts["failed"] == 1
    assert stats.errors[0]["item"] == "x" and "bad item x" in stats.errors[0]["error"]
    assert status == "partial"


class Refusing(ListedStage):
    def plan(self, store, stats):
        raise StageRefused("no such benchmark")


def test_a_refusal_in_plan_is_recorded_as_refused_not_as_a_crash(workspace):
    with Store(workspace) as store:
        with pytest.raises(StageRefused, match="no such benchmark"):
            run_stage(Refusing(KitConfig()), store)
        (run,) = store.rows("SELECT status, reasons, errors FROM runs")
    assert run["status"] == "failed" and run["reasons"] == {"failed: refused": 1}
    assert run["errors"][0]["error"] == "no such benchmark"
