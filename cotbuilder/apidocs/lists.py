"""The two committed API lists and their loaders (light: parse, annotate and verify import this at start-up).

- documented (`cotbuilder/apidocs/data/ascendc_apis.tsv`): every AscendC API name the asc-devkit docs document, with a
  category and its page, and the toolkit's headers (path, the names each declares) and header prefixes. It says what
  is a real API (annotate's gates, parse's features) and which compile errors are the emulator's gap rather than
  the kernel's fault (verify: `unsupported`, not `failed_compile`).
- emulated (`emulator/emulated_apis.tsv`): every name the emulator headers provide, with the file that declares it.
  It says what the CPU backend supports.

Both are generated (`python -m cotbuilder.apidocs lists|emulated`); tests fail when either drifts from its source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..paths import emulator_dir, package_data

DOCUMENTED = "apidocs/data/ascendc_apis.tsv"
EMULATED = "emulated_apis.tsv"  # under emulator/


@dataclass(frozen=True)
class Documented:
    apis: dict[str, str]  # name -> category
    pages: dict[str, str]  # name -> doc page (relative to docs/zh/api)
    headers: dict[str, tuple[str, ...]]  # toolkit header path -> API names it declares
    wrappers: dict[str, tuple[str, ...]]  # toolkit header that declares nothing -> the headers it includes
    prefixes: tuple[str, ...]  # path prefixes of toolkit headers
    renamed: dict[str, str] = field(default_factory=dict)  # older name -> current name (the docs' change-log page)


def documented_path() -> Path:
    return package_data(DOCUMENTED)


def emulated_path() -> Path:
    return emulator_dir() / EMULATED


@cache
def documented() -> Documented:
    return parse_documented(documented_path().read_text(encoding="utf-8"))


@cache
def emulated_apis() -> dict[str, tuple[str, str]]:
    """{name: (kind, emulator header)} of everything the emulator provides."""
    out: dict[str, tuple[str, str]] = {}
    for fields in _rows(emulated_path().read_text(encoding="utf-8")):
        name, kind, header = (fields + ["", ""])[:3]
        out.setdefault(name, (kind, header))
    return out


def documented_apis() -> dict[str, str]:
    """{AscendC API name: category} from the docs."""
    return documented().apis


@cache
def older_toolkit_names() -> dict[str, str]:
    """{older name: current name} of names the toolkit had under an earlier CANN (apidocs/renames.py): the docs'
    change-log page and data/older_names.tsv. A kernel that calls one is the emulator's gap when it lacks it."""
    from .renames import older_names_listed  # light: reads one small file

    out = dict(documented().renamed)
    for r in older_names_listed():
        out.setdefault(r.old, r.new)
    return out


@cache
def header_declared_names() -> frozenset[str]:
    """Every name the toolkit's public headers declare: documented pages plus older names kept for compatibility
    (GetReduceMaxMinCount, the older GetReduceRepeatMaxMinSpr, has no page of its own)."""
    return frozenset(name for names in documented().headers.values() for name in names)


def is_toolkit_header(path: str) -> bool:
    """A header of the AscendC / CANN toolkit (a missing one is the backend's gap, not the kernel's bug)."""
    doc = documented()
    return path in doc.headers or path in doc.wrappers or path.startswith(doc.prefixes)


def is_listed_toolkit_header(path: str) -> bool:
    """A header the toolkit ships (listed, or under one of its folders), not one only named like its headers
    (`kernel_*.h`, `op_*.h`: a project's own header can be named so too)."""
    doc = documented()
    folders = tuple(p for p in doc.prefixes if p.endswith("/"))  # lib/, impl/...: the toolkit's own folders
    return path in doc.headers or path in doc.wrappers or path.startswith(folders)


def parse_documented(text: str) -> Documented:
    apis: dict[str, str] = {}
    pages: dict[str, str] = {}
    headers: dict[str, tuple[str, ...]] = {}
    wrappers: dict[str, tuple[str, ...]] = {}
    prefixes: list[str] = []
    renamed: dict[str, str] = {}
    for fields in _rows(text):
        kind, name, detail, source = (fields + ["", "", ""])[:4]
        if kind == "api":
            apis[name] = detail or "other"
            pages[name] = source
        elif kind == "header":
            headers[name] = tuple(detail.split())
        elif kind == "wrapper":
            wrappers[name] = tuple(detail.split())
        elif kind == "prefix":
            prefixes.append(name)
        elif kind == "renamed":
            renamed[name] = detail
    return Documented(apis, pages, headers, wrappers, tuple(prefixes), renamed)


def render_documented(
    apis: dict[str, tuple[str, str]],
    headers: dict[str, tuple[str, ...]],
    wrappers: dict[str, tuple[str, ...]],
    prefixes: list[str],
    renamed: tuple[tuple[str, str, str], ...] = (),
) -> str:
    lines = [
        "# Documented AscendC API names (asc-devkit docs/zh/api page names; category from the page's folder) and the",
        "# toolkit's headers (asc-devkit include/: the names each declares, or what a wrapper includes) and path prefixes.",
        "# Generated by `python -m cotbuilder.apidocs lists ASC_DEVKIT_DIR --write`; do not edit.",
        "# `renamed` rows: an older name, its current name and the change-log page that says so.",
        "# kind\tname\tdetail (category | declared names | wrapped headers | current name)\tsource (doc page)",
    ]
    lines += [f"api\t{n}\t{c}\t{page}" for n, (c, page) in sorted(apis.items(), key=lambda kv: kv[0].lower())]
    lines += [f"header\t{p}\t{' '.join(names)}\t" for p, names in sorted(headers.items())]
    lines += [f"wrapper\t{p}\t{' '.join(inc)}\t" for p, inc in sorted(wrappers.items())]
    lines += [f"prefix\t{p}\t\t" for p in sorted(prefixes)]
    lines += [f"renamed\t{old}\t{new}\t{page}" for old, new, page in sorted(renamed)]
    return "\n".join(lines) + "\n"


def _rows(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")]
