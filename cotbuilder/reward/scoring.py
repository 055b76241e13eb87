"""score(code, task) -> Score: an answer to a task, verified on the emulator and turned into a reward.

The answer is placed into the task's layout (tasks/specs.py) and run by the existing spec harnesses: cotbuilder draws
the inputs, the task's reference runs in the sandbox and its outputs are sealed as goldens before the answer's kernel
runs in another sandbox dir, and cotbuilder compares. Model-written code is hostile: it only runs in the sandbox and
nothing it prints or writes decides its score.

Safe from many threads and processes: builds go through verify's content-addressed build cache (PCH built once under a
file lock), each score runs in its own sandbox dirs, and finished scores are cached as one JSON file per key
(code hash, task id, emulator version + header digest, SoC, a digest of the harness code), written atomically - repeated samples cost a file read.
Identical requests in flight in one process wait for one computation.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..hashing import sha256_text, stable_json
from ..tasks.specs import AnswerError, answer_files, case_units
from ..tasks.task import Task
from .extract import extract_code
from .shaping import reward_for

LOG_TAIL = 4000
MKB_GAP = (
    "no harness for MultiKernelBench's answer layout yet (op project from project_json_src, a torch binding with "
    "EXEC_NPU_CMD and a ModelNew through custom_ops_lib, checked against the reference Model on get_inputs())"
)
CASE_FIELDS = ("case", "seed", "ok", "check", "why", "outputs", "goldens", "wrote_golden_names", "unsafe_files")


@dataclass
class Score:
    status: str  # a verdict status (docs/statuses.md), `unparseable`, or `error` (cotbuilder's own failure)
    reward: float | None  # shaping: reward/data/shaping.toml; None = no reward (the trainer skips the sample)
    compiled: bool | None = None
    correct: bool | None = None
    reason: str = ""
    errors: list[str] = field(default_factory=list)  # one line per failing case (or the failure)
    cases: list[dict[str, Any]] = field(default_factory=list)  # per case and seed: ok, errors per output
    diagnostics: list[dict[str, Any]] = field(default_factory=list)  # the emulator's (UB bounds, races, ...)
    missing_apis: list[str] = field(default_factory=list)
    compile_log: str = ""  # its tail, secret-scanned
    speed: float | None = None  # always None on the emulator: it does not model time
    task_error: bool = False  # the task itself failed (its reference): not the answer's fault, so no reward
    backend: str = ""  # cpu-emulator@<version>+<header digest>
    task_id: str = ""
    code_hash: str = ""
    cached: bool = False  # read from the score cache (same code, task and emulator)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Score:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


class Scorer:
    """Scores answers with one build cache, one score cache and one sandbox session (a server keeps one)."""

    def __init__(
        self,
        cache_root: Path,
        *,
        soc: str = "ascend910b",
        opt: str | None = None,
        limits: Any = None,
        session: Any = None,
        use_cache: bool = True,
    ):
        from ..verify import build as buildmod
        from ..verify import sandbox

        self.cache_root = Path(cache_root)
        from ..verify.config import KERNEL_OPT

        self.soc, self.opt, self.use_cache = soc, opt or KERNEL_OPT, use_cache  # as verify builds units
        self.limits = limits or sandbox.Limits(cpu_s=60, wall_s=120)
        self.session = session
        self.backend = f"cpu-emulator@{buildmod.emulator_version()}+{buildmod.emulator_digest()[:8]}"
        self._pch: Any = None
        self._lock = threading.Lock()
        self._inflight: dict[str, threading.Event] = {}

    # -- public --------------------------------------------------------------------------------------------------
    def score(self, code: str | dict[str, str], task: Task | dict[str, Any]) -> Score:
        start = time.monotonic()
        task = task if isinstance(task, Task) else Task.from_record(task)
        try:
            files = answer_files(extract_code(code) if isinstance(code, str) else code, task)
        except AnswerError as exc:
            unparseable = Score("unparseable", reward_for("unparseable"), reason=str(exc), errors=[str(exc)])
            return self._final(unparseable, task, "", start)
        code_hash = sha256_text(stable_json(sorted(files.items())))
        key = sha256_text(stable_json([code_hash, task.task_id, self.backend, self.soc, self.opt, harness_digest()]))
        while True:
            if (hit := self._read_cache(key)) is not None:
                hit.cached = True
                return self._final(hit, task, code_hash, start)
            with self._lock:
                waiting = self._inflight.get(key)
                if waiting is None:
                    self._inflight[key] = threading.Event()
                    break
            waiting.wait()  # the same answer is being scored in this process: take its result from the cache
        try:
            result = self._compute(files, task, key)
            if result.status not in ("error", "timeout"):  # a timeout may be the machine's load, not the answer's
                self._write_cache(key, result)
            return self._final(result, task, code_hash, start)
        finally:
            with self._lock:
                self._inflight.pop(key).set()

    # -- scoring -------------------------------------------------------------------------------------------------
    def _compute(self, files: dict[str, str], task: Task, key: str) -> Score:
        from ..verify import harness_bench, harness_op_spec, harness_spec, sandbox, steps
        from ..verify.verdict import redact

        if task.reference["kind"] == "multikernelbench":  # a harness gap, named: no reward, never a wrong verdict
            return Score("unsupported", None, reason=MKB_GAP, errors=[MKB_GAP])

        ctx = steps.Context(
            cache_dir=self.cache_root / "verify",
            soc=self.soc,
            limits=self.limits,
            pch=self._ensure_pch(),
            opt=self.opt,
            use_cache=self.use_cache,
            python=sys.executable,
            session=self.session,
        )
        session = ctx.sandbox_session()
        root = session.new_dir(f"r-{key[:12]}-")
        score = Score("passed", None)
        try:
            for i, (case_name, unit) in enumerate(case_units(task, files)):
                case_dir = steps.fresh_dir(root, f"case-{i}")
                if task.reference["kind"] == "benchmark":
                    verdict = harness_bench.verify_bench(unit, case_dir, ctx)
                elif unit["layout"] == "kernel_launch":
                    verdict = harness_spec.verify_spec(unit, case_dir, ctx)
                else:
                    verdict = harness_op_spec.verify_op_spec(unit, case_dir, ctx)
                if "sandbox could not start" in verdict.reason:
                    return Score("error", None, reason=verdict.reason)
                score.compiled = verdict.compile_ok if score.compiled is not False else False
                score.cases += [
                    {"case": case_name, **{k: c[k] for k in CASE_FIELDS[1:] if k in c}} for c in verdict.cases
                ]
                score.diagnostics += [d for d in verdict.diagnostics if d not in score.diagnostics][:20]
                score.missing_apis = sorted(set(score.missing_apis) | set(verdict.missing_apis))
                if verdict.compile_log and not score.compile_log:
                    score.compile_log = redact(verdict.compile_log[-LOG_TAIL:])
                if verdict.status != "passed":
                    score.status, score.reason = verdict.status, redact(verdict.reason[:1000])
                    break
        except Exception as exc:  # a bug of ours: no reward, not cached, the batch goes on
            return Score("error", None, reason=f"{type(exc).__name__}: {exc}")
        finally:
            sandbox.remove_tree(root)
        score.task_error = _task_failed(score, task)
        score.reward = None if score.task_error else reward_for(score.status)
        score.correct = {"passed": True, "wrong_answer": False}.get(score.status)
        score.errors = [
            f"{c['case']} seed {c.get('seed')}: {c.get('why')}" for c in score.cases if c.get("ok") is False
        ]
        if score.status != "passed" and not score.errors:
            score.errors = [score.reason]
        return score

    def _ensure_pch(self) -> Any:
        from ..verify import build as buildmod

        with self._lock:
            if self._pch is None:
                self._pch = buildmod.ensure_pch(self.cache_root / "verify", self.soc, self.opt)
            return self._pch

    def _final(self, score: Score, task: Task, code_hash: str, start: float) -> Score:
        score.backend, score.task_id, score.code_hash = self.backend, task.task_id, code_hash
        score.seconds = round(time.monotonic() - start, 3)
        return score

    # -- score cache ---------------------------------------------------------------------------------------------
    def _cache_file(self, key: str) -> Path:
        return self.cache_root / "reward" / key[:2] / f"{key}.json"

    def _read_cache(self, key: str) -> Score | None:
        try:
            return Score.from_dict(json.loads(self._cache_file(key).read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return None

    def _write_cache(self, key: str, score: Score) -> None:
        path = self._cache_file(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(score.as_dict(), fh)
            os.replace(tmp, path)  # atomic: a reader in another process sees the whole score or none
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _task_failed(score: Score, task: Task) -> bool:
    """The task's side stopped the verdict (its reference crashed, its spec cannot be built): the answer is not to
    blame. An op_project answer brings its own OpDef, so there a bad spec is the answer's."""
    reason = score.reason
    if score.status in ("failed_run", "timeout", "unsupported", "sandbox_violation") and reason.startswith(
        ("reference", "benchmark reference")
    ):
        return True
    return reason.startswith("bad verify_spec.toml") and task.layout != "op_project"


@functools.lru_cache(maxsize=1)
def harness_digest() -> str:
    """Hash of the code that turns an answer into a verdict (verify/, tasks/, reward/ and their data files): a
    harness fix makes earlier cached scores stale, as an emulator edit does through the backend version."""
    from ..paths import package_data

    h = hashlib.sha256()
    for folder in ("verify", "tasks", "reward"):
        for path in sorted(package_data(folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                h.update(path.relative_to(package_data("")).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


_default: dict[str, Scorer] = {}
_default_lock = threading.Lock()


def default_scorer(workspace: str | os.PathLike[str] | None = None) -> Scorer:
    """One Scorer per workspace per process (its cache: `<workspace>/cache/`)."""
    from ..store import resolve_workspace

    root = resolve_workspace(workspace) / "cache"
    with _default_lock:
        if str(root) not in _default:
            root.mkdir(parents=True, exist_ok=True)
            _default[str(root)] = Scorer(root)
        return _default[str(root)]


def score(
    code: str | dict[str, str], task: Task | dict[str, Any], *, workspace: str | os.PathLike[str] | None = None
) -> Score:
    """Score one answer to one task (docs/reward.md). `code`: the kernel's source (a completion's fenced C++ block
    is taken out) or {path: text}; `task`: a Task or a `tasks` row. The workspace (default as the CLI's) holds the
    build and score caches."""
    return default_scorer(workspace).score(code, task)
