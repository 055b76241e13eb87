"""How many real op projects the cpu backend verifies the way their authors test them (issue 11), on local snapshots.

    python benchmarks/measure_op_projects.py npukernelbench [--git-dir DIR] [--only TASK ...]
    python benchmarks/measure_op_projects.py npukernelbench --cube    # the level-3 matmul family (issue 14)
    python benchmarks/measure_op_projects.py cann-ops [--git-dir DIR]
    python benchmarks/measure_op_projects.py ops-math --workspace WS [--jobs 2] [--every 3] [--limit N]
    python benchmarks/measure_op_projects.py ops-math --workspace WS --report      # the summary of what WS holds

- npukernelbench: every task's reference answer (`answer/0`) through its validation (benchmark harness: the PyTorch
  reference on CPU - the torch extra -, the cases of test_cases.csv). The denominator is fixed by one rule: every
  task whose answer uses no Cube API (`CUBE` below, searched in the answer's op_kernel/ and op_host/); the task ids
  are printed. Goal: >= 80% passed. With --cube: the 17 level-3 matmul-family tasks (tasks/level3/GMM) instead,
  whatever API their answers use. Goal: >= 50% passed. With --all-answers: every task's answer/0 (the set
  `cotbuilder eval --teacher reference` runs; compare the two with compare_eval_verify.py).
- cann-ops (the copy vendored in KernelHive/ascendc-skill): every op with an `examples/AclNNInvocationNaive` example.
  Goal: >= 70% passed.
- ops-math (hicann): every op's kernel UTs (tests/ut/op_kernel, not arch35), each TEST a case (kernel UT harness).
  Goals: >= 70% of the TEST cases run to the end (passed or unchecked), >= 80% of the compared cases pass.

The snapshot is read from its bare git dir into a temp dir, grouped into units by cotbuilder's own parser, and the
chosen units are verified by the verify stage in a workspace that is kept (`--workspace`): its store holds every
verdict, case and emulator diagnostic (`cotbuilder -w WS query ...`, `benchmarks/measure_fidelity_checks.py WS`), and
a re-run with the same workspace verifies only what is still missing (resume after a kill). Each unit gets the
harness `cotbuilder verify` would choose for it; where that differs from the harness the measurement is about, the
unit is named. `--fidelity-off` runs with the emulator's fidelity switches off ("before", see measure_asc_devkit.py);
`--share-builds WS2` reuses another workspace's compiled objects (the switches act at run time only, so a before run
after an after run rebuilds nothing but the links). `--every N` measures every Nth unit of the sorted denominator (a
fixed, stated subset when the whole set cannot be afforded).
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
sys.path.insert(0, str(REPO / "benchmarks"))

from measure_asc_devkit import FIDELITY_ALWAYS_ON, FIDELITY_OFF_ENV, SwitchedVerifyStage  # noqa: E402

from cotbuilder.crawl import filefilter  # noqa: E402
from cotbuilder.parse.units import extract_units  # noqa: E402
from cotbuilder.stages.driver import run_stage  # noqa: E402
from cotbuilder.store import Store  # noqa: E402
from cotbuilder.verify import worker  # noqa: E402
from cotbuilder.verify.opproject import kernel_glue  # noqa: E402
from cotbuilder.verify.stage import VerifyConfig  # noqa: E402

SNAPSHOTS = {
    "npukernelbench": ("/work/.mirror/weich97+NPUKernelBench/repo", "tasks"),
    "cann-ops": (
        "/work/.mirror/KernelHive+ascendc-skill/repo",
        "skills/ascend-kernel-generator/reference/ref_repositories/cann-ops",
    ),
    "ops-math": ("/work/.mirror/hicann+ops-math/repo", ""),
}
# An answer that touches the Cube unit (matmul / convolution, L0/L1 positions) is not a vector kernel.
CUBE = kernel_glue.CUBE_API
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


def select(kind: str, units: list[dict], cube: bool = False, every_answer: bool = False) -> list[tuple[str, dict, str]]:
    """(id, unit, harness) for the units the measurement counts, in a stable order (`cube`: NPUKernelBench's
    level-3 matmul family instead of the no-cube answers; `every_answer`: every task's answer/0, Cube or not)."""
    from cotbuilder.verify import harness_aclnn, harness_bench, harness_kernel_ut

    chosen = []
    for u in units:
        root = u["root"]
        if kind == "npukernelbench":
            if not root.endswith("/answer/0") or harness_bench.validation_dir(u) is None:
                continue
            code = "\n".join(f["text"] for f in u["files"] if f["path"].startswith(("op_kernel/", "op_host/")))
            if every_answer:
                chosen.append((root.split("/")[-3], u, "benchmark"))
            elif cube:
                if "/level3/GMM/" in f"/{root}":  # the level-3 matmul family (17 tasks), whatever API they use
                    chosen.append((root.split("/")[-3], u, "benchmark"))
            elif not CUBE.search(code):
                chosen.append((root.split("/")[-3], u, "benchmark"))
        elif kind == "cann-ops":
            if any(e["dir"].endswith("AclNNInvocationNaive") for e in harness_aclnn.examples(u)):
                chosen.append((root, u, "aclnn"))
        elif kind == "ops-math":
            if harness_kernel_ut.tests(u):
                chosen.append((root, u, "kernel_ut"))
    return sorted(chosen, key=lambda c: c[0])


def subset(chosen: list, every: int, only: list[str]) -> list:
    """Every `every`-th unit of the sorted denominator (the 1st, the N+1st, ...), narrowed by --only."""
    picked = chosen[::every]
    return [c for c in picked if not only or any(o in c[0] for o in only)]


def stored(store: Store) -> list[dict]:
    """One row per stored verification, keyed by the unit's root (the measurement's id)."""
    return store.rows(
        "SELECT u.root AS id, u.name, v.harness, v.status, v.reason, v.cases, v.diagnostics, v.missing_apis, "
        "v.timings FROM verifications v JOIN units u USING (unit_id) ORDER BY u.root"
    )


def top_reason(reason: str) -> str:
    return re.sub(r"\d+", "N", (reason or "")[:90])


def summary(kind: str, results: list[dict], denominator: list[str], declared: int = 0) -> None:
    by_status = collections.Counter(r["status"] for r in results)
    reasons: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in results:
        if r["status"] != "passed":
            reasons[r["status"]][top_reason(r.get("reason"))] += 1
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
        case_summary(results, declared)


def declared_tests(unit: dict) -> int:
    """The TEST / TEST_F cases the unit's kernel UT sources declare (what the harness runs, each a case)."""
    from cotbuilder.verify import harness_kernel_ut

    return sum(len(re.findall(r"^\s*TEST(?:_F)?\s*\(", f["text"], re.M)) for f in harness_kernel_ut.tests(unit))


def case_summary(results: list[dict], declared: int) -> None:
    """Issue 11's two case rates, and each other case status with its top reasons. The run-to-the-end rate is over
    every TEST the denominator's UT sources declare: a case whose unit did not build did not run to the end."""
    cases = [c for r in results for c in (r.get("cases") or [])]
    statuses = collections.Counter(c.get("status") for c in cases)
    to_end = statuses["passed"] + statuses["unchecked"]
    compared = statuses["passed"] + statuses["wrong_answer"]
    print(f"  TEST cases: {declared} declared, {len(cases)} ran; per status {dict(statuses.most_common())}")
    print(
        f"  run to the end (passed or unchecked): {to_end}/{declared} declared = "
        f"{100 * to_end / max(declared, 1):.1f}% (goal >= 70%); {to_end}/{len(cases)} of those that ran"
    )
    print(
        f"  compared (passed or wrong_answer): {compared}, passed {statuses['passed']}/{compared} = "
        f"{100 * statuses['passed'] / max(compared, 1):.1f}% (goal >= 80%)"
    )
    why: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for c in cases:
        if c.get("status") not in ("passed", "unchecked"):
            why[c.get("status")][top_reason(c.get("why"))] += 1
    for status, counter in why.items():
        print(f"  cases {status}: {sum(counter.values())}")
        for reason, m in counter.most_common(5):
            print(f"      {m:4d}  {reason}")
    # units whose cases did not run: the unit-level status stands for them (a build failure has no case)
    caseless = collections.Counter(r["status"] for r in results if not r.get("cases"))
    if caseless:
        print(f"  units without any case (build failed / nothing listed): {dict(caseless)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=sorted(SNAPSHOTS))
    parser.add_argument("--git-dir")
    parser.add_argument(
        "--workspace",
        type=Path,
        help="the verify workspace, kept (default ./measure_<kind>_ws); a re-run resumes what is missing",
    )
    parser.add_argument("--out", type=Path, help="also write one JSON line per verified unit here")
    parser.add_argument("--only", nargs="*", default=[], help="only units whose id contains one of these")
    parser.add_argument("--every", type=int, default=1, help="measure every Nth unit of the sorted denominator")
    parser.add_argument("--limit", type=int, help="verify at most N units not yet verified in this run")
    parser.add_argument("--jobs", type=int, default=1, help="units verified in parallel")
    parser.add_argument("--wall-seconds", type=float, default=600.0, help="sandbox wall limit per step")
    parser.add_argument("--cpu-seconds", type=int, default=600, help="sandbox CPU limit per step")
    parser.add_argument("--memory-mb", type=int, default=8192)
    parser.add_argument("--fidelity-off", action="store_true", help="the emulator's fidelity switches off (before)")
    parser.add_argument(
        "--share-builds", type=Path, help="reuse this other workspace's compiled objects (cache/verify/objects)"
    )
    parser.add_argument(
        "--cube",
        action="store_true",
        help="npukernelbench: the level-3 matmul family (tasks/level3/GMM, issue 14; goal >= 50%%) instead",
    )
    parser.add_argument(
        "--all-answers",
        action="store_true",
        help="npukernelbench: every task's answer/0, Cube API or not (what `eval --teacher reference` runs)",
    )
    parser.add_argument("--list", action="store_true", help="print the denominator and stop")
    parser.add_argument("--report", action="store_true", help="verify nothing: summarise what the workspace holds")
    args = parser.parse_args()
    if args.every < 1:
        parser.error("--every must be at least 1")
    git_dir, sub = SNAPSHOTS[args.kind]
    ws = args.workspace or Path(f"measure_{args.kind}_ws")
    with tempfile.TemporaryDirectory(prefix="cotbuilder-measure-") as tmp:
        start = time.monotonic()
        root = extract(args.git_dir or git_dir, sub, Path(tmp))
        chosen = select(args.kind, units_of(root), cube=args.cube, every_answer=args.all_answers)
        print(f"{len(chosen)} units in the denominator, found in {time.monotonic() - start:.0f} s")
        if args.list:
            print(" ".join(c[0] for c in chosen))
            return 0
        picked = subset(chosen, args.every, args.only)
        if args.every > 1:
            print(f"measured subset: every {args.every}th unit of the sorted denominator: {len(picked)} units")
        other = [(uid, worker.choose(u)) for uid, u, harness in picked if worker.choose(u) != harness]
        for uid, which in other:
            print(f"  note: {uid} is verified with the {which!r} harness (what `cotbuilder verify` picks)")
        with Store(ws) as store:
            if args.share_builds:
                objects = store.cache_path("verify", "objects")
                source = args.share_builds.resolve() / "cache" / "verify" / "objects"
                source.mkdir(parents=True, exist_ok=True)
                if not objects.exists():
                    objects.symlink_to(source, target_is_directory=True)
            store.insert("units", [u for _, u, _ in picked])
            if not args.report:
                config = VerifyConfig(
                    jobs=args.jobs,
                    limit=args.limit,
                    seeds=[0],
                    soc=SOC,
                    cpu_s=args.cpu_seconds,
                    wall_s=args.wall_seconds,
                    memory_mb=args.memory_mb,
                    progress=False,
                    layouts=["op_project"],
                )
                stage = SwitchedVerifyStage(config, FIDELITY_OFF_ENV if args.fidelity_off else {})
                stage.batch_size = 1  # every verdict committed as it comes: a kill loses only units in flight
                t = time.monotonic()
                stats = run_stage(stage, store, progress=LineProgress())
                print(f"verified in {time.monotonic() - t:.0f} s: {dict(stats.counts)}")
            # stored rows are keyed by the unit's root; a task id (NPUKernelBench) is a part of it
            wanted = {u["root"]: uid for uid, u, _ in picked}
            results = [{**r, "id": wanted[r["id"]]} for r in stored(store) if r["id"] in wanted]
    if args.out:
        with args.out.open("w", encoding="utf-8") as fh:
            for r in results:
                fh.write(json.dumps(r, default=str) + "\n")
    if args.fidelity_off:
        print(f"FIDELITY OFF: {FIDELITY_OFF_ENV}; still on: {'; '.join(FIDELITY_ALWAYS_ON)}")
    print(f"workspace: {ws} (cotbuilder -w {ws} query ...)")
    summary(args.kind, results, [c[0] for c in picked], sum(declared_tests(u) for _, u, _ in picked))
    return 0


class LineProgress:
    """One printed line per verified unit (the run goes to a log file in the background)."""

    def start(self, stage: str, total: int) -> None:
        self.total, self.done, self.t = total, 0, time.monotonic()
        print(f"{stage}: {total} units to verify", flush=True)

    def advance(self, note: str = "", lines: list[str] | None = None) -> None:
        self.done += 1
        print(f"[{self.done}/{self.total}] {note} ({time.monotonic() - self.t:.0f} s)", flush=True)

    def note(self, label: str, done: int | None) -> None:
        pass

    def finish(self) -> None:
        pass


if __name__ == "__main__":
    os.environ.setdefault("LC_ALL", "C")
    raise SystemExit(main())
