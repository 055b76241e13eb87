"""Which library each op_host source is built into, from the op's CMakeLists.txt.

The real op build links op_host sources into separate shared libraries (`optiling`, `opsproto`, `op_host_aclnn`):
a non-inline function defined in a header that two of them include is one copy per library, no clash. cotbuilder
links the host side into one program, so the same code gives "multiple definition". Such a link is repeated with
the first copy kept only when every clash is between sources the CMakeLists puts in disjoint sets of targets;
within one library the clash is real and stays the code's error.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

_TARGET_SOURCES = re.compile(r"target_sources\s*\(\s*([\w$\{\}-]+)\s+(?:PRIVATE|PUBLIC|INTERFACE)\s+([^)]*)\)", re.S)
_CMAKE_COMMENT = re.compile(r"#[^\n]*")
_DUPLICATE = re.compile(r"multiple definition of [`'\u2018]([^'\u2019]+)['\u2019]; (\S+?\.o):")
_LD_OBJECT = re.compile(r"(?:^|\s)(?:\S*/)?ld(?:\.\w+)?: (\S+?\.o)[:(]")


def source_targets(unit: dict[str, Any], root: str) -> dict[str, frozenset[str]]:
    """Unit path of each source a CMakeLists.txt of the op names in `target_sources` -> the targets it goes to."""
    out: dict[str, set[str]] = {}
    prefix = root + "/" if root else ""
    for f in unit["files"]:
        path = f["path"]
        if not path.startswith(prefix) or posixpath.basename(path) != "CMakeLists.txt":
            continue
        here = posixpath.dirname(path)
        for m in _TARGET_SOURCES.finditer(_CMAKE_COMMENT.sub("", f["text"])):
            for src in m.group(2).split():
                src = src.replace("${CMAKE_CURRENT_SOURCE_DIR}/", "")
                if "$" in src:
                    continue
                out.setdefault(posixpath.normpath(posixpath.join(here, src)), set()).add(m.group(1))
    return {p: frozenset(t) for p, t in out.items()}


def clashes(log: str) -> list[tuple[str, str, str]]:
    """(symbol, object, object) of each "multiple definition" in a link log (None objects when unreadable)."""
    found = []
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if not (m := _DUPLICATE.search(line)):
            continue
        own = _LD_OBJECT.search(line) or (i > 0 and _LD_OBJECT.search(lines[i - 1]))
        found.append((m.group(1), own.group(1) if own else "", m.group(2)))
    return found


def only_across_libraries(log: str, object_sources: dict[str, str], targets: dict[str, frozenset[str]]) -> bool:
    """Whether the link failed only on symbols defined in two host objects whose sources the CMakeLists builds into
    disjoint sets of libraries (so the real build has one copy per library)."""
    found = clashes(log)
    if not found or "undefined reference" in log:
        return False
    for _, a, b in found:
        ta, tb = targets.get(object_sources.get(a, "")), targets.get(object_sources.get(b, ""))
        if not ta or not tb or ta & tb:
            return False
    return True
