"""Which licence a crawled file is under, and how we know.

Order of evidence (first hit wins): an `SPDX-License-Identifier:` line or a recognisable licence header in the file
itself (`header:<path>`), the nearest LICENSE/COPYING file from the file's folder up to the source root
(`license-file:<path>`), the licence the manifest declares for the whole source (`manifest`), else NOASSERTION (`none`).
The phrase table lives in data/licenses.toml (why no detector library: see the comment there).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath

from ..paths import package_data

NOASSERTION = "NOASSERTION"
_SPDX_LINE = re.compile(r"SPDX-License-Identifier:\s*(.+)", re.I)
_COMMENT_MARKS = re.compile(r"(?m)^\s*(?:\*|//+|#+|--|;+|/\*+)")


@dataclass(frozen=True)
class Rule:
    spdx: str
    all: tuple[str, ...]
    none: tuple[str, ...]


@dataclass(frozen=True)
class LicenseTable:
    rules: tuple[Rule, ...]
    file_names: tuple[str, ...]
    header_chars: int


@lru_cache(maxsize=1)
def table() -> LicenseTable:
    data = tomllib.loads(package_data("crawl/data/licenses.toml").read_text(encoding="utf-8"))
    rules = tuple(Rule(r["spdx"], tuple(r["all"]), tuple(r.get("none", ()))) for r in data["license"])
    return LicenseTable(rules, tuple(data["files"]["names"]), int(data["files"]["header_chars"]))


def normalise(text: str) -> str:
    """Lower-case, comment markers gone, whitespace collapsed: phrases match across line wraps and comment styles."""
    text = _COMMENT_MARKS.sub(" ", text)
    text = text.replace("*/", " ").replace("/*", " ")
    return " ".join(text.lower().split())


def match_text(text: str) -> str | None:
    """The SPDX id whose key phrases all occur in `text`, or None."""
    norm = normalise(text)
    for rule in table().rules:
        if all(p in norm for p in rule.all) and not any(p in norm for p in rule.none):
            return rule.spdx
    return None


def spdx_identifier(text: str) -> str | None:
    """The expression of the first SPDX-License-Identifier line, trimmed of comment closers."""
    m = _SPDX_LINE.search(text)
    if not m:
        return None
    expr = re.split(r"\*/|-->|\"\"\"|'''", m.group(1))[0].strip().rstrip("*#;/ ").strip()
    return expr or None


def from_header(text: str) -> str | None:
    head = text[: table().header_chars]
    return spdx_identifier(head) or match_text(head)


class LicenseResolver:
    """Resolves licences for the files of one source; LICENSE files are read once per folder.

    `read_file(rel_path)` returns the text of a file inside the source (or None when it does not exist or cannot be
    read safely); the resolver never looks outside the source root.
    """

    def __init__(self, read_file: Callable[[str], str | None], declared: str | None = None):
        self._read = read_file
        self._declared = declared
        self._dir_cache: dict[str, tuple[str, str] | None] = {}

    def _license_file_in(self, folder: str) -> tuple[str, str] | None:
        if folder in self._dir_cache:
            return self._dir_cache[folder]
        found = None
        for name in table().file_names:
            rel = f"{folder}/{name}" if folder else name
            text = self._read(rel)
            if text is None:
                continue
            spdx = spdx_identifier(text[:2000]) or match_text(text)
            if spdx:
                found = (spdx, rel)
                break
        self._dir_cache[folder] = found
        return found

    def nearest_license_file(self, rel_path: str) -> tuple[str, str] | None:
        parts = PurePosixPath(rel_path).parts[:-1]
        for depth in range(len(parts), -1, -1):
            hit = self._license_file_in("/".join(parts[:depth]))
            if hit:
                return hit
        return None

    def resolve(self, rel_path: str, text: str) -> tuple[str, str]:
        """(spdx, method) for the file at `rel_path` with content `text`."""
        spdx = from_header(text)
        if spdx:
            return spdx, f"header:{rel_path}"
        hit = self.nearest_license_file(rel_path)
        if hit:
            return hit[0], f"license-file:{hit[1]}"
        if self._declared:
            return self._declared, "manifest"
        return NOASSERTION, "none"
