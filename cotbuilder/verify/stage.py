"""The verify stage: build and run every unit on a backend, judge it, store one `verifications` row per unit.

check: the backend, and the machine's isolation (refused unless --allow-weak-sandbox); plan: the units not yet
verified with this backend, backend version, SoC, source hash, seeds and -O level (the verification id is the
content-hash key), after removing what a killed run left in the workspace's sandbox dir, and the run's sandbox
session; work: `worker.verify(job)` (in a pool process; a unit's verdict, or an infrastructure error); commit: the
rows; finish: close the session, and the closing table per harness kind (`summary.py`). kept = rows written, one
counter per status, failed = infrastructure errors (not stored: a re-run tries again).
"""

from __future__ import annotations

import dataclasses
import os
import socket
import sys
from dataclasses import dataclass
from typing import Any

from ..hashing import sha256_text
from ..stages.base import PROCESS, Stage, StageRefused
from ..stages.driver import run_stage
from ..stages.placement import assigned_accelerators, on_ray_worker
from ..stats import StageStats
from ..store import Store, utcnow
from . import build as buildmod
from . import npu, sandbox, steps
from .config import KERNEL_OPT, SOCS, VerifyConfig
from .units import source_hash
from .worker import Job, verify

__all__ = ["VerifyConfig", "VerifyStage", "run", "verification_id", "backend_of"]


def backend_of(device: str) -> tuple[str, int | None]:
    kind, device_id = npu.parse_device(device)
    return ("cpu-emulator" if kind == "cpu" else kind), device_id


def verification_id(
    unit_id: str,
    backend: str,
    version: str,
    soc: str,
    src_hash: str,
    seeds: list[int] | tuple[int, ...] = (0, 1),
    opt: str = KERNEL_OPT,
    schedules: int = 1,
) -> str:
    """Same id = same verification: the seeds (which input sets were checked), the optimisation level (which
    binary ran) and the number of scheduler seeds are part of it, so a recipe asking for more seeds, another -O or
    more schedules verifies again instead of skipping."""
    run_config = ",".join(str(s) for s in sorted(set(seeds))) + "\0" + opt
    if schedules != 1:  # more scheduler seeds checked = another verification (1: the id stays what it was)
        run_config += f"\0schedules={schedules}"
    return sha256_text("\0".join((unit_id, backend, version, soc, src_hash, run_config)))


@dataclass
class VerifyItem:
    job: Job
    verification_id: str
    source_hash: str


@dataclass
class VerifyResult:
    unit_id: str
    name: str
    verification_id: str
    source_hash: str
    out: dict[str, Any]  # {"verdict": columns} or {"infra_error": ..., "traceback": ...}


class VerifyStage(Stage[VerifyConfig, VerifyItem, VerifyResult]):
    name = "verify"
    config_type = VerifyConfig
    mode = PROCESS
    batch_size = 32
    refusals = (npu.CannMissing, sandbox.IsolationMissing)
    session: sandbox.Session | None = None

    def check(self) -> None:
        """Validate the config and find the backend, before the store is touched (a backend that cannot run here
        stores nothing)."""
        config = self.config
        if config.soc not in SOCS:
            raise StageRefused(f"--soc must be one of {', '.join(SOCS)} (got {config.soc!r})")
        if config.jobs < 1:
            raise StageRefused("--jobs must be at least 1")
        try:
            self.backend, self.device_id = backend_of(config.device)
        except ValueError as exc:
            raise StageRefused(str(exc)) from exc
        sandbox.check_isolation(config.allow_weak_sandbox)  # a machine that cannot isolate: refused, nothing stored
        if self.backend == "cpu-emulator":
            # the header digest is part of the version: an emulator edit without a VERSION bump still re-verifies
            self.cann, self.version = None, f"{buildmod.emulator_version()}+{buildmod.emulator_digest()[:8]}"
            return
        self.cann = npu.detect_cann()
        if self.backend == "npu":
            npu.check_device(self.device_id or 0)
        self.version = self.cann.version

    def plan(self, store: Store, stats: StageStats) -> list[VerifyItem]:
        config = self.config
        sandbox.cleanup_dead_runs(store.workspace / "sandbox")  # what a run killed with SIGKILL left behind
        units = _select_units(store, config)
        if config.unit and not units:
            raise StageRefused(
                f'no unit id starts with {config.unit!r} (see `cotbuilder query "SELECT unit_id, name FROM units"`)'
            )
        existing = {
            r["verification_id"]
            for r in store.rows(
                "SELECT verification_id FROM verifications WHERE backend = ? AND backend_version = ? AND soc = ?",
                [self.backend, self.version, config.soc],
            )
        }
        todo: list[tuple[dict[str, Any], str, str]] = []
        for unit in units:
            src = source_hash(unit)
            vid = verification_id(
                unit["unit_id"], self.backend, self.version, config.soc, src, config.seeds, config.opt, config.schedules
            )
            if vid in existing:
                stats.skip("already verified")
                continue
            todo.append((unit, src, vid))
        if config.limit is not None:
            for _ in todo[config.limit :]:
                stats.skip("over --limit")
            todo = todo[: config.limit]
        if not todo:
            return []
        self.session = sandbox.open_session(
            store.workspace / "sandbox", allow_missing=config.allow_weak_sandbox, keep=config.keep_workdirs
        )
        ctx = steps.Context(
            cache_dir=store.cache_path("verify", "x").parent,
            soc=config.soc,
            limits=run_limits(config),
            opt=config.opt,
            use_cache=config.build_cache,
            seeds=tuple(config.seeds),
            python=sys.executable,
            session=self.session,
            schedules=config.schedules if self.backend == "cpu-emulator" else 1,
        )
        if self.backend == "cpu-emulator" and config.pch:
            ctx.pch = buildmod.ensure_pch(ctx.cache_dir, config.soc, config.opt)
            if ctx.pch.header is None:
                stats.add("pch_failed")
        return [
            VerifyItem(Job(unit, ctx, self.backend, self.cann, self.device_id, config.keep_workdirs), vid, src)
            for unit, src, vid in todo
        ]

    def task_resources(self) -> dict[str, float]:
        """One unit at a time: a core for g++ and the kernel's run, the memory the sandbox lets one step use
        (--memory-mb), and for npu:N one NPU of a node that has them (Ray's resource name for Ascend devices)."""
        need = {"CPU": 1.0, "memory": float(self.config.memory_mb) * 2**20}
        if backend_of(self.config.device)[0] == "npu":
            need["NPU"] = 1.0
        return need

    def setup(self) -> None:
        """On a Ray worker (perhaps another node than the driver, whose check() spoke only for its own machine): this
        machine must isolate as the run's session records, or every unit given to this worker fails (nothing stored,
        a re-run tries again) instead of running with less isolation than its verdict would claim."""
        if self.session is not None and on_ray_worker():
            check_node_isolation(self.session)

    def work(self, item: VerifyItem) -> VerifyResult:
        unit = item.job.unit
        job = item.job
        assigned = assigned_accelerators("NPU")
        if job.backend == "npu" and assigned:  # on a Ray node: the device Ray gave this task, not the driver's N
            job = dataclasses.replace(job, device_id=int(assigned[0]))
        return VerifyResult(unit["unit_id"], unit["name"], item.verification_id, item.source_hash, verify(job))

    def commit(self, store: Store, results: list[VerifyResult], stats: StageStats) -> None:
        rows = []
        for r in results:
            if "infra_error" in r.out:
                stats.fail("infrastructure error", r.unit_id, r.out["infra_error"] + "\n" + r.out.get("traceback", ""))
                continue
            verdict = r.out["verdict"]
            rows.append(self._row(r, verdict))
            stats.kept()
            stats.add(verdict["status"])
            if verdict["status"] != "passed":
                stats.reasons[f"{verdict['status']}: {(verdict.get('reason') or '')[:60]}"] += 1
        store.insert("verifications", rows)

    def finish(self, store: Store, stats: StageStats) -> None:
        if self.session is not None:
            sandbox.close_session(self.session)
            self.session = None
        from .summary import rows, table_data

        self.summary = table_data(rows(store, self.backend, self.config.soc))

    def closing_lines(self, stats: StageStats) -> list[str]:
        from .summary import render_lines

        return render_lines(getattr(self, "summary", {}))

    def failed(self, item: VerifyItem, error: str, stats: StageStats) -> None:
        stats.fail("infrastructure error", item.job.unit["unit_id"], error)

    def label(self, item: VerifyItem) -> str:
        return item.job.unit["name"]

    def note(self, result: VerifyResult) -> str:
        return f"{result.name}: {result.out.get('verdict', {}).get('status', 'error')}"

    def _row(self, r: VerifyResult, verdict: dict[str, Any]) -> dict[str, Any]:
        return {
            "verification_id": r.verification_id,
            "unit_id": r.unit_id,
            "backend": self.backend,
            "backend_version": self.version,
            "soc": self.config.soc,
            "source_hash": r.source_hash,
            "device": self.config.device,
            "created_at": utcnow(),
            **verdict,
            # the emulator's scheduler seeds the verdict was reached with (same seeds, same interleaving, same verdict)
            "timings": {**(verdict.get("timings") or {}), **self._schedule_record()},
        }

    def _schedule_record(self) -> dict[str, Any]:
        if self.backend != "cpu-emulator":
            return {}
        return {"schedule_seeds": list(range(max(self.config.schedules, 1)))}


def check_node_isolation(session: sandbox.Session) -> None:
    """Raise IsolationMissing unless this process's machine gives what `session` (opened by the driver) promises:
    the run's sandbox directory (a file system every node shares), every isolation feature in force, and the run's
    cgroups to make each step's cgroup in."""
    lacking = []
    if not session.root.is_dir():
        lacking.append(
            f"the run's sandbox dir {session.root} (the workspace must be on a file system every node shares)"
        )
    available = sandbox.capabilities().available
    lacking += [sandbox.FEATURES[f] for f in sorted(session.use) if f not in available]
    lacking += [f"the run's cgroup {c.parent}" for c in session.controllers if not os.access(c.parent, os.W_OK)]
    if lacking:
        raise sandbox.IsolationMissing(
            f"this node ({socket.gethostname()}) cannot isolate as the verify run records: missing "
            + "; ".join(lacking)
        )


def _select_units(store: Store, config: VerifyConfig) -> list[dict[str, Any]]:
    placeholders = ", ".join("?" for _ in config.layouts)
    sql = f"SELECT * FROM units WHERE layout IN ({placeholders})"
    params: list[Any] = list(config.layouts)
    if config.unit:
        sql += " AND unit_id LIKE ?"
        params.append(config.unit + "%")
    return store.rows(sql + " ORDER BY name, unit_id", params)


def run(store: Store, config: VerifyConfig | None = None) -> StageStats:
    """Verify in this process's driver (library and test use); the CLI goes through the same stage."""
    return run_stage(VerifyStage(config or VerifyConfig()), store)


def run_limits(config: VerifyConfig) -> sandbox.Limits:
    """A run step's limits. The largest file it may write grows with its memory (a quarter of it, at least 256 MB):
    a benchmark reference with 512 MB outputs (NPUKernelBench InplaceAttnSoftmax, StridesliceNegConcatV2) needs no
    more memory than it is given, and a file far beyond the memory could never be compared anyway."""
    return sandbox.Limits(
        cpu_s=config.cpu_s, wall_s=config.wall_s, memory_mb=config.memory_mb, file_mb=max(256, config.memory_mb // 4)
    )
