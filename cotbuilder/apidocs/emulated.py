"""What the emulator provides, read from its headers: the emulated API list (`emulator/emulated_apis.tsv`).

The headers are preprocessed with g++ (names made by macros, such as the vector ops of `CBEMU_BINARY(Add, ...)`,
exist only after expansion), parsed with tree-sitter, and every namespace-level name of the public namespaces is
kept with the emulator file that declares it. Macros are read from the raw headers. A test regenerates the list and
fails when it drifts from the committed file.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..paths import emulator_dir, emulator_include_dirs
from .cpp_names import declared_names, defined_macros

# What a kernel or its host code includes; together they reach every emulator header.
ENTRY_HEADERS = (
    "kernel_operator.h",
    "tikicpulib.h",
    "tiling/tiling_api.h",
    "tiling/platform/platform_ascendc.h",
    "register/tilingdata_base.h",
    "acl/acl.h",
)
# Namespaces whose names are API: AscendC's are listed bare (as the docs name them), the others qualified.
PUBLIC_NAMESPACES = ("AscendC", "AscendC::Std", "platform_ascendc", "ge", "optiling", "")
# Emulator-internal spellings: helpers, include guards, the emulator's own knobs.
_INTERNAL = re.compile(r"^(_|cbemu|CBEMU_|COTBUILDER_|Cotbuilder|detail_|ASCENDC_CPU_DEBUG$)|_H_?$")
_LINE_MARKER = re.compile(rb'^# (\d+) "([^"]*)"')
LIST_NAME = "emulated_apis.tsv"


@dataclass(frozen=True)
class Emulated:
    name: str  # `Add`; `Std::min`, `platform_ascendc::PlatformAscendC` outside AscendC; macros bare
    kind: str  # function, class, struct, enum, union, alias, variable, macro
    header: str  # the emulator file that declares it, relative to include/


def scan(include_dirs: tuple[Path, ...] | None = None) -> list[Emulated]:
    """Every public name the emulator headers declare, sorted by name (one row per name and kind)."""
    include_dirs = include_dirs or emulator_include_dirs()
    root = include_dirs[0].resolve()
    text = _preprocess(include_dirs)
    rows_file = _row_files(text)
    found: dict[tuple[str, str], str] = {}
    for decl in declared_names(text, mask=False):
        path = rows_file[decl.line] if decl.line < len(rows_file) else None
        if path is None or not _inside(path, root) or decl.namespace not in PUBLIC_NAMESPACES:
            continue
        name = decl.name if decl.namespace == "AscendC" or not decl.namespace else f"{decl.namespace}::{decl.name}"
        name = name.removeprefix("AscendC::")
        if _INTERNAL.search(decl.name):
            continue
        found.setdefault((name, decl.kind), Path(path).resolve().relative_to(root).as_posix())
    for header in sorted(root.rglob("*.h")):
        for macro in defined_macros(header.read_text(encoding="utf-8")):
            if not _INTERNAL.search(macro):
                found.setdefault((macro, "macro"), header.relative_to(root).as_posix())
    return [Emulated(name, kind, header) for (name, kind), header in sorted(found.items(), key=_order)]


def render(rows: list[Emulated]) -> str:
    lines = [
        "# AscendC API names the cotbuilder emulator provides: generated from its headers, do not edit.",
        "# Regenerate: python -m cotbuilder.apidocs emulated --write   (a test fails when this drifts from the headers)",
        "# name\tkind\theader (under emulator/include/)",
    ]
    lines += [f"{r.name}\t{r.kind}\t{r.header}" for r in rows]
    return "\n".join(lines) + "\n"


def list_path() -> Path:
    return emulator_dir() / LIST_NAME


def _preprocess(include_dirs: tuple[Path, ...]) -> bytes:
    source = "".join(f'#include "{h}"\n' for h in ENTRY_HEADERS)
    argv = ["g++", "-std=c++17", "-E", "-DASCENDC_CPU_DEBUG", "-x", "c++", "-"]
    argv += [flag for d in include_dirs for flag in ("-I", str(d))]
    proc = subprocess.run(argv, input=source.encode(), capture_output=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError("g++ -E of the emulator headers failed: " + proc.stderr.decode(errors="replace")[-2000:])
    return proc.stdout


def _row_files(text: bytes) -> list[str | None]:
    """The source file of every row of preprocessed text, from g++'s `# N "file"` line markers."""
    rows: list[str | None] = []
    current: str | None = None
    for line in text.split(b"\n"):
        marker = _LINE_MARKER.match(line)
        if marker:
            current = marker.group(2).decode()
        rows.append(current)
    return rows


def _inside(path: str, root: Path) -> bool:
    return not path.startswith("<") and Path(path).resolve().is_relative_to(root)


def _order(item: tuple[tuple[str, str], str]) -> tuple[str, str]:
    (name, kind), _ = item
    return (name.lower(), kind)
