"""`cotbuilder verify`'s settings (light: the CLI reads them for --help without importing the harnesses)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..stages.options import option

SOCS = ("ascend910b", "ascend310p")
# The optimisation level a unit's own code is built at (the emulator's runtime library is always -O1: build.py).
# Part of the verification id: another level is another verification.
KERNEL_OPT = "-O0"


@dataclass
class VerifyConfig:
    """Build and run each unit, judge its output, write `verifications` rows.

    Status per unit (docs/statuses.md): passed (cotbuilder compared every output with a golden fixed before the
    kernel ran), wrong_answer, failed_compile, failed_run, timeout, unchecked (ran clean, nothing to compare),
    unsupported (the gap is named), sandbox_violation. Re-running skips units already verified with the same
    backend, backend version, SoC and source hash. Everything crawled runs in a sandbox (cotbuilder/verify/SANDBOX.md).
    Ends with a table per harness kind: units and cases per status, with the top reasons.

    Exit status: 0 every unit got a verdict (a wrong_answer or failed_compile is a result about the data, not an
    error); 1 some units could not be verified because of cotbuilder itself (harness crash, sandbox could not
    start); 2 bad usage, or the backend cannot run here (no CANN / no NPU, or a machine that cannot isolate what
    verify runs without --allow-weak-sandbox: one line says what is missing, nothing is stored).
    """

    device: str = option(
        "cpu",
        "--device",
        help="cpu (built-in emulator), npu:N (Ascend device N, needs CANN) or cann-cpu (CANN's CPU debug mode).",
    )
    soc: str = option("ascend910b", "--soc", help="ascend910b | ascend310p (UB size, SOC_VERSION).")
    jobs: int = option(1, "--jobs", "-j", help="Units built and run in parallel.")
    limit: int | None = option(None, "--limit", help="Verify at most N units not yet verified.")
    unit: str | None = option(None, "--unit", help="Only this unit (id or id prefix).")
    layouts: list[str] = field(default_factory=lambda: ["kernel_launch", "op_project", "snippet"])
    seeds: list[int] = field(default_factory=lambda: [0, 1])
    # sandbox limits for generators, kernels, checkers
    cpu_s: int = option(60, "--cpu-seconds", help="Sandbox CPU-time limit per process.")
    wall_s: float = option(
        120.0,
        "--wall-seconds",
        help="Sandbox wall-time limit per step; a step a busy host starves (still getting >= 5% of a CPU each second)"
        " runs on up to 4x it.",
    )
    memory_mb: int = option(
        4096, "--memory-mb", help="Sandbox memory limit: per step (all its processes together) and per process."
    )
    pch: bool = option(True, "--no-pch", help="Do not use the precompiled emulator header.")
    build_cache: bool = option(True, "--no-cache", help="Rebuild instead of reusing cached builds.")
    schedules: int = option(
        1,
        "--schedules",
        help="cpu: run each case under N seeds of the emulator's multi-core scheduler; a kernel whose output "
        "depends on how its cores interleave fails (failed_run, schedule_dependent).",
    )
    opt: str = KERNEL_OPT
    keep_workdirs: bool = option(False, "--keep-workdirs", help="Keep each unit's temp work dir (debugging).")
    allow_weak_sandbox: bool = option(
        False,
        "--allow-weak-sandbox",
        help="Verify even where this machine lacks an isolation feature (PID/mount/network namespace, seccomp, "
        "memory or pids cgroup); each verdict records what was missing. Without it, verify refuses (exit 2).",
    )
    progress: bool = option(True, "--no-progress", help="No progress bar.")
