"""The decontaminate stage: every unit against every configured benchmark -> the `contamination` table + a report.

plan: load the benchmarks and their n-gram / MinHash indexes (cached by content), and list the units whose verdict
under this config and these indexes is missing or was made from other inputs (code, annotations); work: check one
unit against every index (the indexes travel with the stage to the workers); commit: the verdicts; finish: drop
verdicts of units that are gone, write the report."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..hashing import config_hash, sha256_text, stable_json
from ..stages.base import PROCESS, Stage, StageRefused
from ..stages.driver import run_stage
from ..stats import StageStats
from ..store import Store, utcnow
from . import benchmarks, checks, index, report
from .config import DecontamConfig

__all__ = ["DecontamConfig", "DecontamStage", "run"]


def _unit_texts(store: Store) -> list[tuple[checks.UnitText, str]]:
    """(what is compared, its input hash) per unit: code, kernel files, and the annotations' task + rationale."""
    prose: dict[str, list[str]] = {}
    annotation_ids: dict[str, list[str]] = {}
    if store.has_table("annotations"):
        for a in store.rows(
            "SELECT annotation_id, unit_id, task, rationale FROM annotations WHERE status = 'ok' ORDER BY annotation_id"
        ):
            parts = [a["task"] or ""] + [f"{s.get('title', '')}\n{s.get('text', '')}" for s in (a["rationale"] or [])]
            prose.setdefault(a["unit_id"], []).append("\n".join(parts))
            annotation_ids.setdefault(a["unit_id"], []).append(a["annotation_id"])
    out = []
    for u in store.rows("SELECT unit_id, kernel_code, host_code, files FROM units ORDER BY unit_id"):
        kernel_files = [f["text"] for f in (u["files"] or []) if f.get("role") == "kernel"]
        text = checks.UnitText(
            u["unit_id"], u["kernel_code"], u["host_code"], kernel_files, prose.get(u["unit_id"], [])
        )
        out.append((text, sha256_text(stable_json([u["unit_id"], annotation_ids.get(u["unit_id"], [])]))))
    return out


@dataclass
class UnitCheck:
    unit: checks.UnitText
    input_hash: str


class DecontamStage(Stage[DecontamConfig, UnitCheck, dict[str, Any]]):
    name = "decontaminate"
    config_type = DecontamConfig
    mode = PROCESS
    batch_size = 256
    refusals = (benchmarks.BenchmarkError,)

    def __init__(self, config: DecontamConfig):
        super().__init__(config)
        self.indexes: list[Any] = []
        self.checked: list[dict[str, Any]] = []
        self.config_hash = ""
        self.unit_ids: list[str] = []
        self.report_path: Path | None = None
        self._sig_cache: dict[str, Any] = {}

    def check(self) -> None:
        if not self.config.benchmarks:
            raise StageRefused("no benchmark given: pass --benchmark NAME=PATH_OR_GIT_URL (or --config FILE)")

    def plan(self, store: Store, stats: StageStats) -> list[UnitCheck]:
        config = self.config
        for spec in config.benchmarks:
            bench = benchmarks.load(spec, store.cache_dir)
            idx, cached = index.load_or_build(bench, config.index_params(), store.cache_dir)
            stats.add("benchmark_tasks", len(idx.tasks))
            stats.add("benchmark_index_cached" if cached else "benchmark_index_built")
            self.indexes.append(idx)
        self.checked = [
            {"benchmark": i.name, "index_hash": i.index_hash, "commit": i.commit, "tasks": len(i.tasks)}
            for i in self.indexes
        ]
        self.config_hash = config_hash(
            [
                checks.CHECKS_VERSION,
                asdict(config.check_params()),
                asdict(config.index_params()),
                [[i.name, i.index_hash] for i in self.indexes],
            ]
        )
        stats.config["config_hash"] = self.config_hash
        self.report_path = store.workspace / "reports" / "contamination.md"
        done = {
            r["unit_id"]: r["input_hash"]
            for r in store.rows(
                "SELECT unit_id, input_hash FROM contamination WHERE config_hash = ?", [self.config_hash]
            )
        }
        todo = []
        units = _unit_texts(store)
        self.unit_ids = [u.unit_id for u, _ in units]
        for unit, input_hash in units:
            if done.get(unit.unit_id) == input_hash:
                stats.skip("already checked with this config and benchmarks")
                continue
            todo.append(UnitCheck(unit, input_hash))
        return todo

    def work(self, item: UnitCheck) -> dict[str, Any]:
        config = self.config
        hits = []
        for idx in self.indexes:
            sig_cache = self._sig_cache.setdefault(idx.index_hash, {})  # signatures depend on the index's filter
            found = checks.check_unit(item.unit, idx, config.check_params(), config.ngram, config.shingle, sig_cache)
            for task, evidence in found.items():
                hits.append(
                    {"benchmark": idx.name, "task": task, "verdict": checks.hit_verdict(evidence), "checks": evidence}
                )
        hits.sort(key=lambda h: checks.strength(h["checks"]), reverse=True)
        top = hits[0] if hits else None
        return {
            "unit_id": item.unit.unit_id,
            "verdict": top["verdict"] if top else "clean",
            "benchmark": top["benchmark"] if top else None,
            "task": top["task"] if top else None,
            "evidence": {"hits": hits, "checked": self.checked},
            "config_hash": self.config_hash,
            "input_hash": item.input_hash,
            "created_at": utcnow(),
        }

    def commit(self, store: Store, results: list[dict[str, Any]], stats: StageStats) -> None:
        store.insert("contamination", results)
        for row in results:
            stats.add(row["verdict"])
            if row["verdict"] == "clean":
                stats.kept()

    def finish(self, store: Store, stats: StageStats) -> None:
        with store.transaction():  # units that no longer exist keep no verdict
            store.execute("DELETE FROM contamination WHERE unit_id NOT IN (SELECT unit_id FROM units)")
        report.write(store, self.indexes, self.unit_ids)

    def label(self, item: UnitCheck) -> str:
        return item.unit.unit_id

    def closing_lines(self, stats: StageStats) -> list[str]:
        return [f"report: {self.report_path}"] if self.report_path else []


def run(store: Store, config: DecontamConfig | None = None) -> StageStats:
    """Decontaminate in this process (library and test use); the CLI goes through the same stage."""
    return run_stage(DecontamStage(config or DecontamConfig()), store)
