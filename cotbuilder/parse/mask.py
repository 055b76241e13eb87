"""Blank out what tree-sitter-cpp cannot read in AscendC code, keeping every byte offset and line number true.

AscendC adds keywords (`__aicore__`, `__gm__`, ...), the `<<<blockDim, l2ctrl, stream>>>` launch syntax and
declaration-like macros (`BEGIN_TILING_DATA_DEF(...)` without a semicolon). Each is replaced by spaces of the same
byte length (newlines kept), so positions in the masked bytes are positions in the original file: diagnostics and
extracted facts point at the real source, and the original text can be sliced with node offsets.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

from ..paths import package_data
from .macro_calls import mask_macro_calls, mask_statement_args, mask_type_macro_aliases


def _names(filename: str) -> list[str]:
    lines = package_data(f"parse/data/{filename}").read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


@dataclass(frozen=True)
class _Patterns:
    dunder_re: re.Pattern[bytes]
    others_re: re.Pattern[bytes] | None
    others: list[bytes]
    words: frozenset[bytes]
    with_args: frozenset[bytes]
    macro_probes: list[tuple[bytes, list[bytes]]]
    macro_first_re: re.Pattern[bytes]
    macro_line_re: re.Pattern[bytes]


@cache
def _patterns() -> _Patterns:
    plain, with_args = [], []
    for name in _names("qualifiers.txt"):
        if name.endswith("(...)"):
            with_args.append(name[: -len("(...)")])
        else:
            plain.append(name)
    words = frozenset(w.encode() for w in plain + with_args)
    # scan for any dunder word (a literal "__" prefix: fast) and keep the listed ones; the few other listed words
    # are looked for by name, and only in files that contain one of them
    others = [w for w in sorted(words, key=len, reverse=True) if not (w.startswith(b"__") and w.endswith(b"__"))]
    dunder_re = re.compile(rb"__\w+?__(?!\w)")
    others_re = re.compile(b"|".join(re.escape(w) for w in others) + rb"(?!\w)") if others else None
    macros = sorted((m.encode() for m in _names("statement_macros.txt")), key=len, reverse=True)
    alternation = b"|".join(re.escape(m) for m in macros)
    # a statement macro alone at the start of a line, `(?m)^[ \t]*(MACRO)\b`, looked for from each newline (a literal
    # prefix re jumps to) and at the very start, instead of trying `^` at every byte
    return _Patterns(
        dunder_re,
        others_re,
        others,
        words,
        frozenset(w.encode() for w in with_args),
        _probes(macros),
        re.compile(rb"[ \t]*(" + alternation + rb")\b"),
        re.compile(rb"\n[ \t]*(" + alternation + rb")\b"),
    )


def _probes(macros: list[bytes]) -> list[tuple[bytes, list[bytes]]]:
    """A few words that cover the macro names, each with the names it is in: a file holds some macro only if it holds
    one of the words, so most files are searched for five words instead of twenty names. Greedy: the run of whole
    `_`-separated words (4 bytes or more) in most of the names not covered yet, longest first."""
    # a name that holds another one is found by it
    names = [m for m in macros if not any(o != m and o in m for o in macros)]
    left, probes = set(names), []
    while left:
        words = set(left)
        for m in left:
            parts = m.split(b"_")
            runs = (b"_".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1))
            words.update(w for w in runs if len(w) >= 4)
        word = max(sorted(words), key=lambda w: (sum(w in m for m in left), len(w)))
        covered = [m for m in names if m in left and word in m]
        probes.append((word, covered))
        left -= set(covered)
    return probes


# bytes that continue a word before a qualifier (`_word_start`)
_WORD_BYTES = frozenset(b for b in range(256) if b == 0x5F or chr(b).isalnum())


def _word_start(data: bytes, i: int) -> bool:
    return i == 0 or not (data[i - 1] == 0x5F or chr(data[i - 1]).isalnum())


def _on_directive_line(data: bytes, i: int) -> bool:
    """`#ifndef __aicore__`, `#define __aicore__ [aicore]`: there a qualifier is a macro NAME and must stay."""
    line_start = data.rfind(b"\n", 0, i) + 1
    return data[line_start:i].lstrip(b" \t").startswith(b"#")


# `<<<` ... `>>>` on one statement (no ';' or '{' inside); `>>>` alone also closes nested templates, so the
# launch is only recognised when it opens with `<<<`.
_LAUNCH_RE = re.compile(rb"<<<[^;{}]*?>>>")


# `if ASCEND_IS_AIV {`: the macro expands to a parenthesised condition. Rewritten, same length, to
# `if(ASCEND_IS_AI) {` so the tree sees an if statement (the identifier inside is never read from the masked view).
_MACRO_IF_RE = re.compile(rb"if([ \t]+)([A-Z][A-Z0-9_]+)(?=\s*\{)")
# `obj.template Method(args)`: the disambiguator without template arguments is not in tree-sitter-cpp's grammar.
_DOT_TEMPLATE_RE = re.compile(rb"(template)[ \t]+(?=\w+[ \t]*[(<])")  # preceded by `.` / `->` (checked)
# `inline [aicore] void f()`: an older spelling of the aicore qualifier.
_BRACKET_QUALIFIER_RE = re.compile(rb"\[aicore\]")
# `#define LOG(fmt, args...)`: GNU named variadic parameter; tree-sitter knows only the bare `...`. Found from the
# `#` (a match is one line; that only blanks precede the `#` on its line is checked after)
_NAMED_VARIADIC_RE = re.compile(rb"#[ \t]*define[ \t]+\w+\([^)\n]*?(\w+)\.\.\.\)")
# `(this->*fn)(x)`, `(obj.*fn)(x)`: a call through a pointer to member; tree-sitter-cpp has no `->*` operator. One
# pattern per operator, each opening with it (two matches cannot overlap: each ends at its `*`).
_PTR_TO_MEMBER_RES = (
    re.compile(rb"->\*(?=[ \t]*[A-Za-z_(])"),
    re.compile(rb"\.\*(?<=[A-Za-z_)\]]\.\*)(?=[ \t]*[A-Za-z_(])"),
)


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
    pat = _patterns()
    words, with_args = pat.words, pat.with_args
    buf = bytearray(data)
    others = ()
    if pat.others_re is not None and any(w in data for w in pat.others):
        others = pat.others_re.finditer(data)
    for m in itertools.chain(pat.dunder_re.finditer(data), others):  # blanking is the same in any order
        word = m.group()
        if word not in words:
            continue  # a dunder name that is no qualifier
        start, end = m.span()
        if start and data[start - 1] in _WORD_BYTES:
            continue  # inside a longer word
        line_start = data.rfind(b"\n", 0, start) + 1
        if data.find(b"#", line_start, start) >= 0 and _on_directive_line(data, start):
            continue
        if word in with_args:
            j = _skip_space(data, end)
            if j < len(data) and data[j] == 0x28:
                end = _balanced_end(data, j)
            _blank(buf, start, end)  # the arguments may span lines
        else:
            buf[start:end] = b" " * (end - start)  # one word, no line break in it
    for m in _LAUNCH_RE.finditer(data):
        _blank(buf, m.start(), m.end())
    if any(word in data and any(name in data for name in names) for word, names in pat.macro_probes):
        first = pat.macro_first_re.match(data)
        for m in itertools.chain((first,) if first else (), pat.macro_line_re.finditer(data)):
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
        if not _word_start(data, m.start()):
            continue
        name = m.group(2)
        buf[m.start(1) : m.end(2)] = b"(" + b" " * (len(m.group(1)) - 1) + name[:-1] + b")"
    for m in _BRACKET_QUALIFIER_RE.finditer(data):
        _blank(buf, m.start(), m.end())
    for m in _DOT_TEMPLATE_RE.finditer(data):
        before = data[max(0, m.start() - 8) : m.start()].rstrip(b" \t")
        if before.endswith((b".", b"->")):
            _blank(buf, m.start(1), m.end(1))
    for pattern in _PTR_TO_MEMBER_RES:
        for m in pattern.finditer(data):
            _blank(buf, m.end() - 1, m.end())  # the `*`
    if b"..." in data and b"#" in data:
        for m in _NAMED_VARIADIC_RE.finditer(data):
            line_start = data.rfind(b"\n", 0, m.start()) + 1
            if not data[line_start : m.start()].strip(b" \t"):
                _blank(buf, m.start(1), m.end(1))
    if b"using" in data:
        mask_type_macro_aliases(data, buf)
    if b"return" in data:
        mask_statement_args(data, buf)
    return bytes(buf)


def mask_macros(data: bytes, masked: bytes, errors: list[int] | None = None) -> bytes:
    """`masked` with the macro invocations tree-sitter cannot read also blanked (macro_calls.py); a second view,
    used for a file whose first parse has errors (at byte offsets `errors`)."""
    buf = bytearray(masked)
    mask_macro_calls(data, buf, errors)
    return bytes(buf)
