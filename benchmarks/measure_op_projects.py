"""How many real op projects the cpu backend verifies the way their authors test them (issue 11), on local snapshots.

    python benchmarks/measure_op_projects.py npukernelbench [--git-dir DIR] [--only TASK ...]
    python benchmarks/measure_op_projects.py cann-ops [--git-dir DIR]
    python benchmarks/measure_op_projects.py ops-math [--git-dir DIR]
    (common: --out results.jsonl (resume: units already there are skipped), --limit N, --wall-seconds S)

- npukernelbench: every task's reference answer (`answer/0`) through its validation (benchmark harness: the PyTorch
  reference on CPU - the torch extra -, the cases of test_cases.csv). The denominator is fixed by one rule: every
  task whose answer uses no Cube API (`CUBE` below, searched in the answer's op_kernel/ and op_host/); the task ids
  are printed. Goal: >= 80% passed.
- cann-ops (the copy vendored in KernelHive/ascendc-skill): every op with an `examples/AclNNInvocationNaive` example,
  through it (aclnn harness). Goal: >= 70% passed.
- ops-math (hicann): every op's kernel UTs (tests/ut/op_kernel, not arch35), each TEST a case (kernel UT harness).
  Goals: >= 70% of the TEST cases run to the end (passed or unchecked), >= 80% of the compared cases pass.

The snapshot is read from its bare git dir into a temp dir (nothing is kept), grouped into units by cotbuilder's own
parser, and each unit verified in the sandbox; results go to a JSONL file and a summary table is printed: units,
passed, every other status with its top reasons.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cotbuilder.crawl import filefilter  # noqa: E402
from cotbuilder.parse.units import extract_units  # noqa: E402
from cotbuilder.verify import build as buildmod  # noqa: E402
from cotbuilder.verify import harness_op, sandbox, steps  # noqa: E402

SNAPSHOTS = {
    "npukernelbench": ("/work/.mirror/weich97+NPUKernelBench/repo", "tasks"),
    "cann-ops": (
        "/work/.mirror/KernelHive+ascendc-skill/repo",
        "skills/ascend-kernel-generator/reference/ref_repositories/cann-ops",
    ),
    "ops-math": ("/work/.mirror/hicann+ops-math/repo", ""),
}
# An answer that touches the Cube unit (matmul / convolution, L0/L1 positions) is not a vector kernel.
CUBE = re.compile(
    r"\b(Matmul|MatmulImpl|Mmad|LoadData|LoadData2D|LoadData3DV2|Fixpipe|TCubeTiling|REGIST_MATMUL_OBJ|BatchMatmul|"
    r"MatmulApiTiling|MultiCoreMatmulTiling|TPosition::(?:A1|A2|B1|B2|CO1|CO2|C1|C2))\b|matmul_intf\.h"
)
SOC = "ascend910b"


def extract(git_dir: str, sub: str, dest: Path) -> Path:
    """The snapshot's files (those present: large blobs may be absent from a mirror) under dest."""
    listing = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "-z", "HEAD", *([sub] if sub else [])],
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    entries = []
    for e in listing:
        if not e:
            continue
        meta, path = e.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob" and mode != b"120000":
            entries.append((sha, path.decode("utf-8", "surrogateescape")))
    proc = subprocess.Popen(
        ["git", "--git-dir", git_dir, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    for sha, path in entries:
        proc.stdin.write(sha + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline()
        if header.endswith(b"missing\n"):
            continue
        data = proc.stdout.read(int(header.split()[2]))
        proc.stdout.read(1)
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    proc.stdin.close()
    proc.wait()
    return dest / sub if sub else dest


def units_of(root: Path) -> list[dict]:
    files = []
    for cand in filefilter.walk(root).candidates:
        text, raw, _ = filefilter.read_checked(cand.abs_path, 1024 * 1024)
        if text is not None:
            files.append({"path": cand.rel_path, "text": text, "file_id": None, "license": None})
    units, _ = extract_units("0" * 64, files)
    return [u for u in units if u["layout"] == "op_project"]


def select(kind: str, units: list[dict]) -> list[tuple[str, dict, str]]:
    """(id, unit, harness) for the units the measurement counts, in a stable order."""
    from cotbuilder.verify import harness_aclnn, harness_bench, harness_kernel_ut

    chosen = []
    for u in units:
        root = u["root"]
        if kind == "npukernelbench":
            if not root.endswith("/answer/0") or harness_bench.validation_dir(u) is None:
                continue
            code = "\n".join(f["text"] for f in u["files"] if f["path"].startswith(("op_kernel/", "op_host/")))
            if not CUBE.search(code):
                chosen.append((root.split("/")[-3], u, "benchmark"))
        elif kind == "cann-ops":
            if any(e["dir"].endswith("AclNNInvocationNaive") for e in harness_aclnn.examples(u)):
                chosen.append((root, u, "aclnn"))
        elif kind == "ops-math":
            if harness_kernel_ut.tests(u):
                chosen.append((root, u, "kernel_ut"))
    return sorted(chosen, key=lambda c: c[0])


def verify(unit: dict, harness: str, ctx: steps.Context) -> dict:
    from cotbuilder.verify import harness_aclnn

    session = ctx.sandbox_session()
    unit_dir = session.new_dir(f"u-{unit['unit_id'][:12]}-")
    try:
        if harness == "aclnn":
            example = next(e for e in harness_aclnn.examples(unit) if e["dir"].endswith("AclNNInvocationNaive"))
            verdict = harness_aclnn.verify_aclnn(unit, unit_dir, ctx, example)
        else:
            verdict = harness_op.verify(unit, harness, unit_dir, ctx)
        return verdict.as_columns()
    except Exception as exc:  # a bug of ours: recorded, the measurement goes on
        return {"status": "infra_error", "reason": f"{type(exc).__name__}: {exc}", "cases": []}
    finally:
        sandbox.remove_tree(unit_dir)


def summary(kind: str, results: list[dict], denominator: list[str]) -> None:
    by_status = collections.Counter(r["status"] for r in results)
    reasons: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in results:
        if r["status"] != "passed":
            reasons[r["status"]][re.sub(r"\d+", "N", (r.get("reason") or "")[:90])] += 1
    total = len(denominator)
    print(f"\n{kind}: {total} units in the denominator, {len(results)} verified")
    print(f"  passed: {by_status['passed']} ({100 * by_status['passed'] / max(total, 1):.1f}%)")
    for status, n in by_status.most_common():
        if status == "passed":
            continue
        print(f"  {status}: {n}")
        for reason, m in reasons[status].most_common(5):
            print(f"      {m:4d}  {reason}")
    if kind == "ops-math":
        cases = [c for r in results for c in (r.get("cases") or [])]
        statuses = collections.Counter(c.get("status") for c in cases)
        ran = statuses["passed"] + statuses["unchecked"] + statuses["wrong_answer"]
        to_end = statuses["passed"] + statuses["unchecked"]
        compared = statuses["passed"] + statuses["wrong_answer"]
        print(f"  TEST cases: {len(cases)}; per status {dict(statuses)}")
        print(f"  run to the end (passed or unchecked): {to_end} ({100 * to_end / max(len(cases), 1):.1f}%)")
        print(
            f"  compared: {compared}, passed {statuses['passed']} ({100 * statuses['passed'] / max(compared, 1):.1f}%)"
        )
        del ran


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=sorted(SNAPSHOTS))
    parser.add_argument("--git-dir")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--limit", type=int)
    parser.add_argument("--wall-seconds", type=float, default=300.0)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "cotbuilder-measure-cache")
    parser.add_argument("--list", action="store_true", help="print the denominator and stop")
    args = parser.parse_args()
    git_dir, sub = SNAPSHOTS[args.kind]
    out = args.out or Path(f"measure_{args.kind}.jsonl")
    with tempfile.TemporaryDirectory(prefix="cotbuilder-measure-") as tmp:
        start = time.monotonic()
        root = extract(args.git_dir or git_dir, sub, Path(tmp))
        chosen = select(args.kind, units_of(root))
        print(f"{len(chosen)} units selected in {time.monotonic() - start:.0f} s")
        if args.list:
            print(" ".join(c[0] for c in chosen))
            return 0
        done = {}
        if out.is_file():
            for line in out.read_text().splitlines():
                rec = json.loads(line)
                done[rec["id"]] = rec
        cache = args.cache
        cache.mkdir(parents=True, exist_ok=True)
        ctx = steps.Context(
            cache_dir=cache,
            soc=SOC,
            limits=sandbox.Limits(cpu_s=int(args.wall_seconds), wall_s=args.wall_seconds, memory_mb=8192),
            python=sys.executable,
            seeds=(0,),
        )
        ctx.pch = buildmod.ensure_pch(cache, SOC, ctx.opt)
        todo = [c for c in chosen if c[0] not in done and (not args.only or any(o in c[0] for o in args.only))]
        if args.limit is not None:
            todo = todo[: args.limit]
        with out.open("a") as fh:
            for i, (uid, unit, harness) in enumerate(todo, 1):
                t = time.monotonic()
                cols = verify(unit, harness, ctx)
                rec = {
                    "id": uid,
                    "harness": harness,
                    "seconds": round(time.monotonic() - t, 1),
                    **{k: cols.get(k) for k in ("status", "reason", "cases", "missing_apis", "timings")},
                }
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                done[uid] = rec
                print(
                    f"[{i}/{len(todo)}] {uid}: {rec['status']} {(rec['reason'] or '')[:100]} ({rec['seconds']} s)",
                    flush=True,
                )
        results = [done[c[0]] for c in chosen if c[0] in done]
        print("denominator:", " ".join(c[0] for c in chosen))
        summary(args.kind, results, [c[0] for c in chosen])
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LC_ALL", "C")
    raise SystemExit(main())
