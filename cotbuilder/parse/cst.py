"""tree-sitter-cpp parsing of masked AscendC sources, and the parse diagnostics (ERROR / MISSING nodes)."""

from __future__ import annotations

import threading
from functools import cache
from operator import attrgetter

import tree_sitter_cpp
from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from ..paths import package_data
from . import budget
from .branches import consistent_branch_view
from .mask import mask_macros, mask_source


@cache
def language() -> Language:
    return Language(tree_sitter_cpp.language())


_per_thread = threading.local()


def parser() -> Parser:
    """One tree-sitter Parser per thread: a Parser must not be used by two threads at once, and the crawler parses
    sources from several threads."""
    if not hasattr(_per_thread, "parser"):
        _per_thread.parser = Parser(language())
    return _per_thread.parser


@cache
def kinds(*names: str) -> frozenset[int]:
    """The node kind ids named `names`: `node.kind_id in kinds(...)` is `node.type in names` without building the
    type's string (one name can have several ids in the grammar)."""
    lang = language()
    return frozenset(i for i in range(lang.node_kind_count) if lang.node_kind_for_id(i) in names)


@cache
def field(name: str) -> int:
    """The grammar's id of field `name`: `child_by_field_id` skips the name lookup `child_by_field_name` makes."""
    return language().field_id_for_name(name)


@cache
def query(name: str) -> Query:
    source = package_data(f"parse/data/queries/{name}.scm").read_text(encoding="utf-8")
    return Query(language(), source)


def parse_bytes(data: bytes) -> tuple[bytes, Tree]:
    """Mask and parse; returns the masked bytes (same length as `data`) and the tree.

    Most files parse cleanly from the first view and are parsed once. A file with errors gets up to two more views,
    each keeping every byte offset: macro invocations tree-sitter cannot read blanked (mask.mask_macros), then, if it
    has conditionals, one consistent `#if` configuration (branches.py). The view with the fewest broken regions
    (then the fewest unreadable bytes) wins, so an error that no view explains (malformed C++) is still reported.
    Facts come from the winning view: code in a discarded `#if` branch is then not read.
    """
    budget.check_depth(data)
    masked = mask_source(data)
    tree = parser().parse(masked)
    budget.check()
    if not tree.root_node.has_error:
        return masked, tree
    best = (_error_count(tree), masked, tree)
    alt = mask_macros(data, masked, _error_offsets(tree))
    if alt != masked:
        best = _better(best, alt)
    budget.check()
    if best[0][0] and b"#" in data:
        view = consistent_branch_view(alt)
        if view != alt:
            best = _better(best, view)
    return best[1], best[2]


def _better(best: tuple[tuple[int, int], bytes, Tree], view: bytes) -> tuple[tuple[int, int], bytes, Tree]:
    tree = parser().parse(view)
    n = _error_count(tree)
    return (n, view, tree) if n < best[0] else best


def _error_offsets(tree: Tree, limit: int = 200) -> list[int]:
    """Start bytes of the ERROR / MISSING nodes (the innermost broken regions, like diagnostics())."""
    out: list[int] = []
    stack = [tree.root_node]
    while stack and len(out) < limit:
        node = stack.pop()
        if node.is_missing or node.type == "ERROR":
            out.append(node.start_byte)
            if node.type == "ERROR":  # a large ERROR region: its broken lines are where its children start
                out.extend(c.start_byte for c in node.children[:limit])
            continue
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return out


def _error_count(tree: Tree, limit: int = 50) -> tuple[int, int]:
    """(ERROR / MISSING regions, bytes inside ERROR regions): fewer regions first, then less unreadable code."""
    n = size = 0
    stack = [tree.root_node]
    while stack and n < limit:
        node = stack.pop()
        if node.is_missing or node.type == "ERROR":
            n += 1
            size += node.end_byte - node.start_byte
            continue
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return n, size


# a node's place in the file: the sort key of captures that must come in source order
position = attrgetter("start_byte", "end_byte")


def captures(name: str, node: Node, unordered: frozenset[str] = frozenset()) -> dict[str, list[Node]]:
    """The query's captures, each list in source order: tree-sitter hands them back in an order that changes from
    run to run (a file's structs came out in another order each time, and with them the unit's tiling fields).
    The lists named in `unordered` are left as they come: sorting the big ones (every type name, every call) cost
    a fifth of the query, for a caller that only counts them."""
    found = QueryCursor(query(name)).captures(node)
    for key, nodes in found.items():
        if key not in unordered:
            nodes.sort(key=position)
    return found


def diagnostics(tree: Tree, path: str, limit: int = 50) -> list[dict]:
    """Every ERROR and MISSING node (up to `limit` per file) with 1-based line and column.

    Only subtrees that contain an error are entered, so a clean file costs one flag check.
    """
    out: list[dict] = []
    if not tree.root_node.has_error:
        return out
    stack = [tree.root_node]
    while stack and len(out) < limit:
        node = stack.pop()
        if node.is_missing:
            out.append(_diag(path, node, "missing", f"missing {node.type!r}"))
            continue
        if node.type == "ERROR":
            snippet = node.text.decode("utf-8", "replace").strip().splitlines()
            first = snippet[0][:80] if snippet else ""
            out.append(_diag(path, node, "error", f"syntax error near {first!r}"))
            continue  # one report per broken region
        # children in reverse so diagnostics come out in source order
        stack.extend(c for c in reversed(node.children) if c.has_error or c.is_missing)
    return out


def _diag(path: str, node: Node, kind: str, message: str) -> dict:
    row, col = node.start_point
    return {"file": path, "line": row + 1, "column": col + 1, "kind": kind, "message": message}
