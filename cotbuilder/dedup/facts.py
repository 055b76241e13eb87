"""What the later stages need to know about each unit from the other stages' tables, read defensively.

`verifications` and `annotations` are written by other stages and may not exist (or be empty) in a workspace where
those stages never ran; then every unit simply counts as unverified / unannotated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..store import Store
from ..verify.current import current_verifications, verdict_of

HARNESS_ROLES = {"host_main", "generator", "checker"}


@dataclass
class UnitFacts:
    unit_id: str
    license: str
    has_harness: bool
    verified: bool = False
    verification: dict[str, Any] | None = None  # the row that decided `verified` (see verdict_of)
    annotation: dict[str, Any] | None = None  # the best publishable annotation (status ok and gates passed)
    rationale_chars: int = 0
    backends: list[str] = field(default_factory=list)

    @property
    def publishable_annotation(self) -> bool:
        return self.annotation is not None


def has_harness(files: list[dict[str, Any]]) -> bool:
    return any(f.get("role") in HARNESS_ROLES or f.get("path", "").endswith("verify_spec.toml") for f in files)


def rationale_chars(annotation: dict[str, Any]) -> int:
    return sum(len(step.get("text") or "") for step in (annotation.get("rationale") or []))


# `has_harness` in SQL: the files' roles and paths are read where they lie, not their texts (at 100k units the texts
# are gigabytes) nor a Python list per unit; the JSON is parsed only where its text names a harness role or file.
_HARNESS_WORDS = [*sorted(HARNESS_ROLES), "verify_spec.toml"]
_HAS_HARNESS_SQL = (
    "CASE WHEN "
    + " OR ".join(f"contains(files::VARCHAR, '{w}')" for w in _HARNESS_WORDS)
    + " THEN coalesce(list_has_any(json_extract_string(files, '$[*].role'), ["
    + ", ".join(f"'{r}'" for r in sorted(HARNESS_ROLES))
    + "]), false) OR coalesce(list_bool_or(list_transform(json_extract_string(files, '$[*].path'), "
    "lambda p: ends_with(p, 'verify_spec.toml'))), false) ELSE false END"
)


def harness_of(store: Store, unit_ids: list[str]) -> dict[str, bool]:
    """has_harness of the given units (read from their files' roles and paths)."""
    if not unit_ids:
        return {}
    table = store.arrow(
        f"SELECT unit_id, {_HAS_HARNESS_SQL} AS has_harness FROM units WHERE unit_id IN (SELECT unnest(?))",
        [unit_ids],
    )
    return dict(zip(table["unit_id"].to_pylist(), table["has_harness"].to_pylist(), strict=True))


def load_unit_facts(store: Store, unit_ids: list[str] | None = None, *, harness: bool = True) -> dict[str, UnitFacts]:
    """Facts of every unit (or of `unit_ids`). harness=False leaves has_harness False without reading the units'
    files (dedup reads it only for the units that share a cluster: `harness_of`)."""
    wanted = None if unit_ids is None else set(unit_ids)
    harness_sql = _HAS_HARNESS_SQL if harness else "false"
    table = store.arrow(f"SELECT unit_id, license, {harness_sql} AS has_harness FROM units")
    facts = {
        unit_id: UnitFacts(unit_id, license, has)
        for unit_id, license, has in zip(
            table["unit_id"].to_pylist(), table["license"].to_pylist(), table["has_harness"].to_pylist(), strict=True
        )
        if wanted is None or unit_id in wanted
    }
    for unit_id, current in current_verifications(store).items():
        f = facts.get(unit_id)
        if f is not None:
            f.backends = sorted({v["backend"] for v in current})
            f.verified, f.verification = verdict_of(current)
    if store.has_table("annotations"):
        for a in store.rows(
            "SELECT * FROM annotations WHERE status = 'ok' AND gates_passed ORDER BY sample_index, annotation_id"
        ):
            f = facts.get(a["unit_id"])
            if f is None:
                continue
            n = rationale_chars(a)
            if f.annotation is None or n > f.rationale_chars:  # longest rationale wins; ties: lowest sample
                f.annotation, f.rationale_chars = a, n
    return facts


def fingerprint_of(f: UnitFacts, license_allowed: bool) -> list[Any]:
    """The facts that decide a unit's rank as cluster representative (part of dedup's input hash). has_harness is
    not among them: it comes from the unit's files, whose paths, roles and texts its unit_id already hashes."""
    return [
        f.unit_id,
        f.verified,
        license_allowed,
        f.annotation["annotation_id"] if f.annotation else None,
        f.rationale_chars,
    ]
