"""A small C++ lexer for similarity work: comments out, every other token kept.

Why a regex lexer and not tree-sitter leaves: dedup and decontamination only need a flat token stream (identifiers,
numbers, operators, string literals), must accept broken or partial code (snippets, question templates, Python
reference files) without a parse, and run over 100k kernels; one compiled regex does that at C speed, while walking a
tree-sitter tree costs a Python call per leaf. Web-text normalisers that strip punctuation are wrong for code:
`a[i] = b[i] * 2` and `a(i) = b(i) - 2` must not look alike, so operators and numbers stay tokens.

Three spellings of the same lexer:
- `tokens(code)`: one document, Python's `re` (decontamination, tests, small inputs);
- `token_lists(codes)`: a batch, polars string expressions (Rust's regex engine, no Python call per document or
  token). Rust's regex has no look-ahead, so the "a `#` that does not start a preprocessor directive is a Python
  comment" rule is written as an alternation that matches the directive first (and keeps it); otherwise the patterns
  are the same, and tests/dedup pin that both give the same tokens.
- `id_batch(codes)`: dedup's path over 100k kernels: the compiled lexer (lexer.py) gives every document's token ids
  and exact hash without making a string per token, and hands the few documents it cannot be sure of (non-ASCII
  outside comments and literals, ...) to `token_lists`. The result is the one `token_lists` would give.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..paths import package_data

if TYPE_CHECKING:
    import numpy as np
    import polars as pl
    import pyarrow as pa

    from . import lexer

# Comments are blanked first (strings are matched too so a `//` inside a literal survives), then one findall without
# capture groups collects the tokens: both loops run inside the regex engine, not in Python.
_COMMENT_RE = re.compile(
    r"""//[^\n]*|/\*.*?(?:\*/|\Z)"""  # C/C++ comments
    r"""|\#(?!\s*(?:include|define|if|ifdef|ifndef|else|elif|endif|pragma|undef)\b)[^\n]*"""  # Python comments
    r"""|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""",  # literals (kept)
    re.S,
)
_TOKEN_RE = re.compile(
    r"""(?:"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')"""  # string / char literals
    r"""|0[xX][0-9a-fA-F']+[uUlL]*|(?:\d[\d']*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFuUlL]*"""  # numbers
    r"""|[A-Za-z_]\w*"""  # identifiers and keywords
    r"""|::|->\*?|\+\+|--|<<=|>>=|<=>|&&|\|\||[-+*/%&|^!=<>]=|<<|>>|\#\#|\.\.\.|[^\s\w]""",  # operators
    re.S,
)


_DIRECTIVES = r"(?:include|define|if|ifdef|ifndef|else|elif|endif|pragma|undef)\b"
_LITERALS = r""""(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'"""
# Batch form (Rust regex): literals and directives are captured and put back, comments become the one space the
# Python form leaves (`a/**/b` stays two tokens). The replacement is the same for every match, so a kept literal or
# directive is followed by a space too: harmless where the tokeniser sees the same literal (a token boundary
# already), see token_lists for where it does not.
_RUST_STRIP = rf"""(?s)({_LITERALS}|\#\s*{_DIRECTIVES})|//[^\n]*|/\*.*?(?:\*/|\z)|\#[^\n]*"""
_RUST_TOKEN = "(?s)" + _TOKEN_RE.pattern  # re.S: `\\.` in a literal also escapes a newline


def _blank_comment(m: re.Match[str]) -> str:
    text = m.group()
    return text if text[0] in "\"'" else " "


def tokens(code: str) -> list[str]:
    """The token stream of `code` without comments or whitespace (so reformatting does not change it)."""
    return _TOKEN_RE.findall(_COMMENT_RE.sub(_blank_comment, code))


def token_lists(codes: Sequence[str]) -> pl.Series:
    """`tokens(code)` for every code at once: a polars Series of list[str] (the regexes run in Rust, over the whole
    column, without a Python call per document or token)."""
    import numpy as np
    import polars as pl

    column = pl.Series("code", list(codes), dtype=pl.String)
    lists = column.str.replace_all(_RUST_STRIP, "${1} ").str.extract_all(_RUST_TOKEN).rename("tokens")
    # The one place the two spellings could part: a digit separator (`1'000`) is a number to the tokeniser but the
    # start of a char literal to the comment stripper, so the space the batch form adds after that "literal" would
    # split the number. Such documents (rare in kernels) take the one-document lexer.
    risky = column.str.contains(r"\d'").fill_null(False).arg_true()
    if len(risky):
        fixed = pl.Series("tokens", [tokens(codes[i]) for i in risky.to_list()], dtype=lists.dtype)
        order = np.arange(len(lists))
        order[risky.to_numpy()] = len(lists) + np.arange(len(fixed))
        lists = pl.concat([lists, fixed]).gather(order)
    return lists


# The token id of a batch: polars' 64-bit string hash with this seed (any fixed value; part of the method). Computed
# in Rust over the token column; deterministic for a polars version, not promised across versions: dedup signs every
# unit afresh on each run and never stores a signature, so nothing compares ids made by two versions.
TOKEN_HASH_SEED = 0x636F74  # "cot"


@dataclass
class IdBatch:
    """The tokens of a batch of documents as ids, one document after the other."""

    ids: np.ndarray  # uint64 token ids (TOKEN_HASH_SEED), every document's in order
    counts: np.ndarray  # tokens per document
    code_hashes: list[str]  # `code_hash` of each document
    fallback: int  # documents that took `token_lists` (the compiled lexer could not be sure of them)


def id_batch(codes: Sequence[str] | pa.Array) -> IdBatch:
    """Token ids and exact hashes of every document: the ids `token_lists` + polars' hash would give, and
    `code_hash`, made by the compiled lexer without a string per token."""
    import hashlib

    import numpy as np
    import polars as pl
    import pyarrow as pa

    from . import lexer

    if not isinstance(codes, pa.Array):
        codes = pa.array(list(codes), type=pa.large_string())
    lexed = lexer.lex(codes, _scratch())  # used up before this returns: the next batch may write over it
    fast_ids = pl.from_arrow(lexed.tokens).hash(TOKEN_HASH_SEED).to_numpy()
    joined, at = memoryview(lexed.joined), lexed.joined_offsets.tolist()
    hashes = [hashlib.sha256(joined[at[i] : at[i + 1]]).hexdigest() for i in range(len(codes))]
    counts = lexed.counts.copy()
    slow = np.flatnonzero(lexed.fallback)
    if not len(slow):
        return IdBatch(fast_ids, counts, hashes, 0)
    lists = token_lists(codes.take(pa.array(slow)).to_pylist())
    slow_ids = lists.explode().drop_nulls().hash(TOKEN_HASH_SEED).to_numpy()
    counts[slow] = lists.list.len().fill_null(0).to_numpy()
    for i, h in zip(slow.tolist(), code_hashes(lists), strict=True):
        hashes[i] = h
    # each document's ids go to their place in document order: fast ones first came out in order, then slow ones
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    ids = np.empty(int(counts.sum()), dtype=np.uint64)
    for docs, part in ((np.flatnonzero(~lexed.fallback), fast_ids), (slow, slow_ids)):
        ids[_ranges(starts[docs], counts[docs])] = part
    return IdBatch(ids, counts, hashes, len(slow))


_THREAD = threading.local()


def _scratch() -> lexer.Scratch:
    """This thread's lexer buffers (a worker signs shard after shard: the same memory serves each)."""
    from . import lexer

    if not hasattr(_THREAD, "scratch"):
        _THREAD.scratch = lexer.Scratch()
    return _THREAD.scratch


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The indices starts[0]..+lengths[0], starts[1]..+lengths[1], ... one after the other."""
    import numpy as np

    ends = np.cumsum(lengths)
    return np.repeat(starts - (ends - lengths), lengths) + np.arange(int(ends[-1]) if len(ends) else 0)


def normalised(code: str) -> str:
    """Code with comments removed and whitespace collapsed to one space between tokens."""
    return " ".join(tokens(code))


def code_hash(code: str) -> str:
    """The exact-duplicate key: sha256 of the normalised token stream."""
    return hashlib.sha256(normalised(code).encode("utf-8", "surrogatepass")).hexdigest()


def code_hashes(token_lists: pl.Series) -> list[str]:
    """`code_hash` of each document of a `token_lists` batch (the tokens are joined in Rust; one sha256 each)."""
    return [
        hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        for text in token_lists.list.join(" ").to_list()
    ]


@lru_cache(maxsize=1)
def kept_names() -> frozenset[str]:
    """Names that stay themselves under identifier abstraction: C++ keywords and types, AscendC API and macro names.

    Everything else (user variables, members, class names) becomes `ID`, so a consistently or inconsistently renamed
    copy yields the same abstract stream (see `abstract_tokens`).
    """
    text = package_data("dedup/data/kept_names.txt").read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines() for w in line.split("#", 1)[0].split())


def abstract_tokens(toks: list[str]) -> list[str]:
    """Identifiers not in `kept_names()` become `ID` (numbers, operators, API names and keywords stay)."""
    keep = kept_names()
    return [t if (t in keep or not (t[0].isalpha() or t[0] == "_")) else "ID" for t in toks]
