"""Which files of a source tree are crawled, and why the others are not.

Two kinds of "no": files that are simply not ours to crawl (a .png, a vendored folder) are only counted; files we wanted
but could not take (binary, too big, invalid UTF-8, a symlink) are listed with a reason in `sources.skipped`.
"""

from __future__ import annotations

import fnmatch
import os
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from ..paths import package_data


@lru_cache(maxsize=1)
def _rules() -> dict[str, Any]:
    return tomllib.loads(package_data("crawl/data/filter.toml").read_text(encoding="utf-8"))


def skip_dir(name: str) -> bool:
    rules = _rules()["skip"]
    return name in rules["dirs"] or any(fnmatch.fnmatch(name, g) for g in rules["dir_globs"])


def language_of(rel_path: str, *, docs: bool = False) -> str | None:
    """The language a crawled file is stored as, or None when the file is not crawled."""
    rules = _rules()
    name = PurePosixPath(rel_path).name
    if name in rules["names"]:
        return rules["names"][name]
    suffix = PurePosixPath(name).suffix.lower()
    if docs:
        return rules["doc_extensions"].get(suffix)
    return rules["extensions"].get(suffix)


def op_project_markers() -> list[str]:
    return list(_rules()["op_project"]["markers"])


@dataclass
class Candidate:
    rel_path: str  # posix path inside the source
    abs_path: Path
    language: str


@dataclass
class WalkResult:
    candidates: list[Candidate] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)  # [{path, reason}] for files we wanted
    ignored: Counter = field(default_factory=Counter)  # reason -> count, for files that were never ours


def _matches(rel: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(PurePosixPath(rel).name, p) for p in patterns)


def walk(
    root: Path, *, docs: bool = False, include: list[str] | None = None, exclude: list[str] | None = None
) -> WalkResult:
    """List the crawlable files under `root` (sorted), never entering skipped folders or following symlinks.

    Symlinks: a symlinked folder is never entered, and a symlinked file is skipped with a reason, whether it points
    inside or outside the source: the target, if inside, is crawled under its own path anyway, and a link that leaves
    the source must never be read.
    """
    result = WalkResult()
    root = root.resolve()
    op_roots: set[str] = set()
    markers = set(op_project_markers())
    entries: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        rel_dir = here.relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        kept_dirs = []
        for d in sorted(dirnames):
            child = here / d
            rel = f"{rel_dir}/{d}" if rel_dir else d
            if child.is_symlink():
                result.skipped.append({"path": rel, "reason": _symlink_reason(child, root, folder=True)})
            elif skip_dir(d):
                result.ignored["vendored or build folder"] += 1
            else:
                kept_dirs.append(d)
                if d in markers:
                    op_roots.add(rel_dir)
        dirnames[:] = kept_dirs
        for f in sorted(filenames):
            rel = f"{rel_dir}/{f}" if rel_dir else f
            entries.append((rel, here / f))
    for rel, path in sorted(entries):
        if exclude and _matches(rel, exclude):
            result.ignored["excluded by manifest"] += 1
            continue
        if include and not _matches(rel, include):
            result.ignored["not included by manifest"] += 1
            continue
        language = language_of(rel, docs=docs)
        if language is None:
            result.ignored["not a crawled file type"] += 1
            continue
        if (
            not docs
            and language in _rules()["op_project"]["only_in_op_project"]
            and not _in_op_project(rel, op_roots)
            and not (language == "csv" and _in_validation_dir(rel))
        ):
            result.ignored[f"{language} outside an op project"] += 1
            continue
        if path.is_symlink():
            result.skipped.append({"path": rel, "reason": _symlink_reason(path, root, folder=False)})
            continue
        result.candidates.append(Candidate(rel, path, language))
    return result


def _in_validation_dir(rel: str) -> bool:
    return any(part in _rules()["op_project"]["validation_dirs"] for part in PurePosixPath(rel).parts[:-1])


def _in_op_project(rel: str, op_roots: set[str]) -> bool:
    parts = PurePosixPath(rel).parts[:-1]
    return any("/".join(parts[:i]) in op_roots for i in range(len(parts) + 1))


def _symlink_reason(path: Path, root: Path, *, folder: bool) -> str:
    what = "folder" if folder else "file"
    try:
        target = path.resolve()
        inside = target == root or root in target.parents
    except (OSError, RuntimeError):  # a loop or a dangling chain
        inside = False
    if inside:
        return f"symlinked {what} (points inside the source; not followed, its target is crawled under its own path)"
    return f"symlinked {what} pointing outside the source (never followed)"


def read_checked(path: Path, max_bytes: int) -> tuple[str | None, bytes | None, str | None]:
    """(text, raw bytes, None) for a good file, or (None, None, reason) for one we must skip."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return None, None, f"cannot stat: {exc.strerror or exc}"
    if size > max_bytes:
        return None, None, f"too large ({size} bytes > limit {max_bytes})"
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, None, f"cannot read: {exc.strerror or exc}"
    text, reason = decode_checked(raw, max_bytes)
    return text, (raw if text is not None else None), reason


def decode_checked(raw: bytes, max_bytes: int) -> tuple[str | None, str | None]:
    if len(raw) > max_bytes:
        return None, f"too large ({len(raw)} bytes > limit {max_bytes})"
    if b"\x00" in raw:
        return None, "binary (NUL bytes)"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"invalid UTF-8 (at byte {exc.start})"
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None
