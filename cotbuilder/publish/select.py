"""What may be published, and the checks that refuse a push on stale or missing dedup/decontamination results."""

from __future__ import annotations

from typing import Any

from ..decontam.matched import is_match
from ..store import Store
from .licenses import is_allowed


class RefusedError(RuntimeError):
    """The store is not ready to publish; the message says what to run."""


def _last_run_end(store: Store, stage: str):
    return store.scalar("SELECT max(ended_at) FROM runs WHERE stage = ? AND status IN ('ok', 'partial')", [stage])


def _newest(store: Store, table: str):
    return store.scalar(f"SELECT max(created_at) FROM {table}") if store.has_table(table) else None


def check_fresh(store: Store) -> None:
    """Refuse unless dedup and decontamination ran after the last change to units, annotations and verifications, and
    every unit has a dedup and a contamination row."""
    n_units = store.count("units")
    if not n_units:
        raise RefusedError("the store has no units: run `cotbuilder crawl` first")
    for stage, table, verb in (
        ("dedup", "dedup", "cotbuilder dedup"),
        ("decontaminate", "contamination", "cotbuilder decontaminate --benchmark ..."),
    ):
        last = _last_run_end(store, stage)
        if last is None:
            raise RefusedError(f"{stage} has not run on this workspace: run `{verb}` before pushing")
        missing = store.scalar(f"SELECT count(*) FROM units WHERE unit_id NOT IN (SELECT unit_id FROM {table})")
        if missing:
            raise RefusedError(
                f"{missing} unit(s) have no {table} row (added after the last {stage} run): "
                f"run `{verb}` again before pushing"
            )
        for source in ("units", "annotations", "verifications"):
            newest = _newest(store, source)
            if newest is not None and newest > last:
                raise RefusedError(
                    f"{source} changed after the last {stage} run ({newest} > {last}): "
                    f"run `{verb}` again before pushing"
                )


def publishable(
    store: Store, allowed_licenses: list[str], *, allow_near: bool = False
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Per dedup cluster, the best PUBLISHABLE member: verified, with a publishable annotation, not benchmark-matched
    (clean; also `near` with `allow_near`, never `contaminated`) and under an allowed licence, ranked by dedup's own priority (dedup.stage.rank_key). Dedup ranked with its own licence list, so
    its representative may be one push cannot publish (`--licenses MIT` vs an Apache representative); choosing here
    keeps one row per cluster without losing the cluster. Also returns the count of units each condition removed
    (for the card and the stats)."""
    from ..dedup.facts import load_unit_facts
    from ..dedup.stage import rank_key

    facts = load_unit_facts(store)
    dedup = {r["unit_id"]: r for r in store.rows("SELECT * FROM dedup")}
    contamination = {r["unit_id"]: r for r in store.rows("SELECT * FROM contamination")}
    dropped = {
        "not_verified": 0,
        "no_publishable_annotation": 0,
        "duplicate": 0,
        "contaminated": 0,
        "near_benchmark": 0,
        "license_not_allowed": 0,
    }
    candidates: dict[str, list[str]] = {}
    for unit_id, f in sorted(facts.items()):
        if not f.verified:
            dropped["not_verified"] += 1
        elif not f.publishable_annotation:
            dropped["no_publishable_annotation"] += 1
        elif contamination[unit_id]["verdict"] == "near" and not allow_near:
            dropped["near_benchmark"] += 1
        elif contamination[unit_id]["verdict"] != "near" and is_match(contamination[unit_id]["verdict"]):
            dropped["contaminated"] += 1
        elif not is_allowed(f.license, allowed_licenses):
            dropped["license_not_allowed"] += 1
        else:
            candidates.setdefault(dedup[unit_id]["cluster_id"], []).append(unit_id)
    chosen = []
    for cluster_id in sorted(candidates):
        members = sorted(candidates[cluster_id], key=lambda u: rank_key(facts[u], True))
        dropped["duplicate"] += len(members) - 1
        best = members[0]
        chosen.append({"facts": facts[best], "dedup": dedup[best], "contamination": contamination[best]})
    chosen.sort(key=lambda p: p["facts"].unit_id)
    return chosen, dropped
