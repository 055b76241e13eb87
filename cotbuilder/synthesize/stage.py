"""SynthesizeStage: one item per task. A worker asks the teacher for N candidates, verifies each (eval's sampling:
the reward's Scorer, goldens sealed first), sends each failing one back with its diagnostic for up to R repair
rounds, and keeps the passing, distinct answers (MinHash over the code, a cap per task). The driver writes the task's
samples, units and verifications in one transaction: a task is done or not (its answers and verdicts are cached, so
a task cut by a kill is redone without new requests or builds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..eval import prompts
from ..eval.sampling import base_row, make_scorer, sample_id, teacher_key, verdict_row
from ..eval.teachers import TeacherSpec, make_teacher
from ..stages.base import PROCESS, Stage, StageRefused
from ..stages.driver import run_stage
from ..stats import StageStats
from ..store import Store, utcnow
from ..tasks.task import Task
from .config import SynthesizeConfig

REPAIRABLE = ("failed_compile", "wrong_answer", "failed_run", "timeout")


@dataclass
class SynthItem:
    task: Task


@dataclass
class SynthResult:
    task_name: str
    samples: list[dict[str, Any]]
    units: list[dict[str, Any]] = field(default_factory=list)
    verifications: list[dict[str, Any]] = field(default_factory=list)
    dropped_similar: int = 0
    dropped_cap: int = 0
    repairs: list[dict[str, Any]] = field(default_factory=list)  # repair pairs: `mutants` rows of origin synthesize
    repairs_not_published: dict[str, int] = field(default_factory=dict)
    mutants_passing: int = 0  # the static teacher's mutants the verifier did not catch: dropped, counted


class SynthesizeStage(Stage[SynthesizeConfig, SynthItem, SynthResult]):
    name = "synthesize"
    config_type = SynthesizeConfig
    mode = PROCESS
    batch_size = 1

    def __init__(self, config: SynthesizeConfig):
        super().__init__(config)
        self.spec: TeacherSpec | None = None
        self.identity: dict[str, Any] = {}
        self.key = ""
        self.session: Any = None
        self.cache_root = ""
        self.refused: list[str] = []
        self._teacher: Any = None
        self._scorer: Any = None

    def check(self) -> None:
        if self.config.lang not in ("en", "zh"):
            raise StageRefused(f"--lang must be en or zh (got {self.config.lang!r})")
        from ..verify import sandbox

        try:
            sandbox.check_isolation(self.config.allow_weak_sandbox)
        except sandbox.IsolationMissing as exc:
            raise StageRefused(str(exc)) from exc

    def plan(self, store: Store, stats: StageStats) -> list[SynthItem]:
        from ..eval.sources import select_tasks
        from ..verify import sandbox

        c = self.config
        tasks, problems = select_tasks(store, [], c.task_dirs, glob=c.task)
        for p in problems:
            stats.fail("bad task", error=p)
        self.cache_root = str(store.cache_dir)
        self.spec = TeacherSpec(c.teacher, c.base_url, c.api_key_env, c.temperature, c.max_tokens,
                                cache_dir=str(store.cache_dir / "annotate"))  # fmt: skip
        self.identity = self.spec.identity(prompts.prompt_version())
        self.key = teacher_key(self.identity)
        gate = None
        if not c.allow_benchmark:
            from ..decontam.benchmarks import BenchmarkError
            from .benchmark_gate import BenchmarkGate

            try:
                gate = BenchmarkGate(c.benchmarks, store.cache_dir)
            except BenchmarkError as exc:
                raise StageRefused(str(exc)) from exc
        done = set()
        if store.has_table("samples"):
            done = {r["sample_id"] for r in store.rows(
                "SELECT sample_id FROM samples WHERE teacher_key = ? AND purpose = 'synthesize' AND round = 0",
                [self.key])}  # fmt: skip
        items = []
        for task in tasks:
            why = gate.match(task) if gate is not None else None
            if why:
                self.refused.append(f"{task.name}: {why}")
                stats.skip("refused: benchmark task")
                continue
            if c.teacher == "static" and not task.answer_files:
                stats.skip("no known answer (the static teacher needs one)")
                continue
            if all(sample_id(task.task_id, self.key, "synthesize", 0, i, None) in done for i in range(c.samples)):
                stats.skip("already synthesised")
                continue
            items.append(SynthItem(task))
        if self.refused and len(self.refused) == len(tasks):
            raise StageRefused("every task is a benchmark task, refused: " + "; ".join(self.refused)
                               + " (--allow-benchmark to synthesise them anyway, never for training data)")  # fmt: skip
        if items:
            sandbox.cleanup_dead_runs(store.workspace / "sandbox")
            self.session = sandbox.open_session(store.workspace / "sandbox", allow_missing=c.allow_weak_sandbox)
        return items

    def setup(self) -> None:
        assert self.spec is not None
        self._teacher = make_teacher(self.spec, prompts.prompt_version())
        c = self.config
        self._scorer = make_scorer(self.cache_root, self.session, c.soc, c.cpu_s, c.wall_s)

    # -- worker --------------------------------------------------------------------------------------------------
    def work(self, item: SynthItem) -> SynthResult:
        if self._teacher is None:
            self.setup()
        c, task = self.config, item.task
        messages = prompts.task_messages(task, c.lang)
        rows: list[dict[str, Any]] = []
        planted: dict[str, str] = {}  # the static teacher's mutant samples -> the mutation kind planted
        for i in range(c.samples):
            sid = sample_id(task.task_id, self.key, "synthesize", 0, i, None)
            reply = self._teacher.answer(task, i, messages)
            row = {**base_row(task, sid, "synthesize", self.identity, self.key, i, 0, None),
                   **verdict_row(reply, task, self._scorer)}  # fmt: skip
            if reply.mutant:
                planted[sid] = reply.mutant
            rows.append(row)
            parent = row
            for r in range(1, c.repair_rounds + 1):
                if parent["status"] not in REPAIRABLE or not parent["code"] or not hasattr(self._teacher, "repair"):
                    break
                diagnostic = "\n".join([parent.get("reason") or "", *parent.get("errors", [])[:10]])
                fix_messages = prompts.repair_messages(task, parent["code"], parent["status"], diagnostic, c.lang)
                fix = self._teacher.repair(task, parent["code"], fix_messages)
                rid = sample_id(task.task_id, self.key, "synthesize", r, i, parent["sample_id"])
                parent = {**base_row(task, rid, "synthesize", self.identity, self.key, i, r, parent["sample_id"]),
                          **verdict_row(fix, task, self._scorer)}  # fmt: skip
                rows.append(parent)
        return self._keep(task, rows, planted)

    def _keep(self, task: Task, rows: list[dict[str, Any]], planted: dict[str, str]) -> SynthResult:
        from .distinct import distinct_indices
        from .records import unit_record, verification_record
        from .repairs import repair_pairs

        # a planted bug that passes is the emulator's blind spot, not a right answer: never kept
        blind = [r for r in rows if r["sample_id"] in planted and r["status"] == "passed"]
        passed = [r for r in rows if r["status"] == "passed" and r["code"] and r["sample_id"] not in planted]
        chosen, similar = distinct_indices([r["code"] for r in passed], self.config.distinct)
        kept = [passed[i] for i in chosen][: self.config.max_per_task]
        result = SynthResult(task.name, rows, dropped_similar=similar, dropped_cap=len(chosen) - len(kept),
                             mutants_passing=len(blind))  # fmt: skip
        for r in kept:
            unit = unit_record(task, r, self.config.license)
            result.units.append(unit)
            result.verifications.append(verification_record(unit, r, task, self.config.soc))
        pairs, skipped = repair_pairs(task, rows, list(zip(kept, result.units, strict=True)), planted,
                                      self.config.soc, self.config.license)  # fmt: skip
        result.repairs, result.repairs_not_published = pairs, dict(skipped)
        return result

    # -- driver --------------------------------------------------------------------------------------------------
    def commit(self, store: Store, results: list[SynthResult], stats: StageStats) -> None:
        from .records import source_record

        now = utcnow()
        if any(res.units for res in results):  # the teacher is their source: one row per teacher identity
            store.insert("sources", [source_record(self.identity, self.key, now)])
        for res in results:
            store.insert("samples", [{**r, "created_at": now} for r in res.samples])
            store.insert("units", [{**u, "created_at": now} for u in res.units])
            store.insert("verifications", [{**v, "created_at": now} for v in res.verifications])
            store.insert("mutants", [{**m, "created_at": now} for m in res.repairs])
            first = [s for s in res.samples if s["round"] == 0]
            repairs = [s for s in res.samples if s["round"] > 0]
            stats.kept(len(res.units))
            stats.add("candidates", len(first))
            stats.add("candidates passed", sum(s["status"] == "passed" for s in first))
            stats.add("repairs asked", len(repairs))
            stats.add("repairs that pass", sum(s["status"] == "passed" for s in repairs))
            stats.add("repair pairs (kind=repair rows)", len(res.repairs))
            for why, n in res.repairs_not_published.items():
                stats.add(why, n)
            stats.add("dropped: same solution", res.dropped_similar)
            stats.add("dropped: over --max-per-task", res.dropped_cap)
            if res.mutants_passing:
                stats.add("dropped: mutant still passes", res.mutants_passing)
            self.yields = getattr(self, "yields", {})
            self.yields[res.task_name] = (len(res.units), len(first))

    def finish(self, store: Store, stats: StageStats) -> None:
        from ..verify import sandbox

        if self.session is not None:
            sandbox.close_session(self.session)
            self.session = None

    def closing_lines(self, stats: StageStats) -> list[str]:
        lines = [f"refused (benchmark task): {r}" for r in self.refused]
        lines += [f"{name}: kept {k} of {n} sampled" for name, (k, n) in sorted(getattr(self, "yields", {}).items())]
        return lines

    def label(self, item: SynthItem) -> str:
        return item.task.name

    def note(self, result: SynthResult) -> str:
        return f"{result.task_name}: kept {len(result.units)}"


def run(store: Store, config: SynthesizeConfig | None = None) -> StageStats:
    return run_stage(SynthesizeStage(config or SynthesizeConfig()), store)
