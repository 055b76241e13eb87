"""annotate stage: `run(store, config) -> StageStats`.

For every unit (x samples) that has no current annotation under this teacher/prompt/params (one written from the unit's
current facts and, for the static teacher, by its current code; a stale one is redone under the same id): ask the
teacher (concurrently, rate-limited, cached, budgeted), check the answer with the gates, and write the row. The event
loop only builds prompts and talks to the server; caching answers, gates and DB writes run on the background writer's
thread, in batches (see writer.py for why a kill loses nothing).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

from ..stats import StageStats, stage_run
from ..store import Store
from .annotator import annotation_id, converse, teacher_record
from .cache import ResponseCache
from .client import RequestRejected
from .config import AnnotateConfig
from .facts import facts_hash, unit_facts
from .repair import REPAIRABLE, kernel_file, latest_verifications, make_repaired_unit
from .requester import Budget, BudgetExhausted, FatalTeacherError, GaveUp, Requester, key_params
from .retry import RetryPolicy
from .static_teacher import static_prompt_version
from .task import AnnotateTask, RepairTask
from .writer import BackgroundWriter

_STATIC_ID_VERSION = "static-v1"  # the static teacher's version name in its annotation ids (see _run)
_PLAN_BATCH = 512


class CannotRun(Exception):
    """The configuration cannot work (e.g. --repair with the static teacher): one line for the user, exit 2."""


def _teacher_identity(config: AnnotateConfig) -> Any:
    """provider and model of the teacher, known without building its client."""
    from types import SimpleNamespace

    if config.teacher == "static":
        from .static_teacher import StaticTeacher

        return SimpleNamespace(provider=StaticTeacher.provider, model=StaticTeacher.model)
    from .client import OpenAIChatClient

    return SimpleNamespace(provider=OpenAIChatClient.provider, model=config.teacher)


def make_client(config: AnnotateConfig) -> Any:
    if config.teacher == "static":
        from .static_teacher import StaticTeacher

        return StaticTeacher(config.lang)
    from .client import OpenAIChatClient

    return OpenAIChatClient(
        config.teacher, base_url=config.base_url, api_key_env=config.api_key_env, timeout=config.timeout
    )


def run(store: Store, config: AnnotateConfig | None = None) -> StageStats:
    config = config or AnnotateConfig()
    try:
        config.check()
    except ValueError as exc:
        raise CannotRun(str(exc)) from exc
    if config.repair and config.teacher == "static":
        raise CannotRun(
            "the static teacher cannot repair kernels (it only explains code it is given); "
            "use --teacher MODEL with an LLM server for --repair"
        )
    with stage_run(store, "annotate", config.as_dict()) as stats:
        asyncio.run(_run(store, config, stats))
    return stats


def _plan(store: Store, config: AnnotateConfig, verifications: dict[str, dict]) -> list[str]:
    """The unit ids to annotate, in order. Only ids: whole units (with their files) are read for the work left."""
    if config.repair:
        units = store.rows("SELECT * FROM units ORDER BY unit_id")
        ids = [
            u["unit_id"]
            for u in units
            if (verifications.get(u["unit_id"]) or {}).get("status") in REPAIRABLE and kernel_file(u) is not None
        ]
    else:
        ids = [r["unit_id"] for r in store.rows("SELECT unit_id FROM units ORDER BY unit_id")]
    return ids if config.limit is None else ids[: config.limit]


def _load_units(store: Store, unit_ids: list[str]) -> dict[str, dict[str, Any]]:
    if not unit_ids:
        return {}
    rows = store.rows("SELECT * FROM units WHERE unit_id IN (SELECT unnest(?::VARCHAR[]))", [unit_ids])
    return {u["unit_id"]: u for u in rows}


async def _run(store: Store, config: AnnotateConfig, stats: StageStats) -> None:
    static = config.teacher == "static"
    task = RepairTask(config.lang) if config.repair else AnnotateTask(config.lang)
    if static:
        # The static teacher's version is a digest of its code; its rows keep the id they had under its first, fixed
        # version name, so a code edit redoes (replaces) them rather than adding rows beside them.
        prompt_version, id_version, static_params = static_prompt_version(), _STATIC_ID_VERSION, {"lang": config.lang}
    else:
        prompt_version = id_version = task.prompt_version
        static_params = None
    identity = _teacher_identity(config)
    budget = Budget(config.max_cost)

    verifications = latest_verifications(store)
    # What each stored annotation was written from: a row is current only if the unit's facts and the teacher's
    # version are still the same (a verification that arrived later changes the facts, so the row is redone).
    done = {
        r["annotation_id"]: (r["facts_hash"], r["prompt_version"])
        for r in store.rows(
            "SELECT annotation_id, facts_hash, teacher->>'prompt_version' AS prompt_version FROM annotations"
        )
    }
    todo = []
    facts_of: dict[str, dict[str, Any]] = {}  # per unit, shared by its samples (only units with work left are kept)
    plan = _plan(store, config, verifications)
    for start in range(0, len(plan), _PLAN_BATCH):  # units are read in batches: only those with work left stay
        chunk = plan[start : start + _PLAN_BATCH]
        units = _load_units(store, chunk)
        for unit_id in chunk:
            unit = units[unit_id]
            facts = unit_facts(unit, verifications.get(unit_id))
            current = (facts_hash(facts), prompt_version)
            for sample in range(config.samples):
                params = static_params if static else key_params(config.temperature, config.max_tokens, sample)
                ann_id = annotation_id(
                    unit_id=unit_id,
                    sample_index=sample,
                    lang=config.lang,
                    kind=task.kind,
                    teacher=teacher_record(identity, id_version, params),
                )
                stored = done.get(ann_id)
                if stored == current:
                    stats.skip("already annotated")
                    continue
                if stored is not None:
                    stats.add("stale_redone")  # same annotation, other facts or teacher code: replaced
                facts_of[unit_id] = facts
                todo.append((unit, sample, teacher_record(identity, prompt_version, params), ann_id))
    items = todo
    stats.add("planned", len(items))
    if not items:  # nothing to do: no client (importing `openai` alone takes seconds), no writer
        for name in ("requests_sent", "cache_hits", "retries", "cost_usd"):
            stats.add(name, 0)
        return

    client = make_client(config)
    requester = Requester(
        client,
        cache=ResponseCache(store.cache_dir / "annotate"),
        budget=budget,
        policy=RetryPolicy(max_retries=config.max_retries, base=config.retry_base),
        rpm=config.rpm,
        tpm=config.tpm,
        structured=config.structured,
        max_tokens=config.max_tokens,
        temperature=config.temperature,
        price_table=config.price_table,
        use_cache=not static,
        concurrency=config.concurrency,
    )
    writer = BackgroundWriter(store, make_unit=make_repaired_unit if config.repair else None)
    requester.save_answer = writer.save_answer  # answers are cached by the writer, ahead of their rows

    progress = _Progress(len(items), enabled=config.progress and bool(items))
    state = {"fatal": None, "budget_stopped": 0}

    async def one(unit: dict[str, Any], sample: int, teacher: dict[str, Any], ann_id: str) -> None:
        if state["fatal"] or writer.failed:
            return
        if budget.exhausted:
            state["budget_stopped"] += 1
            return
        verification = verifications.get(unit["unit_id"])
        facts = facts_of[unit["unit_id"]]
        if config.repair:
            kf = kernel_file(unit)
            messages = task.format_input(unit, facts, verification=verification, kernel_path=kf["path"])
        else:
            messages = task.format_input(unit, facts)
        try:
            conversation = await converse(
                requester=requester,
                task=task,
                unit=unit,
                facts=facts,
                sample_index=sample,
                lang=config.lang,
                teacher=teacher,
                ann_id=ann_id,
                messages=messages,
                fix_attempts=config.fix_attempts,
            )
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
        writer.add(conversation)  # gates, row and DB write happen on the writer's thread
        progress.advance(budget.spent)

    async def worker(queue: Iterator[tuple]) -> None:
        for item in queue:
            await one(*item)

    # Twice as many workers as request slots: while some wait for answers, others build the next prompts, so a free
    # slot always finds a request ready. Unit facts and prompts exist only for the items in progress.
    queue = iter(items)
    try:
        with progress:
            await asyncio.gather(*(worker(queue) for _ in range(min(len(items), 2 * config.concurrency))))
    finally:
        try:
            await asyncio.to_thread(writer.close)
        finally:
            await client.aclose()
            for outcome in writer.outcomes:
                _count(stats, outcome)

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

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TaskProgressColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("annotate"),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                TextColumn("${task.fields[cost]:.4f}"),
                console=Console(stderr=True),
                transient=False,
            )
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
