"""Which tasks must not be synthesised: a task loaded from a benchmark (its source names the loader), or one that
decontamination matches to a registered benchmark (its statement, its known answer or its given code shares
task-specific n-grams or a kernel body with a benchmark task: the same checks `decontaminate` runs on units)."""

from __future__ import annotations

from pathlib import Path

from ..tasks.task import Task


class BenchmarkGate:
    def __init__(self, specs: list[str], cache_dir: Path):
        from ..decontam.benchmarks import load
        from ..decontam.config import DecontamConfig
        from ..decontam.index import load_or_build

        self.config = DecontamConfig(benchmarks=list(specs))
        self.indexes = [
            load_or_build(load(spec, cache_dir), self.config.index_params(), cache_dir)[0] for spec in specs
        ]

    def match(self, task: Task) -> str | None:
        """Why the task is a benchmark task, or None."""
        if task.source != "task.toml":
            return f"loaded from the benchmark {task.source} ({task.origin})"
        from ..decontam.checks import UnitText, check_unit, hit_verdict

        c = self.config
        params = c.check_params()
        code = [f["text"] for f in (task.answer_files or [])] + [f["text"] for f in task.given_files]
        text = UnitText(
            task.task_id, "\n".join(code), "", code, [s for s in (task.statement_en, task.statement_zh) if s]
        )
        for idx in self.indexes:
            hits = check_unit(text, idx, params, c.ngram, c.shingle)
            for bench_task, evidence in sorted(hits.items()):
                if hit_verdict(evidence) == "contaminated":
                    kinds = ", ".join(sorted({e["kind"] for e in evidence}))
                    return f"matches {idx.name} task {bench_task} ({kinds})"
        return None
