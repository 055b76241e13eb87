"""What the later stages need to know about each unit from the other stages' tables, read defensively.

`verifications` and `annotations` are written by other stages and may not exist (or be empty) in a workspace where
those stages never ran; then every unit simply counts as unverified / unannotated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

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


def harness_frame(store: Store) -> pl.DataFrame:
    """has_harness of every unit, as a frame of unit_id, has_harness (read from their files' roles and paths)."""
    return pl.from_arrow(store.arrow(f"SELECT unit_id, {_HAS_HARNESS_SQL} AS has_harness FROM units"))


def load_unit_facts(store: Store, unit_ids: list[str] | None = None, *, harness: bool = True) -> dict[str, UnitFacts]:
    """Facts of every unit (or of `unit_ids`). harness=False leaves has_harness False without reading the units'
    files."""
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
    _add_other_stages(store, facts, lambda unit_id: facts.get(unit_id))
    return facts


def _add_other_stages(store: Store, facts: dict[str, UnitFacts], get: Callable[[str], UnitFacts | None]) -> None:
    """What verify and annotate said about the units `get` gives facts for (None: a unit to leave out)."""
    for unit_id, current in current_verifications(store).items():
        f = get(unit_id)
        if f is not None:
            f.backends = sorted({v["backend"] for v in current})
            f.verified, f.verification = verdict_of(current)
    if store.has_table("annotations"):
        for a in store.rows(
            "SELECT * FROM annotations WHERE status = 'ok' AND gates_passed ORDER BY sample_index, annotation_id"
        ):
            f = get(a["unit_id"])
            if f is None:
                continue
            n = rationale_chars(a)
            if f.annotation is None or n > f.rationale_chars:  # longest rationale wins; ties: lowest sample
                f.annotation, f.rationale_chars = a, n


@dataclass
class Ranking:
    """What ranks dedup's cluster members, for every unit without a Python object per unit: the licences as a column,
    UnitFacts only for the units verify or annotate said something about; `columns()` puts both in one frame."""

    licenses: pl.DataFrame  # unit_id, license, license_allowed
    said: dict[str, UnitFacts]  # units with a verification or an annotation

    def columns(self) -> pl.DataFrame:
        """Every unit's ranking facts, one row per unit: part of dedup's input hash. has_harness is not among them: it
        comes from the unit's files, whose paths, roles and texts its unit_id already hashes."""
        said = pl.DataFrame(
            {
                "unit_id": list(self.said),
                "verified": [f.verified for f in self.said.values()],
                "annotation_id": [f.annotation["annotation_id"] if f.annotation else None for f in self.said.values()],
                "rationale_chars": [f.rationale_chars for f in self.said.values()],
            },
            schema={
                "unit_id": pl.String,
                "verified": pl.Boolean,
                "annotation_id": pl.String,
                "rationale_chars": pl.Int64,
            },
        )
        return self.licenses.select("unit_id", "license_allowed").join(said, on="unit_id", how="left")


def ranking(store: Store, allowed: set[str]) -> Ranking:
    from ..publish.licenses import is_allowed

    licenses = pl.from_arrow(store.arrow("SELECT unit_id, license FROM units"))
    verdict = {lic: is_allowed(lic, allowed) for lic in licenses["license"].unique().to_list()}
    licenses = licenses.with_columns(
        pl.col("license").replace_strict(verdict, return_dtype=pl.Boolean).alias("license_allowed")
    )
    license_of = dict(zip(*licenses.select("unit_id", "license").to_dict(as_series=False).values(), strict=True))
    said: dict[str, UnitFacts] = {}

    def get(unit_id: str) -> UnitFacts | None:
        if unit_id not in said and unit_id in license_of:
            said[unit_id] = UnitFacts(unit_id, license_of[unit_id], False)
        return said.get(unit_id)

    _add_other_stages(store, said, get)
    return Ranking(licenses, said)
