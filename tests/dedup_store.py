"""A workspace filled with generated kernels and its dedup table read back: what the dedup and executor tests share."""

from __future__ import annotations

from pathlib import Path

from cotbuilder.dedup import synthetic
from cotbuilder.store import Store


def fill(workspace: Path, codes: list[str]) -> None:
    """One synthetic source and a unit per code."""
    with Store(workspace) as store:
        store.insert("sources", [synthetic.source_row()])
        store.insert("units", synthetic.unit_rows(codes))


def dedup_rows(workspace: Path, columns: str) -> list[tuple]:
    """The dedup table's `columns`, one tuple per unit in unit_id order."""
    with Store(workspace, read_only=True) as store:
        return [tuple(r.values()) for r in store.rows(f"SELECT {columns} FROM dedup ORDER BY unit_id")]
