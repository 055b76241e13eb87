"""Fold simple C++ integer constant expressions (`2`, `8 * 2048`, `TOTAL / BLOCK_DIM`, `sizeof(half) * 256`).

Only what is statically knowable is folded; anything else (member variables, function calls, ternaries) gives None.
"""

from __future__ import annotations

import ast
import re
from functools import cache, lru_cache

from ..paths import package_data

_SUFFIX_RE = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)\b")
_CAST_RE = re.compile(r"\b(?:static_cast|reinterpret_cast)\s*<[^<>]*>")
_CCAST_RE = re.compile(r"\(\s*(?:const\s+)?(?:u?int(?:8|16|32|64)_t|int|unsigned|size_t|long)\s*\)")
_SIZEOF_RE = re.compile(r"\bsizeof\s*\(\s*(?:AscendC::)?(\w+)\s*\)")
_OK_RE = re.compile(r"^[\w\s+\-*/%()<>|&^~]*$")


@cache
def dtype_sizes() -> dict[str, int]:
    out: dict[str, int] = {}
    for line in package_data("parse/data/dtypes.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, size = line.split("\t")
            out[name.strip()] = int(size)
    return out


def fold(expr: str, env: dict[str, int | None]) -> int | None:
    """The integer value of `expr` given known constants `env`, or None."""
    text = expr.strip()
    prepared = _prepare(text)
    if prepared is None:
        return None
    _, names, value = prepared
    if not names:
        return value
    known = tuple(env.get(name) for name in names)
    if None in known:
        return None  # every name of the expression is evaluated (no short-circuit operator folds): one unknown, None
    return _fold_known(text, known)


@lru_cache(maxsize=1 << 14)
def _fold_known(text: str, known: tuple[int, ...]) -> int | None:
    """The value of a prepared expression whose names have the values `known` (in _prepare's order): a unit's
    constants are folded again for every unit holding the file, with the same values."""
    tree, names, _ = _prepare(text)
    return _checked_eval(tree, dict(zip(names, known, strict=True)))


def _checked_eval(tree: ast.AST, env: dict[str, int | None]) -> int | None:
    try:
        value = _eval(tree, env)
    except (ValueError, ZeroDivisionError, OverflowError, RecursionError):
        return None
    return value if isinstance(value, int) and -(2**63) <= value < 2**64 else None


@lru_cache(maxsize=8192)
def _prepare(text: str) -> tuple[ast.AST, tuple[str, ...], int | None] | None:
    """The expression rewritten into Python syntax and parsed once (the same constants recur in every unit), with
    the names it reads (in order of first use) and, when it reads none, its value."""
    tree = _parsed(text)
    if tree is None:
        return None
    names = tuple(dict.fromkeys(node.id for node in ast.walk(tree) if isinstance(node, ast.Name)))
    return tree, names, None if names else _checked_eval(tree, {})


def _parsed(text: str) -> ast.AST | None:
    if not text or len(text) > 200:
        return None
    sizes = dtype_sizes()
    text = _SIZEOF_RE.sub(lambda m: str(sizes[m.group(1)]) if m.group(1) in sizes else "UNKNOWN_SIZEOF", text)
    text = _CAST_RE.sub("", text)
    text = _CCAST_RE.sub("", text)
    text = _SUFFIX_RE.sub(r"\1", text)
    if not _OK_RE.match(text) or "<" in text.replace("<<", "") or ">" in text.replace(">>", ""):
        return None
    text = text.replace("/", "//")
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError:
        return None


_BINOPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: int(a / b) if (a < 0) != (b < 0) else a // b,  # C truncates toward zero
    ast.Mod: lambda a, b: a % b,
    ast.LShift: lambda a, b: a << b if 0 <= b < 64 else _bad(),
    ast.RShift: lambda a, b: a >> b,
    ast.BitOr: lambda a, b: a | b,
    ast.BitAnd: lambda a, b: a & b,
    ast.BitXor: lambda a, b: a ^ b,
}


def _bad() -> int:
    raise ValueError("not foldable")


def _eval(node: ast.AST, env: dict[str, int | None]) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        value = env.get(node.id)
        return _bad() if value is None else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](_eval(node.left, env), _eval(node.right, env))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else (~v if isinstance(node.op, ast.Invert) else v)
    return _bad()


def resolve(exprs: dict[str, str | None], rounds: int = 4) -> dict[str, int | None]:
    """Fold a table of named constant expressions that may refer to each other (a few rounds, no recursion)."""
    env: dict[str, int | None] = {}
    # what no round can fold (not an integer expression at all) is dropped before the first: most of a kernel's
    # initialised variables (`LocalTensor<T> x = q.DeQue<T>()`) are tried once, not once a round
    pending = [(name, expr) for name, expr in exprs.items() if expr is not None and _prepare(expr.strip()) is not None]
    for _ in range(rounds):
        left = []
        for name, expr in pending:
            value = fold(expr, env)
            if value is None:
                left.append((name, expr))
            else:
                env[name] = value
        if len(left) == len(pending):
            break
        pending = left
    return env
