"""`<workspace>/reports/contamination.{md,json}`: hits listed per benchmark task."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from ..store import Store
from .index import BenchIndex


def _summary(check: dict[str, Any]) -> str:
    return f"{check['verdict']}: {_what(check)}"


def _what(check: dict[str, Any]) -> str:
    if check["kind"] == "exact":
        return f"exact copy of {check['answer']}"
    if check["kind"] == "minhash":
        return f"MinHash similarity {check['similarity']:.2f} to {check['answer']}"
    return f'{check["count"]} shared {check["kind"].replace("_ngram", "")} 13-grams, e.g. "{check["sample"][0]}"'


def build(store: Store, indexes: list[BenchIndex], unit_ids: list[str]) -> dict[str, Any]:
    units = {u["unit_id"]: u for u in store.rows("SELECT unit_id, name, root, source_id FROM units")}
    rows = store.rows("SELECT unit_id, verdict, evidence FROM contamination ORDER BY unit_id")
    by_task: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        for hit in r["evidence"]["hits"]:
            u = units.get(r["unit_id"], {})
            by_task[(hit["benchmark"], hit["task"])].append(
                {
                    "unit_id": r["unit_id"],
                    "name": u.get("name"),
                    "root": u.get("root"),
                    "verdict": hit["verdict"],
                    "checks": hit["checks"],
                }
            )
    return {
        "units": len(unit_ids),
        "contaminated": sum(1 for r in rows if r["verdict"] == "contaminated"),
        "near": sum(1 for r in rows if r["verdict"] == "near"),
        "clean": sum(1 for r in rows if r["verdict"] == "clean"),
        "benchmarks": [
            {
                "name": i.name,
                "location": i.location,
                "layout": i.layout,
                "commit": i.commit,
                "tasks": len(i.tasks),
                "index_hash": i.index_hash,
                "shared_ngrams_dropped": i.dropped,
                "hits": [
                    {"task": task, "units": hits} for (bench, task), hits in sorted(by_task.items()) if bench == i.name
                ],
            }
            for i in indexes
        ],
    }


def render_markdown(data: dict[str, Any]) -> str:
    lines = [
        "# Contamination report",
        "",
        f"{data['units']} units checked: {data['clean']} clean, {data['near']} near (share a kernel body with a "
        f"benchmark answer), {data['contaminated']} contaminated (a copy of a benchmark answer or task).",
        "",
    ]
    for b in data["benchmarks"]:
        lines += [
            f"## {b['name']} ({b['layout']}, {b['tasks']} tasks)",
            "",
            f"Source: `{b['location']}`" + (f" at `{b['commit'][:12]}`" if b["commit"] else ""),
            "",
            "Shared n-grams ignored (in many tasks, in the shared prompt text, or in the background set): "
            + ", ".join(f"{k} {v}" for k, v in b["shared_ngrams_dropped"].items()),
            "",
        ]
        if not b["hits"]:
            lines += ["No hits.", ""]
            continue
        lines += ["| task | unit | verdict | evidence |", "|---|---|---|---|"]
        for hit in b["hits"]:
            for u in hit["units"]:
                evidence = "; ".join(_summary(c) for c in u["checks"]).replace("|", "\\|")
                lines.append(f"| {hit['task']} | {u['name']} (`{u['unit_id'][:12]}`) | {u['verdict']} | {evidence} |")
        lines.append("")
    return "\n".join(lines)


def write(store: Store, indexes: list[BenchIndex], unit_ids: list[str]) -> None:
    data = build(store, indexes, unit_ids)
    folder = store.workspace / "reports"
    folder.mkdir(exist_ok=True)
    (folder / "contamination.json").write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    (folder / "contamination.md").write_text(render_markdown(data), encoding="utf-8")
