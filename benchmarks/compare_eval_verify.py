"""Do `cotbuilder eval --teacher reference` and `verify` agree on NPUKernelBench's reference answers, task by task?

    python benchmarks/compare_eval_verify.py EVAL_WS VERIFY_WS [--json OUT]

EVAL_WS holds an eval run with the reference teacher (`cotbuilder -w EVAL_WS eval --teacher reference --benchmark
npukernelbench=PATH`): one sample per task, the task's answer/0 as given to the reward. VERIFY_WS holds the same
answers crawled as op-project units and verified (`cotbuilder crawl` + `cotbuilder verify`, or
`benchmarks/measure_op_projects.py npukernelbench --workspace VERIFY_WS`). Both stores are read through the Store API.

A task is matched to the unit rooted at its `answer/0` (the level folder and the task folder name it on both sides:
`level2.SwiGlu` is `.../level2/<Category>/SwiGlu/answer/0`). Prints both emulator versions (a comparison across
versions says nothing), the counts per (eval status, verify status) pair, and every disagreement with both reasons;
a task whose answer files differ between the two sides is flagged (the two paths then judged different code). The
per-level passed counts of each side come last. Exit status: 0 every matched task agrees, 1 some disagree, 2 bad
usage (a workspace without a store, no eval samples of the reference teacher).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cotbuilder.store import Store  # noqa: E402

ANSWER_ROOT = re.compile(r"(?:^|/)(level\d+)/(?:[^/]+/)*?([^/]+)/answer/0$")
ANSWER_DIRS = ("op_host/", "op_kernel/")


@dataclass
class Side:
    status: str
    reason: str
    backend: str
    files: dict[str, str]  # the answer's op_host/ and op_kernel/ files as this side judged them


@dataclass
class Comparison:
    eval_backends: list[str]
    verify_backends: list[str]
    pairs: collections.Counter = field(default_factory=collections.Counter)  # (eval status, verify status) -> n
    agree: list[str] = field(default_factory=list)
    disagree: list[dict] = field(default_factory=list)
    differing_answers: list[dict] = field(default_factory=list)  # same task, different files judged
    only_eval: list[str] = field(default_factory=list)
    only_verify: list[str] = field(default_factory=list)
    eval_levels: dict[str, collections.Counter] = field(default_factory=dict)
    verify_levels: dict[str, collections.Counter] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "eval_backends": self.eval_backends,
            "verify_backends": self.verify_backends,
            "matched": len(self.agree) + len(self.disagree),
            "agree": len(self.agree),
            "pairs": [{"eval": e, "verify": v, "tasks": n} for (e, v), n in sorted(self.pairs.items())],
            "disagree": self.disagree,
            "differing_answers": self.differing_answers,
            "only_eval": self.only_eval,
            "only_verify": self.only_verify,
            "eval_levels": {k: dict(v) for k, v in self.eval_levels.items()},
            "verify_levels": {k: dict(v) for k, v in self.verify_levels.items()},
        }


def task_name_of(root: str) -> str | None:
    """`level1.Softsign` for a unit rooted at `.../level1/<Category>/Softsign/answer/0`, else None."""
    m = ANSWER_ROOT.search(root or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


def answer_part(files: dict[str, str]) -> dict[str, str]:
    return {p: t for p, t in files.items() if p.startswith(ANSWER_DIRS)}


def eval_side(store: Store) -> dict[str, Side]:
    """The reference teacher's first sample of each task (the latest run's row where a task was sampled twice)."""
    if not store.has_table("samples"):
        return {}
    rows = store.rows(
        "SELECT task_name, status, reason, backend, code, created_at FROM samples "
        "WHERE purpose = 'eval' AND sample_index = 0 AND json_extract_string(teacher, '$.provider') = 'reference' "
        "ORDER BY created_at"
    )
    out = {}
    for r in rows:
        code = r["code"] if isinstance(r["code"], dict) else json.loads(r["code"] or "{}")
        out[r["task_name"]] = Side(r["status"], r["reason"] or "", r["backend"] or "", answer_part(code))
    return out


def verify_side(store: Store, prefer_backend: set[str]) -> dict[str, Side]:
    """Each answer/0 unit's verdict: the one of the eval's emulator version where there is one, else the latest."""
    if not (store.has_table("units") and store.has_table("verifications")):
        return {}
    rows = store.rows(
        "SELECT u.root, u.files, v.status, v.reason, v.backend || '@' || v.backend_version AS backend, v.created_at "
        "FROM verifications v JOIN units u USING (unit_id) ORDER BY v.created_at"
    )
    out: dict[str, Side] = {}
    for r in rows:
        name = task_name_of(r["root"])
        if name is None:
            continue
        if name in out and out[name].backend in prefer_backend and r["backend"] not in prefer_backend:
            continue
        listed = r["files"] if isinstance(r["files"], list) else json.loads(r["files"] or "[]")
        files = answer_part({f["path"]: f.get("text") or "" for f in listed})
        out[name] = Side(r["status"], r["reason"] or "", r["backend"], files)
    return out


def compare(eval_ws: Path, verify_ws: Path) -> Comparison:
    with Store(eval_ws, read_only=True) as store:
        ev = eval_side(store)
    backends = {s.backend for s in ev.values()}
    with Store(verify_ws, read_only=True) as store:
        vf = verify_side(store, backends)
    result = Comparison(sorted(backends), sorted({s.backend for s in vf.values()}))
    for name in sorted(ev.keys() & vf.keys()):
        e, v = ev[name], vf[name]
        result.pairs[(e.status, v.status)] += 1
        if e.files != v.files:
            only_e = sorted(set(e.files) - set(v.files))
            only_v = sorted(set(v.files) - set(e.files))
            changed = sorted(p for p in set(e.files) & set(v.files) if e.files[p] != v.files[p])
            result.differing_answers.append({"task": name, "only_eval": only_e, "only_verify": only_v,
                                             "changed": changed})  # fmt: skip
        if e.status == v.status:
            result.agree.append(name)
        else:
            result.disagree.append({"task": name, "eval": e.status, "eval_reason": e.reason,
                                    "verify": v.status, "verify_reason": v.reason})  # fmt: skip
    result.only_eval = sorted(ev.keys() - vf.keys())
    result.only_verify = sorted(vf.keys() - ev.keys())
    result.eval_levels = _levels(ev)
    result.verify_levels = _levels(vf)
    return result


def _levels(side: dict[str, Side]) -> dict[str, collections.Counter]:
    levels: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for name, s in side.items():
        levels[name.split(".", 1)[0]][s.status] += 1
    return dict(sorted(levels.items()))


def _short(reason: str, width: int = 160) -> str:
    line = " ".join((reason or "-").split())
    return line if len(line) <= width else line[: width - 3] + "..."


def print_report(c: Comparison) -> None:
    print(f"eval backend(s):   {', '.join(c.eval_backends) or '-'}")
    print(f"verify backend(s): {', '.join(c.verify_backends) or '-'}")
    if set(c.eval_backends) != set(c.verify_backends):
        print("  WARNING: the two sides ran different emulator versions")
    matched = len(c.agree) + len(c.disagree)
    pct = 100 * len(c.agree) / matched if matched else 0.0
    print(f"\ntasks on both sides: {matched}; agree: {len(c.agree)} ({pct:.1f}%); disagree: {len(c.disagree)}")
    if c.only_eval:
        print(f"only in eval ({len(c.only_eval)}): {' '.join(c.only_eval)}")
    if c.only_verify:
        print(f"only in verify ({len(c.only_verify)}): {' '.join(c.only_verify)}")
    print("\n| eval status | verify status | tasks |\n|---|---|---|")
    for (e, v), n in sorted(c.pairs.items(), key=lambda kv: (kv[0][0] != kv[0][1], -kv[1], kv[0])):
        print(f"| {e} | {v} | {n} |")
    if c.disagree:
        print("\ndisagreements:")
        for d in c.disagree:
            print(f"  {d['task']}")
            print(f"    eval   {d['eval']}: {_short(d['eval_reason'])}")
            print(f"    verify {d['verify']}: {_short(d['verify_reason'])}")
    if c.differing_answers:
        print("\ntasks whose answer files differ between the two sides (different code was judged):")
        for d in c.differing_answers:
            print(f"  {d['task']}: only eval {d['only_eval']}, only verify {d['only_verify']}, changed {d['changed']}")
    for label, levels in (("eval", c.eval_levels), ("verify", c.verify_levels)):
        print(f"\n{label}: passed per level")
        for level, counts in levels.items():
            total = sum(counts.values())
            print(f"  {level}: {counts['passed']}/{total} passed  {dict(counts.most_common())}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("eval_ws", type=Path, help="workspace of `cotbuilder eval --teacher reference`")
    ap.add_argument("verify_ws", type=Path, help="workspace of the verify run on the same answers")
    ap.add_argument("--json", type=Path, help="also write the comparison as JSON here")
    args = ap.parse_args(argv)
    for ws in (args.eval_ws, args.verify_ws):
        if not (ws / "store.duckdb").is_file():
            print(f"error: {ws} has no store (store.duckdb)", file=sys.stderr)
            return 2
    c = compare(args.eval_ws, args.verify_ws)
    if not c.eval_backends:
        print(f"error: {args.eval_ws} holds no eval sample of the reference teacher", file=sys.stderr)
        return 2
    print_report(c)
    if args.json:
        args.json.write_text(json.dumps(c.as_dict(), indent=1) + "\n", encoding="utf-8")
    return 1 if c.disagree else 0


if __name__ == "__main__":
    raise SystemExit(main())
