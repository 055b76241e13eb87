"""Is a unit benchmark-matched? The one answer every consumer of decontamination asks for.

`contaminated` (a copy of a benchmark answer or task) and `near` (shares a kernel body with one) are both matches.
`push` drops matched units (it keeps `near` ones only with `--allow-near`); synthesis must refuse every matched unit,
and a unit that decontamination never checked counts as matched: it cannot be shown clean.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store import Store

MATCHED = frozenset({"contaminated", "near"})


def is_match(verdict: str | None) -> bool:
    """True for `contaminated`, `near` and for no verdict at all (never checked)."""
    return verdict is None or verdict in MATCHED


def verdicts(store: Store, unit_ids: Iterable[str] | None = None) -> dict[str, str]:
    """{unit_id: verdict} of the checked units (all of them, or those of `unit_ids`)."""
    if not store.has_table("contamination"):
        return {}
    if unit_ids is None:
        rows = store.rows("SELECT unit_id, verdict FROM contamination")
    else:
        rows = store.rows(
            "SELECT unit_id, verdict FROM contamination WHERE unit_id IN (SELECT unnest(?::VARCHAR[]))",
            [list(unit_ids)],
        )
    return {r["unit_id"]: r["verdict"] for r in rows}


def benchmark_matched(store: Store, unit_id: str) -> bool:
    """Must this unit be kept away from training data built on the benchmarks (synthesis, RL tasks)?"""
    return is_match(verdicts(store, [unit_id]).get(unit_id))
