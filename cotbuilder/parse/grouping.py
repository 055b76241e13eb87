"""Which files make one kernel: folders become `op_project` or `kernel_launch` units, each file gets a role.

Rules (the README's "units" section repeats them):
- op_project: a folder with an `op_kernel/` subfolder holding C/C++ sources. Its unit takes `op_kernel/**`
  (role kernel), `op_host/**` (tiling / tiling_func / op_def / op_json / build by content), and the folder's own
  `*.json` (op_json), `verify_spec.toml` (spec), CMakeLists.txt / *.sh (build). Its tests/, examples/, docs/,
  op_api/, op_graph/ ... are not part of the kernel. An op folder nested in another one (tests/ut/op_kernel) is
  part of the outer one's auxiliary files. Those auxiliary files are then grouped like files outside any op
  project: a test or example that defines its own `__global__` entry (a thin wrapper instantiating the op's kernel
  templates) is real kernel code and becomes a `kernel_launch` unit with the harness files next to it.
- kernel_launch: any other C/C++ file that defines a `__global__` entry function. A file that also defines
  `main` (a single-file `.asc` sample) is a unit of its own; the other kernel files of a folder form one unit with
  the folder's host main. Harness files (data_utils.h, scripts/gen_data.py, scripts/verify_result.py, CMakeLists.txt,
  run.sh, headers) in the folder or up to two levels below join every unit of that folder.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from .facts import FileFacts, file_facts

CPP_EXT = (".cpp", ".cc", ".cxx", ".c", ".h", ".hh", ".hpp", ".asc", ".inc")
_MAIN_RE = re.compile(r"\bint(?:32_t)?\s+main\s*\(")
_TILING_STRUCT_RE = re.compile(r"\bBEGIN_TILING_DATA_DEF\b|\bstruct\s+\w*Tiling\w*\s*\{")
_HARNESS_DEPTH = 2


@dataclass
class Group:
    layout: str
    root: str
    name: str
    members: list[tuple[dict, str]] = field(default_factory=list)  # (file record, role)


def is_cpp(path: str) -> bool:
    return path.lower().endswith(CPP_EXT)


def _dir(path: str) -> str:
    return posixpath.dirname(path)


def _rel(path: str, root: str) -> str:
    return path[len(root) + 1 :] if root else path


def _under(path: str, root: str) -> bool:
    return not root or path.startswith(root + "/")


def group_files(files: list[dict]) -> tuple[list[Group], list[dict]]:
    """Split `files` into units. Returns the groups and notes [{path, reason}] for files in no unit."""
    notes: list[dict] = []
    op_roots = _op_roots(files)
    groups: list[Group] = []
    by_root = {root: Group("op_project", root, posixpath.basename(root) or "op") for root in op_roots}
    rest: list[dict] = []
    aux_root: dict[str, str] = {}  # op-project files outside op_kernel/op_host -> their op root
    root_set = set(op_roots)
    for f in files:
        root = _enclosing_root(f["path"], root_set)
        if root is None:
            rest.append(f)
            continue
        role = _op_role(_rel(f["path"], root), f)
        if role is None:
            aux_root[f["path"]] = root
            rest.append(f)
        else:
            by_root[root].members.append((f, role))
    groups.extend(g for g in by_root.values() if any(r == "kernel" for _, r in g.members))
    launch_notes: list[dict] = []
    groups.extend(_kernel_launch_groups(rest, launch_notes))
    for note in launch_notes:
        root = aux_root.get(note["path"])
        if root is not None:
            note = {"path": note["path"], "reason": f"in op project {root or '.'} but outside op_kernel/op_host"}
        notes.append(note)
    return groups, notes


def _enclosing_root(path: str, roots: set[str]) -> str | None:
    """The op root `path` lies under (ancestor folders looked up in a set: no scan over all roots)."""
    d = _dir(path)
    while True:
        if d in roots:
            return d
        if not d:
            return None
        d = _dir(d)


def _op_roots(files: list[dict]) -> list[str]:
    roots = set()
    for f in files:
        parts = f["path"].split("/")
        if "op_kernel" in parts[:-1] and is_cpp(f["path"]):
            roots.add("/".join(parts[: parts.index("op_kernel")]))
    kept: list[str] = []
    for root in sorted(roots, key=lambda r: (r.count("/") if r else -1, r)):
        if not any(_under(root, k) for k in kept):
            kept.append(root)
    return kept


def _op_role(rel: str, f: dict) -> str | None:
    top, _, rest = rel.partition("/")
    base = posixpath.basename(rel)
    if top == "op_kernel" and rest:
        if is_cpp(rel):
            return "kernel"
        return "build" if _is_build(base) else "other"
    if top == "op_host" and rest:
        if base.endswith(".json"):
            return "op_json"
        if _is_build(base):
            return "build"
        if not is_cpp(rel):
            return "other"
        text = f["text"]
        if _TILING_STRUCT_RE.search(text):
            return "tiling"
        facts = file_facts(text)
        if facts.tiling_funcs:
            return "tiling_func"
        if facts.op_def:
            return "op_def"
        return "other"
    if not rest:  # a file in the op folder itself
        if base == "verify_spec.toml":
            return "spec"
        if base.endswith(".json"):
            return "op_json"
        if _is_build(base):
            return "build"
    return None


def _is_build(base: str) -> bool:
    return base in ("CMakeLists.txt", "Makefile") or base.endswith((".cmake", ".sh"))


def _kernel_launch_groups(files: list[dict], notes: list[dict]) -> list[Group]:
    kernels: dict[str, list[tuple[dict, FileFacts]]] = {}
    harness: list[dict] = []
    for f in files:
        if is_cpp(f["path"]) and "__global__" in f["text"]:
            facts = file_facts(f["text"])
            if facts.entries:
                kernels.setdefault(_dir(f["path"]), []).append((f, facts))
                continue
        harness.append(f)
    groups_by_dir: dict[str, list[Group]] = {}
    for d, items in sorted(kernels.items()):
        items.sort(key=lambda it: it[0]["path"])
        single = [(f, fa) for f, fa in items if fa.main is not None]
        shared = [(f, fa) for f, fa in items if fa.main is None]
        n_units = len(single) + (1 if shared else 0)
        out: list[Group] = []
        for f, _ in single:
            stem = posixpath.splitext(posixpath.basename(f["path"]))[0]
            g = Group("kernel_launch", d, stem if n_units > 1 else (posixpath.basename(d) or stem))
            g.members.append((f, "kernel"))
            out.append(g)
        if shared:
            first = posixpath.splitext(posixpath.basename(shared[0][0]["path"]))[0]
            g = Group("kernel_launch", d, posixpath.basename(d) if n_units == 1 and d else first)
            g.members.extend((f, "kernel") for f, _ in shared)
            out.append(g)
        groups_by_dir[d] = out
    for f in harness:
        owner = _nearest_unit_dir(f["path"], groups_by_dir)
        if owner is None:
            notes.append({"path": f["path"], "reason": "no kernel entry in this folder or up to two levels above"})
            continue
        kernel_texts = [m["text"] for g in groups_by_dir[owner] for m, r in g.members if r == "kernel"]
        role = _launch_role(f, kernel_texts)
        for g in groups_by_dir[owner]:
            g.members.append((f, role))
    return [g for d in sorted(groups_by_dir) for g in groups_by_dir[d]]


def _nearest_unit_dir(path: str, groups_by_dir: dict[str, list[Group]]) -> str | None:
    d = _dir(path)
    for _ in range(_HARNESS_DEPTH + 1):
        if d in groups_by_dir:
            return d
        if not d:
            return None
        d = _dir(d)
    return None


def _launch_role(f: dict, kernel_texts: list[str]) -> str:
    path, text = f["path"], f["text"]
    base = posixpath.basename(path)
    low = base.lower()
    if _is_build(base):
        return "build"
    if low.endswith(".py"):
        if any(k in low for k in ("verify", "compare", "check", "result")):
            return "checker"
        if any(k in low for k in ("gen", "golden", "data", "input")):
            return "generator"
        return "other"
    if low.endswith(".json"):
        return "op_json" if '"op"' in text else "other"
    if not is_cpp(path):
        return "other"
    if low.startswith("data_utils"):
        return "data_utils"
    if _MAIN_RE.search(text):
        return "host_main"
    if _TILING_STRUCT_RE.search(text):
        return "tiling"
    if "TilingContext" in text:
        return "tiling_func"
    included = any(f'"{base}"' in t or f'/{base}"' in t for t in kernel_texts)
    return "kernel" if included and low.endswith((".h", ".hpp", ".hh", ".inc")) else "other"
