"""What a kept answer becomes: a `units` row of layout `synthesized` (its files parsed like crawled code, so dedup,
decontamination and the dataset see the same facts) and the `verifications` row of the verdict that kept it."""

from __future__ import annotations

from typing import Any

from ..hashing import sha256_text, stable_json
from ..tasks.task import Task


def source_id(teacher_key: str) -> str:
    """The teacher is the source a synthesized unit comes from (one id per teacher identity)."""
    return sha256_text(stable_json(["synthesize", teacher_key]))


def source_record(identity: dict[str, Any], teacher_key: str, now: Any) -> dict[str, Any]:
    """The `sources` row of a teacher's synthesized units: the dataset card lists it beside the crawled sources, so a
    reader sees which rows a model wrote. The identity holds provider, model and endpoint host, never a key."""
    where = "@" + identity["endpoint"] if identity.get("endpoint") else ""
    return {
        "source_id": source_id(teacher_key),
        "kind": "synthesized",
        "url": f"synthesize:{identity.get('model') or identity.get('provider')}{where}",
        "ref": None,
        "commit": None,
        "declared_license": None,
        "manifest": None,
        "fingerprint": f"teacher:{teacher_key}",
        "crawl_key": None,
        "status": "ok",
        "error": None,
        "n_files": 0,
        "n_units": None,
        "skipped": None,
        "crawled_at": now,
    }


def unit_record(task: Task, sample: dict[str, Any], license_: str) -> dict[str, Any]:
    from ..parse.units import extract_units, unit_id

    sid = source_id(sample["teacher_key"])
    root = f"synthesized/{task.name}"
    code: dict[str, str] = sample["code"]
    # the answer with the files the task gives (an op project's op_host/ for kernel_only) and the spec of the task's
    # first case (what it was verified with): the whole buildable unit, which `verify` re-runs and whose statement
    # annotate derives from the spec (without one, annotate's exact-statement gate refused every synthesized unit)
    given = {f["path"]: f["text"] for f in task.given_files if not f["path"].startswith("validation/")}
    if task.reference["kind"] != "benchmark" and task.cases:
        from ..tasks.specs import SPEC_NAME, spec_text

        given[SPEC_NAME] = spec_text(task, task.cases[0])
    files = [{"path": p, "text": t, "file_id": None, "license": license_} for p, t in sorted({**given, **code}.items())]
    units, _ = extract_units(sid, files, time_limit=None)
    unit = max(units, key=lambda u: len(u["kernel_code"])) if units else None
    if unit is None:  # the grouping found no kernel: keep the answer as one plain unit
        unit = {"files": [{"path": f["path"], "role": "other", "file_id": None, "text": f["text"]} for f in files],
                "kernel_code": "\n".join(code.values()), "host_code": "", "entry": [], "category": "other",
                "features": {"apis": {}, "dtypes": [], "uses_cube": False, "multi_core": False}, "complexity": 1,
                "diagnostics": [], "license": license_}  # fmt: skip
    category = unit["category"]
    unit.update(
        source_id=sid,
        layout="synthesized",
        name=task.name,
        root=root,
        parent_unit_id=None,
        unit_id=unit_id(sid, root, "synthesized", task.name, unit["files"]),
        category=category,
    )
    unit.pop("created_at", None)
    return unit


def verification_record(unit: dict[str, Any], sample: dict[str, Any], task: Task, soc: str) -> dict[str, Any]:
    backend, _, version = (sample.get("backend") or "cpu-emulator@?").partition("@")
    return {
        "verification_id": sha256_text(stable_json(["synthesize", unit["unit_id"], sample["sample_id"]])),
        "unit_id": unit["unit_id"],
        "backend": backend,
        "backend_version": version,
        "soc": soc,
        "source_hash": sample["code_hash"] or "",
        "status": sample["status"],
        "reason": sample.get("reason"),
        "harness": "spec" if task.layout == "kernel_launch" else "op_spec",
        "device": "cpu",
        "compile_ok": sample.get("compiled"),
        "run_ok": True,
        "correct": sample.get("correct"),
        "missing_apis": [],
        "cases": [],
        "diagnostics": sample.get("diagnostics") or [],
        "timings": {"sample_id": sample["sample_id"]},
    }
