"""Steps both harnesses share: build against the emulator, run a step in a fresh sandbox dir, turn what happened into
a status, and the one rule that decides it (`judge`)."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import build as buildmod
from . import build_flags, diagnostics, files, sandbox
from .config import KERNEL_OPT
from .verdict import Verdict

_PY_MISSING = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")
# an NPU host tool a generator runs (cann-ops add_rms_norm asks `npu-smi info -m` for the SoC): there is no NPU here
_NPU_TOOL = re.compile(r"No such file or directory: '(npu-smi)'|\b(npu-smi): (?:command )?not found")


@dataclass
class Context:
    """What a harness needs besides the unit: where to cache, which SoC, the limits, the PCH, the sandbox session."""

    cache_dir: Path
    soc: str = "ascend910b"
    limits: sandbox.Limits = field(default_factory=sandbox.Limits)
    pch: buildmod.Pch | None = None
    opt: str = KERNEL_OPT
    use_cache: bool = True
    seeds: tuple[int, ...] = (0, 1)
    python: str = "python3"
    extra_env: dict[str, str] = field(default_factory=dict)  # e.g. the CANN toolkit environment for npu runs
    session: sandbox.Session | None = None  # None: the process's default session (tests, tools)
    ro_paths: tuple[str, ...] = ()  # more read-only paths for the steps (the CANN toolkit)
    devices: tuple[str, ...] = ()  # device nodes the kernel may use (/dev/davinciN on an NPU host)
    schedules: int = 1  # emulator: run the kernel under this many scheduler seeds; outputs must not differ

    def sandbox_session(self) -> sandbox.Session:
        return self.session or sandbox.default_session()


def fresh_dir(unit_dir: Path, name: str) -> Path:
    """A new, empty work dir for one step (created by the parent: no untrusted code has touched it)."""
    path = unit_dir / name
    path.mkdir(mode=0o755)
    return path


def run_step(
    ctx: Context,
    argv: list[str],
    workdir: Path,
    limits: sandbox.Limits | None = None,
    env: dict | None = None,
    preload: tuple[str, ...] = (),
) -> sandbox.SandboxResult:
    return sandbox.run(
        argv,
        workdir,
        limits or ctx.limits,
        env=env,
        session=ctx.sandbox_session(),
        ro_paths=ctx.ro_paths,
        devices=ctx.devices,
        preload=preload,
    )


TORCH = ("torch",)  # preload for a step that imports torch (sandbox.run)


def limit_reason(reason: str) -> str:
    """Why a compiler run stopped at one of the sandbox's caps; the sandbox may not say which (an empty reason)."""
    stopped = f"by the sandbox's {reason}" if reason else "without a message at a sandbox limit"
    return f"compiler stopped {stopped} (the code may build where more is allowed)"


def compile_failure(
    result: buildmod.BuildResult,
    timings: dict[str, Any],
    harness: str,
    cmake_vars: tuple[str, ...] = (),
    foreign_arch: str | None = None,
) -> Verdict:
    """The verdict of a build that failed. `foreign_arch`: the architecture the unit is written for when the emulator
    checks another one (a dav-3510-only sample verified as ascend910b): a legality refusal then says nothing of the
    code on its own hardware, so it is `unsupported`, naming both, never `failed_compile`."""
    if result.outcome == "timeout":
        return Verdict(
            "timeout", "compiler: time limit", harness, compile_ok=False, compile_log=result.log, timings=timings
        )
    if result.outcome == "sandbox_error":  # the worker turns this into an infrastructure error, retried, not stored
        return Verdict(
            "failed_run",
            f"compiler: sandbox could not start ({result.reason})",
            harness,
            compile_ok=False,
            compile_log=result.log,
            timings=timings,
        )
    if result.outcome == "limit":  # our sandbox's memory or output cap stopped the compiler: no verdict on the code
        return Verdict(
            "unsupported",
            limit_reason(result.reason),
            harness,
            compile_ok=False,
            compile_log=result.log,
            timings=timings,
        )
    if result.outcome == "violation":
        return Verdict(
            "sandbox_violation",
            f"compiler: {result.reason}",
            harness,
            compile_ok=False,
            compile_log=result.log,
            timings=timings,
        )
    gap = diagnostics.unsupported_gap(result.log, cmake_vars)
    if gap:
        kind, names = gap
        return Verdict(
            "unsupported",
            f"{kind}: " + ", ".join(names[:5]),
            harness,
            compile_ok=False,
            missing_apis=names,
            compile_log=result.log,
            timings=timings,
        )
    if foreign_arch and (legal := diagnostics.legality_error(result.log)) is not None:
        return Verdict(
            "unsupported",
            f"legality of {foreign_arch} not modelled (the unit is written for {foreign_arch}; the emulator checked "
            f"another SoC's rules): {legal}"[:600],
            harness,
            compile_ok=False,
            compile_log=result.log,
            timings=timings,
        )
    return Verdict(
        "failed_compile",
        diagnostics.first_error(result.log),
        harness,
        compile_ok=False,
        compile_log=result.log,
        timings=timings,
    )


def stopped(result: sandbox.SandboxResult, what: str) -> tuple[str, str] | None:
    """(status, reason) when a sandboxed step did not end normally; None when it exited 0."""
    if result.outcome == "ok":
        return None
    if result.outcome == "timeout":
        return "timeout", f"{what}: {result.reason}"
    if result.outcome == "violation":
        return "sandbox_violation", f"{what}: {result.reason}"
    if result.outcome == "sandbox_error":
        return "failed_run", f"{what}: sandbox could not start ({result.reason})"
    if m := _PY_MISSING.search(result.stderr):
        return "unsupported", f"{what} needs python module {m.group(1)}"
    if what in ("generator", "reference") and (m := _NPU_TOOL.search(result.stderr)):
        return "unsupported", f"{what} needs the NPU host tool {m.group(1) or m.group(2)} (no NPU here)"
    if what == "generator" and result.outcome == "limit" and result.reason.startswith(sandbox.OUTPUT_LIMIT):
        # the unit's own data generator wants more room than cotbuilder gives a step: our limit, not the kernel's
        # fault (the kernel never ran)
        return "unsupported", f"generator writes a file over the sandbox's {result.reason}"
    detail = diagnostics.first_error(result.stderr) or diagnostics.first_error(result.stdout)
    stage = f"{what} ({result.reason})" if result.outcome == "limit" else f"{what}: {result.reason}"
    return "failed_run", f"{stage}{' - ' + detail if detail else ''}"


def generator_stop(gen: sandbox.SandboxResult, gen_dir: Path, unsafe: list[str]) -> tuple[str, str, str] | None:
    """(status, reason, log) when an input/golden generator step cannot lead to a case: it ended badly (its output
    is the log), or it left a file it may not (planted; no log); None when its goldens and inputs can be used."""
    if (stop := stopped(gen, "generator")) is not None:
        return stop[0], stop[1], (gen.stdout + gen.stderr)[-5000:]
    if found := planted(gen_dir, unsafe):
        return "sandbox_violation", f"generator: {found}", ""
    return None


def ended_by_diagnostics(result: sandbox.SandboxResult, diags: list[dict[str, Any]]) -> bool:
    """The emulator exits 3 at the end of a run that reported errors: still judge its output (see judge())."""
    return result.outcome == "exit" and result.returncode == 3 and bool(diagnostics.errors(diags))


def run_env(ctx: Context) -> dict[str, str]:
    """The environment of a unit's run steps. `python3` on PATH is the interpreter cotbuilder runs generators with
    (a kernel UT's `system("python3 gen_data.py")` must find numpy whether or not the caller activated its venv)."""
    env = {"COTBUILDER_SOC": ctx.soc}
    if os.sep in ctx.python:
        env["PATH"] = os.pathsep.join([str(Path(ctx.python).parent), os.environ.get("PATH", "/usr/bin:/bin")])
    return {**env, **ctx.extra_env}


def schedule_seeds(ctx: Context) -> list[int]:
    """The emulator's scheduler seeds a run uses: 0 alone by default; with --schedules N also 1..N-1, run first, so
    the outputs left for judging are seed 0's (the seeds are recorded with the verification)."""
    return [*range(1, max(ctx.schedules, 1)), 0]


def _tree_digest(workdir: Path) -> dict[str, str]:
    """Every regular file of the work dir as name -> content hash (read without following symlinks)."""
    found, _ = files.read_tree(workdir)
    return {p: hashlib.sha256(d).hexdigest() for p, d in found.items()}


def run_binary(
    ctx: Context, workdir: Path, binary: str, args: list[str] | None = None
) -> tuple[sandbox.SandboxResult, list[dict[str, Any]], str]:
    """Run the built kernel (with the command-line arguments its docs give it); returns the sandbox result, the
    emulator diagnostics, and the rest of the output. Under the emulator, a unit whose build files pass
    --cce-auto-sync=off runs with the compiler's syncs off, and with several scheduler seeds every seed must leave
    the same files (else a `schedule_dependent` error names the seeds and the file)."""
    env = run_env(ctx)
    if build_flags.cce_auto_sync_off(build_flags.build_texts(workdir)):
        env["COTBUILDER_CCE_AUTO_SYNC"] = "0"
    seeds = schedule_seeds(ctx)
    left: dict[int, dict[str, str]] = {}
    wall = cpu = 0.0
    for seed in seeds:
        result = run_step(
            ctx, [f"./{binary}", *(args or [])], workdir, env={**env, "COTBUILDER_SCHEDULE_SEED": str(seed)}
        )
        wall, cpu = wall + result.wall_s, cpu + result.cpu_s
        if len(seeds) > 1:
            left[seed] = _tree_digest(workdir)
        if result.outcome != "ok" and not (result.outcome == "exit" and result.returncode == 3):
            break  # a run that did not end normally is judged as it is
    result = dataclasses.replace(result, wall_s=wall, cpu_s=cpu)  # the time of every schedule's run
    diags, rest = diagnostics.parse_emulator_diagnostics(result.stderr)
    if len(left) > 1:
        base = left.get(0) or next(iter(left.values()))
        for seed, tree in left.items():
            differ = sorted(f for f in set(base) | set(tree) if base.get(f) != tree.get(f))
            if differ:
                diags.append(
                    {
                        "kind": "schedule_dependent",
                        "severity": "error",
                        "message": f"{differ[0]} differs between emulator schedule seeds 0 and {seed}: the output "
                        "depends on how the cores interleave",
                        "file": None,
                        "line": None,
                    }
                )
                break
    log = (result.stdout + ("\n" if result.stdout and rest else "") + rest).strip()
    return result, diags, log


def written_files(workdir: Path, put: dict[str, bytes]) -> tuple[dict[str, bytes], list[str]]:
    """Files a step wrote (new, or changed from what the parent put there), read without following symlinks; and
    the names skipped as unsafe (symlinks, FIFOs, over the size cap)."""
    found, skipped = files.read_tree(workdir)
    return {p: d for p, d in found.items() if put.get(p) != d}, skipped


def planted(workdir: Path, unsafe: list[str]) -> str | None:
    """A symlink or special file a step left in its work dir, described ("symlink input -> /etc"): no honest
    generator or kernel makes one, and a harness that followed it would read or write outside the sandbox."""
    for rel in unsafe:
        try:
            parent = files._open_dir(workdir, tuple(Path(rel).parts[:-1]))
        except OSError:
            continue
        try:
            info = os.lstat(Path(rel).name, dir_fd=parent)
            if stat.S_ISLNK(info.st_mode):
                return f"left a symlink {rel} -> {os.readlink(Path(rel).name, dir_fd=parent)}"
            if not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
                return f"left a special file {rel}"
        except OSError:
            continue
        finally:
            os.close(parent)
    return None


def judge(verdict: Verdict) -> Verdict:
    """The final status, one rule for every harness (docs/statuses.md):
    runtime-unsupported beats all; a step that stopped keeps its status; then the cases: any case cotbuilder found
    wrong -> wrong_answer (error diagnostics attached); any case it could not compare -> unchecked; every case compared
    and right -> passed. An emulator error diagnostic turns passed / unchecked into failed_run (the kernel only worked
    by luck of the emulator); a broken hardware rule whose effect depends on timing or is undefined (a race, an
    unpaired sync, an illegal Cast mode, an over-deep queue, too many buffers, a scratch buffer too small, an output
    that depends on the schedule: diagnostics.RULE_BREAKS) is failed_run even when the output is wrong, since that
    output is an accident of the emulated order; warnings never change the status (a wrong answer's reason quotes
    one that explains it: diagnostics.EXPLAINING_WARNINGS)."""
    unsupported = diagnostics.unsupported(verdict.diagnostics)
    if unsupported:
        verdict.status = "unsupported"
        verdict.missing_apis = sorted(set(verdict.missing_apis) | set(unsupported))
        verdict.reason = "missing in emulator: " + ", ".join(verdict.missing_apis[:5])
        return verdict
    if verdict.status != "passed":  # a step stopped: timeout, violation, crash...
        return verdict
    errors = diagnostics.errors(verdict.diagnostics)
    decisive = [e for e in errors if e["kind"] in diagnostics.RULE_BREAKS]
    if decisive:
        where = f" ({decisive[0].get('file')}:{decisive[0].get('line')})" if decisive[0].get("line") else ""
        verdict.status, verdict.correct = "failed_run", None
        verdict.reason = f"emulator {decisive[0]['kind']}: {decisive[0]['message']}{where}"
        return verdict
    wrong = [c for c in verdict.cases if c.get("ok") is False]
    open_cases = [c for c in verdict.cases if c.get("ok") is None]
    if wrong:
        verdict.status, verdict.correct = "wrong_answer", False
        verdict.reason = wrong[0].get("why") or "outputs differ from the golden"
        explaining = errors or [d for d in verdict.diagnostics if d["kind"] in diagnostics.EXPLAINING_WARNINGS]
        if explaining:  # the diagnostics usually explain the wrong answer
            where = f" ({explaining[0].get('file')}:{explaining[0].get('line')})" if explaining[0].get("line") else ""
            verdict.reason += f"; emulator {explaining[0]['kind']}: {explaining[0]['message']}{where}"
        return verdict
    if errors:
        where = f" ({errors[0].get('file')}:{errors[0].get('line')})" if errors[0].get("line") else ""
        verdict.status = "failed_run"
        verdict.reason = f"emulator {errors[0]['kind']}: {errors[0]['message']}{where}"
        return verdict
    if open_cases or not verdict.cases:
        verdict.status, verdict.correct = "unchecked", None
        verdict.reason = (open_cases[0].get("why") if open_cases else None) or "nothing to compare"
        return verdict
    verdict.correct = True
    return verdict
