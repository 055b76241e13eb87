"""`cotbuilder mutate`'s settings (light: the CLI reads them for --help)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..stages.options import list_option, option
from ..verify.config import KERNEL_OPT


@dataclass
class MutateConfig:
    """Make bug mutants of every verified (passed) unit, verify each on the CPU emulator, store them in `mutants`.

    Mutation kinds (cotbuilder/mutate/data/mutations.toml): gm_offset, dropped_tail, tile_count_off_by_one,
    misaligned_datacopy, missing_free_tensor, missing_enque, ub_over_budget, cast_round_mode, half_accumulation,
    missing_sync; each changes one site of the parsed kernel (the first in file order). A mutant that really fails
    (failed_compile, failed_run, wrong_answer, timeout) keeps its verdict, the verifier's feedback and a repair
    rationale, and `push` publishes it as a kind="repair" row whose fixed code is the verified original; a mutant
    that still passes is stored and counted (it shows where the harness or the emulator is blind) but never
    published. Re-running skips mutants already verified with the same emulator version, SoC and seeds. Ends with a
    table per mutation kind: made / really failing / still passing / no verdict.

    Exit status: 0 every mutant got a verdict; 1 some could not be verified (an infrastructure error); 2 bad usage,
    or a machine that cannot isolate what verify runs (see `cotbuilder verify --help`).
    """

    jobs: int = option(1, "--jobs", "-j", help="Mutants built and run in parallel.")
    kinds: list[str] = list_option("--kind", help="Only this mutation kind (repeatable; default: every kind).")
    unit: str | None = option(None, "--unit", help="Only mutants of this unit (id or id prefix).")
    limit: int | None = option(None, "--limit", help="Verify at most N mutants not yet verified.")
    soc: str = option("ascend910b", "--soc", help="ascend910b | ascend310p (as for verify).")
    seeds: list[int] = field(default_factory=lambda: [0, 1])
    cpu_s: int = option(60, "--cpu-seconds", help="Sandbox CPU-time limit per process.")
    wall_s: float = option(60.0, "--wall-seconds", help="Sandbox wall-time limit per process (a hung mutant: timeout).")
    memory_mb: int = option(4096, "--memory-mb", help="Sandbox memory limit per step.")
    pch: bool = option(True, "--no-pch", help="Do not use the precompiled emulator header.")
    opt: str = KERNEL_OPT  # as verify builds units
    allow_weak_sandbox: bool = option(
        False, "--allow-weak-sandbox", help="Verify even where this machine lacks an isolation feature (as verify)."
    )
    progress: bool = option(True, "--no-progress", help="No progress bar.")
