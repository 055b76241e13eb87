"""One annotation from start to row, in two halves.

`converse` (async, on the event loop) runs the conversation: prompt -> teacher (with correction follow-ups) -> parsed
fields. `finish` (plain CPU work, run by the background writer off the event loop) turns that into the row: the repaired
unit for repairs, the quality gates, the record. Splitting here keeps the loop free for requests: nothing in `finish`
can change what is sent.

Failures that are the teacher's answer (invalid after the follow-ups, truncated, refused) become `status='failed'`
rows with the reason; failures of the transport (retries exhausted) are not stored, so a re-run tries again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import records
from ..hashing import sha256_text, stable_json
from ..store import json_safe_row, utcnow
from .client import AnswerRejected
from .facts import facts_hash
from .gates import run_gates, statement_task
from .requester import Requester
from .task import OutputInvalid


@dataclass
class Outcome:
    row: dict[str, Any]
    new_unit: dict[str, Any] | None = None
    fresh_cost: float = 0.0  # money spent now (cache hits cost nothing this time)
    notes: list[str] = field(default_factory=list)


@dataclass
class Conversation:
    """What the teacher said for one annotation, before gates: parsed fields or the reason there are none."""

    unit: dict[str, Any]
    facts: dict[str, Any]
    sample_index: int
    lang: str
    kind: str
    teacher: dict[str, Any]
    ann_id: str
    usage: dict[str, int]
    cost: float
    fresh_cost: float
    raw_hash: str | None
    fields: dict[str, Any] | None
    failure: str | None


def annotation_id(*, unit_id: str, sample_index: int, lang: str, kind: str, teacher: dict[str, Any]) -> str:
    """Which annotation this is (one current row per id). What it was written from (the unit's facts, for the static
    teacher its code) is not part of it: that is kept in the row (facts_hash, teacher.prompt_version), and a row whose
    inputs changed is redone under the same id, replacing the stale one."""
    return sha256_text(
        stable_json({"unit": unit_id, "sample": sample_index, "lang": lang, "kind": kind, "teacher": teacher})
    )


def teacher_record(client: Any, prompt_version: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"provider": client.provider, "model": client.model, "prompt_version": prompt_version, "params": params}


async def converse(
    *,
    requester: Requester,
    task: Any,
    unit: dict[str, Any],
    facts: dict[str, Any],
    sample_index: int,
    lang: str,
    teacher: dict[str, Any],
    ann_id: str,
    messages: list[dict[str, str]],
    fix_attempts: int,
) -> Conversation:
    """Ask the teacher, sending the validation error back (bounded) while the answer is not a valid annotation."""
    usage = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "requests": 0, "cache_hits": 0}
    cost = fresh = 0.0
    failure = None
    fields: dict[str, Any] | None = None
    raw_hash = None
    for attempt in range(fix_attempts + 1):
        try:
            response, cached = await requester.complete(
                messages,
                kind=task.kind,
                sample_index=sample_index,
                prompt_version=task.prompt_version,
                facts=facts,
                unit_id=unit["unit_id"],
            )
        except AnswerRejected as exc:  # paid for, but nothing of it is kept
            for k in ("prompt_tokens", "completion_tokens", "total_tokens"):
                usage[k] += int(exc.usage.get(k) or 0)
            usage["requests"] += 1
            this_cost = requester.cost(exc.usage)
            cost += this_cost
            fresh += this_cost
            failure, fields, raw_hash = exc.reason, None, None
            break
        for k in ("prompt_tokens", "completion_tokens", "total_tokens"):
            usage[k] += int(response.usage.get(k) or 0)
        usage["requests"] += 1
        usage["cache_hits"] += int(cached)
        this_cost = requester.cost(response.usage)
        cost += this_cost
        fresh += 0.0 if cached else this_cost
        raw_hash = sha256_text(response.text or response.refusal or "")
        if response.refusal:
            failure = f"refused: {response.refusal.strip()[:300]}"
            break
        if response.finish_reason == "length":
            failure = f"truncated: finish_reason=length (max_tokens={requester.max_tokens})"
            break
        if response.finish_reason == "content_filter":
            failure = "refused: finish_reason=content_filter"
            break
        try:
            fields = task.format_output(response.text)
            break
        except OutputInvalid as exc:
            if attempt == fix_attempts:
                failure = f"invalid answer after {attempt + 1} attempt(s): {exc}"[:500]
                break
            messages = messages + [{"role": "assistant", "content": response.text}, task.correction_message(str(exc))]
    return Conversation(
        unit=unit,
        facts=facts,
        sample_index=sample_index,
        lang=lang,
        kind=task.kind,
        teacher=teacher,
        ann_id=ann_id,
        usage=usage,
        cost=cost,
        fresh_cost=fresh,
        raw_hash=raw_hash,
        fields=fields,
        failure=failure,
    )


def finish(conv: Conversation, make_unit: Any = None) -> Outcome:
    """The annotation row (and, for repairs, the new unit) from a finished conversation: gates run here."""
    fields, failure = conv.fields, conv.failure
    unit = conv.unit
    new_unit = None
    target_unit = unit
    if fields is not None and make_unit is not None:
        new_unit, problem = make_unit(unit, fields["fixed_kernel"])
        if problem:
            failure, fields, new_unit = problem, None, None
        else:
            target_unit = new_unit

    row: dict[str, Any] = {
        "annotation_id": conv.ann_id,
        "unit_id": target_unit["unit_id"],
        "sample_index": conv.sample_index,
        "lang": conv.lang,
        "kind": conv.kind,
        "source_unit_id": unit["unit_id"] if conv.kind == "repair" else None,
        "teacher": conv.teacher,
        "facts_hash": facts_hash(conv.facts),
        "usage": conv.usage,
        "cost_usd": round(conv.cost, 8),
        "raw_response_hash": conv.raw_hash,
        "created_at": utcnow(),
    }
    if fields is None:
        row.update(
            status="failed",
            failure_reason=failure or "no answer",
            task=None,
            rationale=None,
            gates={},
            gates_passed=False,
        )
    else:
        prose = statement_task(conv.facts, conv.lang)
        if prose and new_unit is None:  # the unit's exact statement is its task, whatever a teacher wrote there
            fields = {**fields, "task": prose}
        gate_facts = conv.facts
        if new_unit is not None:
            from .facts import unit_facts

            gate_facts = unit_facts(new_unit)
        gates, passed = run_gates(fields["task"], fields["rationale"], target_unit, gate_facts, conv.lang)
        row.update(
            status="ok",
            failure_reason=None,
            task=fields["task"],
            rationale=fields["rationale"],
            gates=gates,
            gates_passed=passed,
        )
    return Outcome(row=row, new_unit=new_unit, fresh_cost=conv.fresh_cost)


def finish_validated(conv: Conversation, make_unit: Any = None) -> Outcome:
    """`finish`, then the schema check `store.insert` would do, here, so a writer can insert with validate=False (this
    runs in a worker process for big runs: the checking then costs the event loop's process nothing)."""
    outcome = finish(conv, make_unit)
    if outcome.new_unit is not None:
        records.validate("unit", json_safe_row(outcome.new_unit))
    records.validate("annotation", json_safe_row(outcome.row))
    return outcome
