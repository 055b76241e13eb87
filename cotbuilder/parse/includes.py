"""Resolve a unit's `#include`s against its source tree, the way a build with the project's include folders would.

A quoted or angled include is looked for, in order: next to the including file; under the unit's own folders
(root, op_host/, op_kernel/); anywhere in the source tree, where the file whose path ends with the included path and
shares the longest folder prefix with the includer wins (a repo's `src/common/inc/foreach/x.h` for
`#include "foreach/x.h"`). Headers the emulator provides (the AscendC toolkit's own: `kernel_operator.h`,
`register/op_def_registry.h` ...) and system headers are never taken from the tree: a library checkout such as
asc-devkit has real toolkit headers that must not replace the emulator's.

The same resolver serves the crawl (which files a unit holds) and the verify harness (which -I folders make them
resolve), so both agree on what "the file this code includes" means.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache

from ..paths import emulator_dir

# `^[ \t]*#[ \t]*include ...` (multiline), found from its '#' (a literal re jumps to): only blanks before it on its
# line is checked after (a match is one line, so that check drops no match the anchored pattern would find)
_INCLUDE = re.compile(r'#[ \t]*include[ \t]*([<"])([^">\n]+)[">]')
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".inc", ".cuh")
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c")
MAX_DEPENDENCIES = 400  # files one unit may pull in from the rest of its source (a runaway closure stops here)


def includes_of(text: str) -> list[tuple[str, bool]]:
    """(included path, angled) in file order, comments ignored."""
    clean = _COMMENT.sub(" ", text)
    return [
        (m.group(2).strip(), m.group(1) == "<")
        for m in _INCLUDE.finditer(clean)
        if not clean[clean.rfind("\n", 0, m.start()) + 1 : m.start()].strip(" \t")
    ]


@cache
def _emulator_headers() -> frozenset[str]:
    """Every header path (relative to an -I root) the emulator answers: its include/ tree, both roots."""
    inc = emulator_dir() / "include"
    out: set[str] = set()
    if inc.is_dir():
        for p in inc.rglob("*"):
            if p.is_file():
                rel = p.relative_to(inc).as_posix()
                out.add(rel)
                if rel.startswith("basic_api/"):
                    out.add(rel[len("basic_api/") :])
    return frozenset(out)


# Path prefixes only the toolkit uses (the docs' header index has more, e.g. `kernel_`, `op_`, `utils/`, which
# projects use for their own files too).
_TOOLKIT_ONLY_PREFIXES = (
    "impl/",
    "c_api/",
    "tensor_api/",
    "simt_api/",
    "adv_api/",
    "basic_api/",
    "lib/",
    "interface/",
    "runtime/",
    "hccl",
    "acl/",
    "aclnn/",
    "graph/",
    "register/",
    "tiling/",
    "exe_graph/",
    "platform/",
)


@lru_cache(maxsize=1 << 14)
def provided_by_toolkit(name: str) -> bool:
    """A header of the AscendC/CANN toolkit: the emulator's, or one of the real toolkit's (asc-devkit include/ index),
    including those the emulator does not model - a checkout of the toolkit itself must not stand in for them."""
    from ..apidocs.lists import documented

    norm = posixpath.normpath(name)
    doc = documented()
    return (
        norm in _emulator_headers()
        or norm.startswith(_TOOLKIT_ONLY_PREFIXES)
        or any(n in doc.headers or n in doc.wrappers for n in (norm, "basic_api/" + norm))
    )


@dataclass
class Tree:
    """The source tree as an index: every path, and paths by file name (for the suffix search). It remembers what it
    resolved and what each file includes: one source's units share most of their headers, and each unit's closure
    walks them again."""

    paths: set[str]
    by_name: dict[str, list[str]] = field(default_factory=dict)
    # per (includer's folder, name as written): the name normalised (None: absolute, never resolved) and the hit
    # next to the includer; then the answer when neither that nor the unit's folders have it. Neither depends on the
    # unit, so every unit including from one folder shares them.
    _near: dict[tuple[str, str], tuple[str | None, str | None]] = field(default_factory=dict, repr=False)
    _far: dict[tuple[str, str], str | None] = field(default_factory=dict, repr=False)
    _joined: dict[tuple[str, str], str | None] = field(default_factory=dict, repr=False)
    _includes: dict[str, list[tuple[str, bool]]] = field(default_factory=dict, repr=False)
    # the whole answer per (includer's folder, name, unit folders): a unit's files include the same names
    _resolved: dict[tuple[str, str, tuple[str, ...]], str | None] = field(default_factory=dict, repr=False)

    def includes(self, path: str, text: str) -> list[tuple[str, bool]]:
        """`includes_of(text)` of the file at `path` (a Tree's paths hold one text each)."""
        found = self._includes.get(path)
        if found is None:
            found = self._includes[path] = includes_of(text)
        return found

    @classmethod
    def of(cls, paths: Iterable[str]) -> Tree:
        tree = cls(set(paths))
        for p in sorted(tree.paths):
            tree.by_name.setdefault(posixpath.basename(p), []).append(p)
        return tree

    def resolve(self, includer: str, name: str, unit_dirs: tuple[str, ...] = ()) -> str | None:
        folder = _dirname(includer)
        key = (folder, name, unit_dirs)
        if key in self._resolved:
            return self._resolved[key]
        hit = self._resolved[key] = self._resolve(includer, folder, name, unit_dirs)
        return hit

    def _resolve(self, includer: str, folder: str, name: str, unit_dirs: tuple[str, ...]) -> str | None:
        near = self._near.get((folder, name))
        if near is None:
            norm = name.replace("\\", "/")
            near = self._near[(folder, name)] = (
                (None, None) if posixpath.isabs(norm) else (norm, self._under(folder, norm))
            )
        norm, hit = near
        if norm is None or hit is not None:
            return hit
        for base in unit_dirs:  # what the build finds first: next to the includer (above), the unit's folders
            hit = self._under(base, norm)
            if hit is not None:
                return hit
        key = (folder, norm)
        if key not in self._far:
            # _by_suffix reads only the includer's folder
            self._far[key] = None if provided_by_toolkit(norm) else self._by_suffix(includer, norm)
        return self._far[key]

    def _under(self, base: str, name: str) -> str | None:
        """base/name when the tree has it (the lookup the build's -I folders make)."""
        key = (base, name)
        if key not in self._joined:
            if base and _plain(base) and _plain(name):
                cand = base + "/" + name  # what normpath(join(...)) gives for two plain relative paths
            else:
                cand = posixpath.normpath(posixpath.join(base, name)) if base else posixpath.normpath(name)
            self._joined[key] = cand if not cand.startswith("..") and cand in self.paths else None
        return self._joined[key]

    def _by_suffix(self, includer: str, name: str) -> str | None:
        """The file anywhere in the tree whose path ends with `name` and shares the longest folder prefix."""
        tail = posixpath.normpath(name).lstrip("./")
        if tail.startswith("../"):
            return None
        hits = [p for p in self.by_name.get(posixpath.basename(tail), ()) if p == tail or p.endswith("/" + tail)]
        if not hits:
            return None
        return min(hits, key=lambda p: (-_common_prefix(p, includer), len(p), p))


@lru_cache(maxsize=1 << 16)
def _plain(path: str) -> bool:
    """A relative path normpath leaves as it is and that climbs nothing (no `.`, `..`, empty part, leading `/`)."""
    return path == posixpath.normpath(path) and path not in (".", "..") and not path.startswith(("/", "../"))


@lru_cache(maxsize=1 << 16)
def _dirname(path: str) -> str:
    return posixpath.dirname(path)


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        n += 1
    return n


@dataclass
class Closure:
    files: list[str]  # resolved files outside the unit, in discovery order
    unresolved: list[tuple[str, str]]  # (includer, include) found nowhere (toolkit or system headers excluded)


def closure(
    tree: Tree,
    texts: dict[str, str],
    start: Iterable[str],
    inside: Callable[[str], bool],
    unit_dirs: tuple[str, ...] = (),
    companions: bool = True,
) -> Closure:
    """Follow includes from `start` through the tree. Files for which `inside(path)` is true are the unit's own
    (followed, not returned); the others are dependencies. A dependency header's same-stem source next to it
    (`x.h` -> `x.cpp`) comes too when `companions`: the build links it."""
    seen: set[str] = set()
    order: list[str] = []
    unresolved: list[tuple[str, str]] = []
    stack = list(start)
    while stack and len(order) < MAX_DEPENDENCIES:
        path = stack.pop(0)
        if path in seen:
            continue
        seen.add(path)
        if not inside(path):
            order.append(path)
        text = texts.get(path)
        if text is None:
            continue
        for name, _angled in tree.includes(path, text):
            hit = tree.resolve(path, name, unit_dirs)
            if hit is None:
                if not provided_by_toolkit(name) and not _looks_system(name):
                    unresolved.append((path, name))
                continue
            if hit not in seen:
                stack.append(hit)
            if companions and not inside(hit) and hit.endswith(HEADER_SUFFIXES):
                stem = posixpath.splitext(hit)[0]
                for suffix in SOURCE_SUFFIXES:
                    if stem + suffix in tree.paths and stem + suffix not in seen:
                        stack.append(stem + suffix)
    return Closure(order, unresolved)


_SYSTEM = re.compile(r"^(?:sys|linux|bits|asm|gtest|gmock|pybind11|torch|ATen|c10|nlohmann|securec|Python)\b|^[a-z_]+$")


@lru_cache(maxsize=1 << 14)
def _looks_system(name: str) -> bool:
    """C/C++ standard and platform headers (`vector`, `cstdint`, `stdio.h`, `sys/stat.h`) and third-party packages."""
    base = name.split("/")[0]
    return bool(_SYSTEM.match(name)) or (name.endswith(".h") and "/" not in name and base in _LIBC)


_LIBC = frozenset(
    "stdio.h stdlib.h string.h stdint.h math.h assert.h unistd.h fcntl.h errno.h limits.h float.h time.h ctype.h "
    "stdarg.h stddef.h signal.h dirent.h dlfcn.h pthread.h stdbool.h inttypes.h malloc.h securec.h".split()
)
