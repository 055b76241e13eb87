"""Exact task statements for the annotate stage, derived once per unit and kept in the workspace cache.

Deriving a statement runs the unit's generator and evaluates the reference in the sandbox (statement.py), seconds per
unit, so its result is cached under a key of everything it depends on: the unit's files, the command line the
verification recorded for its generator, and the code of the derivation. An unchanged re-run reads the cache and runs
nothing; a change to any of these derives again. Cached as {"form": ...} or {"reason": ...}: a unit without a
statement is not retried until something it depends on changes.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..hashing import sha256_text, stable_json
from ..paths import package_data

# What a derivation depends on besides the unit: editing any of these derives every statement again.
_CODE = (
    "annotate/statement.py",
    "annotate/reference_expr.py",
    "annotate/data/statement_eval.py",
    "annotate/data/statement_numpy.toml",
    "verify/data/generator_runner.py",
    "verify/compare.py",
)


@functools.cache
def code_version() -> str:
    root = Path(__file__).resolve().parent.parent
    parts = []
    for rel in _CODE:
        path = root / rel
        if not path.is_file():
            path = package_data(rel.removeprefix("annotate/").removeprefix("verify/"))
        parts.append(rel + "\0" + (path.read_text(encoding="utf-8") if path.is_file() else "(absent)"))
    return sha256_text("\0".join(parts))[:16]


def statement_key(unit: dict[str, Any], verification: dict[str, Any] | None) -> str:
    files = [(f.get("path"), sha256_text(f.get("text") or "")) for f in unit.get("files") or []]
    calls = [
        c.get("cmd")
        for case in (verification or {}).get("cases") or []
        for c in (case.get("generate") or {}).get("calls") or []
        if isinstance(c, dict)
    ]
    soc = (verification or {}).get("soc")
    return sha256_text(stable_json({"files": files, "calls": calls, "soc": soc, "code": code_version()}))[:32]


def statements(
    units: list[tuple[dict[str, Any], dict[str, Any] | None]], cache_dir: Path, workspace: Path, jobs: int = 2
) -> dict[str, dict[str, Any]]:
    """{unit_id: {"form"| "reason"}} for (unit, verification) pairs: from the cache, else derived (in `jobs`
    threads: each derivation waits on sandboxed subprocesses) and cached."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    out: dict[str, dict[str, Any]] = {}
    todo = []
    for unit, verification in units:
        key = statement_key(unit, verification)
        path = cache_dir / f"{key}.json"
        try:
            out[unit["unit_id"]] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            todo.append((unit, verification, path))
    if not todo:
        return out
    from ..verify import sandbox, steps

    try:
        session = sandbox.open_session(workspace / "sandbox")
    except sandbox.IsolationMissing as exc:  # no derivation without the sandbox: counted as the reason, not cached
        for unit, _, _ in todo:
            out[unit["unit_id"]] = {"reason": f"sandbox unavailable: {str(exc)[:160]}"}
        return out
    try:
        with tempfile.TemporaryDirectory(prefix="statements-", dir=session.root) as tmp:

            def one(item: tuple[dict[str, Any], dict[str, Any] | None, Path]) -> tuple[str, dict[str, Any]]:
                unit, verification, path = item
                from .statement import derive

                ctx = steps.Context(
                    cache_dir=Path(tmp) / "cache",
                    soc=(verification or {}).get("soc") or "ascend910b",
                    python=sys.executable,
                    session=session,
                )
                workdir = Path(tmp) / unit["unit_id"][:24]
                workdir.mkdir()
                try:
                    got = derive(unit, workdir, ctx, verification=verification)
                except OSError as exc:  # a full disk, a sandbox that could not start: a reason, not cached
                    return unit["unit_id"], {"reason": f"the gate could not run ({exc.strerror or exc})"}
                finally:
                    sandbox.remove_tree(workdir)
                result = {"form": got["statement"]} if "statement" in got else {"reason": got["reason"]}
                tmp_path = path.with_suffix(f".{os.getpid()}.tmp")
                tmp_path.write_text(json.dumps(result, sort_keys=True), encoding="utf-8")
                os.replace(tmp_path, path)
                return unit["unit_id"], result

            with ThreadPoolExecutor(max(1, jobs)) as pool:
                out.update(pool.map(one, todo))
    finally:
        sandbox.close_session(session)
    return out
