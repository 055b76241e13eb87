"""python -m cotbuilder.apidocs: regenerate the API lists, the emulator's forwarding headers and its legality table.

  lists ASC_DEVKIT_DIR [--write]     documented API names + toolkit headers (cotbuilder/apidocs/data/ascendc_apis.tsv)
  emulated [--write]                 emulated names (emulator/emulated_apis.tsv) and forwarding headers (offline)
  identifiers ASC_DEVKIT_DIR [--write]  every identifier in the toolkit's sources (apidocs/data/toolkit_identifiers.txt.gz)
  intrinsics ASC_DEVKIT_DIR [--write]   the device compiler's intrinsics under the API (apidocs/data/device_intrinsics.txt)
  legality ASC_DEVKIT_DIR [--write]  legal dtypes / round modes per API and SoC (emulator/legality.json)
  legality-header [--write]          the emulator's C++ view of legality.json (include/impl/emu/legality_table.h)
  socs [--check ASC_DEVKIT] [--write]  the emulator's view of the SoC table (include/impl/emu/soc_table.h);
                                     --check compares the table's sizes with the toolkit's TOTAL_*_SIZE
  extract DOCS_DIR [--out FILE]      every API page as a JSON record, one per line
  measure DOCS_DIR                   how many API pages yield a signature, parameters and constraints

ASC_DEVKIT_DIR is a checkout (or an extracted snapshot) of asc-devkit: docs/zh/api and include/ are read.
Without --write a generator only reports what would change and exits 1 if anything would (0 when up to date).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cotbuilder.apidocs",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("lists", help="documented API names and toolkit headers from an asc-devkit checkout")
    p.add_argument("asc_devkit", type=Path)
    p.add_argument("--write", action="store_true")
    p = sub.add_parser("identifiers", help="every identifier the toolkit's include/ and impl/ sources spell")
    p.add_argument("asc_devkit", type=Path)
    p.add_argument("--write", action="store_true")
    p = sub.add_parser("intrinsics", help="the device compiler's intrinsics the toolkit's implementation calls")
    p.add_argument("asc_devkit", type=Path)
    p.add_argument("--write", action="store_true")
    p = sub.add_parser("emulated", help="emulated names and forwarding headers, from the emulator headers")
    p.add_argument("--write", action="store_true")
    p = sub.add_parser("legality", help="legal dtypes and round modes per API and SoC, from the docs")
    p.add_argument("asc_devkit", type=Path)
    p.add_argument("--write", action="store_true")
    p = sub.add_parser("legality-header", help="the legality table as an emulator header (offline)")
    p.add_argument("--write", action="store_true")
    p = sub.add_parser("socs", help="the SoC size table as an emulator header; check it against the toolkit")
    p.add_argument("--check", type=Path, metavar="ASC_DEVKIT", help="an asc-devkit checkout to compare sizes with")
    p.add_argument("--write", action="store_true")
    p = sub.add_parser("extract", help="every API page of a docs folder as JSON records")
    p.add_argument("docs", type=Path, help="the docs/zh/api folder (or a folder of pages in its style)")
    p.add_argument("--out", type=Path, help="write JSON lines here instead of stdout")
    p = sub.add_parser("measure", help="extraction coverage over a docs folder")
    p.add_argument("docs", type=Path)
    args = parser.parse_args(argv)
    if args.command in ("lists", "legality") and not (args.asc_devkit / "docs" / "zh" / "api").is_dir():
        parser.error(f"{args.asc_devkit} has no docs/zh/api folder (give an asc-devkit checkout)")
    if args.command in ("extract", "measure") and not args.docs.is_dir():
        parser.error(f"{args.docs} is not a folder")
    return _COMMANDS[args.command](args)


def _intrinsics(args: argparse.Namespace) -> int:
    from . import intrinsics

    names = intrinsics.scan(args.asc_devkit)
    return _update(intrinsics.intrinsics_path(), intrinsics.render(names), args.write, f"{len(names)} intrinsics")


def _lists(args: argparse.Namespace) -> int:
    from . import lists, names, renames, toolkit

    docs = args.asc_devkit / "docs" / "zh" / "api"
    apis = names.build(names.doc_pages(docs))
    headers = toolkit.index_include_tree(args.asc_devkit / "include")
    changelog = docs / renames.CHANGELOG_PAGE
    renamed = renames.parse_changelog(changelog.read_text(encoding="utf-8")) if changelog.is_file() else []
    text = lists.render_documented(
        apis,
        {h.path: h.declares for h in headers if h.declares},
        {h.path: h.wraps for h in headers if not h.declares and h.wraps},
        toolkit.header_prefixes(headers),
        tuple((r.old, r.new, r.source) for r in renamed),
    )
    return _update(lists.documented_path(), text, args.write, f"{len(apis)} API names, {len(headers)} headers")


def _identifiers(args: argparse.Namespace) -> int:
    from . import identifiers

    if not (args.asc_devkit / "impl").is_dir():
        print(f"{args.asc_devkit} has no impl/ folder (give an asc-devkit checkout)", file=sys.stderr)
        return 2
    names = identifiers.scan(args.asc_devkit)
    path = identifiers.identifiers_path()
    data = identifiers.render(names)
    if path.is_file() and path.read_bytes() == data:
        print(f"{path.name}: up to date ({len(names)} identifiers)")
        return 0
    if not args.write:
        print(f"{path.name}: out of date ({len(names)} identifiers); run with --write")
        return 1
    path.write_bytes(data)
    print(f"{path.name}: written ({len(names)} identifiers)")
    return 0


def _emulated(args: argparse.Namespace) -> int:
    from ..paths import emulator_dir
    from . import emulated, forwarders, lists, toolkit

    rows = emulated.scan()
    status = _update(lists.emulated_path(), emulated.render(rows), args.write, f"{len(rows)} emulated names")
    doc = lists.documented()
    headers = [toolkit.Header(p, names) for p, names in doc.headers.items()]
    headers += [toolkit.Header(p, (), wraps) for p, wraps in doc.wrappers.items()]
    include = emulator_dir() / "include"
    planned = forwarders.plan(headers, rows, include)
    current = forwarders.existing(include)
    stale = sorted(set(current) - set(planned))
    changed = sorted(p for p, text in planned.items() if current.get(p) != text)
    if args.write:
        written, removed = forwarders.write(planned, include)
        print(f"forwarding headers: {len(planned)} ({written} written, {removed} removed)")
        return status
    print(f"forwarding headers: {len(planned)} planned, {len(changed)} to write, {len(stale)} to remove")
    return 1 if (status or changed or stale) else 0


def _legality(args: argparse.Namespace) -> int:
    from . import legality

    table = legality.build(args.asc_devkit / "docs" / "zh" / "api")
    text = legality.render(table)
    return _update(legality.table_path(), text, args.write, legality.summary(table))


def _legality_header(args: argparse.Namespace) -> int:
    from . import legality

    rows = legality.load()
    return _update(legality.header_path(), legality.render_header(rows), args.write, f"{len(rows)} rows")


def _socs(args: argparse.Namespace) -> int:
    from . import socs

    table = socs.load()
    status = _update(socs.header_path(), socs.render_header(table), args.write, f"{len(table)} SoCs")
    if args.check:
        constants = args.check / socs.CONSTANTS_HEADER
        if not constants.is_file():
            print(f"{constants}: not found (give an asc-devkit checkout)", file=sys.stderr)
            return 2
        mismatches = socs.check(table, constants.read_text(encoding="utf-8", errors="replace"))
        for m in mismatches:
            print(f"MISMATCH {m}")
        print(f"sizes checked against {socs.CONSTANTS_HEADER}: {len(mismatches)} mismatch(es)")
        status = status or (1 if mismatches else 0)
    return status


def _extract(args: argparse.Namespace) -> int:
    from .extract import extract_tree

    out = args.out.open("w", encoding="utf-8") if args.out else sys.stdout
    try:
        for record in extract_tree(args.docs):
            out.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
    finally:
        if args.out:
            out.close()
    return 0


def _measure(args: argparse.Namespace) -> int:
    from .coverage import measure, report

    print(report(measure(args.docs)))
    return 0


def _update(path: Path, text: str, write: bool, what: str) -> int:
    current = path.read_text(encoding="utf-8") if path.is_file() else None
    if current == text:
        print(f"{path.name}: up to date ({what})")
        return 0
    if write:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"{path.name}: written ({what})")
        return 0
    print(f"{path.name}: out of date ({what}); run with --write")
    return 1


_COMMANDS = {
    "lists": _lists,
    "intrinsics": _intrinsics,
    "identifiers": _identifiers,
    "emulated": _emulated,
    "legality": _legality,
    "legality-header": _legality_header,
    "socs": _socs,
    "extract": _extract,
    "measure": _measure,
}

if __name__ == "__main__":
    raise SystemExit(main())
