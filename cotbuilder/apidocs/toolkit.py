"""The real AscendC include tree as facts: every public header path and the API names it declares.

Read from an asc-devkit checkout's `include/` (only names and paths are kept, no header text). The index goes into the
documented-API list as `header` rows: it tells verify which missing headers belong to the toolkit (`unsupported`,
not the kernel's fault) and tells the emulator which forwarding headers to generate (`forwarders.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .cpp_names import declared_names

# Namespaces whose names are the API (AscendC's listed bare, as the docs name them; the others qualified).
API_NAMESPACES = ("AscendC", "AscendC::Std", "platform_ascendc", "ge", "optiling")
# Header trees that are the toolkit's internals or another product, not an include path a kernel uses.
_SKIP = re.compile(r"/internal/|/stub/|^aicpu_api/|^include/")
# A deprecated header (`kernel_operator_tanh_intf.h`) includes its replacement and declares only a marker type so that
# including it warns: it is a wrapper, its own names are not API.
_DEPRECATED = re.compile(rb"\[\[deprecated\(__FILE__")
_INCLUDE_RE = re.compile(r'(?m)^[ \t]*#[ \t]*include[ \t]*"([^"]+)"')
# Headers of the CANN toolkit outside asc-devkit's include/: the older tikcfw layout (`lib/` = adv_api, `interface/`,
# `impl/`, bare `kernel_*` basic_api names), the host runtime (`acl/`, `aclnn*`, `runtime/`), op registration and
# tiling (`register/`, `tiling/`, `op_*`, `graph/`), collective communication (`hccl*`), the CPU debug launch
# (`tikicpulib.h`, `cpu_debug_launch.h`) and the securec library. A missing one is a toolkit part, not a broken kernel.
CANN_HEADER_PREFIXES = (
    "lib/",
    "interface/",
    "impl/",
    "kernel_",
    "acl/",
    "aclnn",
    "runtime/",
    "register/",
    "tiling/",
    "op_",
    "graph/",
    "hccl",
    "tikicpulib",
    "cpu_debug_launch.h",
    "securec.h",
)


def public_name(namespace: str, name: str) -> str:
    """`Add` for AscendC::Add, `Std::min`, `platform_ascendc::PlatformAscendC`: the spelling both lists use."""
    if namespace in ("AscendC", ""):
        return name
    return f"{namespace.removeprefix('AscendC::')}::{name}"


@dataclass(frozen=True)
class Header:
    path: str  # relative to include/, e.g. basic_api/kernel_operator_vec_binary_intf.h
    declares: tuple[str, ...]  # API names declared in it (namespace level)
    wraps: tuple[str, ...] = ()  # for a header that declares nothing: the include-tree headers it includes


def index_include_tree(include_root: Path) -> list[Header]:
    """Every public header under `include_root` with the API names it declares; a header that declares nothing (a
    wrapper such as `kernel_operator_tanh_intf.h`) lists the include-tree headers it pulls in."""
    out: list[Header] = []
    for path in sorted(include_root.rglob("*.h")):
        rel = path.relative_to(include_root).as_posix()
        if _SKIP.search(rel):
            continue
        data = path.read_bytes()
        names = set() if _DEPRECATED.search(data) else _api_names(data)
        wraps: list[str] = []
        if not names:
            for inc in _INCLUDE_RE.findall(data.decode("utf-8", "replace")):
                resolved = _resolve(rel, inc, include_root)
                if resolved and not _SKIP.search(resolved) and resolved not in wraps:
                    wraps.append(resolved)
        out.append(Header(rel, tuple(sorted(names)), tuple(wraps)))
    return out


def _api_names(data: bytes) -> set[str]:
    return {
        public_name(d.namespace, d.name)
        for d in declared_names(data)
        if d.namespace in API_NAMESPACES and not d.name.startswith("_")
    }


def header_prefixes(headers: list[Header]) -> list[str]:
    """Path prefixes that belong to the toolkit: the include tree's top folders, its bare `kernel_*` spelling
    (basic_api/ is on the real include path) and the CANN host-SDK layout the include tree does not carry."""
    tops = {h.path.split("/", 1)[0] + "/" for h in headers if "/" in h.path}
    return sorted(tops | set(CANN_HEADER_PREFIXES))


def _resolve(including: str, target: str, root: Path) -> str | None:
    """The include-tree path an `#include "target"` in `including` refers to: beside it, from the root, or from
    basic_api/ (the real toolkit puts that folder on the include path too)."""
    here = Path(including).parent
    for candidate in (here / target, Path(target), Path("basic_api") / target):
        norm = Path(*[p for p in candidate.as_posix().split("/") if p not in ("", ".")])
        parts: list[str] = []
        for p in norm.parts:
            if p == "..":
                if parts:
                    parts.pop()
            else:
                parts.append(p)
        rel = "/".join(parts)
        if (root / rel).is_file():
            return rel
    return None
