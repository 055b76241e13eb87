"""Precision and recall of `decontaminate` on real code: a crawled op library against a benchmark built from it.

    python benchmarks/measure_decontam_real.py --corpus DIR --benchmark PATH_OR_BARE_REPO [--workspace WS]

Crawls the corpus folder (once; a re-run reuses the workspace), runs decontaminate against the benchmark, and scores
the verdicts against a truth taken from names and code, not from the checker: a unit truly copies a task when the task
is the same op (task folder name == the unit's folder or op name, case- and underscore-blind, allowing the benchmark's
`Math`/`Op` suffixes) AND one of the task's answer kernel files and one of the unit's kernel files -- or all of each
side's kernel files together -- share at least half of their distinct tokens. Prints the verdict x truth table,
precision and recall of `contaminated` and of `contaminated or near`, and every disagreement.

Measured with cann-ops (the copy vendored in KernelHive/ascendc-skill) against NPUKernelBench (a bare mirror):
    git --git-dir=/work/.mirror/KernelHive+ascendc-skill/repo archive HEAD \\
        skills/ascend-kernel-generator/reference/ref_repositories/cann-ops | tar -x -C /tmp/snap/skill
    python benchmarks/measure_decontam_real.py --corpus /tmp/snap/skill/skills/.../cann-ops \\
        --benchmark /work/.mirror/weich97+NPUKernelBench/repo --workspace /tmp/dc/ws
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cotbuilder.decontam import benchmarks  # noqa: E402
from cotbuilder.dedup import tokens  # noqa: E402
from cotbuilder.store import Store  # noqa: E402


def key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / max(1, len(a | b))


def truth(units: list[dict], bench: benchmarks.Benchmark) -> dict[str, str | None]:
    by_op: dict[str, list[tuple[str, list[set[str]]]]] = collections.defaultdict(list)
    for task in bench.tasks:
        files = [set(tokens.tokens(t)) for p, t in task.answers if "op_kernel" in p]
        name = task.task_id.rsplit("/", 1)[-1]
        for k in {key(name), re.sub(r"(math|op)$", "", key(name))}:
            by_op[k].append((task.task_id, files))
    out: dict[str, str | None] = {}
    for u in units:
        mine = [set(tokens.tokens(f["text"])) for f in u["files"] if f["role"] == "kernel"]
        best = (None, 0.0)
        for k in {key(u["root"].rsplit("/", 1)[-1]), key(u["name"])}:
            for task_id, files in by_op.get(k, []):
                pairs = [jaccard(a, b) for a in mine for b in files]
                whole = jaccard(set().union(*mine), set().union(*files)) if mine and files else 0.0
                sim = max(pairs + [whole])
                if sim > best[1]:
                    best = (task_id, sim)
        out[u["unit_id"]] = best[0] if best[1] >= 0.5 else None
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, type=Path)
    ap.add_argument("--benchmark", required=True)
    ap.add_argument("--workspace", type=Path, default=Path("/tmp/cotbuilder-decontam-measure"))
    args = ap.parse_args()
    cli = [sys.executable, "-m", "cotbuilder.cli", "--workspace", str(args.workspace)]
    if not (args.workspace / "store.duckdb").exists():
        subprocess.run([*cli, "crawl", "--source", f"local+{args.corpus}"], check=False, capture_output=True)
    proc = subprocess.run(
        [*cli, "decontaminate", "--benchmark", f"bench={args.benchmark}"], capture_output=True, text=True
    )
    if proc.returncode != 0:
        print(proc.stderr)
        return 1
    with Store(args.workspace, read_only=True) as store:
        units = store.rows(
            "SELECT u.unit_id, u.name, u.root, u.files, c.verdict, c.task FROM units u JOIN contamination c USING (unit_id)"
        )
    bench = benchmarks.load(f"bench={args.benchmark}", args.workspace / "cache")
    true_task = truth(units, bench)
    n_true = sum(1 for t in true_task.values() if t)
    table = collections.Counter((u["verdict"], bool(true_task[u["unit_id"]])) for u in units)
    print(f"units {len(units)}; truly copying a task: {n_true}")
    print("verdict x truly copying:", json.dumps({f"{v}/{t}": n for (v, t), n in sorted(table.items())}))
    for verdicts in (("contaminated",), ("contaminated", "near")):
        flagged = [u for u in units if u["verdict"] in verdicts]
        tp = sum(1 for u in flagged if true_task[u["unit_id"]])
        print(
            f"{' or '.join(verdicts)}: {len(flagged)} flagged, precision {tp / max(1, len(flagged)):.3f}, "
            f"recall {tp / max(1, n_true):.3f}"
        )
    for u in sorted(units, key=lambda u: u["root"]):
        t = true_task[u["unit_id"]]
        if (u["verdict"] != "clean") != bool(t):
            print(f"  {u['verdict']:12} {u['root']}  hit={u['task']}  truth={t}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
