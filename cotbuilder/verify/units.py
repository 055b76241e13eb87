"""A unit as files on disk: its source hash, and its files written into a fresh directory."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from ..hashing import sha256_text, stable_json

SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".c", ".asc", ".cce")


def source_hash(unit: dict[str, Any]) -> str:
    """sha256 over every file's path and text (order-independent): a changed byte anywhere = a new verification."""
    return sha256_text(stable_json(sorted((f["path"], f["text"]) for f in unit["files"])))


def safe_relpath(path: str) -> PurePosixPath | None:
    """A unit-relative path that cannot escape the unit folder (None for absolute or '..' paths)."""
    p = PurePosixPath(path.replace("\\", "/"))
    if p.is_absolute() or ".." in p.parts or not p.parts:
        return None
    return p


def materialise(unit: dict[str, Any], dest: Path) -> list[str]:
    """Write the unit's files under `dest`; returns the relative paths written (unsafe paths are dropped)."""
    written = []
    for f in unit["files"]:
        rel = safe_relpath(f["path"])
        if rel is None:
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f["text"], encoding="utf-8")
        if rel.suffix in (".sh", ".py"):
            target.chmod(0o755)
        written.append(str(rel))
    return written


def unit_files(unit: dict[str, Any], skip_dirs: tuple[str, ...] = ()) -> dict[str, bytes]:
    """The unit's files as {safe relative path: bytes}, without those under `skip_dirs` (e.g. a sample's own
    `output/`: only what cotbuilder puts there counts)."""
    out = {}
    for f in unit["files"]:
        rel = safe_relpath(f["path"])
        if rel is None or (rel.parts and rel.parts[0] in skip_dirs):
            continue
        out[str(rel)] = f["text"].encode("utf-8")
    return out


def file_by_role(unit: dict[str, Any], role: str, *fallback_names: str) -> dict[str, Any] | None:
    for f in unit["files"]:
        if f.get("role") == role:
            return f
    for name in fallback_names:
        for f in unit["files"]:
            if f["path"] == name or f["path"].endswith("/" + name):
                return f
    return None
