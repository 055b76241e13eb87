"""A small C++ lexer for similarity work: comments out, every other token kept.

Why a regex lexer and not tree-sitter leaves: dedup and decontamination only need a flat token stream (identifiers,
numbers, operators, string literals), must accept broken or partial code (snippets, question templates, Python
reference files) without a parse, and run over 100k kernels; one compiled regex does that at C speed, while walking a
tree-sitter tree costs a Python call per leaf. Web-text normalisers that strip punctuation are wrong for code:
`a[i] = b[i] * 2` and `a(i) = b(i) - 2` must not look alike, so operators and numbers stay tokens.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from ..paths import package_data

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


def _blank_comment(m: re.Match[str]) -> str:
    text = m.group()
    return text if text[0] in "\"'" else " "


def tokens(code: str) -> list[str]:
    """The token stream of `code` without comments or whitespace (so reformatting does not change it)."""
    return _TOKEN_RE.findall(_COMMENT_RE.sub(_blank_comment, code))


def normalised(code: str) -> str:
    """Code with comments removed and whitespace collapsed to one space between tokens."""
    return " ".join(tokens(code))


def code_hash(code: str) -> str:
    """The exact-duplicate key: sha256 of the normalised token stream."""
    return hashlib.sha256(normalised(code).encode("utf-8", "surrogatepass")).hexdigest()


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
