"""Steps both harnesses share: build against the emulator, run the binary, turn what happened into a status."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import build as buildmod
from . import diagnostics, sandbox
from .verdict import Verdict

_PY_MISSING = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")


@dataclass
class Context:
    """What a harness needs besides the unit: where to cache, which SoC, the limits, the PCH."""

    cache_dir: Path
    soc: str = "ascend910b"
    limits: sandbox.Limits = field(default_factory=sandbox.Limits)
    pch: buildmod.Pch | None = None
    opt: str = "-O1"
    use_cache: bool = True
    seeds: tuple[int, ...] = (0, 1)
    python: str = "python3"
    extra_env: dict[str, str] = field(default_factory=dict)  # e.g. the CANN toolkit environment for npu runs


def compile_failure(result: buildmod.BuildResult, timings: dict[str, Any], harness: str) -> Verdict:
    if result.outcome == "timeout":
        return Verdict(
            "timeout", "compiler: time limit", harness, compile_ok=False, compile_log=result.log, timings=timings
        )
    missing = diagnostics.missing_apis(result.log)
    if missing:
        return Verdict(
            "unsupported",
            "missing in emulator: " + ", ".join(missing[:5]),
            harness,
            compile_ok=False,
            missing_apis=missing,
            compile_log=result.log,
            timings=timings,
        )
    return Verdict(
        "failed_compile",
        diagnostics.first_error(result.log),
        harness,
        compile_ok=False,
        compile_log=result.log,
        timings=timings,
    )


def stopped(result: sandbox.SandboxResult, what: str) -> tuple[str, str] | None:
    """(status, reason) when a sandboxed step did not end normally; None when it exited 0."""
    if result.outcome == "ok":
        return None
    if result.outcome == "timeout":
        return "timeout", f"{what}: {result.reason}"
    if result.outcome == "violation":
        return "sandbox_violation", f"{what}: {result.reason}"
    if result.outcome == "sandbox_error":
        return "failed_run", f"{what}: sandbox could not start ({result.reason})"
    if m := _PY_MISSING.search(result.stderr):
        return "unsupported", f"{what} needs python module {m.group(1)}"
    detail = diagnostics.first_error(result.stderr) or diagnostics.first_error(result.stdout)
    return "failed_run", f"{what}: {result.reason}{' - ' + detail if detail else ''}"


def ended_by_diagnostics(result: sandbox.SandboxResult, diags: list[dict[str, Any]]) -> bool:
    """The emulator exits 3 at the end of a run that reported errors: still judge its output (see judge())."""
    return result.outcome == "exit" and result.returncode == 3 and bool(diagnostics.errors(diags))


def run_env(ctx: Context) -> dict[str, str]:
    return {"COTBUILDER_SOC": ctx.soc, **ctx.extra_env}


def run_binary(
    workdir: Path, binary: str, ctx: Context, args: list[str] | None = None
) -> tuple[sandbox.SandboxResult, list[dict[str, Any]], str]:
    """Run the built kernel (with the command-line arguments its docs give it); returns the sandbox result, the
    emulator diagnostics, and the rest of the output."""
    result = sandbox.run([f"./{binary}", *(args or [])], workdir, ctx.limits, env=run_env(ctx))
    diags, rest = diagnostics.parse_emulator_diagnostics(result.stderr)
    log = (result.stdout + ("\n" if result.stdout and rest else "") + rest).strip()
    return result, diags, log


def judge(verdict: Verdict) -> Verdict:
    """Final status from run outcome, correctness and diagnostics (rule documented in README/SANDBOX.md):
    runtime-unsupported beats all; a wrong answer stays wrong_answer (diagnostics attached); a right answer with
    error diagnostics is failed_run; warnings never change the status."""
    unsupported = diagnostics.unsupported(verdict.diagnostics)
    if unsupported:
        verdict.status = "unsupported"
        verdict.missing_apis = sorted(set(verdict.missing_apis) | set(unsupported))
        verdict.reason = "missing in emulator: " + ", ".join(verdict.missing_apis[:5])
        return verdict
    if verdict.status != "passed":
        return verdict
    errors = diagnostics.errors(verdict.diagnostics)
    if verdict.correct is False:
        verdict.status = "wrong_answer"
        if errors and not verdict.reason:
            verdict.reason = f"{errors[0]['kind']}: {errors[0]['message']}"
    elif errors:
        verdict.status = "failed_run"
        where = f" ({errors[0].get('file')}:{errors[0].get('line')})" if errors[0].get("line") else ""
        verdict.reason = f"emulator {errors[0]['kind']}: {errors[0]['message']}{where}"
    return verdict
