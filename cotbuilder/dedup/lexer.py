"""`tokens.tokens` for a whole shard at once, compiled (numba): one pass over the bytes per document.

Why our own compiled loop and not a library: dedup needs, for 100k+ documents, the exact token stream of
`tokens.tokens` (comments out, literals, numbers, C++ operators) as token ids plus the normalised text's sha256.
Regex engines the ecosystem ships (polars/Rust regex, Arrow/RE2) find the tokens at ~30 ns each but pay twice that
again to hand every token back as a string (polars `extract_all` was 55% of dedup's CPU time); tree-sitter has no
token API short of a Python call per leaf. A state machine over the UTF-8 bytes, compiled by numba, finds and copies
the tokens for a few ns per byte. It writes the token bytes one after the other (so the token ids stay polars'
string hash of the same tokens: the signatures are bit for bit those of `tokens.token_lists`) and each document's
tokens joined by one space (what `tokens.code_hash` hashes).

The loop spells out the two regexes of `tokens` (`_COMMENT_RE`, then `_TOKEN_RE` over its result) for ASCII text.
Where the two spellings could part it does not guess: a document is handed back as `fallback` (to `token_lists`)
when a byte outside comments and literals is not ASCII or is an ASCII "information separator" (\\x1c-\\x1f: Python's
`\\s` and Rust's differ on them), or when a number holds a `'` digit separator (the Rust comment stripper of
`token_lists` may read it as a char literal). tests/dedup pin that both give the same tokens.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numba import njit

# byte classes
_OTHER, _WORD, _SPACE, _SEP, _HIGH = 0, 1, 2, 3, 4


def _classes() -> np.ndarray:
    table = np.zeros(256, dtype=np.uint8)  # _OTHER: punctuation and control bytes (`[^\s\w]`: one-byte tokens)
    for c in b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_":
        table[c] = _WORD
    for c in b" \t\n\r\x0b\x0c":
        table[c] = _SPACE
    table[0x1C:0x20] = _SEP
    table[0x80:] = _HIGH
    return table


_CLASS = _classes()
_DIRECTIVES = (b"include", b"define", b"if", b"ifdef", b"ifndef", b"else", b"elif", b"endif", b"pragma", b"undef")
# the directive words, NUL-separated, for the compiled lookahead (numba takes arrays, not tuples of bytes)
_DIRECTIVE_BYTES = np.frombuffer(b"\0".join(_DIRECTIVES) + b"\0", dtype=np.uint8).copy()
_ASSIGN_OPS = np.zeros(256, dtype=np.bool_)  # `[-+*/%&|^!=<>]=`
for _c in b"-+*/%&|^!=<>":
    _ASSIGN_OPS[_c] = True


@njit(cache=True, nogil=True)
def _literal_end(s, p, n):
    """End (exclusive) of the quoted literal opening at s[p], or -1: `"(?:\\\\.|[^"\\\\\\n])*"` (and the `'` form)."""
    quote = s[p]
    q = p + 1
    while q < n:
        c = s[q]
        if c == 92:  # backslash: escapes any next byte, a newline too (re.S)
            if q + 1 >= n:
                return -1
            q += 2
        elif c == quote:
            return q + 1
        elif c == 10:
            return -1
        else:
            q += 1
    return -1


@njit(cache=True, nogil=True)
def _is_space(c):
    return c == 32 or (9 <= c <= 13) or (0x1C <= c <= 0x1F)


@njit(cache=True, nogil=True)
def _unicode_space(s, p, n):
    """Length of the UTF-8 encoded non-ASCII white space at s[p] (Python's and Rust's `\\s`), else 0."""
    a = s[p]
    b = s[p + 1] if p + 1 < n else 0
    c = s[p + 2] if p + 2 < n else 0
    if a == 0xC2 and (b == 0x85 or b == 0xA0):
        return 2
    if (a == 0xE1 and b == 0x9A and c == 0x80) or (a == 0xE3 and b == 0x80 and c == 0x80):
        return 3
    if a == 0xE2 and b == 0x80 and (0x80 <= c <= 0x8A or c == 0xA8 or c == 0xA9 or c == 0xAF):
        return 3
    if a == 0xE2 and b == 0x81 and c == 0x9F:
        return 3
    return 0


@njit(cache=True, nogil=True)
def _directive_end(s, p, n, classes, words):
    """After a `#` at s[p-1]: the end of `\\s*(?:include|define|...)\\b` when the rest starts so, else 0 (a Python
    comment), or -1 when only Unicode could tell (a non-ASCII byte right after the word)."""
    while p < n:
        if _is_space(s[p]):
            p += 1
        elif s[p] >= 0x80 and _unicode_space(s, p, n):
            p += _unicode_space(s, p, n)
        else:
            break
    start = 0
    for k in range(len(words)):
        if words[k] != 0:
            continue
        length = k - start
        if p + length <= n:
            same = True
            for j in range(length):
                if s[p + j] != words[start + j]:
                    same = False
                    break
            if same:
                end = p + length
                if end == n:
                    return end
                cls = classes[s[end]]
                if cls == 4:
                    return -1
                if cls != 1:
                    return end
        start = k + 1
    return 0


@njit(cache=True, nogil=True)
def _strip_comments(s, n, out, cuts, classes, words):
    """`tokens._COMMENT_RE.sub(...)`: comments become one space, literals and everything else stay. Returns (output
    length, or -1 when the document must take the fallback; the number of cuts). `cuts` gets, in order, the output
    positions where `token_lists`' Rust stripper puts a space the Python one does not (after a literal or a directive
    word): harmless unless one falls inside a token (see _tokenise)."""
    ncuts = 0
    p = 0
    m = 0
    while p < n:
        c = s[p]
        if c == 47 and p + 1 < n and s[p + 1] == 47:  # //...
            p += 2
            while p < n and s[p] != 10:
                p += 1
            out[m] = 32
            m += 1
            continue
        if c == 47 and p + 1 < n and s[p + 1] == 42:  # /* ... */ or to the end
            q = p + 2
            while q < n and not (s[q] == 42 and q + 1 < n and s[q + 1] == 47):
                q += 1
            p = n if q >= n else q + 2
            out[m] = 32
            m += 1
            continue
        e = -1
        if c == 35:  # `#`: a Python comment unless a directive follows
            e = _directive_end(s, p + 1, n, classes, words)
            if e < 0:
                return -1, 0
            if e == 0:
                while p < n and s[p] != 10:
                    p += 1
                out[m] = 32
                m += 1
                continue
        elif c == 34 or c == 39:
            e = _literal_end(s, p, n)
        if e > 0:  # a literal or a directive: kept, and the Rust stripper's space after it noted
            while p < e:
                out[m] = s[p]
                m += 1
                p += 1
            cuts[ncuts] = m
            ncuts += 1
            continue
        out[m] = c
        m += 1
        p += 1
    return m, ncuts


@njit(cache=True, nogil=True)
def _is_digit(c):
    return 48 <= c <= 57


@njit(cache=True, nogil=True)
def _is_hex(c):
    return (48 <= c <= 57) or (65 <= c <= 70) or (97 <= c <= 102) or c == 39


@njit(cache=True, nogil=True)
def _int_suffix(s, q, n):
    """`[uUlL]*`"""
    while q < n and (s[q] == 117 or s[q] == 85 or s[q] == 108 or s[q] == 76):
        q += 1
    return q


@njit(cache=True, nogil=True)
def _float_suffix(s, q, n):
    """`[fFuUlL]*`"""
    while q < n and (s[q] == 102 or s[q] == 70 or s[q] == 117 or s[q] == 85 or s[q] == 108 or s[q] == 76):
        q += 1
    return q


@njit(cache=True, nogil=True)
def _number_end(s, p, n):
    """End of the number token at s[p] (a digit, or `.` + digit): the hex, then the decimal form of `_TOKEN_RE`."""
    if s[p] == 48 and p + 1 < n and (s[p + 1] == 120 or s[p + 1] == 88):
        q = p + 2
        while q < n and _is_hex(s[q]):
            q += 1
        if q > p + 2:
            return _int_suffix(s, q, n)
    q = p + 1
    if s[p] == 46:  # `\.\d+`
        while q < n and _is_digit(s[q]):
            q += 1
    else:  # `\d[\d']*\.?\d*`
        while q < n and (_is_digit(s[q]) or s[q] == 39):
            q += 1
        if q < n and s[q] == 46:
            q += 1
        while q < n and _is_digit(s[q]):
            q += 1
    if q < n and (s[q] == 101 or s[q] == 69):  # `(?:[eE][+-]?\d+)?`
        r = q + 1
        if r < n and (s[r] == 43 or s[r] == 45):
            r += 1
        if r < n and _is_digit(s[r]):
            while r < n and _is_digit(s[r]):
                r += 1
            q = r
    return _float_suffix(s, q, n)


@njit(cache=True, nogil=True)
def _operator_end(s, p, n, assign):
    """`::|->\\*?|\\+\\+|--|<<=|>>=|<=>|&&|\\|\\||[-+*/%&|^!=<>]=|<<|>>|\\#\\#|\\.\\.\\.|[^\\s\\w]`, first that fits."""
    c = s[p]
    d = s[p + 1] if p + 1 < n else 0
    e = s[p + 2] if p + 2 < n else 0
    if c == 58 and d == 58:  # ::
        return p + 2
    if c == 45 and d == 62:  # -> ->*
        return p + 3 if e == 42 else p + 2
    if (c == 43 and d == 43) or (c == 45 and d == 45):  # ++ --
        return p + 2
    if (c == 60 and d == 60 and e == 61) or (c == 62 and d == 62 and e == 61) or (c == 60 and d == 61 and e == 62):
        return p + 3  # <<= >>= <=>
    if (c == 38 and d == 38) or (c == 124 and d == 124):  # && ||
        return p + 2
    if assign[c] and d == 61:  # x=
        return p + 2
    if (c == 60 and d == 60) or (c == 62 and d == 62) or (c == 35 and d == 35):  # << >> ##
        return p + 2
    if c == 46 and d == 46 and e == 46:  # ...
        return p + 3
    return p + 1


@njit(cache=True, nogil=True)
def _tokenise(s, words, n, cuts, ncuts, views, t0, joined, j0, classes, assign):
    """`tokens._TOKEN_RE.findall` over s[:n] (`words`: the same bytes as aligned 64-bit words, for `_view`): the
    tokens joined by one space written at joined[j0:], and an Arrow string view per token (into `joined`) at
    views[t0:]. Returns (tokens, joined bytes), or tokens = -1 to fall back,
    -2 when `views` is full."""
    p = 0
    t = t0
    j = j0
    ci = 0
    while p < n:
        c = s[p]
        cls = classes[c]
        if cls == 2:
            p += 1
            continue
        if cls == 3 or cls == 4:
            return -1, 0
        end = -1
        if c == 34 or c == 39:
            end = _literal_end(s, p, n)
        if end < 0 and (_is_digit(c) or (c == 46 and p + 1 < n and _is_digit(s[p + 1]))):
            end = _number_end(s, p, n)
        if end < 0 and cls == 1:  # an identifier (a digit started a number above)
            end = p + 1
            while end < n and classes[s[end]] == 1:
                end += 1
            if end < n and classes[s[end]] == 4:
                return -1, 0  # Python's \w goes on into non-ASCII letters
        if end < 0:
            end = _operator_end(s, p, n, assign)
        while ci < ncuts and cuts[ci] <= p:
            ci += 1
        if ci < ncuts and cuts[ci] < end:
            return -1, 0  # the Rust stripper's space would split this token: token_lists decides
        if 2 * t + 2 > len(views):
            return -2, 0  # out of room: the caller retries with more
        if t > t0:
            joined[j] = 32
            j += 1
        _view(views, t, words, p, end - p, j)
        for q in range(p, end):
            joined[j] = s[q]
            j += 1
        t += 1
        p = end
    return t - t0, j - j0


_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_SLACK = 24  # bytes past the text of the buffer `_tokenise` reads: `_view` reads the 3 words from a token's start


@njit(cache=True, nogil=True)
def _view(views, t, words, p, length, at):
    """Arrow's 16-byte string view of the token of `length` bytes at byte p of `words` (a little-endian uint64 view of
    the text), whose bytes are at `at` in data buffer 0, as two little-endian 64-bit words: the length and the first
    4 bytes, then the next 8 bytes inline when the token fits in 12 (zero padded), else buffer index 0 and the
    offset. Without a branch on the length or the alignment: the 12 bytes from p are shifted out of the 3 aligned
    words around them (`words` has _SLACK bytes of room past the text), then masked. Token lengths vary from one token
    to the next, so a loop or a branch on them mispredicts: byte loops were 40% of the lexer's time."""
    i = p >> 3
    shift = np.uint64(8 * (p & 7))
    a, b, c = words[i], words[i + 1], words[i + 2]
    # (x << 1) << (63 - shift) is x << (64 - shift), and 0 when shift is 0 (a 64-bit shift would be undefined)
    w0 = (a >> shift) | ((b << np.uint64(1)) << (np.uint64(63) - shift))
    w1 = (b >> shift) | ((c << np.uint64(1)) << (np.uint64(63) - shift))
    w0 &= _ONES >> np.uint64(64 - 8 * min(length, 8))  # a token has at least one byte: the shift is at most 56
    w1 &= (np.uint64(1) << np.uint64(8 * min(max(length - 8, 0), 4))) - np.uint64(1)
    views[2 * t] = np.uint64(length) | (w0 << np.uint64(32))
    inline = (w0 >> np.uint64(32)) | (w1 << np.uint64(32))
    views[2 * t + 1] = inline if length <= 12 else np.uint64(at) << np.uint64(32)


@njit(cache=True, nogil=True)
def _lex(data, offsets, views, joined, classes, words, assign):
    """Every document's tokens into `views` (2 words per token) and `joined` (room for twice the input bytes).
    Returns (tokens, joined bytes, tokens per document, joined offsets, fallback flags); tokens = -1 when `views` ran
    out of room."""
    docs = len(offsets) - 1
    longest = 0
    for d in range(docs):
        longest = max(longest, offsets[d + 1] - offsets[d])
    stripped = np.zeros((longest + _SLACK + 7) // 8 * 8, dtype=np.uint8)
    stripped_words = stripped.view(np.uint64)  # the same bytes, for _view
    cuts = np.empty(longest + 1, dtype=np.int64)
    counts = np.zeros(docs, dtype=np.int64)
    joined_offsets = np.zeros(docs + 1, dtype=np.int64)
    fallback = np.zeros(docs, dtype=np.bool_)
    t = 0
    j = 0
    for d in range(docs):
        s = data[offsets[d] : offsets[d + 1]]
        n, ncuts = _strip_comments(s, len(s), stripped, cuts, classes, words)
        k = -1
        if n >= 0:
            k, dj = _tokenise(stripped, stripped_words, n, cuts, ncuts, views, t, joined, j, classes, assign)
        if k == -2:
            return -1, 0, counts, joined_offsets, fallback
        if k < 0:
            fallback[d] = True
        else:
            counts[d] = k
            t += k
            j += dj
        joined_offsets[d + 1] = j
    return t, j, counts, joined_offsets, fallback


@dataclass
class Lexed:
    """The tokens of a batch of documents. A `fallback` document has none here: take it through
    `tokens.token_lists`."""

    tokens: pa.Array  # Arrow string view array: every other document's tokens, one document after the other
    counts: np.ndarray  # tokens per document
    joined: np.ndarray  # each document's tokens joined by one space (UTF-8), one document after the other
    joined_offsets: np.ndarray  # document i is joined[joined_offsets[i]:joined_offsets[i + 1]]
    fallback: np.ndarray  # bool per document


_MAX_CHUNK = 1 << 29  # bytes lexed at once: a view addresses the joined text (< 2x this) with a 32-bit offset


def lex(codes: pa.Array, scratch: Scratch | None = None) -> Lexed:
    """Tokens of `codes` (an Arrow string array), as `tokens.tokens` would give them. With a `scratch`, the result
    lives in its buffers: valid until the next `lex` with the same scratch."""
    if sys.byteorder != "little":  # _view writes Arrow's views as little-endian words
        raise RuntimeError("the compiled lexer needs a little-endian machine; sign with compiled=False")
    if not (pa.types.is_string(codes.type) or pa.types.is_large_string(codes.type)):
        codes = codes.cast(pa.large_string())  # (string and large_string are read as they are: no copy, no compute)
    offsets = _offsets(codes)
    bounds = [0]
    while bounds[-1] < len(codes):  # chunks of at most _MAX_CHUNK bytes (or one longer document)
        first = bounds[-1]
        stop = int(np.searchsorted(offsets, offsets[first] + _MAX_CHUNK, side="right")) - 1
        bounds.append(min(len(codes), max(stop, first + 1)))
    if len(bounds) > 2:  # several chunks (a batch over _MAX_CHUNK bytes): each its own buffers, concatenated below
        scratch = None
    parts = [_lex_chunk(codes.slice(a, b - a), scratch) for a, b in itertools.pairwise(bounds)]
    parts = parts or [_lex_chunk(codes, scratch)]
    if len(parts) == 1:
        return parts[0]
    shifts = np.cumsum([0] + [len(p.joined) for p in parts[:-1]])
    return Lexed(
        pa.concat_arrays([p.tokens for p in parts]),
        np.concatenate([p.counts for p in parts]),
        np.concatenate([p.joined for p in parts]),
        np.concatenate([[0]] + [p.joined_offsets[1:] + shift for p, shift in zip(parts, shifts, strict=True)]),
        np.concatenate([p.fallback for p in parts]),
    )


def _offsets(codes: pa.Array) -> np.ndarray:
    """The string offsets of `codes` as int64 (a copy: the compiled code sees one array type whatever the input)."""
    width = np.int32 if pa.types.is_string(codes.type) else np.int64
    return np.array(
        np.frombuffer(codes.buffers()[1], dtype=width)[codes.offset : codes.offset + len(codes) + 1], np.int64
    )


def _lex_chunk(codes: pa.Array, scratch: Scratch | None) -> Lexed:
    offsets = _offsets(codes)
    data = codes.buffers()[2]
    data = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, dtype=np.uint8)
    size = int(offsets[-1] - offsets[0])
    new = scratch.take if scratch is not None else _fresh
    # The buffers are made here, not in the compiled code (numpy asks for huge pages for large arrays, which saves
    # most of the page faults of first touch; a scratch saves them all after its first use). Code has ~0.2 tokens per
    # byte; a denser batch is lexed again with room for one token per byte (the most there can be).
    joined = new("joined", 2 * size, np.uint8)
    for room in (size // 3 + 1024, size + 1):
        views = new("views", 2 * room, np.uint64)
        n, j, counts, joined_offsets, fallback = _lex(
            data, offsets, views, joined, _CLASS, _DIRECTIVE_BYTES, _ASSIGN_OPS
        )
        if n >= 0:
            break
    tokens = pa.Array.from_buffers(pa.string_view(), n, [None, pa.py_buffer(views[: 2 * n]), pa.py_buffer(joined[:j])])
    return Lexed(tokens, counts, joined[:j], joined_offsets, fallback)


def _fresh(name: str, size: int, dtype: type) -> np.ndarray:
    return np.empty(size, dtype=dtype)


class Scratch:
    """Buffers `lex` writes into and takes again on its next call. dedup's workers lex shard after shard: fresh
    buffers (~50 MB a shard) cost a page fault per page, and where memory is fragmented huge-page compaction, as much
    CPU as the lexing itself (measured: 45 µs of system time per kernel beside 25 µs of lexing, on a loaded machine).
    One per thread: what `lex` returns with it is valid until its next call."""

    def __init__(self) -> None:
        self._buffers: dict[str, np.ndarray] = {}

    def take(self, name: str, size: int, dtype: type) -> np.ndarray:
        buffer = self._buffers.get(name)
        if buffer is None or len(buffer) < size:
            buffer = np.empty(size + size // 4, dtype=dtype)  # room to spare: shards differ a little in size
            self._buffers[name] = buffer
        return buffer[:size]
