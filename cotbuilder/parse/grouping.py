"""Which files make one kernel: folders become `op_project` or `kernel_launch` units, each file gets a role.

Rules (the README's "units" section repeats them):
- op_project: a folder with an `op_kernel/` subfolder holding C/C++ sources. Its unit takes `op_kernel/**`
  (role kernel), `op_host/**` (tiling / tiling_func / op_def / op_json / build by content), the folder's own
  `*.json` (op_json), `verify_spec.toml` (spec), CMakeLists.txt / *.sh (build), README*.md (doc), and the harnesses
  its authors test it with: `examples/**` (example: AclNNInvocation* folders, test_aclnn_*.cpp), `tests/**` (test:
  kernel UTs with their gen_data.py / compare_data.py), `docs/**` (doc). Its op_api/, op_graph/, framework/ ... are
  not part of the kernel. An op folder nested in another one (tests/ut/op_kernel) is part of the outer one. A test
  or example that defines its own `__global__` entry (a thin wrapper instantiating the op's kernel templates) is real
  kernel code: it is grouped like files outside any op project and becomes a `kernel_launch` unit.
  A benchmark task laid out as `<task>/answer/<n>/{op_host,op_kernel}` with `<task>/validation/` (NPUKernelBench)
  takes that validation folder too (role validation) and is named after the task.
- kernel_launch: any other C/C++ file that defines a `__global__` entry function. A file that also defines
  `main` (a single-file `.asc` sample) is a unit of its own; the other kernel files of a folder form one unit with
  the folder's host main. Harness files (data_utils.h, scripts/gen_data.py, scripts/verify_result.py, CMakeLists.txt,
  run.sh, headers) in the folder or up to two levels below join every unit of that folder. A kernel file that is
  also a gtest test file (a library's own API tests, asc-devkit `tests/api/**`) is a unit of its own with the
  headers it includes, never lumped with its folder's other test files.
- every unit: the files of the source tree its code includes (resolved like a build would, `includes.py`), and for
  an op project the files elsewhere in the source that register its op type (`IMPL_OP_OPTILING(Op)`, `OP_ADD(Op)`:
  a shared tiling library), join it as role dependency under `_deps/<their source path>`.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from dataclasses import dataclass, field
from functools import lru_cache

from . import includes
from .facts import FileFacts, file_facts
from .literal_scan import leftmost_matches

CPP_EXT = (".cpp", ".cc", ".cxx", ".c", ".h", ".hh", ".hpp", ".asc", ".inc")
# Harness, documentation and dependency files: part of a unit so it can be built and tested as its authors do, but
# not its kernel or host code (no facts are read from them, they do not decide its licence or category).
HARNESS_ROLES = ("example", "test", "doc", "validation", "dependency")
DEPS_PREFIX = "_deps/"
# Patterns open with their literal (see literal_scan.py).
_MAIN_RE = re.compile(r"int(?<!\wint)(?:32_t)?\s+main\s*\(")
_GTEST_CALL_RE = re.compile(r"TEST(?:_F|_P)?\s*\(")  # a gtest test, when only blanks precede it on its line
# `IMPL_OP*(Type)` / `OP_ADD(Type)`, as one alternation (see literal_scan.py)
_REGISTERS_RES = (
    re.compile(r"IMPL_OP(?<!\wIMPL_OP)(?:_OPTILING|_INFERSHAPE|_CT)?\s*\(\s*(\w+)"),
    re.compile(r"OP_ADD(?<!\wOP_ADD)\s*\(\s*(\w+)"),
)
_OP_ADD_RE = _REGISTERS_RES[1]
_ENTRY_NAME_RE = re.compile(r"__global__\s+__aicore__\s+void\s+(\w+)|__aicore__\s+__global__\s+void\s+(\w+)")
_HARNESS_TOPS = {"examples": "example", "tests": "test", "docs": "doc"}
_TILING_STRUCT_RES = (
    re.compile(r"BEGIN_TILING_DATA_DEF(?<!\wBEGIN_TILING_DATA_DEF)\b"),
    re.compile(r"struct(?<!\wstruct)\s+\w*Tiling\w*\s*\{"),
)
_HARNESS_DEPTH = 2


@dataclass
class Group:
    layout: str
    root: str
    name: str
    members: list[tuple[dict, str]] = field(default_factory=list)  # (file record, role)
    standalone: bool = False  # a gtest file: takes only what it includes, not its folder's harness files


@lru_cache(maxsize=1 << 16)
def is_cpp(path: str) -> bool:
    """(cached: extraction asks it of each path several times)"""
    return path.lower().endswith(CPP_EXT)


@lru_cache(maxsize=1 << 16)
def _dir(path: str) -> str:
    return posixpath.dirname(path)


def _rel(path: str, root: str) -> str:
    return path[len(root) + 1 :] if root else path


def unit_path(path: str, root: str) -> str:
    """A member's path inside its unit: relative to the unit root, or `_deps/<source path>` for a file from
    elsewhere in the source tree."""
    if not root:
        return path
    if path.startswith(root + "/"):
        return path[len(root) + 1 :]
    return DEPS_PREFIX + path


def group_files(files: list[dict]) -> tuple[list[Group], list[dict]]:
    """Split `files` into units. Returns the groups and notes [{path, reason}] for files in no unit."""
    notes: list[dict] = []
    op_roots = _op_roots(files)
    groups: list[Group] = []
    by_root = {root: Group("op_project", root, _op_name(root)) for root in op_roots}
    rest: list[dict] = []
    aux_root: dict[str, str] = {}  # op-project files outside op_kernel/op_host -> their op root
    root_set = set(op_roots)
    wrapper_dirs = _wrapper_dirs(files, root_set)
    for f in files:
        root = _enclosing_root(f["path"], root_set)
        if root is None:
            rest.append(f)
            continue
        role = None if _dir(f["path"]) in wrapper_dirs else _op_role(_rel(f["path"], root), f)
        if role is None:
            aux_root[f["path"]] = root
            rest.append(f)
        else:
            by_root[root].members.append((f, role))
    op_groups = [g for g in by_root.values() if any(r == "kernel" for _, r in g.members)]
    groups.extend(op_groups)
    launch_notes: list[dict] = []
    launch_groups = _kernel_launch_groups(rest, launch_notes)
    groups.extend(launch_groups)
    taken_by_deps = _add_dependencies(groups, files, op_groups)
    for note in launch_notes:
        if note["path"] in taken_by_deps:
            continue
        root = aux_root.get(note["path"])
        if root is not None:
            note = {
                "path": note["path"],
                "reason": f"in op project {root or '.'} but not part of its kernel or harness",
            }
        notes.append(note)
    return groups, notes


def _wrapper_dirs(files: list[dict], roots: set[str]) -> set[str]:
    """Folders of an op project's tests/ or examples/ holding a file that defines its own kernel entry: that folder
    is a kernel_launch sample of its own (the wrapper with its host code), not the op's harness."""
    out = set()
    for f in files:
        root = _enclosing_root(f["path"], roots)
        if root is None or not is_cpp(f["path"]) or "__global__" not in f["text"]:
            continue
        if _rel(f["path"], root).split("/", 1)[0] in _HARNESS_TOPS and file_facts(f["text"]).entries:
            out.add(_dir(f["path"]))
    return out


def _declares_tiling_struct(text: str) -> bool:
    """`BEGIN_TILING_DATA_DEF` or a `struct ...Tiling... {`."""
    return any(pattern.search(text) for pattern in _TILING_STRUCT_RES)


def _has_gtest(text: str) -> bool:
    """A line starting (after blanks) with TEST(, TEST_F( or TEST_P(."""
    for m in _GTEST_CALL_RE.finditer(text):
        i = m.start()
        while i and text[i - 1].isspace():
            i -= 1
        if i == 0 or "\n" in text[i : m.start()]:
            return True
    return False


def _op_name(root: str) -> str:
    """The op folder's name; a benchmark answer (`<task>/answer/<n>`) is named after its task."""
    parts = root.split("/") if root else []
    if len(parts) >= 3 and parts[-2] == "answer":
        return parts[-3]
    return posixpath.basename(root) or "op"


def _add_dependencies(groups: list[Group], files: list[dict], op_groups: list[Group]) -> set[str]:
    """Give every unit the files of the source tree it needs: what its code includes (and the sources of those
    headers), the shared files registering an op project's type, a benchmark answer's validation folder.
    Returns the paths that joined some unit this way."""
    by_path = {f["path"]: f for f in files}
    texts = {p: f["text"] for p, f in by_path.items() if is_cpp(p)}
    tree = includes.Tree.of(by_path)
    sorted_paths = sorted(by_path)
    registrars = _registrations(texts)
    taken: set[str] = set()
    op_set = {id(g) for g in op_groups}
    for g in groups:
        have = {m["path"] for m, _ in g.members}
        unit_dirs = tuple(
            d
            for d in (
                g.root,
                f"{g.root}/op_host" if g.root else "op_host",
                f"{g.root}/op_kernel" if g.root else "op_kernel",
            )
            if d
        )
        start = [m["path"] for m, r in g.members if is_cpp(m["path"]) and r != "doc"]
        extra: list[tuple[str, str]] = []
        if id(g) in op_set:
            for path in _validation_files(g.root, sorted_paths):
                extra.append((path, "validation"))
            for op in _op_types(g):
                for path in registrars.get(op, ()):
                    if path not in have:
                        extra.append((path, "dependency"))
                        start.append(path)
        found = includes.closure(tree, texts, start, have.__contains__, unit_dirs)
        extra += [(p, "dependency") for p in found.files]
        for path, role in extra:
            if path in have:
                continue
            have.add(path)
            g.members.append((by_path[path], role))
            taken.add(path)
    return taken


def _registrations(texts: dict[str, str]) -> dict[str, list[str]]:
    """Normalised op type -> files that register it (IMPL_OP*(Type), OP_ADD(Type)) anywhere in the source."""
    out: dict[str, list[str]] = {}
    for path, text in texts.items():
        if "IMPL_OP" not in text and "OP_ADD" not in text:
            continue
        for name in {m.group(1) for m in leftmost_matches(_REGISTERS_RES, text)}:
            out.setdefault(_norm(name), []).append(path)
    return out


def _norm(name: str) -> str:
    return name.replace("_", "").lower()


def _op_types(g: Group) -> set[str]:
    """The op types an op project is about: its OP_ADD names, its folder name and its kernel entries (foreach_abs
    -> ForeachAbs), normalised."""
    names = {_norm(g.name), _norm(posixpath.basename(g.root))}
    for m, role in g.members:
        if role in ("op_def", "tiling_func", "other") and "OP_ADD" in m["text"]:
            names.update(_norm(n) for n in _OP_ADD_RE.findall(m["text"]))
        if role == "kernel":
            names.update(_norm(a or b) for a, b in _ENTRY_NAME_RE.findall(m["text"]))
    return {n for n in names if n}


def _validation_files(root: str, paths: list[str]) -> list[str]:
    """The benchmark validation folder of an answer's op project; `paths` sorted (a prefix is a range of them)."""
    parts = root.split("/") if root else []
    if len(parts) < 3 or parts[-2] != "answer":
        return []
    prefix = "/".join(parts[:-2]) + "/validation/"
    start = bisect.bisect_left(paths, prefix)
    end = start
    while end < len(paths) and paths[end].startswith(prefix):
        end += 1
    return paths[start:end]


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
    kept_set: set[str] = set()
    for root in sorted(roots, key=lambda r: (r.count("/") if r else -1, r)):
        # nested in a kept root (its folder or one above it is one): looked up, not compared with every kept root
        parts = root.split("/")
        if "" in kept_set or any("/".join(parts[:i]) in kept_set for i in range(1, len(parts))):
            continue
        kept.append(root)
        kept_set.add(root)
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
        if _declares_tiling_struct(text):
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
        if base.lower().startswith("readme") or base.lower().endswith(".md"):
            return "doc"
        return None
    if top in _HARNESS_TOPS:
        return _HARNESS_TOPS[top]
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
        alone = [fa.main is not None or _has_gtest(f["text"]) for f, fa in items]
        single = [item for item, one in zip(items, alone, strict=True) if one]
        shared = [item for item, one in zip(items, alone, strict=True) if not one]
        n_units = len(single) + (1 if shared else 0)
        out: list[Group] = []
        for f, fa in single:
            stem = posixpath.splitext(posixpath.basename(f["path"]))[0]
            g = Group("kernel_launch", d, stem if n_units > 1 else (posixpath.basename(d) or stem))
            g.standalone = fa.main is None
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
        takers = [g for g in groups_by_dir[owner] if not g.standalone]
        if not takers:
            notes.append({"path": f["path"], "reason": "next to library test files (each takes only what it includes)"})
            continue
        kernel_texts = [m["text"] for g in takers for m, r in g.members if r == "kernel"]
        role = _launch_role(f, kernel_texts)
        for g in takers:
            g.members.append((f, role))
    for d, out in groups_by_dir.items():
        groups_by_dir[d] = [piece for g in out for piece in _split_without_main(g)]
    return [g for d in sorted(groups_by_dir) for g in groups_by_dir[d]]


def _split_without_main(g: Group) -> list[Group]:
    """Kernel files that share a folder but no host main are independent kernels (a library's test folder, a
    header checker): one unit each, with what they include, instead of one unit lumping them all."""
    kernels = [m for m, r in g.members if r == "kernel"]
    if g.standalone or len(kernels) < 2 or any(r == "host_main" for _, r in g.members):
        return [g]
    out = []
    for m in kernels:
        piece = Group("kernel_launch", g.root, posixpath.splitext(posixpath.basename(m["path"]))[0], standalone=True)
        piece.members.append((m, "kernel"))
        out.append(piece)
    return out


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
    if _declares_tiling_struct(text):
        return "tiling"
    if "TilingContext" in text:
        return "tiling_func"
    included = any(f'"{base}"' in t or f'/{base}"' in t for t in kernel_texts)
    return "kernel" if included and low.endswith((".h", ".hpp", ".hh", ".inc")) else "other"
