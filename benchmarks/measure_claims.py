"""False-claim rate of the static teacher on hand-labelled real kernels (issue 13, build item 0).

The labels (tests/data/claims_labels_*.toml) say, per kernel (repo, commit, path), what its code really does: category,
GM data types, tail branch, loop in Process, per-core slice, core index read. This script annotates the same units of a
workspace that crawled and verified that repo (matched by path) with the static teacher of the code it is run from,
finds each structural claim in the rationale, and counts the claims that contradict the labels, per claim class.
Also: category agreement with the labels (by the category rules of this code, re-applied to the stored unit), and data-type agreement (stated types = labelled types; a stated type not in
the labels is a false claim).

    python benchmarks/measure_claims.py tests/data/claims_labels_asc_devkit.toml --workspace WS
    PYTHONPATH=/path/to/old/checkout python benchmarks/measure_claims.py ... (the generator before a change)
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections import Counter
from pathlib import Path

from cotbuilder.annotate.facts import unit_facts
from cotbuilder.annotate.static_teacher import write_annotation
from cotbuilder.parse.category import categorize
from cotbuilder.store import Store

# claim class -> (pattern in the English rationale, label key, whether the sentence says the construct is there);
# the old generator's wording and the new one's both match
CLAIMS = {
    "tail_present": (r"handles (?:a|the) tail", "tail", True),
    "tail_absent": (r"no tail branch", "tail", False),
    "process_loops": (r"Process\(\) loops", "process_loop", True),
    "process_once": (r"Process\(\) calls the three stages once", "process_loop", False),
    "core_slice": (r"each core handles its own[^.]{0,20}slice", "core_slice", True),
    "no_core_slice": (r"does not give each core its own slice", "core_slice", False),
    "no_block_idx": (r"does not read its core index", "reads_block_idx", False),
    "block_idx": (r"reads its core index", "reads_block_idx", True),
}
# the data-type sentence: "it works on float16 and float32 data" (new wording) or "The data type(s) it handles is/are
# ..." (old); a list of type words only, so "`Adds` at line 40 works on 512 elements in count mode" is not one
_TYPES = r"([\w`]+(?:(?:,\s*|\s+and\s+)[\w`]+)*)"
_DTYPE_RE = re.compile(rf"works on {_TYPES} data\b|data types? it handles (?:is|are) {_TYPES}")
_NORM = {"half": "float16", "float": "float32", "uint8_t": "uint8", "int8_t": "int8", "int32_t": "int32"}


def stated_dtypes(text: str) -> set[str]:
    out: set[str] = set()
    for m in _DTYPE_RE.finditer(text):
        for d in re.split(r",\s*|\s+and\s+", m.group(1) or m.group(2)):
            d = d.strip().strip("`")
            if d:
                out.add(_NORM.get(d, d))
    return out


def unit_category(unit: dict) -> str:
    """The category by the rules of the code this script runs from (the store holds the crawl's, maybe older)."""
    names = [unit["name"], (unit.get("root") or "").rsplit("/", 1)[-1]] + [e["name"] for e in unit.get("entry") or []]
    return categorize(names, (unit.get("features") or {}).get("apis") or {})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("labels", type=Path)
    ap.add_argument("--workspace", type=Path, required=True, help="a workspace that crawled the labelled repo")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every false claim")
    args = ap.parse_args(argv)
    labels = tomllib.loads(args.labels.read_text(encoding="utf-8"))["unit"]
    store = Store(args.workspace, read_only=True)
    units = store.rows("SELECT * FROM units")
    by_kernel = {}
    for u in units:
        for f in u["files"]:
            if f.get("role") == "kernel":
                by_kernel.setdefault(f["path"], []).append(u)
    made, false, cat_ok, dt_ok, dt_false, n = Counter(), Counter(), 0, 0, 0, 0
    for lab in labels:
        path = lab["path"].removeprefix("examples/")
        name, _, kernel = path.rpartition("/")
        # a unit's name is its folder (an older crawl) or its last part, with `root` the folder (a current one)
        cands = [u for u in by_kernel.get(kernel, []) if name in (u["name"], u.get("root"))]
        if not cands:
            print(f"not in the workspace: {lab['path']}", file=sys.stderr)
            continue
        n += 1
        unit = cands[0]
        facts = unit_facts(unit)
        ann = write_annotation(facts, "en")
        text = ann["task"] + "\n" + "\n".join(s["text"] for s in ann["rationale"])
        for cls, (rx, key, holds) in CLAIMS.items():
            if re.search(rx, text, re.I):
                made[cls] += 1
                if bool(lab[key]) != holds:
                    false[cls] += 1
                    if args.verbose:
                        print(f"  false {cls}: {lab['path']}")
        cat_ok += unit_category(unit) == lab["category"]
        if "dtypes" in lab:
            said = stated_dtypes(text)
            dt_ok += said == set(lab["dtypes"])
            if said - set(lab["dtypes"]):
                dt_false += 1
                if args.verbose:
                    print(f"  false dtypes {sorted(said - set(lab['dtypes']))}: {lab['path']}")
    with_dt = sum("dtypes" in lab for lab in labels)
    print(f"{n} labelled units annotated ({args.labels.name})")
    print(f"{'claim class':<16} {'made':>5} {'false':>6} {'rate':>6}")
    for cls in CLAIMS:
        rate = false[cls] / made[cls] if made[cls] else 0.0
        print(f"{cls:<16} {made[cls]:>5} {false[cls]:>6} {rate:>6.1%}")
    total = sum(made.values())
    print(f"{'all':<16} {total:>5} {sum(false.values()):>6} {sum(false.values()) / max(total, 1):>6.1%}")
    print(f"category agreement: {cat_ok}/{n} = {cat_ok / max(n, 1):.0%} (goal >= 90%)")
    print(
        f"dtypes: stated = labelled for {dt_ok}/{with_dt} = {dt_ok / max(with_dt, 1):.0%}; "
        f"units with a false data type: {dt_false}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
