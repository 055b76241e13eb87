"""Schema-valid records for the dedup / decontaminate / push tests (what crawl, verify and annotate would write)."""

from __future__ import annotations

import hashlib

from cotbuilder.store import Store, utcnow

SOURCE_ID = hashlib.sha256(b"test-source").hexdigest()


def _id(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


def source(store: Store) -> None:
    store.insert(
        "sources",
        [
            {
                "source_id": SOURCE_ID,
                "kind": "git",
                "url": "https://example.org/kernels.git",
                "commit": "a" * 40,
                "status": "ok",
                "crawled_at": utcnow(),
            }
        ],
    )


def unit(
    store: Store,
    name: str,
    kernel_code: str,
    host_code: str = "",
    license: str = "Apache-2.0",
    harness: bool = True,
    category: str = "elementwise",
) -> str:
    unit_id = _id(name, kernel_code, host_code)
    files = [{"path": f"{name}.cpp", "role": "kernel", "file_id": None, "text": kernel_code}]
    if harness:
        files.append({"path": "main.cpp", "role": "host_main", "file_id": None, "text": "int main() { return 0; }"})
    store.insert(
        "units",
        [
            {
                "unit_id": unit_id,
                "source_id": SOURCE_ID,
                "layout": "kernel_launch",
                "name": name,
                "root": f"ops/{name}",
                "files": files,
                "kernel_code": kernel_code,
                "host_code": host_code,
                "entry": [],
                "features": {"apis": {}, "dtypes": [], "uses_cube": False, "multi_core": True},
                "category": category,
                "complexity": 2,
                "diagnostics": [],
                "license": license,
                "created_at": utcnow(),
            }
        ],
    )
    return unit_id


def verification(store: Store, unit_id: str, status: str = "passed") -> str:
    vid = _id(unit_id, "cpu", status)
    store.insert(
        "verifications",
        [
            {
                "verification_id": vid,
                "unit_id": unit_id,
                "backend": "cpu-emulator",
                "backend_version": "0.1",
                "soc": "ascend910b",
                "source_hash": _id("src", unit_id),
                "status": status,
                "compile_ok": True,
                "run_ok": status == "passed",
                "correct": status == "passed",
                "cases": [{"seed": 0, "ok": status == "passed", "outputs": []}],
                "diagnostics": [],
                "timings": {},
                "created_at": utcnow(),
            }
        ],
    )
    return vid


def annotation(
    store: Store,
    unit_id: str,
    task: str = "Write an AscendC kernel for this operator.",
    steps: list[str] | None = None,
    gates_passed: bool = True,
    lang: str = "en",
    sample_index: int = 0,
) -> str:
    aid = _id(unit_id, "ann", str(sample_index), lang)
    steps = steps or ["Split the data across cores by block index.", "Tile the block so two buffers fit in UB."]
    store.insert(
        "annotations",
        [
            {
                "annotation_id": aid,
                "unit_id": unit_id,
                "sample_index": sample_index,
                "lang": lang,
                "kind": "cot",
                "teacher": {"provider": "static", "model": "static-v1", "prompt_version": "1", "params": {}},
                "status": "ok",
                "task": task,
                "rationale": [{"step": f"s{i}", "title": f"Step {i}", "text": t} for i, t in enumerate(steps)],
                "gates": {"apis_exist": {"passed": gates_passed, "detail": ""}},
                "gates_passed": gates_passed,
                "usage": {},
                "cost_usd": 0.0,
                "created_at": utcnow(),
            }
        ],
    )
    return aid
