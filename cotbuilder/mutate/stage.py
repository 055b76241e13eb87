"""The mutate stage: bug mutants of every verified unit, each verified like a unit, stored in `mutants`.

plan: the units whose deciding verification passed (verify.current: the rule publishing uses); their mutants
(mutations.make_mutants on the tree-sitter parse); those whose id (the mutant unit's verification id: emulator
version, SoC, seeds) is not stored yet. work: verify.worker.verify on the mutant unit, in the run's sandbox session
(the same harnesses and judge as `verify`). commit: one `mutants` row per verdict, with the feedback and the repair
rationale when the mutant really fails. finish: the table per mutation kind (made / really failing / still passing).
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..stages.base import PROCESS, Stage, StageRefused
from ..stages.driver import run_stage
from ..stats import StageStats
from ..store import Store, utcnow
from ..verify import build as buildmod
from ..verify import sandbox, steps
from ..verify.config import SOCS
from ..verify.current import deciding_verifications
from ..verify.stage import verification_id
from ..verify.units import source_hash
from ..verify.worker import Job, verify
from .config import MutateConfig
from .mutations import make_mutants, mutant_unit, mutation_kinds
from .repair import feedback_text, rationale, really_fails

BACKEND = "cpu-emulator"


@dataclass
class MutateItem:
    job: Job
    mutant_id: str
    parent_id: str
    mutant: dict[str, Any]  # Mutant.as_dict() without the text (the job's unit holds it)


@dataclass
class MutateResult:
    mutant_id: str
    parent_id: str
    mutant_unit_id: str
    mutant: dict[str, Any]
    out: dict[str, Any]  # {"verdict": columns} or {"infra_error": ...}


class MutateStage(Stage[MutateConfig, MutateItem, MutateResult]):
    name = "mutate"
    config_type = MutateConfig
    mode = PROCESS
    batch_size = 32
    refusals = (sandbox.IsolationMissing,)
    session: sandbox.Session | None = None

    def check(self) -> None:
        config = self.config
        if config.soc not in SOCS:
            raise StageRefused(f"--soc must be one of {', '.join(SOCS)} (got {config.soc!r})")
        if config.jobs < 1:
            raise StageRefused("--jobs must be at least 1")
        unknown = [k for k in config.kinds if k not in mutation_kinds()]
        if unknown:
            raise StageRefused(f"unknown --kind {', '.join(unknown)} (known: {', '.join(mutation_kinds())})")
        sandbox.check_isolation(config.allow_weak_sandbox)
        self.version = f"{buildmod.emulator_version()}+{buildmod.emulator_digest()[:8]}"

    def workers(self) -> int:
        return self.config.jobs

    def recorded_config(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self.config).items() if k != "progress"}

    # -- plan ----------------------------------------------------------------------------------------------------
    def plan(self, store: Store, stats: StageStats) -> list[MutateItem]:
        config = self.config
        sandbox.cleanup_dead_runs(store.workspace / "sandbox")
        passed = sorted(u for u, (ok, _) in deciding_verifications(store).items() if ok)
        if config.unit:
            passed = [u for u in passed if u.startswith(config.unit)]
            if not passed:
                raise StageRefused(f"no verified unit id starts with {config.unit!r}")
        stats.add("verified_units", len(passed))
        existing = (
            {r["mutant_id"] for r in store.rows("SELECT mutant_id FROM mutants")}
            if store.has_table("mutants")
            else set()
        )
        kinds = config.kinds or mutation_kinds()
        todo: list[tuple[dict[str, Any], dict[str, Any], str, str]] = []
        for start in range(0, len(passed), 256):
            chunk = passed[start : start + 256]
            for unit in store.rows("SELECT * FROM units WHERE unit_id IN (SELECT unnest(?::VARCHAR[]))", [chunk]):
                try:
                    mutants = make_mutants(unit, kinds)
                except Exception as exc:  # noqa: BLE001 -- a unit the parser cannot take gives no mutants, counted
                    stats.add("units_not_parsed")
                    stats.reasons[f"not parsed: {type(exc).__name__}"] += 1
                    continue
                made = {m.kind for m in mutants}
                for kind in kinds:
                    if kind not in made:
                        stats.add(f"no_site:{kind}")
                for m in mutants:
                    mu = mutant_unit(unit, m)
                    vid = verification_id(
                        mu["unit_id"], BACKEND, self.version, config.soc, source_hash(mu), config.seeds, config.opt
                    )
                    if vid in existing:
                        stats.skip("already verified")
                        continue
                    meta = {**{k: v for k, v in m.as_dict().items() if k != "text"}, "broken_code": m.text}
                    todo.append((mu, meta, vid, unit["unit_id"]))
        todo.sort(key=lambda t: (t[3], t[1]["kind"]))
        if config.limit is not None:
            for _ in todo[config.limit :]:
                stats.skip("over --limit")
            todo = todo[: config.limit]
        if not todo:
            return []
        self.session = sandbox.open_session(store.workspace / "sandbox", allow_missing=config.allow_weak_sandbox)
        ctx = steps.Context(
            cache_dir=store.cache_path("verify", "x").parent,
            soc=config.soc,
            limits=sandbox.Limits(cpu_s=config.cpu_s, wall_s=config.wall_s, memory_mb=config.memory_mb),
            opt=config.opt,
            use_cache=True,
            seeds=tuple(config.seeds),
            python=sys.executable,
            session=self.session,
        )
        if config.pch:
            ctx.pch = buildmod.ensure_pch(ctx.cache_dir, config.soc, config.opt)
        return [MutateItem(Job(mu, ctx, BACKEND), vid, parent, meta) for mu, meta, vid, parent in todo]

    def task_resources(self) -> dict[str, float]:
        return {"CPU": 1.0, "memory": float(self.config.memory_mb) * 2**20}

    # -- work ----------------------------------------------------------------------------------------------------
    def work(self, item: MutateItem) -> MutateResult:
        # a full disk comes back as an infrastructure error (verify's own rule), so it never becomes a repair sample
        # teaching a bug that is not there
        out = verify(item.job)
        return MutateResult(item.mutant_id, item.parent_id, item.job.unit["unit_id"], item.mutant, out)

    # -- commit --------------------------------------------------------------------------------------------------
    def commit(self, store: Store, results: list[MutateResult], stats: StageStats) -> None:
        rows = []
        for r in results:
            if "infra_error" in r.out:
                stats.fail("infrastructure error", r.mutant_unit_id, r.out["infra_error"])
                continue
            rows.append(mutant_row(r, self.version, self.config.soc))
            stats.kept()
            stats.add("really_fails" if rows[-1]["really_fails"] else f"not failing: {rows[-1]['status']}")
        store.insert("mutants", rows)

    def failed(self, item: MutateItem, error: str, stats: StageStats) -> None:
        stats.fail("infrastructure error", item.job.unit["unit_id"], error)

    def finish(self, store: Store, stats: StageStats) -> None:
        if self.session is not None:
            sandbox.close_session(self.session)
            self.session = None
        self.summary = kind_summary(store, self.config.soc)

    def closing_lines(self, stats: StageStats) -> list[str]:
        return render_summary(getattr(self, "summary", {}))

    def label(self, item: MutateItem) -> str:
        return f"{item.job.unit['name']}:{item.mutant['kind']}"

    def note(self, result: MutateResult) -> str:
        return f"{result.mutant['kind']}: {result.out.get('verdict', {}).get('status', 'error')}"


def mutant_row(r: MutateResult, version: str, soc: str) -> dict[str, Any]:
    """The `mutants` row of one verdict: feedback and rationale only for a mutant that really fails (the only ones
    that become repair samples)."""
    verdict = r.out["verdict"]
    fails = really_fails(verdict)
    return {
        "mutant_id": r.mutant_id,
        "origin": "mutate",
        "sample_id": None,
        "unit_id": r.parent_id,
        "mutant_unit_id": r.mutant_unit_id,
        **{k: r.mutant[k] for k in ("kind", "path", "line", "before", "after")},
        "broken_code": r.mutant["broken_code"],
        "status": verdict["status"],
        "reason": verdict.get("reason"),
        "diagnostics": verdict.get("diagnostics") or [],
        "really_fails": fails,
        "feedback": feedback_text(verdict) if fails else None,
        "rationale": rationale(r.mutant, verdict) if fails else None,
        "backend": BACKEND,
        "backend_version": version,
        "soc": soc,
        "created_at": utcnow(),
    }


def kind_summary(store: Store, soc: str | None = None) -> dict[str, Counter]:
    """kind -> Counter(made, really_fails, still_passes, no_verdict, per status) over the stored mutants (latest
    emulator version and SoC only when given)."""
    if not store.has_table("mutants"):
        return {}
    # synthesize's repair pairs share the table; they are not this stage's mutants (a store older than the origin
    # column holds mutate's alone)
    mine = "coalesce(origin, 'mutate') = 'mutate'"
    sql = f"SELECT kind, status, really_fails FROM mutants WHERE {mine}"
    params: list[Any] = []
    if soc:
        sql += f" AND soc = ? AND backend_version = (SELECT max(backend_version) FROM mutants WHERE soc = ? AND {mine})"
        params = [soc, soc]
    out: dict[str, Counter] = {}
    for row in store.rows(sql, params):
        c = out.setdefault(row["kind"], Counter())
        c["made"] += 1
        c["really_fails" if row["really_fails"] else "still_passes" if row["status"] == "passed" else "no_verdict"] += 1
        c[row["status"]] += 1
    return out


def render_summary(summary: dict[str, Counter]) -> list[str]:
    if not summary:
        return []
    statuses = ("wrong_answer", "failed_run", "failed_compile", "timeout")
    head = f"{'mutation kind':<24}{'made':>6}{'fails':>7}{'passes':>8}{'no verdict':>12}   " + " ".join(
        f"{s:>14}" for s in statuses
    )
    lines = ["mutants per kind (fails = really failing, a repair sample; passes = the verifier did not notice)", head]
    total: Counter = Counter()
    for kind in [k for k in mutation_kinds() if k in summary]:
        c = summary[kind]
        total.update(c)
        lines.append(
            f"{kind:<24}{c['made']:>6}{c['really_fails']:>7}{c['still_passes']:>8}{c['no_verdict']:>12}   "
            + " ".join(f"{c[s]:>14}" for s in statuses)
        )
    lines.append(
        f"{'total':<24}{total['made']:>6}{total['really_fails']:>7}{total['still_passes']:>8}{total['no_verdict']:>12}"
        "   " + " ".join(f"{total[s]:>14}" for s in statuses)
    )
    return lines


def run(store: Store, config: MutateConfig | None = None) -> StageStats:
    """Mutate in this process's driver (library and test use); the CLI goes through the same stage."""
    return run_stage(MutateStage(config or MutateConfig()), store)
