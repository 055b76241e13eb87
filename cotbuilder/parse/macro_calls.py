"""Function-like macro invocations that are not C++ expressions, blanked so tree-sitter reads the code around them.

A macro is a name written in capitals (`LOCAL_TENSOR_REGISTER`, `MOCKER`) or one the file itself `#define`s with
parameters (`#define Sync(SRC, DST) {...}`). Three uses of one cannot be parsed without expanding it:

- a type where an expression must be: `MOCKER(raise, int (*)(int)).stubs()`, `ALIGN_UP(n, float)` -> the arguments
  are blanked, the parentheses stay (`MOCKER(                  ).stubs()` is a call chain);
- a type-producing macro in an alias: `using One = MAKE_CONST(T, 1);` -> the argument list with its parentheses is
  blanked (`using One = MAKE_CONST        ;` aliases a type name);
- a statement or declaration macro without a semicolon, alone at the start of a line and followed by more code
  (`LOCAL_TENSOR_REGISTER(a, T, A1, 0, n)` then the next statement) -> the whole invocation is blanked;
- a base class named by a macro: `class Impl : IMPORT_MODULE(CubeIn), IMPORT_MODULE(Tiling) {` -> the argument
  lists are blanked (the macro names stay as base type names);
- a declaration macro at namespace scope where the first parse failed on the invocation itself
  (`INSTANTIATE_CASE(int8_t, 32);` between two functions: an ERROR node starting at its name, or a ';' missing right
  after it) -> the invocation with its `;` is blanked. An error inside its arguments is left alone (reported).

Nothing else is touched: a real syntax error in ordinary code still gives an ERROR node.
"""

from __future__ import annotations

import bisect
import re

_BLANK_TABLE = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))

_CAPS_CALL_RE = re.compile(rb"(?<![\w.])(?<!->)((?:\w+::)*[A-Z_][A-Z0-9_]*[A-Z0-9])[ \t]*\(")
# The same matches found from the other end of the reversed bytes. Forwards, the pattern opens with lookbehinds, so
# the re module tries it at every byte of the file; reversed, it opens with the literal '(' that re jumps to (a
# tenth of the time, on real code). Greedy `(?:::\w+)*` backed off until the lookaheads hold gives the longest valid
# chain: the forward scan's leftmost start. `_calls` maps the matches back.
_CAPS_CALL_REVERSED_RE = re.compile(rb"\([ \t]*([A-Z0-9][A-Z0-9_]*[A-Z_](?:::\w+)*)(?![\w.])(?!>-)")
_CLASS_HEAD_RE = re.compile(rb"\b(?:class|struct)[ \t]+\w+[ \t]*(?:final[ \t]*)?:(?!:)([^;{}]*)\{")
# `#define NAME(` at the start of a line, found from the '#' (the line start is checked after: a match is one line)
_DEFINE_FN_RE = re.compile(rb"#[ \t]*define[ \t]+(\w+)\(")
_ALIAS_RE = re.compile(rb"using[ \t]+\w+[ \t]*=[ \t]*(?:typename[ \t]+)?([A-Z_][A-Z0-9_]*)[ \t]*\(")
# a builtin type keyword as a whole word: an argument _TYPE_ARG_RE takes holds one, or a '(' (a function pointer)
_TYPE_WORD_RE = re.compile(rb"(?<!\w)(?:void|bool|char|short|int|long|float|double|unsigned|signed)(?!\w)")
# an argument that can only be a type: a builtin type keyword (with cv / pointer decoration) or a function pointer type
_TYPE_ARG_RE = re.compile(
    rb"^\s*(?:const\s+|volatile\s+)*(?:(?:unsigned|signed)\s+)?"
    rb"(?:void|bool|char|short|int|long|float|double|unsigned|signed)(?:\s+(?:long|int|const))*[\s*&]*$"
    rb"|\(\s*[*&]\s*\)\s*\("
)
# the same inside a parenthesised group of the arguments: `CHECK_API(Exp, (float, false), (dst, src))`; in such a
# group a dtype name (`(uint8_t, false)`, `(half, true)`) is a template argument list too, never a comma expression
_NESTED_TYPE_ARG_RE = re.compile(
    rb"(?<![\w\s])\s*\(\s*(?:const\s+)?(?:(?:unsigned|signed)\s+)?"
    rb"(?:void|bool|char|short|int|long|float|double|half|bfloat16_t|\w+_t(?=\s*,))\s*[*&]*\s*[,)]"
)
# after a statement macro, what may follow: an identifier, a closing brace or a directive (checked after comments)
_FOLLOWERS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_}#")
_NOT_STATEMENT_WORDS = frozenset(
    {
        b"const",
        b"override",
        b"final",
        b"noexcept",
        b"volatile",
        b"throw",
        b"requires",
        b"mutable",
        b"and",
        b"or",
        b"xor",
        b"bitand",
        b"bitor",
        b"not_eq",
        b"and_eq",
        b"or_eq",
        b"xor_eq",
        b"try",
    }
)
_WORD_RE = re.compile(rb"\w+")


def _blank(buf: bytearray, data: bytes, start: int, end: int) -> None:
    buf[start:end] = data[start:end].translate(_BLANK_TABLE)


_SCAN_RE = re.compile(rb"[(){};\"']")


def _close(data: bytes, i: int) -> int:
    """`data[i]` is '('; the index after its matching ')', skipping string and char literals. -1 when unbalanced or
    when a ';' outside any braces comes first (then it is not one invocation)."""
    depth = braces = 0
    n = len(data)
    scan = _SCAN_RE.search
    while True:
        m = scan(data, i)
        if m is None:
            return -1
        i = m.start()
        c = data[i]
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == 0x7B:
            braces += 1
        elif c == 0x7D:
            braces -= 1
        elif c == 0x3B:
            if braces <= 0:
                return -1
        else:  # "..." or '...' (a lone ' in a digit separator ends at the line end)
            j = i + 1
            while j < n and data[j] != c and data[j] != 0x0A:
                j += 2 if data[j] == 0x5C else 1
            i = j
        i += 1


_ARG_SPLIT_RE = re.compile(rb"[()\[\]{},]")


def _top_level_args(inner: bytes) -> list[bytes]:
    """Split at commas outside brackets (angle brackets are not counted: `a->b` and `a < b` would unbalance them;
    a template's pieces never look like a bare type keyword anyway)."""
    args, depth, start = [], 0, 0
    for m in _ARG_SPLIT_RE.finditer(inner):  # only brackets and commas matter
        i = m.start()
        c = inner[i]
        if c in b"([{":
            depth += 1
        elif c in b")]}":
            depth -= 1
        elif depth == 0:  # a comma
            args.append(inner[start:i])
            start = i + 1
    args.append(inner[start:])
    return args


def _next_code(data: bytes, i: int) -> int:
    """Index of the next character that is not blank or inside a comment."""
    n = len(data)
    while i < n:
        c = data[i]
        if c in b" \t\r\n\\":
            i += 1
        elif data.startswith(b"//", i):
            j = data.find(b"\n", i)
            i = n if j < 0 else j
        elif data.startswith(b"/*", i):
            j = data.find(b"*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            return i
    return n


def _starts_line(data: bytes, i: int) -> bool:
    j = i - 1
    while j >= 0 and data[j] in b" \t":
        j -= 1
    return j < 0 or data[j] == 0x0A


def _on_directive_line(data: bytes, i: int) -> bool:
    line_start = data.rfind(b"\n", 0, i) + 1
    return data[line_start:i].lstrip().startswith(b"#")


def mask_type_macro_aliases(data: bytes, buf: bytearray) -> None:
    """`using One = MAKE_CONST(T, 1);` -> `using One = MAKE_CONST        ;` in `buf` (a same-length copy of `data`)."""
    for m in _ALIAS_RE.finditer(data):
        if m.start() and (data[m.start() - 1] == 0x5F or chr(data[m.start() - 1]).isalnum()):
            continue
        open_at = m.end() - 1
        end = _close(data, open_at)
        if end > 0:
            _blank(buf, data, open_at, end)


def mask_macro_calls(data: bytes, buf: bytearray, errors: list[int] | None = None) -> None:
    """Blank, in `buf` (a same-length copy of `data`), the macro invocations described in the module docstring.
    `errors`: byte offsets of the ERROR / MISSING nodes of the first parse."""
    if b"class" in data or b"struct" in data:
        for head in _CLASS_HEAD_RE.finditer(data):
            for m in _CAPS_CALL_RE.finditer(data, head.start(1), head.end(1)):
                end = _close(data, m.end() - 1)
                if end > 0:
                    _blank(buf, data, m.end() - 1, end)
    error_at = sorted(set(errors)) if errors else []
    names = None
    if b"#" in data and b"define" in data:
        names = {
            m.group(1)
            for m in _DEFINE_FN_RE.finditer(data)
            if not data[data.rfind(b"\n", 0, m.start()) + 1 : m.start()].strip(b" \t")
        }
    reversed_data = data[::-1]
    calls = _calls(_CAPS_CALL_REVERSED_RE, reversed_data)
    if names:
        # forwards: (?<![\w.>:])(name|...)[ \t]*\( ; reversed like _CAPS_CALL_REVERSED_RE (the name before a '(' is
        # a whole word, so one alternative at most can match there)
        local = re.compile(rb"\([ \t]*(" + b"|".join(re.escape(n[::-1]) for n in names) + rb")(?![\w.>:])")
        calls.extend(
            (start, open_at)
            for start, open_at in _calls(local, reversed_data)
            if not data[start:open_at].rstrip(b" \t").isupper()
        )
    for start, open_at in calls:
        if buf[open_at] != 0x28 or _on_directive_line(data, start):
            continue  # already blanked (inside an earlier macro) or a #define / #if line
        end = _close(data, open_at)
        if end < 0:
            continue
        nxt = _next_code(data, end)
        at_eof = nxt >= len(data)
        if (at_eof or (data[nxt] in _FOLLOWERS and nxt > data.find(b"\n", end) >= 0)) and _starts_line(data, start):
            word = _WORD_RE.match(data, nxt)
            if word is None or word.group() not in _NOT_STATEMENT_WORDS:
                _blank(buf, data, start, end)
                continue
        if (
            not at_eof
            and data[nxt] in _FOLLOWERS
            and data[nxt] != 0x23
            and _starts_line(data, start)
            and data.find(b"\n", end, nxt) < 0
        ):
            # same line: `Sync(V, MTE3) CopyOut(...)`
            word = _WORD_RE.match(data, nxt)
            if word is not None and word.group() not in _NOT_STATEMENT_WORDS and _is_statement_start(data, nxt):
                _blank(buf, data, start, end)
                continue
        ends_statement = (
            nxt >= len(data) or data[nxt] == 0x3B or (data[nxt] in _FOLLOWERS and data.find(b"\n", end, nxt) >= 0)
        )
        if (
            error_at
            and ends_statement
            and _starts_line(data, start)
            and _after_statement(data, start)
            and (_any_between(error_at, start, open_at) or _any_between(error_at, end, nxt + 1))
        ):
            # the parser failed on the invocation itself (at its name, or a ';' missing after it), not on a
            # token inside its arguments: `Values(Entry<T, 0 true>)` stays an error
            _blank(buf, data, start, nxt + 1 if nxt < len(data) and data[nxt] == 0x3B else end)
            continue
        inner = data[open_at + 1 : end - 1]
        if not (b"(" in inner or _TYPE_WORD_RE.search(inner)):
            continue  # neither type form can match (both need a type keyword or a '('): spare the argument split
        if any(_TYPE_ARG_RE.search(a) for a in _top_level_args(inner)) or _NESTED_TYPE_ARG_RE.search(inner):
            _blank(buf, data, open_at + 1, end - 1)


def _calls(pattern_reversed: re.Pattern[bytes], reversed_data: bytes) -> list[tuple[int, int]]:
    """(start of the name, index of the '(') of each match of a reversed call pattern, in file order."""
    n = len(reversed_data)
    out = [(n - m.end(1), n - 1 - m.start()) for m in pattern_reversed.finditer(reversed_data)]
    out.reverse()
    return out


def _any_between(sorted_offsets: list[int], lo: int, hi: int) -> bool:
    i = bisect.bisect_left(sorted_offsets, lo)
    return i < len(sorted_offsets) and sorted_offsets[i] <= hi


def _after_statement(data: bytes, i: int) -> bool:
    """What precedes `i` (blanks, whole-line comments and directive lines skipped) ends a statement or a block."""
    j = i
    while True:
        line_start = data.rfind(b"\n", 0, j) + 1
        before = data[line_start:j].strip()
        if before:
            return before.endswith((b";", b"{", b"}", b"*/", b"\\")) or before.startswith((b"//", b"#", b"*"))
        if line_start == 0:
            return True
        j = line_start - 1


_CALL_START_RE = re.compile(rb"[A-Za-z_][\w:<>, ]*\(")


def _is_statement_start(data: bytes, i: int) -> bool:
    """`data[i:]` looks like a call `name(...)` (so the macro before it stands alone as a statement)."""
    return _CALL_START_RE.match(data, i) is not None


_RETURN_RE = re.compile(rb"return\b")


def mask_statement_args(data: bytes, buf: bytearray) -> None:
    """`CHECK_RET(ret == 0, LOG("failed"); return ret);`, `OP_CHECK_IF(p == nullptr, LOGE(ctx, "null"), return X);`:
    a macro argument that holds statements (it contains `return`) is no expression. The argument is blanked with
    the comma before it (`CHECK_RET(ret == 0                          )` is a call)."""
    for m in _RETURN_RE.finditer(data):
        i = m.start()
        if i and (data[i - 1] == 0x5F or chr(data[i - 1]).isalnum()):
            continue
        end = _argument_end(data, m.end())
        if end < 0:
            continue  # an ordinary `return x;`
        start = _argument_start(data, i)
        if start >= 0 and data[start] == 0x2C:  # blank from the comma that opens this argument
            _blank(buf, data, start, end)


_ARGUMENT_SCAN_RE = re.compile(rb"[(){};\"']")


def _argument_end(data: bytes, i: int) -> int:
    """From inside an argument: the index of the ')' closing the call, or -1 when a ';' at the same level or a
    line with '{' / '}' comes first (a return statement, not an argument). Looks 2000 bytes ahead at most."""
    depth = 0
    n = len(data)
    limit = min(n, i + 2000)
    scan = _ARGUMENT_SCAN_RE.search
    while i < limit:
        m = scan(data, i, limit)  # the next byte that matters (the rest of the argument is skipped in C)
        if m is None:
            return -1
        i = m.start()
        c = data[i]
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            if depth == 0:
                return i
            depth -= 1
        elif c in (0x3B, 0x7B, 0x7D):
            if depth == 0:
                return -1
        else:  # a string or char literal
            j = i + 1
            while j < n and data[j] != c and data[j] != 0x0A:
                j += 2 if data[j] == 0x5C else 1
            i = j
        i += 1
    return -1


def _argument_start(data: bytes, i: int) -> int:
    """Backwards from `i`: the ',' (or '(') that begins the argument `i` lies in; -1 past a '{' / '}'."""
    depth = 0
    limit = max(0, i - 2000)
    i -= 1
    while i >= limit:
        c = data[i]
        if c == 0x29:
            depth += 1
        elif c == 0x28:
            if depth == 0:
                return i
            depth -= 1
        elif c == 0x2C and depth == 0:
            return i
        elif c in (0x7B, 0x7D) and depth == 0:
            return -1
        elif c == 0x22:  # skip a string literal backwards (escapes ignored: good enough for log messages)
            j = data.rfind(b'"', 0, i)
            if j < 0 or data.find(b"\n", j, i) >= 0:
                return -1
            i = j
        i -= 1
    return -1
