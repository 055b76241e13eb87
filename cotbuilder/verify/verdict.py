"""One verification's outcome as data (KernelBench's result-model idea): every failure is a status, never a raise.

The status words are defined once, in `schemas/verification.schema.json` (and explained in `docs/statuses.md`).
Logs and checker output are secret-scanned here, before anything is stored (or later sent to a teacher).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from ..paths import data_dir

LOG_CAP = 20000


@functools.lru_cache(maxsize=1)
def statuses() -> tuple[str, ...]:
    schema = json.loads((data_dir("schemas") / "verification.schema.json").read_text(encoding="utf-8"))
    return tuple(schema["properties"]["status"]["enum"])


STATUSES = statuses()


@dataclass
class Verdict:
    status: str
    reason: str = ""
    harness: str = "none"
    compile_ok: bool | None = None
    run_ok: bool | None = None
    correct: bool | None = None
    missing_apis: list[str] = field(default_factory=list)
    cases: list[dict[str, Any]] = field(default_factory=list)
    diagnostics: list[dict[str, Any]] = field(default_factory=list)
    compile_log: str = ""
    run_log: str = ""
    timings: dict[str, Any] = field(default_factory=dict)
    isolation: dict[str, Any] | None = None  # {"missing": [features]} when the sandbox lacked something

    def __post_init__(self) -> None:
        assert self.status in STATUSES, self.status

    def as_columns(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "reason": redact(self.reason[:1000]) or None,
            "harness": self.harness,
            "compile_ok": self.compile_ok,
            "run_ok": self.run_ok,
            "correct": self.correct,
            "missing_apis": self.missing_apis or None,
            "cases": [_redact_case(c) for c in self.cases],
            "cases_run": len(self.cases),
            "diagnostics": self.diagnostics,
            "compile_log": _cap(redact(self.compile_log)),
            "run_log": _cap(redact(self.run_log)),
            "timings": self.timings,
            "isolation": self.isolation,
        }


def redact(text: str) -> str:
    """`text` with every credential the crawl's secret scanner finds replaced by a typed marker."""
    if not text:
        return text
    from ..crawl.secrets import scan

    return scan(text, "verify.log").text


def _redact_case(case: dict[str, Any]) -> dict[str, Any]:
    out = dict(case)
    for key in ("checker_output", "why"):
        if isinstance(out.get(key), str):
            out[key] = redact(out[key])
    if isinstance(out.get("evidence"), dict) and isinstance(out["evidence"].get("said"), str):
        out["evidence"] = {**out["evidence"], "said": redact(out["evidence"]["said"])}
    return out


def _cap(text: str) -> str | None:
    if not text:
        return None
    return text if len(text) <= LOG_CAP else text[: LOG_CAP // 2] + "\n[...]\n" + text[-LOG_CAP // 2 :]
