"""An op project as the emulated build sees it: which files are host code, which are kernels, where headers live.

Host sources are `op_host/**/*.cpp` (and `.cc`) except the op_api layer an op may ship by hand (files that include
`opdev/...` or `aclnn_kernels/...`, or live in an `op_api/` folder: `HANDWRITTEN`; they are not part of the host
description, and are built only for a harness that calls them, on the emulated op-api framework: `opapi.py`)
and code for SoCs the emulator does not model (`arch35/` folders: the Ascend 950 register-based path). Kernels are
the `op_kernel/` sources that define a `__global__` entry.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import host_targets

HOST_SUFFIXES = (".cpp", ".cc", ".cxx")
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".inc")
UNMODELLED_DIRS = frozenset({"arch35"})
_OP_API_INCLUDE = re.compile(r'#\s*include\s*[<"](?:opdev/|aclnn_kernels/|aclnnop/|aclnn/opdev/)')
_MAIN = re.compile(r"\bint\s+main\s*\(")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_ENTRY = re.compile(
    r"(?:template\s*<(?P<tpl>[^{};]*?)>\s*)?"
    r"(?:extern\s*\"C\"\s*)?(?:__global__\s+__aicore__|__aicore__\s+__global__)\s+void\s+"
    r"(?P<name>\w+)\s*\((?P<params>[^)]*)\)\s*\{"
)
_TILING_DEF = re.compile(r"\bBEGIN_TILING_DATA_DEF\s*\(|\bREGISTER_TILING_DATA_CLASS\s*\(")
_HOST_CODE = re.compile(
    r"\b(?:IMPL_OP\w*|OP_ADD|REGISTER_TILING_TEMPLATE|REGISTER_OPS_TILING_TEMPLATE)\s*\(|gert::TilingContext"
)
_TEST_CODE = re.compile(r'#\s*include\s*[<"]gtest/|\bTEST(?:_F)?\s*\(')
DEPS = "_deps/"
HANDWRITTEN = "hand-written aclnn op_api layer"


def strip_comments(text: str) -> str:
    """Comments blanked to spaces (offsets and line numbers kept), so a commented-out kernel is not an entry."""
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


@dataclass
class Entry:
    name: str
    path: str
    n_params: int
    template_params: list[str] = field(default_factory=list)  # e.g. ["int D_T_X", "int D_T_Y"]

    @property
    def is_template(self) -> bool:
        return bool(self.template_params)


@dataclass
class OpLayout:
    root: str  # the op folder inside the unit ("" = the unit root)
    host_sources: list[str]
    kernel_sources: list[str]
    tiling_headers: list[str]
    include_dirs: list[str]
    entries: list[Entry]
    skipped_host: dict[str, str] = field(default_factory=dict)  # path -> why it is not compiled

    def entry_for(self, op_type: str) -> Entry | None:
        """The kernel entry of `op_type`: msOpGen names it in snake case (AddCustom -> add_custom); compared with
        underscores and case ignored, else the only entry there is."""
        want = op_type.replace("_", "").lower()
        for e in self.entries:
            if e.name.replace("_", "").lower() == want:
                return e
        return self.entries[0] if len(self.entries) == 1 else None


def _split_params(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def find_entries(path: str, text: str) -> list[Entry]:
    found = []
    for m in _ENTRY.finditer(strip_comments(text)):
        params = [p for p in _split_params(m.group("params")) if p and p != "void"]
        tpl = _split_params(m.group("tpl")) if m.group("tpl") else []
        found.append(Entry(m.group("name"), path, len(params), tpl))
    return found


def op_root_of(paths: list[str]) -> str | None:
    """The folder holding `op_kernel/` (and usually `op_host/`): the shallowest one."""
    roots = sorted(
        {"/".join(p.split("/")[: p.split("/").index("op_kernel")]) for p in paths if "op_kernel" in p.split("/")[:-1]},
        key=lambda r: (r.count("/") if r else -1, r),
    )
    return roots[0] if roots else None


_DEF_NAME = re.compile(r"\bBEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)")


def _shared_tiling_headers(files: dict[str, str]) -> list[str]:
    """Tiling headers elsewhere in the source (`_deps/`, e.g. a foreach family's one struct) that define a struct the
    kernel code names: the op build generates the kernel's copy of every registered struct, so the kernel sees it."""
    kernel = "\n".join(
        strip_comments(t) for p, t in files.items() if "op_kernel" in p.split("/")[:-1] or "__aicore__" in t
    )
    out = []
    for path, text in sorted(files.items()):
        if not (path.startswith(DEPS) and path.endswith(HEADER_SUFFIXES)):
            continue
        names = _DEF_NAME.findall(strip_comments(text))
        if any(re.search(rf"\b{re.escape(n)}\b", kernel) for n in names):
            out.append(path)
    return out


def layout(unit: dict[str, Any]) -> OpLayout | None:
    files = {f["path"]: f["text"] for f in unit["files"]}
    root = op_root_of(list(files))
    if root is None:
        return None
    prefix = root + "/" if root else ""
    host, kernels, tiling, skipped = [], [], [], {}
    entries: list[Entry] = []
    for path, text in sorted(files.items()):
        if not path.startswith(prefix):
            continue
        rel_parts = path[len(prefix) :].split("/")
        top = rel_parts[0]
        if top == "op_host" and len(rel_parts) > 1:
            if UNMODELLED_DIRS & set(rel_parts[1:-1]):
                skipped[path] = "code for an unmodelled SoC (arch35)"
                continue
            if path.endswith(HEADER_SUFFIXES) and _TILING_DEF.search(text):
                tiling.append(path)
            if path.endswith(HOST_SUFFIXES):
                if _OP_API_INCLUDE.search(text) or "op_api" in rel_parts[1:-1]:
                    skipped[path] = (
                        f"{HANDWRITTEN} (built only for a harness that calls it, on the emulated op-api framework)"
                    )
                elif _MAIN.search(strip_comments(text)):
                    skipped[path] = "defines main"
                else:
                    host.append(path)
        elif top == "op_kernel" and len(rel_parts) > 1 and path.endswith(HOST_SUFFIXES):
            if UNMODELLED_DIRS & set(rel_parts[1:-1]):
                continue
            found = find_entries(path, text)
            if found:
                kernels.append(path)
                entries.extend(found)
    for path, text in sorted(files.items()):
        # shared host code elsewhere in the source (a tiling library registering this op) is built with the op
        if path.startswith(DEPS) and path.endswith(HOST_SUFFIXES) and _HOST_CODE.search(text):
            if not (
                _OP_API_INCLUDE.search(text)
                or _TEST_CODE.search(text)
                or "__global__" in text
                or _MAIN.search(strip_comments(text))
            ):
                host.append(path)
    for path, why in _unbuilt_twins(unit, root, host).items():
        host.remove(path)
        skipped[path] = why
    tiling += _shared_tiling_headers(files)
    dirs = {posixpath.dirname(p) for p in files if p.endswith(HEADER_SUFFIXES)}
    ordered = [
        d for d in (root, posixpath.join(root, "op_host"), posixpath.join(root, "op_kernel")) if d in dirs or d == root
    ]
    ordered += sorted(d for d in dirs if d not in ordered)
    return OpLayout(root, host, kernels, tiling, [d or "." for d in ordered], entries, skipped)


def _unbuilt_twins(unit: dict[str, Any], root: str, host: list[str]) -> dict[str, str]:
    """Host sources the op's CMakeLists.txt does not build while it builds one of the same name with another suffix
    (cann-ops multi_scale_deformable_attn_function builds op_host/X.cpp; the X.cc beside it is never compiled)."""
    built = host_targets.source_targets(unit, root)
    out = {}
    for path in host:
        stem = posixpath.splitext(path)[0]
        twin = next((b for b in sorted(built) if b != path and posixpath.splitext(b)[0] == stem), None)
        if twin is not None and path not in built:
            out[path] = f"not built by the op's CMakeLists.txt (it builds {posixpath.basename(twin)})"
    return out


_UNDEFINED = re.compile(r"undefined reference to [`'\u2018]([^'`\u2019]+)['\u2019]")


def _undefined_names(link_log: str) -> list[tuple[str, str]]:
    """(symbol, its unqualified function name) for each symbol the link could not find."""
    out = []
    for symbol in _UNDEFINED.findall(link_log):
        name = re.split(r"[(<]", symbol, maxsplit=1)[0].split("::")[-1].strip()
        if name.isidentifier():
            out.append((symbol, name))
    return out


def shared_declarer(link_log: str, paths: list[str], text_of: Callable[[str], str]) -> str:
    """Why a host link lacks a symbol that a header of shared code declares (a file under _deps/: another folder of
    the source, e.g. ops-math's random_common/op_host/random_infershape_base.h): its definition lives with that
    shared code's own sources, which the unit does not hold - not the op's error; "" otherwise (a helper the op
    declares itself and never defines stays its link error)."""
    for symbol, name in _undefined_names(link_log):
        declaration = re.compile(rf"\b{re.escape(name)}\s*\(")
        for path in sorted(p for p in paths if p.startswith(DEPS) and p.endswith(HEADER_SUFFIXES)):
            if declaration.search(strip_comments(text_of(path))):
                return (
                    f"{symbol.split('(')[0]} is declared in shared code ({path}) whose sources the unit does not hold"
                )
    return ""


def unbuilt_definer(link_log: str, skipped: dict[str, str], text_of: Callable[[str], str]) -> str:
    """Why a host link lacks a symbol when a source it skipped (`OpLayout.skipped_host`) defines it: "X is defined
    in P, which is not built (why)" - a piece cotbuilder does not build, not the op's error; "" otherwise."""
    for symbol, name in _undefined_names(link_log):
        definition = re.compile(rf"\b{re.escape(name)}\s*\([^;{{}}]*\)\s*(?:const\s*)?(?:noexcept\s*)?\{{")
        for path, why in sorted(skipped.items()):
            if definition.search(strip_comments(text_of(path))):
                return f"{symbol.split('(')[0]} is defined in {path}, which is not built ({why})"
    return ""
