"""One consistent configuration of a file's `#if` / `#ifdef` / `#ifndef` / `#elif` / `#else` conditionals.

tree-sitter-cpp reads each conditional branch as if the others were not there. When a branch splits one declaration
(`#if A` `void f(int a) {` `#else` `void f(long a) {` `#endif`), both halves together are not C++ and the tree gets an
ERROR node. A compiler sees one branch only; this module picks one, the way a preprocessor would with one set of
macros, and blanks the directives and every inactive branch (same byte length, newlines kept).

The macro set is guessed, consistently for the whole file: `#if 0` is false, `#if 1` true; a macro's definedness is
what the first conditional naming it assumes when its first branch is taken (`#ifdef X` -> defined, `#ifndef X` ->
undefined), a `#define X` / `#undef X` in kept code updates it, and every later test of the same macro obeys that
choice. `#ifdef __CCE_AICORE__` ... `#ifndef __CCE_AICORE__` therefore keep complementary code, as a compiler would.
Any other condition keeps its first branch.
"""

from __future__ import annotations

import re

_DIRECTIVE_RE = re.compile(
    rb"(?m)^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define|undef)\b([^\n]*(?:\\\r?\n[^\n]*)*)"
)
_NAME_RE = re.compile(rb"\s*([A-Za-z_]\w*)")
# conditions about one macro: `X`, `!X`, `defined X`, `defined(X)`, `!defined(X)` (a trailing comment allowed)
_ONE_MACRO_RE = re.compile(rb"\s*(!?)\s*(defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)|([A-Za-z_]\w*))\s*(?://.*|/\*.*)?$")
_LITERAL_RE = re.compile(rb"\s*\(?\s*(0|1|true|false)\s*\)?\s*(?://.*|/\*.*)?$")

_BLANK_TABLE = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))


class _Frame:
    __slots__ = ("parent_active", "taken", "active")

    def __init__(self, parent_active: bool, active: bool):
        self.parent_active = parent_active
        self.taken = active  # some branch of this conditional was kept already
        self.active = active


def _decide(kind: bytes, rest: bytes, defined: dict[bytes, bool]) -> bool:
    """Whether the branch that starts here is kept (the first time a macro is tested, the answer is 'yes')."""
    if kind in (b"ifdef", b"ifndef"):
        m = _NAME_RE.match(rest)
        if m is None:
            return True
        name = m.group(1)
        if name not in defined:
            defined[name] = kind == b"ifdef"
        return defined[name] == (kind == b"ifdef")
    lit = _LITERAL_RE.match(rest)
    if lit is not None:
        return lit.group(1) in (b"1", b"true")
    one = _ONE_MACRO_RE.match(rest)
    if one is None:
        return True
    negated = one.group(1) == b"!"
    if one.group(5) is not None:  # `#if X`: X's value, not its definedness; only remember "true" guesses
        name = one.group(5)
        if name not in defined:
            defined[name] = not negated
        return defined[name] != negated
    name = one.group(3) or one.group(4)
    if name not in defined:
        defined[name] = not negated
    return defined[name] != negated


def consistent_branch_view(masked: bytes) -> bytes:
    """`masked` with conditional directives blanked and only the branches of one macro configuration kept."""
    buf = bytearray(masked)
    defined: dict[bytes, bool] = {}
    stack: list[_Frame] = []
    skip_from: int | None = None  # start of the inactive region being blanked

    def active() -> bool:
        return not stack or stack[-1].active

    for m in _DIRECTIVE_RE.finditer(masked):
        kind, rest = m.group(1), m.group(2)
        was_active = active()
        if kind in (b"define", b"undef"):
            if was_active:
                name = _NAME_RE.match(rest)
                if name is not None:
                    defined[name.group(1)] = kind == b"define"
            continue  # #define lines are C++ tree-sitter reads; keep them
        if kind in (b"if", b"ifdef", b"ifndef"):
            keep = was_active and _decide(kind, rest, defined)
            stack.append(_Frame(was_active, keep))
        elif kind in (b"elif", b"else") and stack:
            top = stack[-1]
            if top.taken or not top.parent_active:
                top.active = False
            else:
                top.active = True if kind == b"else" else _decide(b"if", rest, defined)
                top.taken = top.active
        elif kind == b"endif" and stack:
            stack.pop()
        else:
            continue  # a stray #else/#endif: leave it for tree-sitter to report
        now_active = active()
        if was_active and not now_active:
            skip_from = m.end()
        elif not was_active and now_active and skip_from is not None:
            buf[skip_from : m.start()] = masked[skip_from : m.start()].translate(_BLANK_TABLE)
            skip_from = None
        buf[m.start() : m.end()] = masked[m.start() : m.end()].translate(_BLANK_TABLE)
    if skip_from is not None:
        buf[skip_from:] = masked[skip_from:].translate(_BLANK_TABLE)
    return bytes(buf)
