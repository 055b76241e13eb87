"""The annotate stage.

plan: every unit (x samples) without a current annotation under this teacher/prompt/params (one written from the
unit's current facts and, for the static teacher, by its current code; a stale one is redone under the same id).
work (a coroutine on the executor's event loop): ask the teacher (rate-limited, cached, budgeted, with correction
follow-ups), then run the quality gates and the schema check on a thread -> the row. The answer is in the cache before
`work` returns, so a kill loses at most rows not yet committed, and the resumed run rebuilds them without a request.
commit: the rows (and repaired units) of a batch, in one transaction.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..stages.base import ASYNC, Stage, StageRefused
from ..stages.driver import run_stage
from ..stats import StageStats
from ..store import Store
from .annotator import Outcome, annotation_id, converse, finish_validated, teacher_record
from .cache import ResponseCache
from .client import RequestRejected
from .config import AnnotateConfig
from .facts import facts_hash, unit_facts
from .repair import REPAIRABLE, kernel_file, latest_verifications, make_repaired_unit
from .requester import Budget, BudgetExhausted, FatalTeacherError, GaveUp, Requester, key_params
from .retry import RetryPolicy
from .statement_store import statements
from .static_teacher import static_prompt_version
from .task import AnnotateTask, RepairTask

_STATIC_ID_VERSION = "static-v1"  # the static teacher's version name in its annotation ids (see plan)
_PLAN_BATCH = 512


class CannotRun(Exception):
    """The configuration cannot work (e.g. --repair with the static teacher): one line for the user, exit 2."""


def _teacher_identity(config: AnnotateConfig) -> Any:
    """provider and model of the teacher, known without building its client."""
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
        config.teacher,
        base_url=config.base_url,
        api_key_env=config.api_key_env,
        timeout=config.timeout,
        max_answer_chars=config.max_answer_chars,
    )


@dataclass
class AnnotateItem:
    unit: dict[str, Any]
    sample: int
    teacher: dict[str, Any]
    ann_id: str
    facts: dict[str, Any]
    verification: dict[str, Any] | None


@dataclass
class AnnotateResult:
    unit_id: str
    kind: str  # row | failed (transport: not stored, a re-run tries again) | stopped (budget) | fatal | skipped
    outcome: Outcome | None = None
    reason: str = ""
    error: str = ""
    spent: float = 0.0  # the budget spent so far, for the progress bar


@dataclass
class _Worker:
    """What the requests share on the worker: client, requester, budget."""

    client: Any
    requester: Requester
    budget: Budget
    fatal: str | None = None
    stopped: int = 0
    counts: dict[str, float] = field(default_factory=dict)


class AnnotateStage(Stage[AnnotateConfig, AnnotateItem, AnnotateResult]):
    name = "annotate"
    config_type = AnnotateConfig
    mode = ASYNC
    batch_size = 64
    batch_seconds = 0.5
    refusals = (CannotRun,)

    def __init__(self, config: AnnotateConfig):
        super().__init__(config)
        self.cache_dir: Path | None = None
        self._worker: _Worker | None = None
        self._fatal: str | None = None  # driver side: a committed result said the server refuses every request
        self._spent = 0.0

    def check(self) -> None:
        config = self.config
        try:
            config.check()
        except ValueError as exc:
            raise CannotRun(str(exc)) from exc
        if config.repair and config.teacher == "static":
            raise CannotRun(
                "the static teacher cannot repair kernels (it only explains code it is given); "
                "use --teacher MODEL with an LLM server for --repair"
            )

    def recorded_config(self) -> dict[str, Any]:
        return self.config.as_dict()

    def workers(self) -> int:
        # Twice as many coroutines as request slots: while some wait for answers, others build the next prompts, so a
        # free slot always finds a request ready.
        return 2 * self.config.concurrency

    def _task(self) -> Any:
        return RepairTask(self.config.lang) if self.config.repair else AnnotateTask(self.config.lang)

    # -- plan ----------------------------------------------------------------------------------------------------
    def plan(self, store: Store, stats: StageStats) -> list[AnnotateItem]:
        config = self.config
        self.cache_dir = store.cache_dir / "annotate"
        task = self._task()
        if config.teacher == "static":
            # The static teacher's version is a digest of its code; its rows keep the id they had under its first,
            # fixed version name, so a code edit redoes (replaces) them rather than adding rows beside them.
            prompt_version, id_version = static_prompt_version(), _STATIC_ID_VERSION
        else:
            prompt_version = id_version = task.prompt_version
        identity = _teacher_identity(config)

        verifications = latest_verifications(store)
        # What each stored annotation was written from: a row is current only if the unit's facts and the teacher's
        # version are still the same (a verification that arrived later changes the facts, so the row is redone).
        done = {
            r["annotation_id"]: (r["facts_hash"], r["prompt_version"])
            for r in store.rows(
                "SELECT annotation_id, facts_hash, teacher->>'prompt_version' AS prompt_version FROM annotations"
            )
        }
        items: list[AnnotateItem] = []
        ids = self._unit_ids(store, verifications, stats)
        for start in range(0, len(ids), _PLAN_BATCH):  # units are read in batches: only those with work left stay
            chunk = ids[start : start + _PLAN_BATCH]
            units = _load_units(store, chunk)
            # the exact task statement of each unit (derived in the sandbox once, then read from the cache)
            derived = statements(
                [(units[u], verifications.get(u)) for u in chunk], store.cache_dir / "statements", store.workspace
            )
            for unit_id in chunk:
                unit = units[unit_id]
                facts = unit_facts(unit, verifications.get(unit_id), statement=derived.get(unit_id))
                current = (facts_hash(facts), prompt_version)
                for sample in range(config.samples):
                    params = (
                        {"lang": config.lang}
                        if config.teacher == "static"
                        else key_params(config.temperature, config.max_tokens, sample)
                    )
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
                    teacher = teacher_record(identity, prompt_version, params)
                    items.append(AnnotateItem(unit, sample, teacher, ann_id, facts, verifications.get(unit_id)))
        stats.add("planned", len(items))
        if not items:  # nothing to do: no client is built (importing `openai` alone takes seconds)
            for name in ("requests_sent", "cache_hits", "retries", "cost_usd"):
                stats.add(name, 0)
        return items

    def _unit_ids(self, store: Store, verifications: dict[str, dict], stats: StageStats) -> list[str]:
        """The unit ids to annotate, in order. Only ids: whole units (with their files) are read for the work left.
        Default: the units whose deciding verification passed (verify.current, the rule publishing uses), so no
        teacher call is spent on a unit that cannot be published; the others are counted by their status."""
        config = self.config
        if config.repair:
            units = store.rows("SELECT * FROM units ORDER BY unit_id")
            ids = [
                u["unit_id"]
                for u in units
                if (verifications.get(u["unit_id"]) or {}).get("status") in REPAIRABLE and kernel_file(u) is not None
            ]
        elif config.all_units:
            ids = [r["unit_id"] for r in store.rows("SELECT unit_id FROM units ORDER BY unit_id")]
        else:
            # `verifications` holds each unit's deciding row: its status is `passed` exactly when the unit is verified
            ids = []
            left_out: Counter[str] = Counter()
            for r in store.rows("SELECT unit_id FROM units ORDER BY unit_id"):
                status = (verifications.get(r["unit_id"]) or {}).get("status")
                if status == "passed":
                    ids.append(r["unit_id"])
                else:
                    left_out[f"verification {status}" if status else "not verified"] += 1
            for reason, n in sorted(left_out.items()):
                stats.skip(f"{reason} (--all annotates it)", n)
        return ids if config.limit is None else ids[: config.limit]

    # -- work (on the event loop) ---------------------------------------------------------------------------------
    async def setup(self) -> None:
        config = self.config
        client = make_client(config)
        budget = Budget(config.max_cost)
        assert self.cache_dir is not None, "plan() sets the cache folder"
        requester = Requester(
            client,
            cache=ResponseCache(self.cache_dir),
            budget=budget,
            policy=RetryPolicy(
                max_retries=config.max_retries, base=config.retry_base, max_retry_after=config.max_retry_after
            ),
            rpm=config.rpm,
            tpm=config.tpm,
            structured=config.structured,
            max_tokens=config.max_tokens,
            temperature=config.temperature,
            price_table=config.price_table,
            use_cache=config.teacher != "static",
            concurrency=config.concurrency,
        )
        self._worker = _Worker(client, requester, budget)

    async def work(self, item: AnnotateItem) -> AnnotateResult:
        w = self._worker
        assert w is not None
        unit_id = item.unit["unit_id"]
        if w.fatal:
            return AnnotateResult(unit_id, "skipped")
        if w.budget.exhausted:
            return AnnotateResult(unit_id, "stopped", spent=w.budget.spent)
        task = self._task()
        if self.config.repair:
            kf = kernel_file(item.unit)
            messages = task.format_input(item.unit, item.facts, verification=item.verification, kernel_path=kf["path"])
        else:
            messages = task.format_input(item.unit, item.facts)
        try:
            conversation = await converse(
                requester=w.requester,
                task=task,
                unit=item.unit,
                facts=item.facts,
                sample_index=item.sample,
                lang=self.config.lang,
                teacher=item.teacher,
                ann_id=item.ann_id,
                messages=messages,
                fix_attempts=self.config.fix_attempts,
            )
        except BudgetExhausted:
            return AnnotateResult(unit_id, "stopped", spent=w.budget.spent)
        except GaveUp as exc:
            return AnnotateResult(unit_id, "failed", reason="teacher unreachable (retries exhausted)", error=str(exc))
        except RequestRejected as exc:
            return AnnotateResult(unit_id, "failed", reason="request rejected by the server", error=str(exc))
        except FatalTeacherError as exc:
            w.fatal = str(exc)
            return AnnotateResult(unit_id, "fatal", error=str(exc))
        # Gates and the schema check are CPU work: on a thread, so the loop keeps serving requests meanwhile.
        make_unit = make_repaired_unit if self.config.repair else None
        outcome = await asyncio.to_thread(finish_validated, conversation, make_unit)
        return AnnotateResult(unit_id, "row", outcome, spent=w.budget.spent)

    async def teardown(self) -> dict[str, float] | None:
        w = self._worker
        if w is None:
            return None
        await w.client.aclose()
        c = w.requester.counters
        counts: dict[str, float] = {
            "requests_sent": c.sent,
            "cache_hits": c.cache_hits,
            "retries": c.retries,
            "cost_usd": round(w.budget.spent, 6),
        }
        if c.retries:
            counts["retry_wait_s"] = round(c.waited_s, 3)  # what the policy chose to wait (Retry-After or backoff)
        for name in ("retry_after_capped", "secrets_redacted", "rejected_too_large"):
            if getattr(c, name):
                counts[name] = getattr(c, name)
        for note in c.downgrades[:1]:
            counts[f"structured fallback {note.split(':')[0]}"] = 1
        return counts

    # -- commit (driver) ------------------------------------------------------------------------------------------
    def commit(self, store: Store, results: list[AnnotateResult], stats: StageStats) -> None:
        outcomes = []
        for r in results:
            self._spent = max(self._spent, r.spent)
            if r.kind == "row":
                outcomes.append(r.outcome)
            elif r.kind == "failed":
                stats.fail(r.reason, item=r.unit_id, error=r.error)
            elif r.kind == "stopped":
                stats.skip("stopped: budget")
                stats.counts["stopped_budget"] = 1
            elif r.kind == "fatal":
                self._fatal = self._fatal or r.error
        units = [o.new_unit for o in outcomes if o.new_unit is not None]
        if units:  # a repaired unit lands together with its annotation or not at all
            store.insert("units", units, validate=False)  # checked by finish_validated
        store.insert("annotations", [o.row for o in outcomes], validate=False)
        for outcome in outcomes:
            _count(stats, outcome)

    def stop_reason(self) -> str | None:
        return self._fatal

    def finish(self, store: Store, stats: StageStats) -> None:
        if self._fatal:
            stats.fail("teacher refuses every request", error=self._fatal)
            raise StageRefused(f"the teacher server refuses requests: {self._fatal}")

    def label(self, item: AnnotateItem) -> str:
        return item.unit["unit_id"]

    def note(self, result: AnnotateResult) -> str:
        return f"${self._spent:.4f}"


def _load_units(store: Store, unit_ids: list[str]) -> dict[str, dict[str, Any]]:
    if not unit_ids:
        return {}
    rows = store.rows("SELECT * FROM units WHERE unit_id IN (SELECT unnest(?::VARCHAR[]))", [unit_ids])
    return {u["unit_id"]: u for u in rows}


def _count(stats: StageStats, outcome: Outcome) -> None:
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


def run(store: Store, config: AnnotateConfig | None = None) -> StageStats:
    """Annotate in this process (library and test use); the CLI goes through the same stage."""
    return run_stage(AnnotateStage(config or AnnotateConfig()), store)
