"""A repair chain as a repair pair: (a candidate that really failed, the verifier's feedback, the teacher's repair of
it that passed). It is stored as a `mutants` row (origin synthesize) whose unit is the kept unit of the fix, so `push`
publishes it as a kind="repair" row through the very path `cotbuilder mutate`'s mutants take (publish/rows.py), with
the same site, feedback and rationale helpers (mutate/repair.py).

Emitted only when the broken answer really failed (mutate.repair.really_fails: failed_compile, failed_run,
wrong_answer, timeout), the fix passed, and the fix's code is a unit this task keeps (a fix dropped as the same
solution as a kept answer, or over --max-per-task, has no unit to be the fixed code: counted, not emitted)."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from ..hashing import sha256_text, stable_json
from ..tasks.task import Task

# what is not prose in a reply: fenced blocks, the <kernel_impl> tag, per-file header lines (eval/answers.py's rules)
_CODE = re.compile(r"```.*?(?:```|\Z)|<kernel_impl>.*?(?:</kernel_impl>|\Z)|^(?:=+|#{2,4}|//\s*file:).*$", re.S | re.M)


def explanation(reply: str) -> str:
    """The prose of a repair reply: what the teacher says about its fix, without the code."""
    return re.sub(r"\n{3,}", "\n\n", _CODE.sub("", reply or "")).strip()


def _code_key(code: dict[str, str]) -> str:
    return json.dumps(code, sort_keys=True)


def repair_pairs(
    task: Task, rows: list[dict[str, Any]], kept: list[tuple[dict[str, Any], dict[str, Any]]],
    planted: dict[str, str], soc: str, license_: str,
) -> tuple[list[dict[str, Any]], Counter]:  # fmt: skip
    """`mutants` rows (without created_at) for the task's repair chains, and the count of chains not emitted, by
    reason. `kept` is [(sample row, unit)] of the kept answers; `planted` maps the static teacher's mutant samples
    to their mutation kind."""
    from ..mutate.mutations import kinds_table
    from ..mutate.repair import TEACHER_ANSWER, changed_site, feedback_text, rationale, really_fails, teacher_rationale
    from .records import unit_record

    unit_of = {_code_key(row["code"]): unit for row, unit in kept}
    by_id = {r["sample_id"]: r for r in rows}
    out: list[dict[str, Any]] = []
    skipped: Counter = Counter()
    for fix in rows:
        if fix["round"] == 0 or fix["status"] != "passed" or not fix["code"]:
            continue
        broken = by_id.get(fix["parent_sample_id"] or "")
        if broken is None or not broken["code"] or not really_fails(broken):
            continue
        unit = unit_of.get(_code_key(fix["code"]))
        if unit is None:
            skipped["repair not published: its fix is not a kept unit (same solution, or over --max-per-task)"] += 1
            continue
        site = changed_site(broken["code"], fix["code"])
        if site is None:
            skipped["repair not published: the fix changes more than one file"] += 1
            continue
        verdict = {k: broken.get(k) for k in ("status", "reason", "diagnostics")}
        kind = planted.get(broken["sample_id"])
        if kind in kinds_table() and site["changed_lines"] == 1:
            steps = rationale({**site, "kind": kind}, verdict)
        else:
            steps = teacher_rationale(site, verdict, "" if kind else explanation(fix["response"] or ""))
        backend, _, version = (broken.get("backend") or fix.get("backend") or "cpu-emulator@?").partition("@")
        out.append({
            "mutant_id": sha256_text(stable_json(["synthesize", fix["sample_id"]])),
            "origin": "synthesize",
            "sample_id": fix["sample_id"],
            "unit_id": unit["unit_id"],
            "mutant_unit_id": unit_record(task, broken, license_)["unit_id"],
            "kind": kind or TEACHER_ANSWER,
            **{k: site[k] for k in ("path", "line", "before", "after", "broken_code")},
            "status": broken["status"],
            "reason": broken.get("reason"),
            "diagnostics": broken.get("diagnostics") or [],
            "really_fails": True,
            "feedback": feedback_text(verdict),
            "rationale": steps,
            "backend": backend,
            "backend_version": version,
            "soc": soc,
        })  # fmt: skip
    return out, skipped
