"""Realistic bug mutations of a verified kernel, found on its tree-sitter parse (cotbuilder.parse.cst).

Each kind (the list and its words: data/mutations.toml) looks for its site in the unit's kernel files and changes
the bytes of one node: one mutant per kind and unit, at the first site in file order (the entry's file first), so
the count of mutants, and of builds to verify them, stays bounded. A kind with no site in a unit makes no mutant.

The public API (also what `synthesize` uses as wrong answers):
  make_mutants(unit, kinds=None) -> [Mutant]     the mutants of a unit, one per applicable kind
  mutant_unit(unit, mutant) -> unit dict         the unit with the mutated file: verify it like any unit
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from tree_sitter import Node

from ..hashing import sha256_text
from ..parse.cst import parse_bytes
from ..paths import package_data


@cache
def kinds_table() -> dict[str, dict[str, str]]:
    return tomllib.loads(package_data("mutate/data/mutations.toml").read_text(encoding="utf-8"))


def mutation_kinds() -> list[str]:
    return list(kinds_table())


@dataclass(frozen=True)
class Mutant:
    kind: str
    path: str  # the kernel file changed (unit-relative, as in unit["files"])
    line: int  # 1-based line of the change
    before: str  # the changed line(s) as they were
    after: str  # ... and as the mutant has them ("" when deleted)
    text: str  # the whole mutated file

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _Edit:
    start: int  # byte offsets in the file
    end: int
    new: bytes


# -- tree helpers -------------------------------------------------------------------------------------------------
def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def _text(node: Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def call_name(call: Node, data: bytes) -> str:
    """The called function's own name: `AscendC::Cast` -> Cast, `q.FreeTensor` -> FreeTensor, `PipeBarrier<PIPE_V>`
    -> PipeBarrier."""
    fn = call.child_by_field_name("function")
    while fn is not None:
        if fn.type in ("identifier", "field_identifier"):
            return _text(fn, data)
        nxt = fn.child_by_field_name("name") or fn.child_by_field_name("field")
        if nxt is None:
            return ""
        fn = nxt
    return ""


def _calls(root: Node, data: bytes, name: str) -> list[Node]:
    return [n for n in _walk(root) if n.type == "call_expression" and call_name(n, data) == name]


def _args(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def _statement_of(node: Node) -> Node | None:
    """The expression statement a call is the whole of (`q.FreeTensor(t);`), else None."""
    parent = node.parent
    return parent if parent is not None and parent.type == "expression_statement" else None


def _function_named(root: Node, data: bytes, name: str) -> list[Node]:
    out = []
    for n in _walk(root):
        if n.type == "function_definition":
            decl = n.child_by_field_name("declarator")
            while decl is not None and decl.type not in ("identifier", "field_identifier", "qualified_identifier"):
                decl = decl.child_by_field_name("declarator")
            if decl is not None and _text(decl, data).split("::")[-1] == name:
                out.append(n)
    return out


# -- the kinds: each returns the edits of its first site, or None -----------------------------------------------------
def _gm_offset(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    if b"GetBlockIdx" not in data and b"block_idx" not in data:
        return None  # a single-core kernel has no per-core offset to lose
    for call in _calls(root, data, "SetGlobalBuffer"):
        args = _args(call)
        if args and args[0].type == "binary_expression" and args[0].child_by_field_name("operator").type == "+":
            left = args[0].child_by_field_name("left")
            return [_Edit(args[0].start_byte, args[0].end_byte, data[left.start_byte : left.end_byte])]
    return None


_CEIL_CALLS = ("CeilDiv", "DivCeil", "CeilDivision", "Ceil")


def _dropped_tail(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    for n in _walk(root):
        if n.type == "binary_expression" and n.child_by_field_name("operator").type == "/":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            inner = left.named_children[0] if left.type == "parenthesized_expression" and left.named_children else None
            if (
                inner is not None
                and inner.type == "binary_expression"
                and inner.child_by_field_name("operator").type == "-"
                and _text(inner.child_by_field_name("right"), data).strip() == "1"
                and inner.child_by_field_name("left").type == "binary_expression"
                and inner.child_by_field_name("left").child_by_field_name("operator").type == "+"
            ):
                numerator = inner.child_by_field_name("left").child_by_field_name("left")
                new = f"({_text(numerator, data)}) / {_text(right, data)}"
                return [_Edit(n.start_byte, n.end_byte, new.encode())]
        if n.type == "call_expression" and call_name(n, data) in _CEIL_CALLS and len(_args(n)) == 2:
            a, b = _args(n)
            new = f"(({_text(a, data)}) / ({_text(b, data)}))"
            return [_Edit(n.start_byte, n.end_byte, new.encode())]
    return None


def _tile_loop_bounds(root: Node, data: bytes) -> Iterator[Node]:
    """`<` conditions of the tile loops: the for loops of Process(), else loops whose body calls CopyIn/Compute."""
    loops = [n for f in _function_named(root, data, "Process") for n in _walk(f) if n.type == "for_statement"]
    if not loops:
        loops = [
            n
            for n in _walk(root)
            if n.type == "for_statement"
            and any(c.type == "call_expression" and call_name(c, data) in ("CopyIn", "Compute") for c in _walk(n))
        ]
    for loop in loops:
        cond = loop.child_by_field_name("condition")
        if cond is not None and cond.type == "binary_expression" and cond.child_by_field_name("operator").type == "<":
            yield cond


def _tile_count_off_by_one(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    for cond in _tile_loop_bounds(root, data):
        op = cond.child_by_field_name("operator")
        return [_Edit(op.start_byte, op.end_byte, b"<=")]
    return None


def _misaligned_datacopy(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    for call in _calls(root, data, "DataCopy"):
        args = _args(call)
        if len(args) != 3:
            continue
        count = args[2]
        text = _text(count, data)
        if "param" in text.lower() or "{" in text or count.type == "initializer_list":
            continue  # a DataCopyParams struct, not an element count
        return [_Edit(count.start_byte, count.end_byte, f"({text}) - 1".encode())]
    return None


def _delete_call_statement(root: Node, data: bytes, names: tuple[str, ...]) -> list[_Edit] | None:
    for name in names:
        for call in _calls(root, data, name):
            stmt = _statement_of(call)
            if stmt is not None:
                return [_Edit(stmt.start_byte, stmt.end_byte, b"")]
    return None


def _missing_free_tensor(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    return _delete_call_statement(root, data, ("FreeTensor",))


def _missing_enque(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    return _delete_call_statement(root, data, ("EnQue",))


def _missing_sync(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    return _delete_call_statement(root, data, ("WaitFlag", "PipeBarrier", "pipe_barrier", "SyncAll"))


_UB_BYTES = {"ascend910b": 196608, "ascend310p": 262144, "ascend310b": 253952}  # emulator/include/impl/emu/soc_table.h


def _queue_budget(unit: dict[str, Any]) -> tuple[int, int] | None:
    """(bytes that scale with BUFFER_NUM per unit of depth, bytes that do not) over the kernel's InitBuffer calls,
    folded with its constants (parse.facts / parse.constants); None unless every size is a constant."""
    from ..parse.constants import fold, resolve
    from ..parse.facts import file_facts
    from ..parse.features import _merged_constants

    facts = [file_facts(f.get("text") or "") for f in kernel_files(unit)]
    env = resolve(_merged_constants(facts))
    per_depth = fixed = 0
    for args in (a for f in facts for a in f.init_buffers):
        length = fold(args[-1], env) if len(args) in (2, 3) else None
        if length is None:
            return None
        if len(args) == 3 and args[1].strip() == "BUFFER_NUM":
            per_depth += length
        elif len(args) == 3:
            num = fold(args[1], env)
            if num is None:
                return None
            fixed += num * length
        else:
            fixed += length
    return (per_depth, fixed) if per_depth else None


def _ub_over_budget(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    for n in _walk(root):
        if n.type != "init_declarator":
            continue
        name, value = n.child_by_field_name("declarator"), n.child_by_field_name("value")
        if name is None or value is None or _text(name, data) != "BUFFER_NUM" or value.type != "number_literal":
            continue
        old = int(re.sub(r"[uUlL]+$", "", _text(value, data)), 0)
        budget = _queue_budget(unit)
        if budget is None:
            return None  # the sizes are not constants: the new depth could not be shown to overflow
        per_depth, fixed = budget
        # the smallest depth whose buffers exceed the largest UB of the modelled SoCs
        new = max(old + 1, (max(_UB_BYTES.values()) - fixed) // per_depth + 1)
        return [_Edit(value.start_byte, value.end_byte, str(new).encode())]
    return None


_ROUND_SWAP = {"CAST_RINT": "CAST_TRUNC", "CAST_ROUND": "CAST_TRUNC", "CAST_FLOOR": "CAST_CEIL",
               "CAST_CEIL": "CAST_FLOOR", "CAST_TRUNC": "CAST_CEIL", "CAST_ODD": "CAST_TRUNC"}  # fmt: skip


def _cast_round_mode(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    fallback = None
    for call in _calls(root, data, "Cast"):
        for arg in _args(call):
            mode = _text(arg, data).split("::")[-1].strip()
            if mode in _ROUND_SWAP:  # a rounding (narrowing) Cast: the mode decides the result
                new = _text(arg, data)[: -len(mode)] + _ROUND_SWAP[mode]
                return [_Edit(arg.start_byte, arg.end_byte, new.encode())]
            if mode == "CAST_NONE" and fallback is None:
                fallback = [
                    _Edit(arg.start_byte, arg.end_byte, (_text(arg, data)[: -len(mode)] + "CAST_TRUNC").encode())
                ]
    return fallback


def _half_accumulation(root: Node, data: bytes, unit: dict[str, Any]) -> list[_Edit] | None:
    """Compute in half what the kernel computes in float: every `<float>` template argument of a local tensor or a
    buffer's Get becomes `<half>`, and the four-argument Casts between them become DataCopy (UB to UB). Only for
    kernels that widen half inputs with Cast(..., CAST_NONE, n) and hold no float in global memory."""
    if re.search(rb"GlobalTensor\s*<\s*float\s*>|__gm__\s+float", data):
        return None
    casts = _calls(root, data, "Cast")
    widening = [c for c in casts if len(_args(c)) == 4 and _text(_args(c)[2], data).endswith("CAST_NONE")]
    if not widening or any(len(_args(c)) != 4 for c in casts):
        return None
    edits = []
    for n in _walk(root):
        if n.type == "template_argument_list" and _text(n, data).replace(" ", "") == "<float>":
            owner = n.parent
            owner_text = _text(owner, data) if owner is not None else ""
            if owner_text.startswith(("LocalTensor", "Get")) or ".Get" in owner_text or "LocalTensor" in owner_text:
                edits.append(_Edit(n.start_byte, n.end_byte, b"<half>"))
    if not edits:
        return None
    for c in casts:
        dst, src, _, count = _args(c)
        fn = c.child_by_field_name("function")
        prefix = _text(fn, data)[: -len("Cast")] if _text(fn, data).endswith("Cast") else ""
        new = f"{prefix}DataCopy({_text(dst, data)}, {_text(src, data)}, {_text(count, data)})"
        edits.append(_Edit(c.start_byte, c.end_byte, new.encode()))
    return edits


FINDERS: dict[str, Callable[[Node, bytes, dict[str, Any]], list[_Edit] | None]] = {
    "gm_offset": _gm_offset,
    "dropped_tail": _dropped_tail,
    "tile_count_off_by_one": _tile_count_off_by_one,
    "misaligned_datacopy": _misaligned_datacopy,
    "missing_free_tensor": _missing_free_tensor,
    "missing_enque": _missing_enque,
    "ub_over_budget": _ub_over_budget,
    "cast_round_mode": _cast_round_mode,
    "half_accumulation": _half_accumulation,
    "missing_sync": _missing_sync,
}


# -- applying ---------------------------------------------------------------------------------------------------------
def kernel_files(unit: dict[str, Any]) -> list[dict[str, Any]]:
    """The unit's kernel files, the one holding the entry first (the file a fix would change: annotate.repair)."""
    from ..annotate.repair import kernel_file

    first = kernel_file(unit)
    files = [f for f in unit.get("files") or [] if f.get("role") == "kernel"]
    return sorted(files, key=lambda f: (first is None or f["path"] != first["path"], f["path"]))


def _apply(data: bytes, edits: list[_Edit]) -> bytes:
    out = data
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        out = out[: e.start] + e.new + out[e.end :]
    return out


def _lines(data: bytes, start: int, end: int) -> tuple[int, int]:
    """(first line index, last line index) 0-based of the byte range."""
    return data.count(b"\n", 0, start), data.count(b"\n", 0, max(start, end - 1) if end > start else start)


def _site(kind: str, path: str, data: bytes, edits: list[_Edit]) -> Mutant:
    new = _apply(data, edits)
    first = min(edits, key=lambda e: e.start)
    lo, hi = _lines(data, first.start, first.end)
    old_lines = data.decode("utf-8", "replace").splitlines()
    new_lines = new.decode("utf-8", "replace").splitlines()
    grown = len(new_lines) - len(old_lines)
    before = "\n".join(old_lines[lo : hi + 1]).strip()
    after = "\n".join(new_lines[lo : hi + 1 + grown]).strip() if hi + 1 + grown > lo else ""
    return Mutant(kind, path, lo + 1, before, after, new.decode("utf-8", "replace"))


def make_mutants(unit: dict[str, Any], kinds: list[str] | None = None) -> list[Mutant]:
    """One mutant per kind that has a site in the unit's kernel files (the first site, entry file first). A file
    tree-sitter cannot read gives no mutants (parse errors: a mutation could land in a misread region)."""
    wanted = kinds or mutation_kinds()
    unknown = [k for k in wanted if k not in FINDERS]
    if unknown:
        raise ValueError(f"unknown mutation kind(s) {', '.join(unknown)} (known: {', '.join(FINDERS)})")
    parsed = []
    for f in kernel_files(unit):
        data = (f.get("text") or "").encode("utf-8")
        masked, tree = parse_bytes(data)
        if tree.root_node.has_error:
            continue
        parsed.append((f["path"], data, tree.root_node))
    out = []
    for kind in wanted:
        for path, data, root in parsed:
            edits = FINDERS[kind](root, data, unit)
            if edits:
                mutant = _site(kind, path, data, edits)
                if mutant.text != data.decode("utf-8", "replace"):
                    out.append(mutant)
                break
    return out


def mutant_unit(unit: dict[str, Any], mutant: Mutant) -> dict[str, Any]:
    """The unit with the mutant's file in place of the original: a candidate unit (not stored) to verify like any
    other. Its id derives from the parent, the kind and the mutated code, so the same mutant is the same id."""
    out = copy.deepcopy(unit)
    old = next(f["text"] for f in unit["files"] if f["path"] == mutant.path)
    for f in out["files"]:
        if f["path"] == mutant.path:
            f["text"] = mutant.text
            f["file_id"] = None  # not a crawled file
    if old and old in unit.get("kernel_code", ""):
        out["kernel_code"] = unit["kernel_code"].replace(old, mutant.text, 1)
    else:
        out["kernel_code"] = "\n".join(f["text"] for f in out["files"] if f["role"] == "kernel")
    out["unit_id"] = sha256_text(f"mutant:{unit['unit_id']}:{mutant.kind}:{out['kernel_code']}")
    out["parent_unit_id"] = unit["unit_id"]
    return out
