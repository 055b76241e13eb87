"""Run a recipe's stages in order against one workspace, then print a closing summary table."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.table import Table

from ..stages.base import StageRefused
from ..stages.driver import run_stage
from ..stages.executors import make_executor
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


def run_recipe(
    store: Store,
    recipe: Recipe,
    console: Console,
    *,
    progress: Callable[[bool], Any] | None = None,
    executor: Any = None,
) -> list[StageResult]:
    """Each stage reads what the previous one wrote; a stage that crashes or refuses stops the pipeline (later stages
    would work on incomplete data), a stage with some failed items does not. `progress(live)` makes each stage's
    Progress. `executor` runs every stage; without it each stage runs where the recipe's [pipeline] executor says."""
    results: list[StageResult] = []
    executors: dict[str, Any] = {}  # kind -> executor, made when a stage first needs it (one Ray connection)
    for index, step in enumerate(recipe.steps, 1):
        console.print(Rule(f"[bold]{index}/{len(recipe.steps)} {step.verb}"))
        start = time.perf_counter()
        stage = step.entry.stage_type()(step.config)
        try:
            chosen = executor
            if chosen is None:
                kind = recipe.executor_kind(step.verb)
                if kind not in executors:
                    executors[kind] = make_executor(kind, ray_address=recipe.ray_address, announce=console.print)
                chosen = executors[kind]
            stats = run_stage(
                stage, store, executor=chosen, progress=progress(stage.wants_progress()) if progress else None
            )
        except StageRefused as exc:
            results.append(StageResult(step.verb, None, time.perf_counter() - start, str(exc), refused=True))
            console.print(f"{step.verb} refused: {exc}", markup=False, highlight=False, soft_wrap=True)
            break
        except Exception as exc:  # the stage already wrote its failed `runs` row
            line = stage.explain_failure(exc) or f"{type(exc).__name__}: {exc}"
            results.append(StageResult(step.verb, None, time.perf_counter() - start, line))
            console.print(f"{step.verb} crashed: {line}", markup=False, highlight=False, soft_wrap=True)
            break
        elapsed = time.perf_counter() - start
        stats.render(console)
        for line in stage.closing_lines(stats):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
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
