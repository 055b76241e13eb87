"""Verify one unit (runs in a pool worker): pick the harness, run it in a fresh work dir, return a plain dict.

Anything the unit does is a Verdict; only a failure of cotbuilder itself (a bug, a sandbox that cannot start, a
missing emulator) comes back as `infra_error` — not stored, counted as failed, and the exit code says so.
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass
from typing import Any

from . import diagnostics, harness_op, harness_own, harness_spec, sandbox, steps
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
    """own | spec | an op-project harness (harness_op.py) | a reason why no harness applies (snippets are recorded
    unsupported, never skipped silently)."""
    if unit["layout"] == "snippet":
        return "snippet: no harness"
    if unit["layout"] == "op_project":
        return harness_op.choose(unit)
    if unit["layout"] == "kernel_launch" and harness_own.has_main(unit):
        return "own"
    if harness_spec.find_spec(unit) is not None:
        return "spec"
    return "kernel_launch without a host main or verify_spec.toml: no harness"


def _check_record(unit_id: str, columns: dict[str, Any]) -> None:
    """Validate here, in the worker: a verdict the schema refuses is our bug for that unit only (an infrastructure
    error), not an exception in the parent's writer that would stop the batch."""
    from ..records import validate
    from ..store import json_safe_row, utcnow

    placeholder = {"verification_id": "0" * 64, "backend": "cpu-emulator", "backend_version": "-", "soc": "ascend910b"}
    validate(
        "verification",
        json_safe_row({**placeholder, "unit_id": unit_id, "source_hash": "0" * 64, "created_at": utcnow(), **columns}),
    )


# Below this much free space where the unit was built, a failed build is the disk's doing. ld that runs out of space
# while writing its output may say nothing but "ld returned 1 exit status", so the log alone cannot tell.
DISK_FULL_BYTES = 32 * 2**20


def _host_disk_full(compile_log: str, unit_dir) -> str | None:
    if line := diagnostics.host_disk_error(compile_log):
        return line
    try:
        st = os.statvfs(unit_dir)
    except OSError:
        return None
    free = st.f_bavail * st.f_frsize
    return f"{free // 1024} KiB free where it was built" if free < DISK_FULL_BYTES else None


def verify(job: Job) -> dict[str, Any]:
    session = job.ctx.sandbox_session()
    unit_dir = session.new_dir(f"u-{job.unit['unit_id'][:12]}-")
    try:
        if job.backend in ("npu", "cann-cpu"):
            from .npu import verify_cann

            verdict = verify_cann(job.unit, unit_dir, job.ctx, job.cann, job.backend, job.device_id)
        else:
            which = choose(job.unit)
            if which == "own":
                verdict = harness_own.verify_own(job.unit, unit_dir, job.ctx)
            elif which == "spec":
                verdict = harness_spec.verify_spec(job.unit, unit_dir, job.ctx)
            elif which in harness_op.KINDS:
                verdict = harness_op.verify(job.unit, which, unit_dir, job.ctx)
            else:
                verdict = Verdict("unsupported", which, "none")
        if "sandbox could not start" in verdict.reason:
            return {"infra_error": verdict.reason}
        if verdict.status in ("failed_compile", "failed_run", "wrong_answer") and (
            disk := _host_disk_full(verdict.compile_log, unit_dir)
        ):
            return {"infra_error": f"the host's disk, not the kernel: {disk}"}
        if session.missing:
            verdict.isolation = {"missing": list(session.missing)}
        columns = verdict.as_columns()
        _check_record(job.unit["unit_id"], columns)
        return {"verdict": columns}
    except Exception as exc:  # a bug of ours: report it, never let one unit stop the batch
        return {"infra_error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()[-3000:]}
    finally:
        if not job.keep_workdir:
            sandbox.remove_tree(unit_dir)
