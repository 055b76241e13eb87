"""`cotbuilder verify`: build and run every unit, record whether it computes the right answer."""

from __future__ import annotations

import typer

from .config import VerifyConfig


def command(
    ctx: typer.Context,
    device: str = typer.Option(
        "cpu",
        "--device",
        help="cpu (built-in emulator), npu:N (Ascend device N, needs CANN) or cann-cpu (CANN's CPU debug mode).",
    ),
    soc: str = typer.Option("ascend910b", "--soc", help="ascend910b | ascend310p (UB size, SOC_VERSION)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Units built and run in parallel."),
    limit: int | None = typer.Option(None, "--limit", help="Verify at most N units not yet verified."),
    unit: str | None = typer.Option(None, "--unit", help="Only this unit (id or id prefix)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Rebuild instead of reusing cached builds."),
    no_pch: bool = typer.Option(False, "--no-pch", help="Do not use the precompiled emulator header."),
    keep: bool = typer.Option(False, "--keep-workdirs", help="Keep each unit's temp work dir (debugging)."),
    cpu_seconds: int = typer.Option(60, "--cpu-seconds", help="Sandbox CPU-time limit per process."),
    wall_seconds: float = typer.Option(120.0, "--wall-seconds", help="Sandbox wall-time limit per process."),
    memory_mb: int = typer.Option(4096, "--memory-mb", help="Sandbox address-space limit per process."),
) -> None:
    """Build and run each unit, judge its output, write `verifications` rows.

    Status per unit: passed, failed_compile, failed_run, wrong_answer, unsupported (the missing API is named),
    timeout, sandbox_violation. Re-running skips units already verified with the same backend, backend version,
    SoC and source hash. Everything crawled runs in a sandbox (see cotbuilder/verify/SANDBOX.md).

    Exit status: 0 every unit got a verdict (a wrong_answer or failed_compile is a result about the data, not an
    error); 1 some units could not be verified because of cotbuilder itself (harness crash, sandbox could not
    start); 2 bad usage, or the backend cannot run here (no CANN / no NPU: one line says what is missing, nothing
    is stored).
    """
    from ..cli_common import EXIT_PARTIAL, EXIT_USAGE, console, open_store, usage_error
    from . import npu
    from .stage import prepare, run

    config = VerifyConfig(
        device=device,
        soc=soc,
        jobs=jobs,
        limit=limit,
        unit=unit,
        build_cache=not no_cache,
        pch=not no_pch,
        keep_workdirs=keep,
        progress=console.is_terminal,
        cpu_s=cpu_seconds,
        wall_s=wall_seconds,
        memory_mb=memory_mb,
    )
    try:
        prepare(config)  # before the store is opened: a backend that cannot run here stores nothing
    except ValueError as exc:
        raise usage_error(str(exc)) from exc
    except npu.CannMissing as exc:
        console.print(f"cotbuilder verify: {exc}", soft_wrap=True, markup=False, highlight=False)
        raise typer.Exit(EXIT_USAGE) from exc
    store = open_store(ctx)
    with store:
        try:
            stats = run(store, config)
        except ValueError as exc:  # --unit matched nothing
            raise usage_error(str(exc)) from exc
        stats.render(console)
    if stats.counts["failed"]:
        raise typer.Exit(EXIT_PARTIAL)
