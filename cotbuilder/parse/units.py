"""Unit records: files grouped into kernels (grouping.py), facts gathered (facts.py, features.py), ids hashed."""

from __future__ import annotations

import contextlib
import gc
import re
import tomllib
from collections.abc import Iterator
from functools import lru_cache

from ..hashing import sha256_text, stable_json
from ..store import utcnow
from . import budget
from .category import categorize, complexity
from .facts import FileFacts, TextUnparseable, file_facts, parse_checked, reading
from .features import unit_features
from .grouping import HARNESS_ROLES, Group, group_files, is_cpp, unit_path

HOST_ROLES = ("tiling", "tiling_func", "op_def", "host_main")
KERNEL_ROLES = ("kernel", "snippet")  # a documentation snippet is device code too
# The files whose licence is the unit's licence (build files and scripts do not count).
CODE_ROLES = KERNEL_ROLES + HOST_ROLES + ("data_utils",)
_AC_RE = re.compile(r"kernel_operator\.h|\bAscendC\s*::|\bTPipe\b|\bTQue\b|\bGlobalTensor\b|\bLocalTensor\b")


def normalise(text: str) -> str:
    """Line endings and trailing blanks do not make a different kernel."""
    return "\n".join(map(str.rstrip, text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))).strip()


def unit_id(
    source_id: str, root: str, layout: str, name: str, files: list[dict], digests: dict[str, str] | None = None
) -> str:
    """`digests` (text -> sha256 of its normalised text) spares re-hashing a file that several units hold."""
    digests = {} if digests is None else digests
    for f in files:
        if f["text"] not in digests:
            digests[f["text"]] = sha256_text(normalise(f["text"]))
    content = sorted((f["path"], f["role"], digests[f["text"]]) for f in files)
    return sha256_text(
        stable_json({"source_id": source_id, "root": root, "layout": layout, "name": name, "files": content})
    )


DEFAULT_TIME_LIMIT = 10.0  # seconds to parse one file (see budget.py)


def extract_units(
    source_id: str, files: list[dict], *, time_limit: float | None = DEFAULT_TIME_LIMIT
) -> tuple[list[dict], list[dict]]:
    """Group crawled file records of one source into unit records; notes say which files joined no unit and why.

    Each C/C++ file must parse within `time_limit` seconds and budget.MAX_DEPTH, and a file whose facts are read
    (grouping and the unit records ask for them) must yield them within the same limit, parse included: a file past
    a limit joins no unit and gets a note (its record stays in `files`).

    Facts are read lazily, only for the files that need them: grouping runs first and asks, then the files nobody
    asked about are only parsed. A file found past a limit on the way (rare: the depth check runs first, up front)
    is left out and the source grouped again without it, so the units are those of the files within the limits,
    as if every file had been checked first."""
    with _collector_paused(), reading(time_limit):
        cpp = [i for i, f in enumerate(files) if is_cpp(f["path"])]
        left_out = _too_deep(files, cpp)  # file index -> the note's reason
        while True:
            kept = [f for i, f in enumerate(files) if i not in left_out]
            try:
                groups, grouping_notes = group_files(kept)
                digests: dict[str, str] = {}
                units = [_unit_record(source_id, g, digests) for g in groups]
            except TextUnparseable as exc:
                out = _reasons(files, cpp, exc.text, exc)
                if out.keys() <= left_out.keys():
                    raise  # a file already left out was read: grouping again would change nothing
                left_out.update(out)
                continue
            late = _unparsed(files, cpp, left_out, time_limit)
            if not late:
                break
            left_out.update(late)  # a file that joined a unit (or decided a grouping) is out: group again
    notes = [{"path": files[i]["path"], "reason": left_out[i]} for i in sorted(left_out)]
    return units, notes + grouping_notes


def _too_deep(files: list[dict], cpp: list[int]) -> dict[int, str]:
    """The C/C++ files nested past budget.MAX_DEPTH (parse_bytes would refuse them too), found before grouping asks
    for any facts: a hostile source full of them costs one pass, not one regrouping each."""
    out = {}
    for i in cpp:
        try:
            budget.check_depth(files[i]["text"].encode("utf-8", "surrogatepass"))
        except budget.Unparseable as exc:
            out[i] = _reason(exc)
    return out


def _reasons(files: list[dict], cpp: list[int], text: str, exc: Exception) -> dict[int, str]:
    """Every file holding `text` is out (the limits are a property of the content)."""
    return {i: _reason(exc) for i in cpp if files[i]["text"] == text}


def _reason(exc: Exception) -> str:
    return f"not parsed: {exc}; left out"


def _unparsed(files: list[dict], cpp: list[int], left_out: dict[int, str], time_limit: float | None) -> dict[int, str]:
    """The C/C++ files not yet parsed that do not parse within the limits (the ones read for facts were parsed then)."""
    out: dict[int, str] = {}
    for i in cpp:
        if i in left_out:
            continue
        try:
            with budget.limit(time_limit):
                parse_checked(files[i]["text"])
        except budget.Unparseable as exc:
            out[i] = _reason(exc)
    return out


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a source is extracted: parsing allocates a million short-lived
    tree-sitter nodes on a large source while the facts cache grows, and the collector's passes over that cache
    took 5% of the extraction. Nothing extraction allocates forms a cycle (nodes point to their tree, facts to plain
    values), so no memory waits for it. Each extraction switches it back on only if it was on when that extraction
    began: with several threads extracting, the first one to start turns it back on, and an application that had
    turned it off keeps it off."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _unit_record(source_id: str, g: Group, digests: dict[str, str] | None = None) -> dict:
    members = sorted(g.members, key=lambda m: (m[0]["path"], m[1]))
    files = [
        {"path": unit_path(m["path"], g.root), "role": role, "file_id": m.get("file_id"), "text": m["text"]}
        for m, role in members
    ]
    # harness, docs and dependencies are carried, not read: the unit's facts come from its kernel and host code
    facts: dict[str, FileFacts] = {
        m["path"]: file_facts(m["text"]) for m, role in members if is_cpp(m["path"]) and role not in HARNESS_ROLES
    }
    kernel_paths = [m["path"] for m, role in members if role in KERNEL_ROLES and m["path"] in facts]
    kernel_facts = [facts[p] for p in kernel_paths]
    kernel_set = set(kernel_paths)
    other_facts = [fa for p, fa in facts.items() if p not in kernel_set]

    kernel_parts, host_parts = [], []
    for m, role in members:
        rel = unit_path(m["path"], g.root)
        if role in KERNEL_ROLES:
            fa = facts.get(m["path"])
            main = fa.main if fa is not None else None
            if main is not None and g.layout == "kernel_launch":
                # single-file sample: the kernel is the file without its main(), the host side is main()
                data = m["text"].encode("utf-8", "surrogatepass")
                kernel_parts.append((rel, (data[: main.start] + data[main.end :]).decode("utf-8", "replace")))
                host_parts.append((rel, data[main.start : main.end].decode("utf-8", "replace")))
            else:
                kernel_parts.append((rel, m["text"]))
        elif role in HOST_ROLES:
            host_parts.append((rel, m["text"]))

    entries = [
        {"name": fn.name, "params": fn.params, "file": unit_path(p, g.root), "line": fn.line}
        for p in kernel_paths
        for fn in facts[p].entries
    ]
    diagnostics = [{"file": unit_path(p, g.root), **d} for p, fa in facts.items() for d in fa.diagnostics]
    if (
        g.layout == "kernel_launch"
        and not any(r == "host_main" for _, r in members)
        and not any(fa.main for fa in kernel_facts)
    ):
        diagnostics.append({"kind": "note", "message": "no host main found next to the kernel"})
    if not entries:
        diagnostics.append({"kind": "note", "message": "no __global__ entry function found in the kernel files"})

    features = unit_features(kernel_facts, other_facts)
    if features["block_dim"] is None:
        features["block_dim"] = _spec_block_dim(m for m, r in members if r == "spec")
    kernel_code = _join(kernel_parts)
    name = g.name
    if g.layout == "op_project" and features.get("op_def"):
        name = features["op_def"]["name"] or name
    names = [name, g.root.rsplit("/", 1)[-1]] + [e["name"] for e in entries]
    category = categorize(names, features["apis"])
    return {
        "unit_id": unit_id(source_id, g.root, g.layout, name, files, digests),
        "source_id": source_id,
        "layout": g.layout,
        "name": name,
        "root": g.root,
        "files": files,
        "kernel_code": kernel_code,
        "host_code": _join(host_parts),
        "entry": entries,
        "features": features,
        "category": category,
        "complexity": complexity(features, category, kernel_code.count("\n") + 1),
        "diagnostics": diagnostics,
        "license": _license(members),
        "parent_unit_id": None,
        "created_at": utcnow().isoformat(),
    }


def _spec_block_dim(specs) -> int | None:
    """An op project's verify_spec.toml states the block_dim the task runs with."""
    for m in specs:
        value = _spec_value(m["text"])
        if isinstance(value, int) and value > 0:
            return value
    return None


@lru_cache(maxsize=4096)
def _spec_value(text: str) -> object:
    """The spec's `block_dim` entry (None when absent or not TOML), read once per distinct spec: every unit of a
    folder with harness files carries the same spec."""
    try:
        return tomllib.loads(text).get("block_dim")
    except tomllib.TOMLDecodeError:
        return None


def _rel(path: str, root: str) -> str:
    return path[len(root) + 1 :] if root and path.startswith(root + "/") else path


def _join(parts: list[tuple[str, str]]) -> str:
    """Files in path order; a `// file:` line marks where each begins when there is more than one."""
    if len(parts) == 1:
        return parts[0][1]
    return "\n".join(f"// file: {path}\n{text.rstrip()}\n" for path, text in parts)


def _license(members: list[tuple[dict, str]]) -> str:
    """The unit's licence, decided by its code files only: a licensed CMakeLists.txt or script must not lend its
    licence to unlicensed kernel/host code. One code file without a licence makes the whole unit NOASSERTION;
    different licences are joined into a sorted SPDX AND expression."""
    code = [m for m, role in members if role in CODE_ROLES] or [m for m, _ in members]
    found = {m.get("license") or "NOASSERTION" for m in code}
    if not found or "NOASSERTION" in found:
        return "NOASSERTION"
    return " AND ".join(sorted(found))


def slug(text: str) -> str:
    s = re.sub(r"[^\w\s-]", "", text.strip().lower(), flags=re.UNICODE)
    return re.sub(r"[\s_-]+", "-", s).strip("-") or "section"


def extract_doc_units(
    source_id: str, page_file: dict, blocks: list[dict], *, time_limit: float | None = DEFAULT_TIME_LIMIT
) -> list[dict]:
    """Units from the code blocks of one documentation page.

    A complete kernel (a `__global__` entry function plus AscendC usage: kernel_operator.h, AscendC::, TPipe, ...)
    becomes a `kernel_launch` unit holding only the kernel code (a `main()` in the block is cut off); any other block
    becomes a `snippet` unit. root = page URL + "#" + heading slug + "-" + block index. A block that takes longer
    than `time_limit` to parse (or nests deeper than budget.MAX_DEPTH) makes no unit.
    """
    url = page_file.get("url") or page_file["path"]
    units = []
    for block in blocks:
        code = block.get("code") or ""
        if not code.strip():
            continue
        index = int(block.get("index", 0))
        heading = block.get("heading") or ""
        root = f"{url}#{slug(heading)}-{index}"
        try:
            with budget.limit(time_limit):
                facts = file_facts(code)
        except budget.Unparseable:
            continue  # counted by the caller: blocks in, units out
        complete = bool(facts.entries) and bool(_AC_RE.search(code))
        layout = "kernel_launch" if complete else "snippet"
        text = code
        if complete and facts.main is not None:
            data = code.encode("utf-8", "surrogatepass")
            text = (data[: facts.main.start] + data[facts.main.end :]).decode("utf-8", "replace").rstrip() + "\n"
        ext = ".asc" if (block.get("language") or "").lower() == "asc" else ".cpp"
        fname = (facts.entries[0].name if complete else f"snippet-{index}") + ext
        role = "kernel" if complete else "snippet"
        member = {**page_file, "path": fname, "text": text}
        g = Group(layout, root, facts.entries[0].name if complete else f"{slug(heading)}-{index}")
        g.members.append((member, role))
        record = _unit_record(source_id, g)
        record["files"][0]["path"] = fname
        record["diagnostics"] = [d for d in record["diagnostics"] if d.get("kind") != "note"] + (
            [{"kind": "note", "message": "from documentation: kernel code only, no harness"}] if complete else []
        )
        units.append(record)
    return units
