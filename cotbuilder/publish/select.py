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


def accepted_annotations(store: Store, langs: list[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """unit_id -> its publishable annotations (status ok, gates passed) in `langs` (all when None), in a stable order:
    language, sample, id."""
    if not store.has_table("annotations"):
        return {}
    out: dict[str, list[dict[str, Any]]] = {}
    for a in store.rows(
        "SELECT * FROM annotations WHERE status = 'ok' AND gates_passed ORDER BY unit_id, lang, sample_index, annotation_id"
    ):
        if langs is None or a["lang"] in langs:
            out.setdefault(a["unit_id"], []).append(a)
    return out


def publishable(
    store: Store,
    allowed_licenses: list[str],
    *,
    allow_near: bool = False,
    langs: list[str] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Per dedup cluster, the best PUBLISHABLE member: verified, with a publishable annotation (in `langs`, when
    given), not benchmark-matched (clean; also `near` with `allow_near`, never `contaminated`) and under an allowed
    licence, ranked by dedup's own priority (dedup.stage.rank_key). Dedup ranked with its own licence list, so its
    representative may be one push cannot publish (`--licenses MIT` vs an Apache representative); choosing here keeps
    one unit per cluster without losing the cluster. Each chosen unit carries all its accepted annotations (push
    decides which samples become rows). Also returns the count of units each condition removed (for the card and
    the stats); a CANN-licensed unit left out is counted apart, as `--allow-cann-license` brings it in."""
    from ..dedup.facts import load_unit_facts
    from ..dedup.stage import rank_key
    from .licenses import cann_licenses, parts

    facts = load_unit_facts(store)
    accepted = accepted_annotations(store, langs)
    dedup = {r["unit_id"]: r for r in store.rows("SELECT * FROM dedup")}
    contamination = {r["unit_id"]: r for r in store.rows("SELECT * FROM contamination")}
    dropped = dict.fromkeys(DROP_REASONS, 0)
    cann = set(cann_licenses())
    candidates: dict[str, list[str]] = {}
    for unit_id, f in sorted(facts.items()):
        if not f.verified:
            dropped["not_verified"] += 1
        elif not f.publishable_annotation:
            dropped["no_publishable_annotation"] += 1
        elif not accepted.get(unit_id):
            dropped["no_annotation_in_selected_languages"] += 1
        elif contamination[unit_id]["verdict"] == "near" and not allow_near:
            dropped["near_benchmark"] += 1
        elif contamination[unit_id]["verdict"] != "near" and is_match(contamination[unit_id]["verdict"]):
            dropped["contaminated"] += 1
        elif not is_allowed(f.license, allowed_licenses):
            under_cann = any(p in cann for p in parts(f.license)) and is_allowed(f.license, allowed_licenses + [*cann])
            dropped["cann_license" if under_cann else "license_not_allowed"] += 1
        else:
            candidates.setdefault(dedup[unit_id]["cluster_id"], []).append(unit_id)
    chosen = []
    for cluster_id in sorted(candidates):
        members = sorted(candidates[cluster_id], key=lambda u: rank_key(facts[u], True))
        dropped["duplicate"] += len(members) - 1
        best = members[0]
        chosen.append(
            {
                "facts": facts[best],
                "dedup": dedup[best],
                "contamination": contamination[best],
                "annotations": accepted[best],
            }
        )
    chosen.sort(key=lambda p: p["facts"].unit_id)
    return chosen, dropped


# Why a unit is not published, in the order the card lists them (keys of `publishable`'s counts).
DROP_REASONS = (
    "not_verified",
    "no_publishable_annotation",
    "no_annotation_in_selected_languages",
    "duplicate",
    "contaminated",
    "near_benchmark",
    "license_not_allowed",
    "cann_license",
)

# The words the console and the card use for each reason (unit reasons, then sample reasons from rows.build_rows):
# a short name, then what it means or how to bring the rows in.
REASONS = {
    "not_verified": ("not verified", "its deciding verification did not pass"),
    "no_publishable_annotation": ("no publishable annotation", "none passed the quality gates"),
    "no_annotation_in_selected_languages": ("no annotation in --lang", "its annotations are in other languages"),
    "duplicate": ("duplicate", "another member of its dedup cluster is published"),
    "contaminated": ("contaminated", "a copy of a benchmark answer or task"),
    "near_benchmark": ("near benchmark", "shares a kernel body with a benchmark answer; --allow-near publishes it"),
    "license_not_allowed": ("license not allowed", "not on the --licenses list"),
    "cann_license": ("CANN licence", "CANN Open Software License; --allow-cann-license publishes it"),
    "sample_not_best": ("not the best sample", "a longer one of its unit and language is published; --samples all"),
    "repair_without_task": (
        "repair without a task",
        "a mutant of the unit really fails, but the unit has no accepted task statement in the repair's language",
    ),
    "doc_not_grounded": ("doc sample not grounded", "it states something its doc page does not (the grounding gate)"),
    "doc_license_not_allowed": (
        "doc licence not allowed",
        "the docs' licence is not on the list (--allow-cann-license)",
    ),
    "not_in_reasoning_layout": (
        "not in the reasoning layout",
        "its code is not read back intact from NPUKernelBench's answer layout",
    ),
}


def reason_line(key: str) -> str:
    short, why = REASONS[key]
    return f"{short} ({why})"
