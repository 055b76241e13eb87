"""`cotbuilder decontaminate`: check every unit against NPU kernel benchmarks."""

from __future__ import annotations

from pathlib import Path

import typer

from ..cli_common import EXIT_USAGE, console, open_store
from .stage import DecontamConfig


def _from_toml(path: Path) -> dict:
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    table = data.get("decontaminate", data)  # a pipeline recipe's [decontaminate] table, or a file of just that
    allowed = set(DecontamConfig.__dataclass_fields__)
    unknown = set(table) - allowed
    if unknown:
        raise ValueError(f"{path}: unknown decontaminate setting(s) {', '.join(sorted(unknown))}")
    return table


def command(
    ctx: typer.Context,
    benchmark: list[str] | None = typer.Option(
        None,
        "--benchmark",
        "-b",
        help="NAME=PATH_OR_GIT_URL (repeatable). Layout detected: NPUKernelBench "
        "(tasks/level*/...), MultiKernelBench (reference/ + prompts/), or any folder.",
    ),
    config: Path | None = typer.Option(
        None, "--config", help='TOML with a [decontaminate] table (benchmarks = ["NAME=..."], thresholds).'
    ),
    minhash_threshold: float | None = typer.Option(
        None, "--minhash-threshold", min=0.0, max=1.0, help="Similarity to a benchmark answer that flags a unit [0.8]."
    ),
    common_fraction: float | None = typer.Option(
        None, "--common-fraction", min=0.0, max=1.0, help="Ignore n-grams in at least this share of tasks [0.5]."
    ),
) -> None:
    """Check every unit (code + annotation text) against benchmarks: exact normalised code, shared 13-grams of code
    tokens / English words / Chinese characters, MinHash similarity to the answers. Writes the `contamination` table
    and <workspace>/reports/contamination.{md,json}."""
    from .benchmarks import BenchmarkError
    from .stage import run

    settings: dict = {}
    if config is not None:
        try:
            settings = _from_toml(config)
        except (OSError, ValueError) as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
    if minhash_threshold is not None:
        settings["minhash_threshold"] = minhash_threshold
    if common_fraction is not None:
        settings["common_fraction"] = common_fraction
    cfg = DecontamConfig(**settings)
    cfg.benchmarks += list(benchmark or [])
    if not cfg.benchmarks:
        console.print("[red]error:[/red] no benchmark given: pass --benchmark NAME=PATH_OR_GIT_URL (or --config)")
        raise typer.Exit(EXIT_USAGE)
    store = open_store(ctx)
    with store:
        try:
            stats = run(store, cfg)
        except BenchmarkError as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
        report = store.workspace / "reports" / "contamination.md"
    stats.render(console)
    console.print(f"report: {report}")
