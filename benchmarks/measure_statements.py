"""How many units get an exact task statement that passes the solvability gate (issue 13, item 1).

For each unit of a workspace (by default those whose verification passed) it derives the statement's structured form
(cotbuilder/annotate/statement.py: the generator's golden expression evaluated in the sandbox on the generator's own
inputs, or a verify spec), writes the prose from it, checks the prose against the form, and counts the units without
a statement by reason. `--examples FILE` writes rows (statement + first lines of the static rationale) for units of
different categories.

    python benchmarks/measure_statements.py WORKSPACE [--all] [--examples out.md] [--limit N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from cotbuilder.annotate.facts import unit_facts
from cotbuilder.annotate.statement import derive
from cotbuilder.annotate.statement_prose import prose, prose_matches
from cotbuilder.annotate.static_teacher import write_annotation
from cotbuilder.parse.category import categorize
from cotbuilder.store import Store
from cotbuilder.verify import sandbox, steps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workspaces", type=Path, nargs="+")
    ap.add_argument("--all", action="store_true", help="every unit, not only those whose verification passed")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--examples", type=Path, help="write example rows (statement + 15 rationale lines) here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each unit's outcome")
    args = ap.parse_args(argv)
    units = []
    for ws in args.workspaces:
        store = Store(ws, read_only=True)
        where = "" if args.all else "WHERE unit_id IN (SELECT unit_id FROM verifications WHERE status = 'passed')"
        found = store.rows(f"SELECT * FROM units {where} ORDER BY name")
        verdicts = {v["unit_id"]: v for v in store.rows("SELECT * FROM verifications ORDER BY status = 'passed'")}
        units += [{**u, "_verification": verdicts.get(u["unit_id"])} for u in found]
        store.close()
    if args.limit:
        units = units[: args.limit]
    reasons, passed, rows = Counter(), 0, []
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cotbuilder-statements-") as tmp:
        ctx = steps.Context(cache_dir=Path(tmp) / "cache", python=sys.executable)
        for i, unit in enumerate(units):
            workdir = Path(tmp) / f"u{i}"
            workdir.mkdir()
            verification = unit.pop("_verification")
            try:
                got = derive(unit, workdir, ctx, verification=verification)
            except OSError as exc:  # e.g. a full disk: counted, the rest of the batch goes on
                got = {"reason": f"cotbuilder: the gate could not run ({exc.strerror or exc})"}
            finally:
                sandbox.remove_tree(workdir)  # one unit's dirs at a time on disk
            if "statement" not in got:
                reasons[got["reason"]] += 1
                if args.verbose:
                    print(f"  no statement  {unit['name']}: {got['reason']}")
                continue
            facts = unit_facts(unit)
            soc = facts.get("soc") or (verification or {}).get("soc") or ctx.soc  # the SoC it was verified for
            text = prose(got["statement"], facts.get("entry_name") or unit["name"], soc)
            wrong = prose_matches(text, got["statement"])
            if wrong:
                reasons[f"prose gate: {wrong[0]}"] += 1
                continue
            passed += 1
            rows.append((unit, verification, got["statement"], text))
            if args.verbose:
                form = got["statement"]
                shown = " | ".join(form["reference"].splitlines())[:110]
                print(f"  statement     {unit['name']}: [{form['reference_kind']}] {shown}")
    seconds = time.monotonic() - start
    n = len(units)
    print(f"{n} units ({'all' if args.all else 'verification passed'}) from {', '.join(map(str, args.workspaces))}")
    print(f"statements passing the solvability gate: {passed}/{n} = {passed / max(n, 1):.0%} ({seconds:.0f} s)")
    for reason, count in reasons.most_common():
        print(f"  {count:>4}  {reason}")
    if args.examples:
        write_examples(args.examples, rows)
    return 0


def write_examples(path: Path, rows: list, count: int = 5) -> None:
    """`count` rows of different categories ("other" last): per category the unit whose rationale walks the most
    decisions (then the first by name), so the rows show what the generator writes when a kernel has content."""
    best: dict[str, tuple] = {}
    for unit, verification, form, text in rows:
        # the facts the annotate stage gives the teacher: the verdict and the derived statement with the unit's own
        facts = unit_facts(unit, verification, statement={"form": form})
        # the category by the rules of this code (a store crawled earlier holds the crawl's, maybe older)
        names = [unit["name"], (unit.get("root") or "").rsplit("/", 1)[-1]] + [
            e["name"] for e in unit.get("entry") or []
        ]
        cat = facts["category"] = categorize(names, (unit.get("features") or {}).get("apis") or {})
        ann = write_annotation(facts, "en")
        if cat not in best or len(ann["rationale"]) > len(best[cat][3]["rationale"]):
            best[cat] = (unit, facts, text, ann)
    picked = sorted(best.values(), key=lambda r: (r[1]["category"] == "other", -len(r[3]["rationale"])))[:count]
    lines = ["# Task statements that pass the solvability gate (issue 13, item 1)", ""]
    for unit, facts, text, ann in picked:
        reasoning = [f"{s['title']}: {s['text']}" for s in ann["rationale"]]
        lines += [f"## {unit['name']} ({facts.get('category')})", "", "**Statement**", "", text, "", "**Reasoning**"]
        lines += ["", "```text", *"\n".join(reasoning).splitlines()[:15], "```", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
