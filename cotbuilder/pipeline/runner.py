"""Run a recipe's stages in order against one workspace, then print a closing summary table."""

from __future__ import annotations

import time
from dataclasses import dataclass

from rich.console import Console
from rich.rule import Rule
from rich.table import Table

from ..stats import StageStats
from ..store import Store
from .recipe import Recipe


@dataclass
class StageResult:
    verb: str
    stats: StageStats | None
    seconds: float
    error: str | None = None
    refused: bool = False  # the stage refused its config or cannot run here (exit 2), as opposed to crashing


def usage_errors() -> tuple[type[BaseException], ...]:
    """The exceptions by which stages refuse their input or say they cannot run here: the same ones each verb's
    command turns into exit 2."""
    from ..annotate.stage import CannotRun
    from ..decontam.benchmarks import BenchmarkError
    from ..publish.select import RefusedError
    from ..publish.stage import PushError
    from ..verify.npu import CannMissing

    return (ValueError, CannotRun, BenchmarkError, RefusedError, PushError, CannMissing)


def run_recipe(store: Store, recipe: Recipe, console: Console) -> list[StageResult]:
    """Each stage reads what the previous one wrote; a stage that crashes stops the pipeline (later stages would work
    on incomplete data), a stage with some failed items does not."""
    results: list[StageResult] = []
    for index, step in enumerate(recipe.steps, 1):
        console.print(Rule(f"[bold]{index}/{len(recipe.steps)} {step.verb}"))
        start = time.perf_counter()
        try:
            stats = step.module.run(store, step.config)
        except usage_errors() as exc:
            results.append(StageResult(step.verb, None, time.perf_counter() - start, str(exc), refused=True))
            console.print(f"[red]{step.verb} refused:[/red] {exc}")
            break
        except Exception as exc:  # the stage already wrote its failed `runs` row
            results.append(StageResult(step.verb, None, time.perf_counter() - start, f"{type(exc).__name__}: {exc}"))
            console.print(f"[red]{step.verb} crashed:[/red] {type(exc).__name__}: {exc}")
            break
        elapsed = time.perf_counter() - start
        stats.render(console)
        results.append(StageResult(step.verb, stats, elapsed))
    return results


def summary_table(recipe: Recipe, results: list[StageResult]) -> Table:
    table = Table(title=f"pipeline {recipe.name}", show_header=True, header_style="bold")
    for col in ("stage", "status", "kept", "skipped", "failed", "seconds"):
        table.add_column(col, justify="left" if col in ("stage", "status") else "right")
    for r in results:
        if r.stats is None:
            table.add_row(r.verb, "refused" if r.refused else "crashed", "", "", "", f"{r.seconds:.1f}")
            continue
        c = r.stats.counts
        table.add_row(
            r.verb,
            r.stats.derived_status,
            str(c.get("kept", 0)),
            str(c.get("skipped", 0)),
            str(c.get("failed", 0)),
            f"{r.seconds:.1f}",
        )
    ran = {r.verb for r in results}
    for step in recipe.steps:
        if step.verb not in ran:
            table.add_row(step.verb, "not run", "", "", "", "")
    return table
