"""tree-sitter-cpp parsing of masked AscendC sources, and the parse diagnostics (ERROR / MISSING nodes)."""

from __future__ import annotations

from functools import lru_cache

import tree_sitter_cpp
from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from ..paths import package_data
from .mask import first_branch_view, mask_source


@lru_cache(maxsize=None)
def language() -> Language:
    return Language(tree_sitter_cpp.language())


@lru_cache(maxsize=None)
def parser() -> Parser:
    return Parser(language())


@lru_cache(maxsize=None)
def query(name: str) -> Query:
    source = package_data(f"parse/data/queries/{name}.scm").read_text(encoding="utf-8")
    return Query(language(), source)


def parse_bytes(data: bytes) -> tuple[bytes, Tree]:
    """Mask and parse; returns the masked bytes (same length as `data`) and the tree."""
    masked = mask_source(data)
    tree = parser().parse(masked)
    if tree.root_node.has_error and b"#if" in masked:
        alt = first_branch_view(masked)
        alt_tree = parser().parse(alt)
        if _error_count(alt_tree) < _error_count(tree):
            return alt, alt_tree
    return masked, tree


def _error_count(tree: Tree) -> int:
    return len(diagnostics(tree, ""))


def captures(name: str, node: Node) -> dict[str, list[Node]]:
    return QueryCursor(query(name)).captures(node)


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
