"""The decontaminate stage: every unit against every configured benchmark -> the `contamination` table + a report."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..hashing import config_hash, sha256_text, stable_json
from ..stats import StageStats, stage_run
from ..store import Store, utcnow
from . import benchmarks, checks, index, report


@dataclass
class DecontamConfig:
    # NAME=PATH_OR_GIT_URL strings (the CLI's form), or a {name = "path"} table (the TOML-friendly form)
    benchmarks: list[str] | dict[str, str] = field(default_factory=list)
    ngram: int = 13
    common_fraction: float = 0.5
    minhash_threshold: float = 0.8
    num_perm: int = 128
    shingle: int = 5
    code_min_matches: int = 8
    code_min_fraction: float = 0.2
    prose_min_matches: int = 3

    def __post_init__(self) -> None:
        if isinstance(self.benchmarks, dict):
            self.benchmarks = [f"{name}={where}" for name, where in self.benchmarks.items()]

    def index_params(self) -> index.IndexParams:
        return index.IndexParams(self.ngram, self.common_fraction, self.shingle, self.num_perm)

    def check_params(self) -> checks.CheckParams:
        return checks.CheckParams(
            self.minhash_threshold, self.code_min_matches, self.code_min_fraction, self.prose_min_matches
        )


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


def run(store: Store, config: DecontamConfig | None = None) -> StageStats:
    config = config or DecontamConfig()
    with stage_run(store, "decontaminate", asdict(config)) as stats:
        if not config.benchmarks:
            raise benchmarks.BenchmarkError("no benchmark given: pass --benchmark NAME=PATH_OR_GIT_URL")
        indexes = []
        for spec in config.benchmarks:
            bench = benchmarks.load(spec, store.cache_dir)
            idx, cached = index.load_or_build(bench, config.index_params(), store.cache_dir)
            stats.add("benchmark_tasks", len(idx.tasks))
            stats.add("benchmark_index_cached" if cached else "benchmark_index_built")
            indexes.append(idx)
        checked = [
            {"benchmark": i.name, "index_hash": i.index_hash, "commit": i.commit, "tasks": len(i.tasks)}
            for i in indexes
        ]
        chash = config_hash(
            [asdict(config.check_params()), asdict(config.index_params()), [[i.name, i.index_hash] for i in indexes]]
        )
        stats.config["config_hash"] = chash
        done = {
            r["unit_id"]: r["input_hash"]
            for r in store.rows("SELECT unit_id, input_hash FROM contamination WHERE config_hash = ?", [chash])
        }
        rows = []
        sig_cache: dict[str, Any] = {}
        units = _unit_texts(store)
        for unit, input_hash in units:
            if done.get(unit.unit_id) == input_hash:
                stats.skip("already checked with this config and benchmarks")
                continue
            hits = []
            for idx in indexes:
                for task, evidence in checks.check_unit(
                    unit, idx, config.check_params(), config.ngram, config.shingle, sig_cache
                ).items():
                    hits.append({"benchmark": idx.name, "task": task, "checks": evidence})
            hits.sort(key=lambda h: checks.strength(h["checks"]), reverse=True)
            top = hits[0] if hits else None
            rows.append(
                {
                    "unit_id": unit.unit_id,
                    "verdict": "contaminated" if hits else "clean",
                    "benchmark": top["benchmark"] if top else None,
                    "task": top["task"] if top else None,
                    "evidence": {"hits": hits, "checked": checked},
                    "config_hash": chash,
                    "input_hash": input_hash,
                    "created_at": utcnow(),
                }
            )
            stats.add("contaminated" if hits else "clean")
            if not hits:
                stats.kept()
        unit_ids = [u.unit_id for u, _ in units]
        with store.transaction():
            if rows:
                store.insert("contamination", rows)
            # units that no longer exist keep no verdict
            store.execute("DELETE FROM contamination WHERE unit_id NOT IN (SELECT unit_id FROM units)")
        report.write(store, indexes, unit_ids)
    return stats
