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
    """Named steps from the feedback to the fix (the annotation rationale shape: [{step, title, text}]). A mutant of
    kind None gets the feedback step only (teacher_rationale writes the rest)."""
    kind = kinds_table()[mutant["kind"]] if mutant["kind"] is not None else None
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
    feedback = {"step": "feedback", "title": "What the verifier says", "text": readable(read)}
    if kind is None:
        return [feedback]
    after = mutant.get("after") or ""
    where = f"In `{mutant['path']}`, line {mutant['line']}"
    located = (
        f"{where} reads `{after}`: {kind['bug']}."
        if after
        else f"{where} should hold `{mutant['before']}`, which is missing: {kind['bug']}."
    )
    return [
        feedback,
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


# -- repair pairs from other producers ------------------------------------------------------------------------------
# `synthesize` publishes a teacher's repair chain (a failing answer, the verifier's feedback, a fix that passed) through
# the same `mutants` row and the same publish path as a mutant: these two functions give it the row's site and
# rationale, so a repair row reads alike whatever made the broken code.
TEACHER_ANSWER = "teacher_answer"  # the kind of a repair pair whose broken code a model wrote itself (no planted bug)


def changed_site(broken: dict[str, str], fixed: dict[str, str]) -> dict[str, Any] | None:
    """The one file a fix changed and its first change: {path, line (1-based, in the broken file), before (the fixed
    line), after (the broken line, '' when the broken code lacks it), broken_code, changed_lines}; None when the fix
    changes no file or more than one (a repair row shows one broken file)."""
    import difflib

    changed = sorted(p for p in set(broken) | set(fixed) if broken.get(p) != fixed.get(p))
    if len(changed) != 1 or changed[0] not in broken or changed[0] not in fixed:
        return None
    path = changed[0]
    old, new = fixed[path].splitlines(), broken[path].splitlines()
    ops = [op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not ops:  # only line endings differ
        return None
    _, i1, i2, j1, j2 = ops[0]
    return {
        "path": path,
        "line": j1 + 1,
        "before": old[i1].strip() if i1 < i2 else "",
        "after": new[j1].strip() if j1 < j2 else "",
        "broken_code": broken[path],
        "changed_lines": sum(max(b - a, d - c) for _, a, b, c, d in ops),
    }


def teacher_rationale(site: dict[str, Any], verdict: dict[str, Any], explanation: str) -> list[dict[str, str]]:
    """Named steps for a model's own failing answer and its passing fix: the verifier's words (as for a mutant), where
    the fix starts (from the diff), and the teacher's own explanation of its fix (the prose of its repair reply)."""
    steps = rationale({**site, "kind": None}, verdict)
    n = site.get("changed_lines") or 1
    where = f"In `{site['path']}`, line {site['line']}"
    located = f"{where} reads `{site['after']}`" if site["after"] else f"{where} lacks `{site['before']}`"
    located += "." if n == 1 else f"; the fix changes {n} lines from there on."
    fix = explanation.strip() or "The corrected kernel below passes verification."
    return [steps[0], {"step": "locate", "title": "The bug", "text": located},
            {"step": "fix", "title": "The fix", "text": fix}]  # fmt: skip
