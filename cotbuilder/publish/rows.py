"""Dataset rows (schemas/dataset_row.schema.json) in three export formats.

Every row carries the same provenance and quality columns; the format decides the training columns:
  messages  `messages`: [{role: user, content: task}, {role: assistant, content: reasoning + code}]
  alpaca    `instruction`, `input` (empty), `reasoning`, `output`
  sharegpt  `conversations`: [{from: human, value}, {from: gpt, value}]
"""

from __future__ import annotations

from typing import Any

from ..dedup.facts import UnitFacts
from ..store import Store

FORMATS = ("messages", "alpaca", "sharegpt")


def reasoning_text(rationale: list[dict[str, Any]]) -> str:
    return "\n\n".join(
        f"### {i}. {s.get('title') or s.get('step')}\n{s.get('text', '').strip()}"
        for i, s in enumerate(rationale or [], 1)
    )


def output_text(kernel_code: str, host_code: str) -> str:
    parts = [f"```cpp\n// device code\n{kernel_code.strip()}\n```"]
    if host_code.strip():
        parts.append(f"```cpp\n// host code\n{host_code.strip()}\n```")
    return "\n\n".join(parts)


def _verification_summary(f: UnitFacts) -> dict[str, Any]:
    v = f.verification or {}
    cases = v.get("cases") or []
    return {
        "status": v.get("status", "unverified"),
        "backend": v.get("backend"),
        "backend_version": v.get("backend_version"),
        "soc": v.get("soc"),
        "cases": len(cases),
        "cases_passed": sum(1 for c in cases if c.get("ok") is True),
        "cases_compared": sum(1 for c in cases if c.get("check") == "golden"),
        # "full", or the isolation features the sandbox lacked when it was verified (verify --allow-weak-sandbox)
        "isolation": "missing: " + ", ".join((v.get("isolation") or {}).get("missing", []))
        if v.get("isolation")
        else "full",
        "backends_tried": sorted(set(f.backends)),
    }


def public_location(source: dict[str, Any] | None) -> str:
    """Where a row came from, as the public may read it: a git or doc URL as crawled, without any credentials (the
    crawl strips them already; a store written before that may still hold them); a local folder only by its name
    (`local:examples`), so a builder's home directory never ends up in a published dataset."""
    from ..crawl.urlredact import redact_url

    if not source:
        return ""
    url = source.get("url") or ""
    if source.get("kind") == "local" or "://" not in url and url.startswith("/"):
        return f"local:{url.rstrip('/').rsplit('/', 1)[-1]}"
    return redact_url(url)


def build_row(unit: dict[str, Any], source: dict[str, Any] | None, picked: dict[str, Any], fmt: str) -> dict[str, Any]:
    f: UnitFacts = picked["facts"]
    a = f.annotation or {}
    task = a.get("task") or ""
    reasoning = reasoning_text(a.get("rationale") or [])
    output = output_text(unit["kernel_code"], unit["host_code"])
    kernel_file = next((x["path"] for x in unit["files"] if x.get("role") == "kernel"), unit["files"][0]["path"])
    root = unit["root"].rstrip("/")
    teacher = a.get("teacher") or {}
    row: dict[str, Any] = {
        "id": unit["unit_id"],
        "name": unit["name"],
        "category": unit["category"],
        "layout": unit["layout"],
        "lang": a.get("lang", "en"),
        "kernel_code": unit["kernel_code"],
        "host_code": unit["host_code"],
        "provenance": {
            "repo": public_location(source),
            "commit": (source or {}).get("commit") or "",
            "path": f"{root}/{kernel_file}" if root else kernel_file,
            "license": unit["license"],
        },
        "verification": _verification_summary(f),
        "teacher": {
            "provider": teacher.get("provider", ""),
            "model": teacher.get("model", ""),
            "prompt_version": teacher.get("prompt_version", ""),
            "annotation_id": a.get("annotation_id", ""),
        },
        "dedup": {"cluster_id": picked["dedup"]["cluster_id"], "cluster_size": picked["dedup"]["cluster_size"]},
        "contamination": {
            "verdict": picked["contamination"]["verdict"],
            "benchmarks": [c["benchmark"] for c in picked["contamination"]["evidence"]["checked"]],
        },
    }
    if fmt == "messages":
        row["messages"] = [
            {"role": "user", "content": task},
            {"role": "assistant", "content": f"{reasoning}\n\n{output}".strip()},
        ]
    elif fmt == "alpaca":
        row.update(instruction=task, input="", reasoning=reasoning, output=output)
    elif fmt == "sharegpt":
        row["conversations"] = [
            {"from": "human", "value": task},
            {"from": "gpt", "value": f"{reasoning}\n\n{output}".strip()},
        ]
    else:
        raise ValueError(f"unknown format {fmt!r} ({', '.join(FORMATS)})")
    return row


def build_rows(store: Store, picked: list[dict[str, Any]], fmt: str) -> list[dict[str, Any]]:
    ids = [p["facts"].unit_id for p in picked]
    if not ids:
        return []
    units = {
        u["unit_id"]: u
        for u in store.rows(f"SELECT * FROM units WHERE unit_id IN ({', '.join('?' for _ in ids)})", ids)
    }
    sources = {s["source_id"]: s for s in store.rows("SELECT source_id, kind, url, commit FROM sources")}
    return [
        build_row(units[p["facts"].unit_id], sources.get(units[p["facts"].unit_id]["source_id"]), p, fmt)
        for p in picked
    ]
