"""What the later stages need to know about each unit from the other stages' tables, read defensively.

`verifications` and `annotations` are written by other stages and may not exist (or be empty) in a workspace where
those stages never ran; then every unit simply counts as unverified / unannotated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..store import Store

HARNESS_ROLES = {"host_main", "generator", "checker"}


@dataclass
class UnitFacts:
    unit_id: str
    license: str
    has_harness: bool
    verified: bool = False
    verification: dict[str, Any] | None = None  # the row that decided `verified` (see verdict_of)
    annotation: dict[str, Any] | None = None    # the best publishable annotation (status ok and gates passed)
    rationale_chars: int = 0
    backends: list[str] = field(default_factory=list)

    @property
    def publishable_annotation(self) -> bool:
        return self.annotation is not None


def has_harness(files: list[dict[str, Any]]) -> bool:
    return any(f.get("role") in HARNESS_ROLES or f.get("path", "").endswith("verify_spec.toml") for f in files)


# A backend that cannot judge a unit (an op project on a CANN build, a missing API) says nothing about its correctness.
NO_VERDICT = {"unsupported"}


def verdict_of(current: list[dict[str, Any]]) -> tuple[bool, dict[str, Any]]:
    """Whether a unit is verified, from the LATEST verification row of each (backend, soc) it was run on, and the row
    that says so. Verified = at least one of those latest rows passed and none of them failed (compile, run, wrong
    answer, timeout, sandbox): an older pass never outlives a newer failure on the same backend (an emulator upgrade
    that now fails a unit unpublishes it), and a failure on any backend outweighs a pass on another. An `unsupported`
    row neither passes nor fails. The row quoted: the newest failure, else the newest pass, else the newest row."""
    newest_first = sorted(current, key=lambda v: (v["created_at"], v["verification_id"]), reverse=True)
    failures = [v for v in newest_first if v["status"] != "passed" and v["status"] not in NO_VERDICT]
    passes = [v for v in newest_first if v["status"] == "passed"]
    if failures:
        return False, failures[0]
    if passes:
        return True, passes[0]
    return False, newest_first[0]


def rationale_chars(annotation: dict[str, Any]) -> int:
    return sum(len(step.get("text") or "") for step in (annotation.get("rationale") or []))


def load_unit_facts(store: Store, unit_ids: list[str] | None = None) -> dict[str, UnitFacts]:
    facts = {u["unit_id"]: UnitFacts(u["unit_id"], u["license"], has_harness(u["files"] or []))
             for u in store.rows("SELECT unit_id, license, files FROM units")
             if unit_ids is None or u["unit_id"] in unit_ids}
    if store.has_table("verifications"):
        latest: dict[tuple[str, str, str], dict[str, Any]] = {}
        for v in store.rows("SELECT * FROM verifications ORDER BY created_at, verification_id"):
            f = facts.get(v["unit_id"])
            if f is None:
                continue
            f.backends.append(v["backend"])
            latest[(v["unit_id"], v["backend"], v["soc"] or "")] = v  # later rows replace earlier ones
        by_unit: dict[str, list[dict[str, Any]]] = {}
        for (unit_id, _, _), v in latest.items():
            by_unit.setdefault(unit_id, []).append(v)
        for unit_id, current in by_unit.items():
            facts[unit_id].verified, facts[unit_id].verification = verdict_of(current)
    if store.has_table("annotations"):
        for a in store.rows("SELECT * FROM annotations WHERE status = 'ok' AND gates_passed "
                            "ORDER BY sample_index, annotation_id"):
            f = facts.get(a["unit_id"])
            if f is None:
                continue
            n = rationale_chars(a)
            if f.annotation is None or n > f.rationale_chars:  # longest rationale wins; ties: lowest sample
                f.annotation, f.rationale_chars = a, n
    return facts


def fingerprint_of(f: UnitFacts, license_allowed: bool) -> list[Any]:
    """The facts that decide a unit's rank as cluster representative (part of dedup's input hash)."""
    return [f.unit_id, f.verified, license_allowed, f.has_harness,
            f.annotation["annotation_id"] if f.annotation else None, f.rationale_chars]
