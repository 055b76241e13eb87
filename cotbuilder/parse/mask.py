"""Blank out what tree-sitter-cpp cannot read in AscendC code, keeping every byte offset and line number true.

AscendC adds keywords (`__aicore__`, `__gm__`, ...), the `<<<blockDim, l2ctrl, stream>>>` launch syntax and
declaration-like macros (`BEGIN_TILING_DATA_DEF(...)` without a semicolon). Each is replaced by spaces of the same
byte length (newlines kept), so positions in the masked bytes are positions in the original file: diagnostics and
extracted facts point at the real source, and the original text can be sliced with node offsets.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..paths import package_data


def _names(filename: str) -> list[str]:
    lines = package_data(f"parse/data/{filename}").read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


@lru_cache(maxsize=None)
def _patterns() -> tuple[re.Pattern[bytes], frozenset[bytes], frozenset[bytes], re.Pattern[bytes]]:
    plain, with_args = [], []
    for name in _names("qualifiers.txt"):
        if name.endswith("(...)"):
            with_args.append(name[: -len("(...)")])
        else:
            plain.append(name)
    words = frozenset(w.encode() for w in plain + with_args)
    # scan for any dunder word (cheap) and keep the ones listed; other listed words are matched by name
    others = [w for w in sorted(words, key=len, reverse=True) if not (w.startswith(b"__") and w.endswith(b"__"))]
    qualifier_re = re.compile(rb"\b(__\w+?__" + b"".join(b"|" + re.escape(w) for w in others) + rb")(?!\w)")
    macros = sorted(_names("statement_macros.txt"), key=len, reverse=True)
    macro_re = re.compile(rb"(?m)^[ \t]*(" + b"|".join(re.escape(m.encode()) for m in macros) + rb")\b")
    return qualifier_re, words, frozenset(w.encode() for w in with_args), macro_re


# `<<<` ... `>>>` on one statement (no ';' or '{' inside); `>>>` alone also closes nested templates, so the
# launch is only recognised when it opens with `<<<`.
_LAUNCH_RE = re.compile(rb"<<<[^;{}]*?>>>")


# `if ASCEND_IS_AIV {`: the macro expands to a parenthesised condition. Rewritten, same length, to
# `if(ASCEND_IS_AI) {` so the tree sees an if statement (the identifier inside is never read from the masked view).
_MACRO_IF_RE = re.compile(rb"\bif([ \t]+)([A-Z][A-Z0-9_]+)(?=\s*\{)")
# `obj.template Method(args)`: the disambiguator without template arguments is not in tree-sitter-cpp's grammar.
_DOT_TEMPLATE_RE = re.compile(rb"(?:\.|->)[ \t]*(template)[ \t]+(?=\w+[ \t]*[(<])")
# `inline [aicore] void f()`: an older spelling of the aicore qualifier.
_BRACKET_QUALIFIER_RE = re.compile(rb"\[aicore\]")
_DIRECTIVE_RE = re.compile(rb"(?m)^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b[^\n]*(?:\\\n[^\n]*)*")


# every byte becomes a space except line breaks (so line numbers stay true)
_BLANK_TABLE = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))


def _blank(buf: bytearray, start: int, end: int) -> None:
    buf[start:end] = bytes(buf[start:end]).translate(_BLANK_TABLE)


def _skip_space(data: bytes, i: int) -> int:
    n = len(data)
    while i < n and data[i] in b" \t\r\n":
        i += 1
    return i


def _balanced_end(data: bytes, i: int) -> int:
    """`data[i]` is '('; return the index after its matching ')' (or len(data) if unbalanced)."""
    depth = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _statement_end(data: bytes, i: int) -> int:
    """Index after the ';' that ends the statement starting at i (parentheses balanced), or before a newline-free end."""
    depth = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
        elif c == 0x3B and depth <= 0:
            return i + 1
        elif c in (0x7B, 0x7D) and depth <= 0:
            return i
        i += 1
    return n


def mask_source(data: bytes) -> bytes:
    """The bytes tree-sitter parses: same length as `data`, AscendC-only syntax replaced by spaces."""
    qualifier_re, words, with_args, macro_re = _patterns()
    buf = bytearray(data)
    for m in qualifier_re.finditer(data):
        if m.group(1) not in words:
            continue
        end = m.end()
        if m.group(1) in with_args:
            j = _skip_space(data, end)
            if j < len(data) and data[j] == 0x28:
                end = _balanced_end(data, j)
        _blank(buf, m.start(), end)
    for m in _LAUNCH_RE.finditer(data):
        _blank(buf, m.start(), m.end())
    for m in macro_re.finditer(data):
        end = m.end()
        j = _skip_space(data, end)
        if j < len(data) and data[j] == 0x28:
            end = _balanced_end(data, j)
            j = _skip_space(data, end)
        if j < len(data) and data[j] == 0x2E:  # chained registration: IMPL_OP(X).Tiling(f).InferShape(g);
            end = _statement_end(data, j)
        elif j < len(data) and data[j] == 0x3B:
            end = j + 1
        _blank(buf, m.start(1), end)
    for m in _MACRO_IF_RE.finditer(data):
        name = m.group(2)
        buf[m.start(1):m.end(2)] = b"(" + b" " * (len(m.group(1)) - 1) + name[:-1] + b")"
    for m in _BRACKET_QUALIFIER_RE.finditer(data):
        _blank(buf, m.start(), m.end())
    for m in _DOT_TEMPLATE_RE.finditer(data):
        _blank(buf, m.start(1), m.end(1))
    return bytes(buf)


def first_branch_view(masked: bytes) -> bytes:
    """`masked` with only the first branch of each `#if`/`#ifdef` kept (directives and later branches blanked).

    tree-sitter-cpp cannot parse a conditional that splits a declaration or an if/else chain; keeping one branch
    gives C++ a compiler could see. Used only as a second try for files whose normal view has errors.
    """
    buf = bytearray(masked)
    stack: list[bool] = []  # per open conditional: are we past its first branch?
    skip_from: int | None = None
    for m in _DIRECTIVE_RE.finditer(masked):
        kind = m.group(1)
        if kind in (b"if", b"ifdef", b"ifndef"):
            stack.append(False)
        elif kind in (b"elif", b"else") and stack:
            if not stack[-1] and all(not s for s in stack[:-1]) and skip_from is None:
                skip_from = m.start()
            stack[-1] = True
        elif kind == b"endif" and stack:
            stack.pop()
            if skip_from is not None and all(not s for s in stack):
                _blank(buf, skip_from, m.start())
                skip_from = None
        _blank(buf, m.start(), m.end())
    if skip_from is not None:
        _blank(buf, skip_from, len(buf))
    return bytes(buf)
