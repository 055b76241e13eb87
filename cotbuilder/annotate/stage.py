"""annotate stage: `run(store, config) -> StageStats`.

For every unit (x samples) that has no annotation under this teacher/prompt/params yet: ask the teacher (concurrently,
rate-limited, cached, budgeted), check the answer with the gates, and write the row - one transaction per record.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..stats import StageStats, stage_run
from ..store import Store
from .annotator import annotate_item, annotation_id, teacher_record
from .cache import ResponseCache
from .client import RequestRejected
from .config import AnnotateConfig
from .facts import unit_facts
from .repair import REPAIRABLE, kernel_file, latest_verifications, make_repaired_unit
from .requester import Budget, BudgetExhausted, FatalTeacherError, GaveUp, Requester
from .retry import RetryPolicy
from .task import AnnotateTask, RepairTask


class CannotRun(Exception):
    """The configuration cannot work (e.g. --repair with the static teacher): one line for the user, exit 2."""


def make_client(config: AnnotateConfig) -> Any:
    if config.teacher == "static":
        from .static_teacher import StaticTeacher

        return StaticTeacher(config.lang)
    from .client import OpenAIChatClient

    return OpenAIChatClient(config.teacher, base_url=config.base_url, api_key_env=config.api_key_env,
                            timeout=config.timeout)


def run(store: Store, config: AnnotateConfig | None = None) -> StageStats:
    config = config or AnnotateConfig()
    try:
        config.check()
    except ValueError as exc:
        raise CannotRun(str(exc)) from exc
    if config.repair and config.teacher == "static":
        raise CannotRun("the static teacher cannot repair kernels (it only explains code it is given); "
                        "use --teacher MODEL with an LLM server for --repair")
    with stage_run(store, "annotate", config.as_dict()) as stats:
        asyncio.run(_run(store, config, stats))
    return stats


def _plan(store: Store, config: AnnotateConfig, verifications: dict[str, dict]) -> list[dict[str, Any]]:
    units = store.rows("SELECT * FROM units ORDER BY unit_id")
    if config.repair:
        units = [u for u in units if (verifications.get(u["unit_id"]) or {}).get("status") in REPAIRABLE
                 and kernel_file(u) is not None]
    if config.limit is not None:
        units = units[:config.limit]
    return units


async def _run(store: Store, config: AnnotateConfig, stats: StageStats) -> None:
    client = make_client(config)
    static = config.teacher == "static"
    task = RepairTask(config.lang) if config.repair else AnnotateTask(config.lang)
    if static:
        prompt_version, key_params = "static-v1", {"lang": config.lang}
    else:
        prompt_version, key_params = task.prompt_version, None
    budget = Budget(config.max_cost)
    requester = Requester(
        client, cache=ResponseCache(store.cache_dir / "annotate"), budget=budget,
        policy=RetryPolicy(max_retries=config.max_retries, base=config.retry_base),
        rpm=config.rpm, tpm=config.tpm, structured=config.structured, max_tokens=config.max_tokens,
        temperature=config.temperature, price_table=config.price_table, use_cache=not static)

    verifications = latest_verifications(store)
    units = _plan(store, config, verifications)
    done = {r["annotation_id"] for r in store.rows("SELECT annotation_id FROM annotations")}
    items = []
    for unit in units:
        for sample in range(config.samples):
            params = key_params if static else requester.key_params(sample)
            teacher = teacher_record(client, prompt_version, params)
            ann_id = annotation_id(unit_id=unit["unit_id"], sample_index=sample, lang=config.lang, kind=task.kind,
                                   teacher=teacher)
            if ann_id in done:
                stats.skip("already annotated")
                continue
            items.append((unit, sample, teacher, ann_id))
    stats.add("planned", len(items))

    progress = _Progress(len(items), enabled=config.progress and bool(items))
    sem = asyncio.Semaphore(config.concurrency)
    state = {"fatal": None, "budget_stopped": 0}

    async def one(unit: dict[str, Any], sample: int, teacher: dict[str, Any], ann_id: str) -> None:
        async with sem:
            if state["fatal"] or budget.exhausted:
                state["budget_stopped"] += 0 if state["fatal"] else 1
                return
            verification = verifications.get(unit["unit_id"])
            facts = unit_facts(unit, verification)
            if config.repair:
                kf = kernel_file(unit)
                messages = task.format_input(unit, facts, verification=verification, kernel_path=kf["path"])
            else:
                messages = task.format_input(unit, facts)
            try:
                outcome = await annotate_item(
                    requester=requester, task=task, unit=unit, facts=facts, sample_index=sample, lang=config.lang,
                    teacher=teacher, ann_id=ann_id, messages=messages, fix_attempts=config.fix_attempts,
                    make_unit=make_repaired_unit if config.repair else None)
            except BudgetExhausted:
                state["budget_stopped"] += 1
                return
            except GaveUp as exc:
                stats.fail("teacher unreachable (retries exhausted)", item=unit["unit_id"], error=str(exc))
                progress.advance(budget.spent)
                return
            except RequestRejected as exc:
                stats.fail("request rejected by the server", item=unit["unit_id"], error=str(exc))
                progress.advance(budget.spent)
                return
            except FatalTeacherError as exc:
                state["fatal"] = str(exc)
                return
            await writer.add(outcome)
            _count(stats, outcome)
            progress.advance(budget.spent)

    writer = _BatchWriter(store)
    try:
        with progress:
            await asyncio.gather(*(one(*item) for item in items))
    finally:
        writer.flush()
        await client.aclose()

    c = requester.counters
    stats.add("requests_sent", c.sent)
    stats.add("cache_hits", c.cache_hits)
    stats.add("retries", c.retries)
    stats.add("cost_usd", round(budget.spent, 6))
    for note in c.downgrades[:1]:
        stats.add(f"structured fallback {note.split(':')[0]}", 1)
    if state["budget_stopped"]:
        stats.skip("stopped: budget", state["budget_stopped"])
        stats.add("stopped_budget", 1)
    if state["fatal"]:
        stats.fail("teacher refuses every request", error=state["fatal"])
        raise FatalTeacherError(state["fatal"])


class _BatchWriter:
    """Writes finished annotations in small batches, each batch one transaction (a repaired unit lands together with
    its annotation or not at all). A commit per row would stall the event loop for every answer; a kill loses at most
    the unflushed rows, whose answers are already in the cache, so the resumed run rebuilds them with no request."""

    def __init__(self, store: Store, max_rows: int = 64, max_age_s: float = 0.5):
        self.store = store
        self.max_rows = max_rows
        self.max_age_s = max_age_s
        self.pending: list[Any] = []
        self.oldest = 0.0
        self._lock = asyncio.Lock()

    async def add(self, outcome: Any) -> None:
        if not self.pending:
            self.oldest = time.monotonic()
        self.pending.append(outcome)
        if len(self.pending) >= self.max_rows or time.monotonic() - self.oldest >= self.max_age_s:
            batch, self.pending = self.pending, []
            async with self._lock:  # one writer at a time; the DB work runs off the event loop
                await asyncio.to_thread(self._write, batch)

    def flush(self) -> None:
        """The rest, at the end of the run (the loop is done by then)."""
        batch, self.pending = self.pending, []
        if batch:
            self._write(batch)

    def _write(self, batch: list[Any]) -> None:
        with self.store.transaction():
            units = [o.new_unit for o in batch if o.new_unit is not None]
            if units:
                self.store.insert("units", units)
            self.store.insert("annotations", [o.row for o in batch])


def _count(stats: StageStats, outcome: Any) -> None:
    row = outcome.row
    stats.add("prompt_tokens", row["usage"].get("prompt_tokens", 0))
    stats.add("completion_tokens", row["usage"].get("completion_tokens", 0))
    if row["status"] != "ok":
        reason = (row["failure_reason"] or "failed").split(":")[0]
        stats.fail(f"teacher answer {reason}", item=row["unit_id"], error=row["failure_reason"])
        return
    stats.kept()
    if outcome.new_unit is not None:
        stats.add("repaired_units", 1)
    if not row["gates_passed"]:
        stats.add("gates_failed", 1)
        for name, result in row["gates"].items():
            if not result["passed"]:
                stats.reasons[f"gate failed: {name}"] += 1


class _Progress:
    """A rich progress bar with rate, ETA and the money spent so far (on stderr; off when disabled)."""

    def __init__(self, total: int, enabled: bool):
        self.total = total
        self.enabled = enabled
        self._progress = None
        self._task = None

    def __enter__(self) -> "_Progress":
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            self._progress = Progress(
                TextColumn("annotate"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                TextColumn("${task.fields[cost]:.4f}"), console=Console(stderr=True), transient=False)
            self._progress.__enter__()
            self._task = self._progress.add_task("annotate", total=self.total, rate="-", cost=0.0)
        return self

    def advance(self, cost: float) -> None:
        if self._progress is None:
            return
        self._progress.advance(self._task)
        t = self._progress.tasks[0]
        speed = t.speed
        self._progress.update(self._task, cost=cost, rate=f"{speed:.1f}/s" if speed else "-")

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)
