"""`<workspace>/reports/eval-<teacher>.{md,json}`: pass@k per task, level and category, and the status counts."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from .passk import METRICS, grouped, per_task


def write_report(
    folder: Path, identity: dict[str, Any], samples: list[dict[str, Any]], ks: list[int], n_tasks: int
) -> tuple[list[str], list[str]]:
    """(paths written, lines for the console)."""
    tasks = per_task(samples, ks)
    levels = grouped(tasks, "level", ks)
    categories = grouped(tasks, "category", ks)
    statuses = Counter(s["status"] for s in samples)
    data = {
        "teacher": identity,
        "ks": ks,
        "tasks_selected": n_tasks,
        "tasks_with_samples": len(tasks),
        "samples": len(samples),
        "statuses": dict(statuses.most_common()),
        "by_level": levels,
        "by_category": categories,
        "by_task": tasks,
    }
    folder.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", identity["model"])[:60]
    json_path, md_path = folder / f"eval-{slug}.json", folder / f"eval-{slug}.md"
    json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    md_path.write_text(_markdown(data), encoding="utf-8")
    return [str(md_path), str(json_path)], _console(levels, ks, statuses)


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def _table(rows: list[dict[str, Any]], key: str, ks: list[int]) -> list[str]:
    cols = [f"{m}@{k}" for m in METRICS for k in ks]
    out = [f"| {key} | tasks | samples | " + " | ".join(cols) + " |", "|---" * (len(cols) + 3) + "|"]
    for r in rows:
        out.append(f"| {r[key]} | {r['tasks']} | {r['samples']} | " + " | ".join(_pct(r[c]) for c in cols) + " |")
    return out


def _markdown(data: dict[str, Any]) -> str:
    t, ks = data["teacher"], data["ks"]
    lines = [
        f"# eval: {t['model']} ({t['provider']})",
        "",
        f"{data['tasks_with_samples']} of {data['tasks_selected']} tasks sampled, {data['samples']} samples; "
        f"prompt {t['prompt_version']}. pass@k: the unbiased estimator 1 - C(n-c,k)/C(n,k) per task, averaged.",
        "Samples whose verdict is `unsupported` (an emulator gap), `unchecked` or `error` are not counted in n.",
        "",
        "statuses: " + ", ".join(f"{k} {v}" for k, v in data["statuses"].items()),
        "",
        "## By level",
        "",
        *_table(data["by_level"], "level", ks),
        "",
        "## By category",
        "",
        *_table(data["by_category"], "category", ks),
        "",
        "## By task",
        "",
        "| task | n | correct c | statuses |",
        "|---|---|---|---|",
        *(
            f"| {r['task']} | {r['n']} | {r['correct_c']} | "
            + ", ".join(f"{k} {v}" for k, v in r["statuses"].items())
            + " |"
            for r in data["by_task"]
        ),  # fmt: skip
    ]
    return "\n".join(lines) + "\n"


def _console(levels: list[dict[str, Any]], ks: list[int], statuses: Counter) -> list[str]:
    k = ks[0]
    lines = [
        f"{r['level']}: {r['tasks']} tasks, correct@{k} {_pct(r[f'correct@{k}'])}, compile@{k} "
        f"{_pct(r[f'compile@{k}'])}, parse@{k} {_pct(r[f'parse@{k}'])}"
        for r in levels
    ]
    return [*lines, "statuses: " + ", ".join(f"{s} {n}" for s, n in statuses.most_common())]
