"""Dataset rows (schemas/dataset_row.schema.json) in four export formats, one row per published sample (a unit's
accepted annotation: each language, each sample, or the best one per language with `--samples best`).

Every row carries the same provenance and quality columns; the format decides the training columns:
  messages   `messages`: [{role: user, content: task}, {role: assistant, content: reasoning + code}]
  alpaca     `instruction`, `input` (empty), `reasoning`, `output`
  sharegpt   `conversations`: [{from: human, value}, {from: gpt, value}]
  reasoning  `messages`: [{role: user, content: task + the answer layout}, {role: assistant, content:
             `<think>reasoning</think>` + the code in NPUKernelBench's answer layout (reasoning_format.py)}]
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from ..dedup.facts import UnitFacts, rationale_chars
from ..paths import package_data
from ..store import Store
from . import reasoning_format

FORMATS = ("messages", "alpaca", "sharegpt", "reasoning")
KIND_COLUMNS = ("repair", "source_url")  # columns of repair (from mutants) and doc rows only
SAMPLES = ("all", "best")
# The files of an op project an answer holds: device code and the host side NPUKernelBench asks for (tiling struct,
# tiling function, op definition); harness files are not part of an answer.
_ANSWER_ROLES = ("kernel", "snippet", "tiling", "tiling_func", "op_def")


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


@cache
def _layout_requests() -> dict[str, Any]:
    return tomllib.loads(package_data("publish/data/reasoning_format.toml").read_text(encoding="utf-8"))


def answer_files(unit: dict[str, Any]) -> dict[str, str]:
    """What the `reasoning` answer holds: an op project's code files by their path in the project; otherwise the
    kernel alone (NPUKernelBench's kernel-only `<kernel_impl>`)."""
    if unit["layout"] == "op_project":
        code = [f for f in unit["files"] if f.get("role") in _ANSWER_ROLES]
        if code:
            # host side first, headers before sources (the order NPUKernelBench's template lists its files in)
            code.sort(key=lambda f: (not f["path"].startswith("op_host/"), not f["path"].endswith(".h"), f["path"]))
            return {f["path"]: f["text"] for f in code}
    return {reasoning_format.KERNEL_IMPL: unit["kernel_code"]}


def reasoning_answer(reasoning: str, unit: dict[str, Any]) -> str | None:
    """The `reasoning` assistant turn, or None when the benchmark's rules would not read the unit's own files back
    from it (code that holds a fence line, a reasoning that names the tag or a header)."""
    files = answer_files(unit)
    if not reasoning.strip():
        return None
    text = reasoning_format.render(reasoning, files)
    try:
        _, parsed = reasoning_format.parse(text)
    except reasoning_format.FormatError:
        return None
    return text if parsed == {p: c.strip() for p, c in files.items()} else None


def pick_samples(annotations: list[dict[str, Any]], samples: str) -> list[dict[str, Any]]:
    """`all`: every accepted annotation; `best`: per language and kind the one with the longest rationale (ties: the
    lowest sample index, as dedup ranks a unit's annotations)."""
    if samples == "all":
        return list(annotations)
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for a in annotations:  # in (lang, sample_index) order: a later sample must be strictly longer to win
        key = (a["lang"], a.get("kind") or "cot")
        if key not in best or rationale_chars(a) > rationale_chars(best[key]):
            best[key] = a
    return [a for a in annotations if a in best.values()]


def build_row(
    unit: dict[str, Any], source: dict[str, Any] | None, picked: dict[str, Any], a: dict[str, Any], fmt: str
) -> dict[str, Any] | None:
    """The row of one sample (annotation `a` of the picked unit); None when `fmt` cannot hold it (see
    reasoning_answer)."""
    f: UnitFacts = picked["facts"]
    task = a.get("task") or ""
    reasoning = reasoning_text(a.get("rationale") or [])
    output = output_text(unit["kernel_code"], unit["host_code"])
    kernel_file = next((x["path"] for x in unit["files"] if x.get("role") == "kernel"), unit["files"][0]["path"])
    root = unit["root"].rstrip("/")
    teacher = a.get("teacher") or {}
    row: dict[str, Any] = {
        "id": unit["unit_id"],
        "name": unit["name"],
        "kind": a.get("kind") or "cot",
        "category": unit["category"],
        "level": unit["complexity"],
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
    if a.get("mutant"):
        m = a["mutant"]
        row["repair"] = {"mutation": m["kind"], "broken_status": m["status"], "path": m["path"], "line": m["line"]}
    return _with_training_columns(row, fmt, task, reasoning, output, unit)


def _with_training_columns(
    row: dict[str, Any], fmt: str, task: str, reasoning: str, output: str, unit: dict[str, Any]
) -> dict[str, Any] | None:
    """The format's training columns on `row`; None when `fmt` cannot hold it (see reasoning_answer)."""
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
    elif fmt == "reasoning":
        answer = reasoning_answer(reasoning, unit)
        if answer is None:
            return None
        request = _layout_requests()[row["lang"]]["op_project" if unit["layout"] == "op_project" else "kernel_only"]
        row["messages"] = [
            {"role": "user", "content": f"{task.strip()}\n\n{request.strip()}"},
            {"role": "assistant", "content": answer},
        ]
    else:
        raise ValueError(f"unknown format {fmt!r} ({', '.join(FORMATS)})")
    return row


def repair_annotations(store: Store, unit_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """unit_id -> its repair pairs that really fail (`mutants`: a planted mutant from `cotbuilder mutate`, or a
    teacher's failing answer whose repair is the unit, from `cotbuilder synthesize`), as annotation-shaped samples of
    kind repair without their task (the unit's own task statement goes in front of them, see build_rows). A mutant the
    verifier did not fail is never read here."""
    if not unit_ids or not store.has_table("mutants"):
        return {}
    from ..mutate.repair import REPAIR_VERSION

    out: dict[str, list[dict[str, Any]]] = {}
    for m in store.rows(
        "SELECT * FROM mutants WHERE really_fails AND unit_id IN (SELECT unnest(?::VARCHAR[])) "
        "ORDER BY unit_id, kind, mutant_id",
        [unit_ids],
    ):
        out.setdefault(m["unit_id"], []).append(
            {
                "annotation_id": m["mutant_id"],
                "kind": "repair",
                "lang": "en",  # the mutation rationale is written in English
                "rationale": m["rationale"],
                "teacher": {
                    "provider": "cotbuilder",
                    "model": "synthesize-repair" if m.get("origin") == "synthesize" else "mutation",
                    "prompt_version": REPAIR_VERSION,
                },
                "mutant": m,
            }
        )
    return out


def _with_task(repair: dict[str, Any], annotations: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The repair sample with its user turn: the unit's own task (its accepted cot annotation in the repair's
    language), the broken file and the verifier's feedback; None when the unit has no such task."""
    from ..mutate.repair import readable, repair_request

    task = next(
        (a.get("task") for a in annotations if (a.get("kind") or "cot") == "cot" and a["lang"] == repair["lang"]), None
    )
    if not task:
        return None
    m = repair["mutant"]
    steps = [{**step, "text": readable(step["text"])} for step in repair["rationale"] or []]
    return {**repair, "rationale": steps, "task": repair_request(task, m, readable(m["feedback"] or ""))}


def build_rows(
    store: Store, picked: list[dict[str, Any]], fmt: str, samples: str = "all", repairs: bool = True
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The rows of the picked units (one per chosen sample; with `repairs`, one per mutant of the unit that really
    fails, whose fixed code is the unit itself) and the count of samples left out, by reason."""
    dropped = {"sample_not_best": 0, "not_in_reasoning_layout": 0, "repair_without_task": 0}
    ids = [p["facts"].unit_id for p in picked]
    if not ids:
        return [], dropped
    units = {
        u["unit_id"]: u
        for u in store.rows(f"SELECT * FROM units WHERE unit_id IN ({', '.join('?' for _ in ids)})", ids)
    }
    sources = {s["source_id"]: s for s in store.rows("SELECT source_id, kind, url, commit FROM sources")}
    mutants = repair_annotations(store, ids) if repairs else {}
    rows = []
    for p in picked:
        unit = units[p["facts"].unit_id]
        chosen = pick_samples(p["annotations"], samples)
        dropped["sample_not_best"] += len(p["annotations"]) - len(chosen)
        for r in mutants.get(unit["unit_id"], []):
            with_task = _with_task(r, p["annotations"])
            if with_task is None:
                dropped["repair_without_task"] += 1
            else:
                chosen.append(with_task)
        for a in chosen:
            row = build_row(unit, sources.get(unit["source_id"]), p, a, fmt)
            if row is None:
                dropped["not_in_reasoning_layout"] += 1
            else:
                rows.append(row)
    return rows, dropped


def doc_rows(store: Store, fmt: str, allowed_licenses: list[str]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """kind="doc" rows: the grounded doc samples of `api_docs` (`cotbuilder apidocs`) whose docs' licence is allowed,
    one per page (the newest row of each url). Their code is the page's example, not verified (`verification.status`
    not_run) and not checked against the benchmarks (`contamination.verdict` not_checked): the row says so."""
    from .licenses import is_allowed

    dropped = {"doc_not_grounded": 0, "doc_license_not_allowed": 0, "not_in_reasoning_layout": 0}
    if not store.has_table("api_docs"):
        return [], dropped
    out = []
    for d in store.rows(
        "SELECT * FROM api_docs QUALIFY row_number() OVER (PARTITION BY url ORDER BY created_at DESC, doc_id) = 1 "
        "ORDER BY url"
    ):
        sample = d["sample"]
        if sample is None:
            continue
        if not d["grounded"]:
            dropped["doc_not_grounded"] += 1
            continue
        if not is_allowed(d["license"], allowed_licenses):
            dropped["doc_license_not_allowed"] += 1
            continue
        unit = {
            "layout": "snippet",
            "kernel_code": sample["answer"],
            "files": [{"path": d["path"], "role": "snippet", "text": sample["answer"]}],
        }
        row: dict[str, Any] = {
            "id": d["doc_id"],
            "name": sample["api"],
            "kind": "doc",
            "category": d["category"],
            "level": 1,
            "layout": "snippet",
            "lang": "zh",  # the docs' language: the sample quotes them
            "kernel_code": sample["answer"],
            "host_code": "",
            "source_url": d["url"],
            "provenance": {
                "repo": d["source"],
                "commit": d["commit"] or "",
                "path": d["path"],
                "license": d["license"],
            },
            "verification": {
                "status": "not_run",
                "backend": "",
                "backend_version": None,
                "cases": 0,
                "cases_passed": 0,
            },
            "teacher": {
                "provider": "cotbuilder",
                "model": "doc-sample",
                "prompt_version": _doc_samples_version(),
                "annotation_id": d["doc_id"],
            },
            "dedup": {"cluster_id": d["doc_id"], "cluster_size": 1},
            "contamination": {"verdict": "not_checked", "benchmarks": []},
        }
        reasoning = reasoning_text(sample["rationale"])
        built = _with_training_columns(
            row, fmt, sample["question"], reasoning, f"```cpp\n{sample['answer'].strip()}\n```", unit
        )
        if built is None:
            dropped["not_in_reasoning_layout"] += 1
        else:
            out.append(built)
    return out, dropped


def _doc_samples_version() -> str:
    from ..apidocs.samples import SAMPLES_VERSION

    return SAMPLES_VERSION
