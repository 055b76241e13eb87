"""Which verification counts for each unit: the one definition that publishing, dedup ranking and the teacher's
facts all read, so a unit the dataset calls verified is the unit the rationale says was verified.

Rows are never deleted (a new emulator version or seed set adds rows beside the old ones); what counts is the latest
row per (unit, backend, SoC).
"""

from __future__ import annotations

from typing import Any

from ..store import Store

# A backend that cannot judge a unit (an op project on a CANN build, a missing API) or found nothing to compare says
# nothing about its correctness (docs/statuses.md).
NO_VERDICT = {"unsupported", "unchecked"}


def verdict_of(current: list[dict[str, Any]]) -> tuple[bool, dict[str, Any]]:
    """Whether a unit is verified, from the LATEST verification row of each (backend, soc) it was run on, and the row
    that says so. Verified = at least one of those latest rows passed and none of them failed (compile, run, wrong
    answer, timeout, sandbox): an older pass never outlives a newer failure on the same backend (an emulator upgrade
    that now fails a unit unpublishes it), and a failure on any backend outweighs a pass on another. An `unsupported`
    or `unchecked` row neither passes nor fails. The row quoted: the newest failure, else the newest pass, else the newest row."""
    newest_first = sorted(current, key=lambda v: (v["created_at"], v["verification_id"]), reverse=True)
    failures = [v for v in newest_first if v["status"] != "passed" and v["status"] not in NO_VERDICT]
    passes = [v for v in newest_first if v["status"] == "passed"]
    if failures:
        return False, failures[0]
    if passes:
        return True, passes[0]
    return False, newest_first[0]


def current_verifications(store: Store) -> dict[str, list[dict[str, Any]]]:
    """unit_id -> its latest row per (backend, soc); {} when the verify stage has not created its table yet. Only
    those rows are read: the history (and its logs) stays in the store."""
    if not store.has_table("verifications"):
        return {}
    by_unit: dict[str, list[dict[str, Any]]] = {}
    for v in store.rows(
        "SELECT * FROM verifications QUALIFY row_number() OVER "
        "(PARTITION BY unit_id, backend, soc ORDER BY created_at DESC, verification_id DESC) = 1"
    ):
        by_unit.setdefault(v["unit_id"], []).append(v)
    return by_unit


def deciding_verifications(store: Store) -> dict[str, tuple[bool, dict[str, Any]]]:
    """unit_id -> (verified, the row that decided it)."""
    return {unit_id: verdict_of(rows) for unit_id, rows in current_verifications(store).items()}
