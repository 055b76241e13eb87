"""What each unit is compared by: its device code (the host side is mostly op-definition boilerplate that every op
shares), or its host code when it has no device code. Read for every unit at once, in bulk."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

if TYPE_CHECKING:
    from ..store import Store

# A code of Python white space only (str.strip() leaves nothing): Rust's \s is Unicode White_Space, which with the
# four information separators is exactly the set of str.isspace().
_BLANK = r"^[\s\x1c-\x1f]*$"
_DIGEST_SEED = 0x636F64  # polars' string hash of each code: what stands for the code in dedup's input hash


def unit_code(unit: dict[str, Any]) -> str:
    """The code one unit record is compared by (`read` gives the same for every unit of a store)."""
    return unit["kernel_code"] if unit["kernel_code"].strip() else unit["host_code"]


@dataclass
class Codes:
    unit_ids: list[str]  # every unit, in unit_id order
    codes: pl.Series  # String: each unit's code, in that order
    digests: np.ndarray  # uint64: a 64-bit hash of each code (polars' hash: a new polars version may change it)


def read(store: Store) -> Codes:
    """Every unit's code, in unit_id order. One query, kept in Arrow/polars: at 100k units the codes are ~500 MB, and
    a dict per unit or a Python string per code would cost more than signing them. Sorted here, not in SQL: polars
    moves 16-byte views where DuckDB's sort moves the texts."""
    frame = pl.from_arrow(store.arrow("SELECT unit_id, kernel_code AS code FROM units")).sort("unit_id")
    blank = frame["code"].str.contains(_BLANK)
    if blank.any():  # rare: units with host code only
        host = pl.from_arrow(
            store.arrow(
                "SELECT unit_id, host_code FROM units WHERE unit_id IN (SELECT unnest(?))",
                [frame.filter(blank)["unit_id"].to_list()],
            )
        )
        frame = frame.join(host, on="unit_id", how="left", maintain_order="left").select(
            "unit_id", pl.when(blank).then(pl.col("host_code")).otherwise(pl.col("code")).alias("code")
        )
    codes = frame["code"]
    return Codes(frame["unit_id"].to_list(), codes, codes.hash(_DIGEST_SEED).to_numpy())
