"""EvalStage: plan the (task, sample index) pairs not yet in `samples` for this teacher, ask + verify each in a
worker (sampling.py), commit the rows, then write the pass@k report.

Resume: a sample's id is a hash of (task, teacher identity, sample index), so a re-run plans only what is missing;
an answer received before a kill is in the response cache (no second request) and a verdict computed before a kill is
in the reward's score cache (no second verification): `samples.score_cached` says which rows came from there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..stages.base import PROCESS, Stage, StageRefused
from ..stages.driver import run_stage
from ..stats import StageStats
from ..store import Store, utcnow
from ..tasks.task import Task
from . import prompts
from .config import EvalConfig
from .sampling import base_row, make_scorer, sample_id, teacher_key, verdict_row
from .teachers import TeacherSpec, make_teacher


@dataclass
class EvalItem:
    task: Task
    index: int
    sample_id: str
    messages: list[dict[str, str]]


class EvalStage(Stage[EvalConfig, EvalItem, dict]):
    name = "eval"
    config_type = EvalConfig
    mode = PROCESS
    batch_size = 8

    def __init__(self, config: EvalConfig):
        super().__init__(config)
        self.spec: TeacherSpec | None = None
        self.identity: dict[str, Any] = {}
        self.key = ""
        self.session: Any = None
        self.cache_root = ""
        self.tasks: list[Task] = []
        self.report_paths: list[str] = []
        self._teacher: Any = None
        self._scorer: Any = None

    def check(self) -> None:
        c = self.config
        try:
            ks = c.ks()
        except ValueError as exc:
            raise StageRefused(str(exc)) from exc
        if ks[-1] > c.samples:
            raise StageRefused(f"-k {ks[-1]} needs at least {ks[-1]} samples per task (--samples {c.samples})")
        if c.mode not in ("full", "kernel_only"):
            raise StageRefused(f"--mode must be full or kernel_only (got {c.mode!r})")
        if c.lang not in ("en", "zh"):
            raise StageRefused(f"--lang must be en or zh (got {c.lang!r})")
        from ..verify import sandbox

        try:
            sandbox.check_isolation(c.allow_weak_sandbox)
        except sandbox.IsolationMissing as exc:
            raise StageRefused(str(exc)) from exc

    def recorded_config(self) -> dict[str, Any]:
        import dataclasses

        return dataclasses.asdict(self.config)  # holds the name of the key's variable, never the key

    def plan(self, store: Store, stats: StageStats) -> list[EvalItem]:
        from ..verify import sandbox
        from .sources import select_tasks

        c = self.config
        self.tasks, problems = select_tasks(store, c.benchmark, c.task_dirs, mode=c.mode, glob=c.task, level=c.level)
        for p in problems:
            stats.fail("bad task", error=p)
        cache_root = store.cache_dir
        self.cache_root = str(cache_root)
        self.spec = TeacherSpec(c.teacher, c.base_url, c.api_key_env, c.temperature, c.max_tokens,
                                cache_dir=str(cache_root / "annotate"))  # fmt: skip
        self.identity = self.spec.identity(prompts.prompt_version())
        self.key = teacher_key(self.identity)
        done = {r["sample_id"] for r in store.rows("SELECT sample_id FROM samples WHERE teacher_key = ?", [self.key])} \
            if store.has_table("samples") else set()  # fmt: skip
        items = []
        for task in self.tasks:
            if c.teacher in ("reference", "static") and not task.answer_files:
                stats.skip("no reference answer")
                continue
            messages = prompts.task_messages(task, c.lang)
            for i in range(c.samples):
                sid = sample_id(task.task_id, self.key, "eval", 0, i, None)
                if sid in done:
                    stats.skip("already sampled")
                    continue
                items.append(EvalItem(task, i, sid, messages))
        if c.limit is not None:
            for _ in items[c.limit :]:
                stats.skip("over --limit")
            items = items[: c.limit]
        if items:
            sandbox.cleanup_dead_runs(store.workspace / "sandbox")
            self.session = sandbox.open_session(store.workspace / "sandbox", allow_missing=c.allow_weak_sandbox)
        return items

    def setup(self) -> None:
        assert self.spec is not None
        self._teacher = make_teacher(self.spec, prompts.prompt_version())
        self._scorer = make_scorer(
            self.cache_root, self.session, self.config.soc, self.config.cpu_s, self.config.wall_s
        )

    def work(self, item: EvalItem) -> dict:
        if self._teacher is None:
            self.setup()
        reply = self._teacher.answer(item.task, item.index, item.messages)
        row = base_row(item.task, item.sample_id, "eval", self.identity, self.key, item.index, 0, None)
        return {**row, **verdict_row(reply, item.task, self._scorer)}

    def commit(self, store: Store, results: list[dict], stats: StageStats) -> None:
        now = utcnow()
        store.insert("samples", [{**r, "created_at": now} for r in results])
        for r in results:
            stats.kept()
            stats.add(r["status"])
            if r["score_cached"]:
                stats.add("verdicts from the score cache")

    def finish(self, store: Store, stats: StageStats) -> None:
        from ..verify import sandbox
        from .report import write_report

        if self.session is not None:
            sandbox.close_session(self.session)
            self.session = None
        if not self.tasks:
            return
        ids = [t.task_id for t in self.tasks]
        rows = store.rows(
            "SELECT * FROM samples WHERE teacher_key = ? AND purpose = 'eval' AND sample_index < ? AND task_id IN "
            f"({', '.join('?' for _ in ids)}) ORDER BY task_name, sample_index",
            [self.key, self.config.samples, *ids],
        )
        self.report_paths, self.summary_lines = write_report(
            store.workspace / "reports", self.identity, rows, self.config.ks(), len(self.tasks)
        )

    def closing_lines(self, stats: StageStats) -> list[str]:
        return [*getattr(self, "summary_lines", []), *(f"report: {p}" for p in self.report_paths)]

    def label(self, item: EvalItem) -> str:
        return f"{item.task.name}#{item.index}"

    def note(self, result: dict) -> str:
        return f"{result['task_name']}#{result['sample_index']}: {result['status']}"


def run(store: Store, config: EvalConfig | None = None) -> StageStats:
    return run_stage(EvalStage(config or EvalConfig()), store)
