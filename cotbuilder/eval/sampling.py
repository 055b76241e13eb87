"""One sample, start to verdict: ask the teacher, take the code out of the reply, place it into the task's layout,
score it with the reward's Scorer (verify's harnesses in the sandbox, goldens sealed first, cotbuilder compares).
Shared by eval and synthesize; runs on the worker side (no store)."""

from __future__ import annotations

from typing import Any

from ..hashing import sha256_text, stable_json
from ..tasks.task import Task
from .answers import parse_answer
from .sources import level_of

_KEEP_DIAGNOSTICS = 20


def sample_id(task_id: str, teacher_key: str, purpose: str, round_: int, index: int, parent: str | None) -> str:
    return sha256_text(stable_json([task_id, teacher_key, purpose, round_, index, parent]))


def teacher_key(identity: dict[str, Any]) -> str:
    return sha256_text(stable_json(identity))


def verdict_row(reply: Any, task: Task, scorer: Any) -> dict[str, Any]:
    """The verdict columns of a sample for a teacher reply (Reply): parse, place, score."""
    from ..tasks.specs import AnswerError, answer_files

    row: dict[str, Any] = {"response": reply.text, "response_hash": sha256_text(reply.text), "usage": reply.usage,
                           "code": None, "code_hash": None, "parse_ok": False, "compiled": None, "correct": None,
                           "reward": 0.0, "errors": [], "diagnostics": [], "backend": None, "score_cached": False}  # fmt: skip
    if reply.failure:
        return {**row, "status": "unparseable", "reason": reply.failure[:1000]}
    parsed = reply.files if reply.files is not None else parse_answer(reply.text)
    if parsed is None:
        return {
            **row,
            "status": "unparseable",
            "reason": "no code in the reply (no <kernel_impl>, file header or C++ block)",
        }
    try:
        files = answer_files(parsed, task)
    except AnswerError as exc:
        return {**row, "status": "unparseable", "reason": str(exc)[:1000]}
    score = scorer.score(files, task)
    return {
        **row,
        "code": files,
        "code_hash": score.code_hash or None,
        "parse_ok": score.status != "unparseable",
        "status": score.status,
        "compiled": score.compiled,
        "correct": score.correct,
        "reward": score.reward,
        "reason": score.reason[:1000] or None,
        "errors": score.errors[:50],
        "diagnostics": score.diagnostics[:_KEEP_DIAGNOSTICS],
        "backend": score.backend,
        "score_cached": score.cached,
    }


def base_row(task: Task, sid: str, purpose: str, identity: dict[str, Any], key: str, index: int, round_: int,
             parent: str | None) -> dict[str, Any]:  # fmt: skip
    return {
        "sample_id": sid,
        "task_id": task.task_id,
        "task_name": task.name,
        "level": level_of(task),
        "category": task.category,
        "purpose": purpose,
        "teacher": identity,
        "teacher_key": key,
        "sample_index": index,
        "round": round_,
        "parent_sample_id": parent,
    }


def make_scorer(cache_root: str, session: Any, soc: str, cpu_s: int, wall_s: int) -> Any:
    from pathlib import Path

    from ..reward.scoring import Scorer
    from ..verify import sandbox

    return Scorer(Path(cache_root), soc=soc, session=session, limits=sandbox.Limits(cpu_s=cpu_s, wall_s=wall_s))
