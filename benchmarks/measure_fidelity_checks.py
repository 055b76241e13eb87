"""Where each emulator fidelity check of issue 12 (sections 1-6) fires on real code: from the verifications stored in
measurement workspaces (measure_asc_devkit.py --workspace, measure_op_projects.py --workspace).

    python benchmarks/measure_fidelity_checks.py asc-devkit=WS1 ops-math=WS2 [--markdown] [--races]

Prints one table per workspace: check -> the units it fired on (count and names), and with --races every race / sync
diagnostic in full (unit, line, message), for checking each by hand. A check fires on a unit when its diagnostic is
stored with the unit's verification, or (legality, which acts at compile time) when the build failed on the
emulator's legality assertion, or (poison, which has no diagnostic of its own) when an output held NaN/Inf where the
golden is finite or the all-NaN-output rule judged a case. Clobbering and the documented numerics change values and
leave no diagnostic: they cannot be counted this way (the table says so).
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cotbuilder.store import Store  # noqa: E402

# issue 12 section -> (label, diagnostic kinds)
CHECKS = [
    ("1 legality (dtype / round mode / SoC)", {"illegal_cast"}),
    ("2 queue depth (EnQue / AllocTensor)", {"queue_depth", "alloc_exhausted", "deque_empty"}),
    ("2 buffer count (64 per TPipe)", {"too_many_buffers"}),
    ("2 scratch size (sharedTmpBuffer)", {"scratch_too_small"}),
    ("2 src clobbering", set()),
    ("3 race (pipe hazard, one core)", set()),
    ("3 sync (SetFlag/WaitFlag unpaired)", {"sync"}),
    ("4 SyncAll deadlock / mismatch", {"sync_deadlock", "syncall_mismatch"}),
    ("4 cross-core race (GM)", set()),
    ("4 schedule-dependent output (--schedules N)", {"schedule_dependent"}),
    ("5 poison read: NaN/Inf where golden finite", set()),
    ("5 unwritten output (poison where the golden expects 0)", set()),
    ("5 all-NaN/Inf output rule", set()),
    ("6 numerics / saturation", set()),
    ("7 tensor_leak (warning)", {"tensor_leak"}),
]
NO_DIAGNOSTIC = {
    "2 src clobbering": "no diagnostic: src is overwritten with the poison byte; shows only as a wrong answer",
    "6 numerics / saturation": "no diagnostic: values are computed in the documented order/precision",
}
_LEGALITY = "cotbuilder legality:"


def rows(ws: Path) -> list[dict]:
    with Store(ws) as store:
        return store.rows(
            "SELECT u.name, u.root, v.status, v.reason, v.cases, v.diagnostics, v.compile_log "
            "FROM verifications v JOIN units u USING (unit_id) ORDER BY u.name"
        )


def _is_race(d: dict, cross: bool) -> bool:
    return d["kind"] == "race" and (" on block " in d.get("message", "")) == cross


def fired(r: dict) -> dict[str, list[dict]]:
    """check label -> the diagnostics (or pseudo-diagnostics) that show it fired on this verification."""
    out: dict[str, list[dict]] = collections.defaultdict(list)
    diags = r.get("diagnostics") or []
    for label, kinds in CHECKS:
        out[label] += [d for d in diags if d["kind"] in kinds]
    out["3 race (pipe hazard, one core)"] += [d for d in diags if _is_race(d, False)]
    out["4 cross-core race (GM)"] += [d for d in diags if _is_race(d, True)]
    log = (r.get("compile_log") or "") + (r.get("reason") or "")
    if _LEGALITY in log:
        line = next(ln for ln in log.splitlines() if _LEGALITY in ln)
        out["1 legality (dtype / round mode / SoC)"].append({"kind": "legality", "message": line.strip()[:300]})
    for case in r.get("cases") or []:
        if any((o.get("nonfinite_bad") or 0) > 0 for o in case.get("outputs") or []):
            out["5 poison read: NaN/Inf where golden finite"].append({"kind": "nonfinite", "message": case.get("why")})
        if "were never written by the kernel" in (case.get("why") or ""):
            out["5 unwritten output (poison where the golden expects 0)"].append(
                {"kind": "unwritten", "message": case.get("why")}
            )
        if "NaN/Inf in every element" in (case.get("why") or ""):
            out["5 all-NaN/Inf output rule"].append({"kind": "all_nan", "message": case.get("why")})
    return {k: v for k, v in out.items() if v}


def unit_label(r: dict) -> str:
    """The unit's path in its repository (a measurement's temp-dir root is cut to the part below examples/)."""
    root = r.get("root") or ""
    if root.startswith("/"):
        return r["name"]
    return root or r["name"]


def table(label: str, data: list[dict], markdown: bool) -> None:
    hits: dict[str, list[str]] = collections.defaultdict(list)
    others: collections.Counter = collections.Counter()
    known = {k for _, kinds in CHECKS for k in kinds} | {"race"}
    for r in data:
        for check in fired(r):
            hits[check].append(unit_label(r))
        others.update({d["kind"] for d in r.get("diagnostics") or [] if d["kind"] not in known})
    print(f"\n{label}: {len(data)} verified units")
    if markdown:
        print("| check (issue 12 §) | units | which |\n|---|---|---|")
    for check, _ in CHECKS:
        names = sorted(set(hits.get(check, [])))
        which = NO_DIAGNOSTIC.get(check) if not names and check in NO_DIAGNOSTIC else ", ".join(names) or "-"
        if markdown:
            print(f"| {check} | {len(names)} | {which} |")
        else:
            print(f"  {check:45} {len(names):4}  {which}")
    print(f"  other diagnostics (units): {dict(others.most_common())}")


def races(label: str, data: list[dict]) -> None:
    print(f"\n{label}: every race / sync diagnostic")
    for r in data:
        for d in r.get("diagnostics") or []:
            if d["kind"] in ("race", "sync"):
                where = f"{Path(d.get('file') or '?').name}:{d.get('line')}"
                print(f"  {unit_label(r)} [{r['status']}] {d['kind']} at {where}: {d['message']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workspaces", nargs="+", help="LABEL=WORKSPACE")
    parser.add_argument("--markdown", action="store_true", help="markdown tables")
    parser.add_argument("--races", action="store_true", help="also list every race / sync diagnostic in full")
    args = parser.parse_args()
    for spec in args.workspaces:
        label, sep, path = spec.partition("=")
        if not sep or not (Path(path) / "store.duckdb").is_file():
            parser.error(f"{spec!r}: expected LABEL=WORKSPACE with a store.duckdb in it")
        data = rows(Path(path))
        table(label, data, args.markdown)
        if args.races:
            races(label, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
