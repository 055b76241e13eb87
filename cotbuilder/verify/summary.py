"""The table `cotbuilder verify` ends with: per harness kind, units and cases per status, with the top reasons.

It describes the workspace after the run (the latest verification of each unit on this backend and SoC), so an
unchanged re-run still shows where the data stands. Reasons are grouped with their numbers blanked out ("seed N:
output/x.bin: N/N elements off") so one kind of failure is one line.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any

from rich.console import Console
from rich.table import Table

from ..store import Store
from .verdict import statuses

_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def reason_key(reason: str | None, width: int = 70) -> str:
    lines = (reason or "").strip().splitlines()
    text = _NUMBER.sub("N", lines[0] if lines else "")
    return text[:width] + ("…" if len(text) > width else "")


def rows(store: Store, backend: str, soc: str) -> list[dict[str, Any]]:
    if not store.has_table("verifications"):
        return []
    return store.rows(
        "SELECT harness, status, reason, cases_run, cases FROM verifications WHERE backend = ? AND soc = ? "
        "QUALIFY row_number() OVER (PARTITION BY unit_id ORDER BY created_at DESC, verification_id DESC) = 1",
        [backend, soc],
    )


def table_data(found: list[dict[str, Any]], top: int = 3) -> dict[str, list[dict[str, Any]]]:
    """harness -> [{status, units, cases, cases_golden, reasons: [(reason, n)]}] in the vocabulary's order."""
    by: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in found:
        by[(r["harness"] or "none", r["status"])].append(r)
    out: dict[str, list[dict[str, Any]]] = {}
    order = {s: i for i, s in enumerate(statuses())}
    for (harness, status), group in sorted(by.items(), key=lambda kv: (kv[0][0], order.get(kv[0][1], 99))):
        cases = [c for r in group for c in (r["cases"] or [])]
        reasons = Counter(reason_key(r["reason"]) for r in group if r["reason"] and status != "passed")
        out.setdefault(harness, []).append(
            {
                "status": status,
                "units": len(group),
                "cases": sum(r["cases_run"] if r["cases_run"] is not None else len(r["cases"] or []) for r in group),
                "cases_golden": sum(1 for c in cases if c.get("check") == "golden"),
                "reasons": reasons.most_common(top),
            }
        )
    return out


def render_lines(data: dict[str, list[dict[str, Any]]], width: int = 150) -> list[str]:
    """The tables as plain text lines (the verb prints them after its stats table)."""
    import io

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    for harness, lines in data.items():
        table = Table(
            "status", "units", "cases", "compared with a golden", "top reasons", title=f"verify: {harness} harness"
        )
        for line in lines:
            reasons = "; ".join(f"{text} ({n})" for text, n in line["reasons"])
            table.add_row(line["status"], str(line["units"]), str(line["cases"]), str(line["cases_golden"]), reasons)
        console.print(table)
    return buffer.getvalue().rstrip("\n").splitlines() if data else []
