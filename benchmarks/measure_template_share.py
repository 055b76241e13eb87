"""How templated are the rationales in a workspace: the share of rationale sentences shared by more than 10% of units.

A sentence (after collapsing whitespace) counts as "template" when it occurs word for word in the rationales of more
than --share (default 10%) of the annotated units. Prints, per language and kind of annotation:
- units, sentences, distinct sentences;
- the template share (goal < 5%) and, for comparison in the same run, the share of sentences found in 2+ and 10+ units
  (the figures issue 13 quoted for the old generator);
- the most shared sentences, so a reader sees what repeats.

    python benchmarks/measure_template_share.py WORKSPACE [--share 0.10] [--top 8] [--teacher static]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from cotbuilder.store import Store

# sentence ends: ". " / "! " / "? " followed by a capital, a backtick or a digit (so "e.g. x" and "1.5" stay whole);
# Chinese 。！？ end a sentence too. A semicolon (; or ；) joins clauses of one sentence in both languages; with
# --clauses the clauses are counted one by one instead (a stricter measure: a fixed clause inside a varied sentence
# counts as shared)
_SPLIT_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\d])|(?<=[。！？])")
_CLAUSE_RE = re.compile(r"(?<=[.!?;])\s+(?=[A-Za-z`(\d])|(?<=[。！？；])")


def sentences(text: str, clauses: bool = False) -> list[str]:
    rx = _CLAUSE_RE if clauses else _SPLIT_RE
    return [s for s in (" ".join(p.split()) for p in rx.split(text or "")) if s]


def measure(rows: list[dict], share: float, clauses: bool = False) -> dict:
    units_of: dict[str, set[str]] = defaultdict(set)
    total = 0
    for r in rows:
        steps = r["rationale"] if isinstance(r["rationale"], list) else json.loads(r["rationale"] or "[]")
        for step in steps:
            for s in sentences(step.get("text", ""), clauses):
                units_of[s].add(r["unit_id"])
                total += 1
    units = {r["unit_id"] for r in rows}
    n_units = len(units)
    counts = Counter()
    for r in rows:
        steps = r["rationale"] if isinstance(r["rationale"], list) else json.loads(r["rationale"] or "[]")
        for step in steps:
            for s in sentences(step.get("text", ""), clauses):
                counts[s] += 1
    limit = share * n_units

    def frac(pred) -> float:
        return sum(c for s, c in counts.items() if pred(len(units_of[s]))) / total if total else 0.0

    top = sorted(units_of, key=lambda s: -len(units_of[s]))
    return {
        "units": n_units,
        "sentences": total,
        "distinct": len(counts),
        "template_share": frac(lambda n: n > limit),
        "in_2plus": frac(lambda n: n >= 2),
        "in_10plus": frac(lambda n: n >= 10),
        "top": [(len(units_of[s]), s) for s in top],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workspace", type=Path)
    ap.add_argument("--share", type=float, default=0.10, help="a sentence in more than this share of units is template")
    ap.add_argument("--top", type=int, default=8, help="how many of the most shared sentences to print")
    ap.add_argument("--teacher", default="static", help="teacher provider to measure (default: static)")
    ap.add_argument("--clauses", action="store_true", help="count clauses (split also at ; and ；), not sentences")
    ap.add_argument(
        "--prompt-version",
        help="only annotations of this teacher prompt version (default: the newest one per language and kind, so a "
        "workspace re-annotated after a generator change is measured on the new text only)",
    )
    args = ap.parse_args(argv)
    if not (args.workspace / "store.duckdb").is_file():
        print(f"error: no cotbuilder store in {args.workspace}", file=sys.stderr)
        return 2
    store = Store(args.workspace, read_only=True)
    rows = store.rows(
        "SELECT unit_id, lang, kind, rationale, teacher, created_at FROM annotations WHERE status = 'ok' "
        "ORDER BY annotation_id"
    )
    by_version: dict[tuple[str, str], dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    newest: dict[tuple[str, str], tuple] = {}
    for r in rows:
        teacher = r["teacher"] if isinstance(r["teacher"], dict) else json.loads(r["teacher"] or "{}")
        if teacher.get("provider") == args.teacher:
            key, version = (r["lang"], r["kind"]), teacher.get("prompt_version") or ""
            by_version[key][version].append(r)
            newest[key] = max(newest.get(key, (r["created_at"], version)), (r["created_at"], version))
    groups: dict[tuple[str, str], list[dict]] = {}
    for key, versions in by_version.items():
        version = args.prompt_version or newest[key][1]
        if versions.get(version):
            groups[key] = versions[version]
            print(f"[{key[0]}/{key[1]}] prompt version {version} ({len(versions)} in the workspace)")
    if not groups:
        print(f"no '{args.teacher}' annotations in {args.workspace}")
        return 1
    for (lang, kind), group in sorted(groups.items()):
        m = measure(group, args.share, args.clauses)
        print(
            f"[{lang}/{kind}] {m['units']} units, {m['sentences']} rationale sentences ({m['distinct']} distinct): "
            f"template share (in > {args.share:.0%} of units) {m['template_share']:.1%} (goal < 5%); "
            f"in 2+ units {m['in_2plus']:.1%}, in 10+ units {m['in_10plus']:.1%}"
        )
        for n, s in m["top"][: args.top]:
            print(f"  {n:4d} units ({n / m['units']:.0%}): {s[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
