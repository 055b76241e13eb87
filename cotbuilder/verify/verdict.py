"""One verification's outcome as data (KernelBench's result-model idea): every failure is a status, never a raise."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STATUSES = ("passed", "failed_compile", "failed_run", "wrong_answer", "unsupported", "timeout", "sandbox_violation")
LOG_CAP = 20000


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

    def __post_init__(self) -> None:
        assert self.status in STATUSES, self.status

    def as_columns(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "reason": self.reason[:1000] or None,
            "harness": self.harness,
            "compile_ok": self.compile_ok,
            "run_ok": self.run_ok,
            "correct": self.correct,
            "missing_apis": self.missing_apis or None,
            "cases": self.cases,
            "diagnostics": self.diagnostics,
            "compile_log": _cap(self.compile_log),
            "run_log": _cap(self.run_log),
            "timings": self.timings,
        }


def _cap(text: str) -> str | None:
    if not text:
        return None
    return text if len(text) <= LOG_CAP else text[: LOG_CAP // 2] + "\n[...]\n" + text[-LOG_CAP // 2 :]
