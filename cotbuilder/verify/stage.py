"""The verify stage: build and run every unit on a backend, judge it, store one `verifications` row per unit.

`run(store, VerifyConfig)`: reads `units`, skips units already verified with the same backend, backend version, SoC,
source hash, seeds and -O level, verifies the rest on a process pool (`jobs`) while the parent writes each result to
DuckDB as it arrives, and returns the StageStats (kept = rows written; one counter per status; failed = infrastructure
errors).
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import sys
from dataclasses import asdict
from typing import Any

from ..hashing import sha256_text
from ..stats import StageStats, stage_run
from ..store import Store, utcnow
from . import build as buildmod
from . import npu, sandbox, steps
from .config import SOCS, VerifyConfig
from .units import source_hash
from .worker import Job, verify


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
    opt: str = "-O1",
) -> str:
    """Same id = same verification: the seeds (which input sets were checked) and the optimisation level (which
    binary ran) are part of it, so a recipe asking for more seeds or another -O verifies again instead of skipping."""
    run_config = ",".join(str(s) for s in sorted(set(seeds))) + "\0" + opt
    return sha256_text("\0".join((unit_id, backend, version, soc, src_hash, run_config)))


def _select_units(store: Store, config: VerifyConfig) -> list[dict[str, Any]]:
    placeholders = ", ".join("?" for _ in config.layouts)
    sql = f"SELECT * FROM units WHERE layout IN ({placeholders})"
    params: list[Any] = list(config.layouts)
    if config.unit:
        sql += " AND unit_id LIKE ?"
        params.append(config.unit + "%")
    return store.rows(sql + " ORDER BY name, unit_id", params)


def prepare(config: VerifyConfig) -> tuple[str, int | None, Any, str]:
    """Validate the config and find the backend; raises ValueError (bad usage) or npu.CannMissing (cannot run here).
    Called before the store is touched, so a backend that cannot run stores nothing."""
    if config.soc not in SOCS:
        raise ValueError(f"--soc must be one of {', '.join(SOCS)} (got {config.soc!r})")
    if config.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    backend, device_id = backend_of(config.device)
    if backend == "cpu-emulator":
        # the header digest is part of the version: an emulator edit without a VERSION bump still re-verifies
        return backend, None, None, f"{buildmod.emulator_version()}+{buildmod.emulator_digest()[:8]}"
    info = npu.detect_cann()
    if backend == "npu":
        npu.check_device(device_id or 0)
    return backend, device_id, info, info.version


def run(store: Store, config: VerifyConfig) -> StageStats:
    backend, device_id, cann, version = prepare(config)
    units = _select_units(store, config)
    if config.unit and not units:
        raise ValueError(
            f'no unit id starts with {config.unit!r} (see `cotbuilder query "SELECT unit_id, name FROM units"`)'
        )
    with stage_run(store, "verify", asdict(config)) as stats:
        existing = {
            r["verification_id"]
            for r in store.rows(
                "SELECT verification_id FROM verifications WHERE backend = ? AND backend_version = ? AND soc = ?",
                [backend, version, config.soc],
            )
        }
        todo: list[tuple[dict[str, Any], str, str]] = []
        for unit in units:
            src = source_hash(unit)
            vid = verification_id(unit["unit_id"], backend, version, config.soc, src, config.seeds, config.opt)
            if vid in existing:
                stats.skip("already verified")
                continue
            todo.append((unit, src, vid))
        if config.limit is not None:
            for _ in todo[config.limit :]:
                stats.skip("over --limit")
            todo = todo[: config.limit]
        if not todo:
            return stats
        ctx = steps.Context(
            cache_dir=store.cache_path("verify", "x").parent,
            soc=config.soc,
            limits=sandbox.Limits(cpu_s=config.cpu_s, wall_s=config.wall_s, memory_mb=config.memory_mb),
            opt=config.opt,
            use_cache=config.build_cache,
            seeds=tuple(config.seeds),
            python=sys.executable,
        )
        if backend == "cpu-emulator" and config.pch:
            ctx.pch = buildmod.ensure_pch(ctx.cache_dir, config.soc, config.opt)
            if ctx.pch.header is None:
                stats.add("pch_failed")
        _verify_all(store, config, stats, todo, ctx, backend, version, cann, device_id)
    return stats


def _row(
    unit: dict[str, Any], src: str, vid: str, backend: str, version: str, config: VerifyConfig, verdict: dict[str, Any]
) -> dict[str, Any]:
    return {
        "verification_id": vid,
        "unit_id": unit["unit_id"],
        "backend": backend,
        "backend_version": version,
        "soc": config.soc,
        "source_hash": src,
        "device": config.device,
        "created_at": utcnow(),
        **verdict,
    }


def _verify_all(
    store: Store,
    config: VerifyConfig,
    stats: StageStats,
    todo: list,
    ctx: steps.Context,
    backend: str,
    version: str,
    cann: Any,
    device_id: int | None,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..cli_common import console

    jobs = [Job(unit, ctx, backend, cann, device_id, config.keep_workdirs) for unit, _, _ in todo]
    with Progress(
        TextColumn("verify"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[last]}"),
        console=console,
        disable=not config.progress,
        transient=False,
    ) as progress:
        task = progress.add_task("verify", total=len(jobs), last="")

        def record(i: int, out: dict[str, Any]) -> None:
            unit, src, vid = todo[i]
            if "infra_error" in out:
                stats.fail(
                    "infrastructure error", unit["unit_id"], out["infra_error"] + "\n" + out.get("traceback", "")
                )
            else:
                verdict = out["verdict"]
                with store.transaction():
                    store.insert("verifications", [_row(unit, src, vid, backend, version, config, verdict)])
                stats.kept()
                stats.add(verdict["status"])
                if verdict["status"] != "passed":
                    stats.reasons[f"{verdict['status']}: {(verdict.get('reason') or '')[:60]}"] += 1
            progress.update(task, advance=1, last=f"{unit['name']}: {out.get('verdict', {}).get('status', 'error')}")

        if config.jobs == 1:
            for i, job in enumerate(jobs):
                record(i, verify(job))
            return
        _run_pool(jobs, config.jobs, record)


def _run_pool(jobs: list[Job], workers: int, record) -> None:
    """Verify on a process pool. A worker that dies breaks the whole pool: the jobs it took down are retried once in
    a fresh pool, so one crash costs at most that unit, never the batch."""
    mp = multiprocessing.get_context("forkserver")
    pending = list(range(len(jobs)))
    tries = dict.fromkeys(pending, 0)
    while pending:
        retry: list[int] = []
        with cf.ProcessPoolExecutor(max_workers=workers, mp_context=mp) as pool:
            futures = {pool.submit(verify, jobs[i]): i for i in pending}
            for fut in cf.as_completed(futures):
                i = futures[fut]
                try:
                    out = fut.result()
                except cf.process.BrokenProcessPool as exc:
                    tries[i] += 1
                    if tries[i] < 2:
                        retry.append(i)
                        continue
                    out = {"infra_error": f"worker died: {type(exc).__name__}: {exc}"}
                except Exception as exc:  # pickling problems and the like: that unit only
                    out = {"infra_error": f"worker failed: {type(exc).__name__}: {exc}"}
                record(i, out)
        pending = retry
