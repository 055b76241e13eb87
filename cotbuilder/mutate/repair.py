"""Error-correction samples from mutants: (task, broken code, verifier feedback) -> (reasoning that goes from the
feedback to the bug, fixed code = the verified original).

Only a mutant the verifier really failed becomes a sample (`really_fails`): a mutant that still passes shows where
the harness or the emulator is blind, and a mutant that is `unsupported` / `unchecked` / a sandbox refusal says
nothing about the code. Every sentence of the reasoning comes from data: the verifier's own words for this mutant
(status, reason, diagnostics, the worst output), the mutation's description (data/mutations.toml) and the changed
line as it is in the broken and in the fixed code.
"""

from __future__ import annotations

import re
from typing import Any

from .mutations import kinds_table

# The verifier's verdicts that say the code is wrong (docs/statuses.md); everything else is no evidence of a bug.
FAILING = ("failed_compile", "failed_run", "wrong_answer", "timeout")
REPAIR_VERSION = "mutate-repair-v1"  # the shape of the reasoning below; part of a mutant row's id of its sample


# The op-project harness builds a kernel file under another name (verify/opproject/build.py: cotbuilder_kernel_<file>);
# the emulator's diagnostics name that file, the sample shows the kernel under its own name.
_HARNESS_NAME = re.compile(r"\bcotbuilder_kernel_(?=[\w.-]+\.(?:cpp|cc|h|hpp)\b)")


def readable(text: str) -> str:
    """Verifier text as the sample shows it: files under the names the sample's code has."""
    return _HARNESS_NAME.sub("", text)


def really_fails(verdict: dict[str, Any]) -> bool:
    return verdict.get("status") in FAILING


def _worst_output(verdict: dict[str, Any]) -> str:
    worst = None
    for case in verdict.get("cases") or []:
        for out in case.get("outputs") or []:
            if out.get("ok") is False and (
                worst is None or (out.get("mismatches") or 0) > (worst.get("mismatches") or 0)
            ):
                worst = {**out, "seed": case.get("seed")}
    if worst is None:
        return ""
    parts = [f"output `{worst.get('name')}`"]
    if worst.get("mismatches") is not None and worst.get("n"):
        parts.append(f"{worst['mismatches']} of {worst['n']} elements outside the tolerance")
    if worst.get("max_abs_err") is not None:
        parts.append(f"max abs error {worst['max_abs_err']:.4g}")
    return ", ".join(parts)


def feedback_text(verdict: dict[str, Any], max_diagnostics: int = 3) -> str:
    """What the verifier said about the mutant, as a user would paste it: status, reason, the first diagnostics, the
    worst output."""
    lines = [f"status: {verdict.get('status')}"]
    if verdict.get("reason"):
        lines.append(f"reason: {verdict['reason']}")
    for d in (verdict.get("diagnostics") or [])[:max_diagnostics]:
        where = f" ({d['file']}:{d['line']})" if d.get("file") and d.get("line") else ""
        lines.append(f"diagnostic [{d.get('kind')}]{where}: {d.get('message')}")
    worst = _worst_output(verdict)
    if worst:
        lines.append(f"worst case: {worst}")
    return readable("\n".join(lines))


def rationale(mutant: dict[str, Any], verdict: dict[str, Any]) -> list[dict[str, str]]:
    """Named steps from the feedback to the fix (the annotation rationale shape: [{step, title, text}])."""
    kind = kinds_table()[mutant["kind"]]
    status = verdict.get("status")
    symptom = {
        "failed_compile": "the kernel does not compile",
        "failed_run": "the kernel compiles but its run fails",
        "wrong_answer": "the kernel runs to the end but its output differs from the golden",
        "timeout": "the kernel does not finish within the time limit",
    }[status]
    read = f"The verifier reports `{status}`: {symptom}."
    if verdict.get("reason"):
        reason = verdict["reason"].strip()
        read += f" Its reason: {reason}" + ("" if reason.endswith((".", ")", "。")) else ".")
    diags = verdict.get("diagnostics") or []
    if diags:
        read += f" The first diagnostic is `{diags[0].get('kind')}`: {diags[0].get('message')}"
    worst = _worst_output(verdict)
    if worst:
        read += f" Worst case: {worst}."
    after = mutant.get("after") or ""
    where = f"In `{mutant['path']}`, line {mutant['line']}"
    located = (
        f"{where} reads `{after}`: {kind['bug']}."
        if after
        else f"{where} should hold `{mutant['before']}`, which is missing: {kind['bug']}."
    )
    return [
        {"step": "feedback", "title": "What the verifier says", "text": readable(read)},
        {"step": "where_to_look", "title": "Where such a failure comes from", "text": kind["look"]},
        {"step": "locate", "title": "The bug", "text": located},
        {
            "step": "fix",
            "title": "The fix",
            "text": f"{kind['fix'][0].upper()}{kind['fix'][1:]}: the line becomes `{mutant['before']}`. "
            "The corrected kernel below is the verified original.",
        },
    ]


def repair_request(task: str, mutant: dict[str, Any], feedback: str, fence: str = "cpp") -> str:
    """The user turn of a repair sample: the task, the broken kernel file, the verifier's feedback."""
    return (
        f"{task.strip()}\n\nThis implementation fails verification. Find the bug and give the corrected kernel.\n\n"
        f"```{fence}\n// {mutant['path']}\n{mutant['broken_code'].strip()}\n```\n\nVerifier feedback:\n{feedback}"
    )
