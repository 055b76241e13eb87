"""pass@k with the unbiased estimator of Chen et al. (Codex) that KernelBench also uses: from n samples of which c
pass, the chance that at least one of k drawn without replacement passes, 1 - C(n-c, k) / C(n, k)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from math import comb
from typing import Any

METRICS = ("parse", "compile", "correct")


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """None when k > n: the estimator needs at least k samples."""
    if not 0 <= c <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n (n={n}, c={c})")
    if k < 1 or k > n:
        return None
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def _hit(metric: str, sample: dict[str, Any]) -> bool:
    if metric == "parse":
        return bool(sample["parse_ok"])
    if metric == "compile":
        return sample.get("compiled") is True
    return sample["status"] == "passed"


def per_task(samples: Iterable[dict[str, Any]], ks: list[int]) -> list[dict[str, Any]]:
    """One row per task: n, c per metric and pass@k per metric and k. Samples whose verdict is `error`
    (cotbuilder's own failure) or gives no reward (`unsupported`: an emulator gap) are counted apart, not as fails."""
    by_task: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in samples:
        by_task[s["task_id"]].append(s)
    rows = []
    for group in by_task.values():
        judged = [s for s in group if s["status"] not in ("error", "unsupported", "unchecked")]
        first = group[0]
        row: dict[str, Any] = {
            "task": first["task_name"],
            "task_id": first["task_id"],
            "level": first.get("level"),
            "category": first.get("category"),
            "n": len(judged),
            "not_judged": len(group) - len(judged),
            "statuses": dict(sorted(_count(s["status"] for s in group).items())),
        }
        for metric in METRICS:
            c = sum(_hit(metric, s) for s in judged)
            row[f"{metric}_c"] = c
            for k in ks:
                row[f"{metric}@{k}"] = pass_at_k(len(judged), c, k) if judged else None
        rows.append(row)
    return sorted(rows, key=lambda r: (r["level"] or "", r["task"]))


def grouped(task_rows: list[dict[str, Any]], by: str, ks: list[int]) -> list[dict[str, Any]]:
    """The mean of each task's pass@k over the tasks of a level (or category); tasks where k > n are left out of
    that mean and counted."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in task_rows:
        groups[row.get(by) or "-"].append(row)
        groups["all"].append(row)
    out = []
    for name, rows in sorted(groups.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        entry: dict[str, Any] = {by: name, "tasks": len(rows), "samples": sum(r["n"] for r in rows)}
        for metric in METRICS:
            for k in ks:
                values = [r[f"{metric}@{k}"] for r in rows if r[f"{metric}@{k}"] is not None]
                entry[f"{metric}@{k}"] = sum(values) / len(values) if values else None
        out.append(entry)
    return out


def _count(values: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for v in values:
        counts[v] += 1
    return counts
