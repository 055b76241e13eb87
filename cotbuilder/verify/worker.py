"""Verify one unit (runs in a pool worker): pick the harness, run it in a fresh work dir, return a plain dict.

Anything the unit does is a Verdict; only a failure of cotbuilder itself (a bug, a sandbox that cannot start, a
missing emulator) comes back as `infra_error` — not stored, counted as failed, and the exit code says so.
"""

from __future__ import annotations

import shutil
import traceback
from dataclasses import dataclass
from typing import Any

from . import harness_own, harness_spec, sandbox, steps
from .verdict import Verdict


@dataclass
class Job:
    unit: dict[str, Any]
    ctx: steps.Context
    backend: str = "cpu-emulator"
    cann: Any = None  # npu.CannInfo for the CANN backends
    device_id: int | None = None
    keep_workdir: bool = False


def choose(unit: dict[str, Any]) -> str:
    """own | spec | a reason why no harness applies (snippets are recorded unsupported, never skipped silently)."""
    if unit["layout"] == "snippet":
        return "snippet: no harness"
    if unit["layout"] == "kernel_launch" and harness_own.has_main(unit):
        return "own"
    if harness_spec.find_spec(unit) is not None:
        return "spec"
    if unit["layout"] == "op_project":
        return "op project without verify_spec.toml: no harness on cpu"
    return "kernel_launch without a host main or verify_spec.toml: no harness"


def verify(job: Job) -> dict[str, Any]:
    workdir = sandbox.new_workdir()
    try:
        if job.backend in ("npu", "cann-cpu"):
            from .npu import verify_cann

            verdict = verify_cann(job.unit, workdir, job.ctx, job.cann, job.backend, job.device_id)
        else:
            which = choose(job.unit)
            if which == "own":
                verdict = harness_own.verify_own(job.unit, workdir, job.ctx)
            elif which == "spec":
                verdict = harness_spec.verify_spec(job.unit, workdir, job.ctx)
            else:
                verdict = Verdict("unsupported", which, "none")
        if "sandbox could not start" in verdict.reason:
            return {"infra_error": verdict.reason}
        return {"verdict": verdict.as_columns()}
    except Exception as exc:  # a bug of ours: report it, never let one unit stop the batch
        return {"infra_error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()[-3000:]}
    finally:
        if not job.keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
