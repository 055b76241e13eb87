"""Record validation against the JSON Schemas in schemas/ (the source of truth for every record)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from .paths import data_dir

if TYPE_CHECKING:
    import jsonschema


class RecordError(ValueError):
    """A record does not match its schema; the message names the record kind, the field and the problem."""


@cache
def _schema(kind: str) -> dict[str, Any]:
    path = data_dir("schemas") / f"{kind}.schema.json"
    if not path.is_file():
        raise RecordError(f"no schema for record kind {kind!r} (looked for {path})")
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def _validator(kind: str) -> jsonschema.protocols.Validator:
    """jsonschema's validator: imported only when a record is refused (it names the most relevant problem) - every
    CLI process and stage worker reads records, and importing it cost each of them 0.14 s."""
    import jsonschema

    schema = _schema(kind)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def schema_of(kind: str) -> dict[str, Any]:
    return _schema(kind)


@cache
def _compiled(kind: str) -> Callable[[dict[str, Any]], Any]:
    """The schema compiled to Python by fastjsonschema: ~20x faster than jsonschema on a valid record (a stage that
    writes 100k rows spent more time validating them than computing them). fastjsonschema reads drafts 4-7; our
    schemas use only keywords those drafts read as 2020-12 does (tests/test_records.py compares the two on every
    schema). One leniency: it takes a tuple for a JSON array, which is stored as the same JSON."""
    import fastjsonschema

    # without "$id": fastjsonschema resolves a local "#/$defs/x" against the id ("cotbuilder/task") as a URL
    schema = {k: v for k, v in _schema(kind).items() if k != "$id"}
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    return fastjsonschema.compile(schema)


def validate(kind: str, record: dict[str, Any]) -> None:
    """Raise RecordError with the first (most relevant) problem if `record` is not a valid `kind`."""
    from fastjsonschema import JsonSchemaException

    try:
        _compiled(kind)(record)
        return
    except JsonSchemaException:
        pass  # invalid: jsonschema names the most relevant problem
    import jsonschema

    error = jsonschema.exceptions.best_match(_validator(kind).iter_errors(record))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(record)"
        raise RecordError(f"invalid {kind} record at {where}: {error.message}")


# -- many records at once ----------------------------------------------------------------------------------------
# Property keywords a column check understands; a property with any other keyword (an object, an array, oneOf...)
# is checked record by record.
_COLUMN_KEYWORDS = {"type", "description", "pattern", "enum", "const", "minimum", "maximum", "minLength", "x-sql"}
# Record-level keywords that a column check covers (others, such as if/then or oneOf on the record: record by record)
_RECORD_KEYWORDS = {"$schema", "$id", "title", "description", "x-table", "type", "required", "properties"}
_RECORD_KEYWORDS |= {"additionalProperties"}


def validate_frame(kind: str, frame: Any) -> None:
    """Raise RecordError, as `validate` would for the first bad row, if any row of `frame` (a polars DataFrame, one
    column per property; a null is the value None) is not a valid `kind`.

    A stage writing 100k rows would spend seconds on a check per row. Here the plain scalar properties (type, pattern,
    enum, const, minimum, maximum, minLength) are checked a column at a time, which only picks the suspect rows:
    each suspect row, and every row when a property or the record uses another keyword, then goes through `validate`,
    which has the last word. So a row passes only if `validate` would pass it; the column checks may be stricter (a
    Rust regex's `$` does not match before a final newline), never looser."""
    import polars as pl

    schema = schema_of(kind)
    properties = schema.get("properties", {})
    columns = set(frame.columns)
    whole_rows = (
        bool(set(schema) - _RECORD_KEYWORDS)
        or (schema.get("additionalProperties") is False and bool(columns - set(properties)))
        or bool(set(schema.get("required", [])) - columns)
        or any(set(properties[c]) - _COLUMN_KEYWORDS for c in columns & set(properties))
    )
    if whole_rows:
        suspects = range(len(frame))
    else:
        mask = pl.zeros(len(frame), dtype=pl.Boolean, eager=True)
        for name in frame.columns:
            mask = mask | _column_suspects(frame[name], properties[name])
        suspects = mask.fill_null(True).arg_true().to_list()
    for i in suspects:
        validate(kind, _record(frame.row(i, named=True)))


def _record(row: dict[str, Any]) -> dict[str, Any]:
    import datetime as dt

    return {k: v.isoformat() if isinstance(v, dt.datetime) else v for k, v in row.items()}


def _column_suspects(column: Any, prop: dict[str, Any]) -> Any:
    """The rows of `column` that might not satisfy the scalar schema `prop` (a superset of the bad ones; a null in
    the result counts as suspect)."""
    import polars as pl

    everyone = pl.ones(len(column), dtype=pl.Boolean, eager=True)
    types = prop.get("type", [])
    types = {types} if isinstance(types, str) else set(types)
    dtype = column.dtype
    if dtype == pl.String:
        kind = "string"
    elif dtype == pl.Boolean:
        kind = "boolean"
    elif dtype.is_integer():
        kind = "integer"
    elif dtype.is_float():
        kind = "number"
    elif dtype == pl.Datetime and prop.get("x-sql") == "TIMESTAMP":
        kind = "string"  # written as its ISO text (see store.json_safe_row)
    else:
        return everyone  # nulls only, lists, structs...: record by record
    if not types:
        types = {kind, "null"}
    if kind == "number" and "number" not in types:
        return everyone  # a float may still be an integer (1.0): record by record
    nulls = column.is_null()
    present = ~nulls
    suspect = nulls if "null" not in types else ~everyone
    if kind not in types and not (kind == "integer" and "number" in types):
        suspect = suspect | present
    if "pattern" in prop:
        if dtype != pl.String:
            suspect = suspect | present
        else:
            try:
                suspect = suspect | (present & ~column.str.contains(prop["pattern"]))
            except pl.exceptions.ComputeError:  # a Python-only regex feature: record by record
                suspect = suspect | present
    for word in ("enum", "const"):
        if word in prop:
            allowed = prop[word] if word == "enum" else [prop[word]]
            same = [a for a in allowed if _json_kind(a) == kind or (kind == "number" and _json_kind(a) == "integer")]
            suspect = suspect | (present & ~column.is_in(same) if same and dtype != pl.Datetime else present)
    numeric = kind in ("integer", "number")
    if "minimum" in prop:
        suspect = suspect | ((present & (column < prop["minimum"])) if numeric else present)
    if "maximum" in prop:
        suspect = suspect | ((present & (column > prop["maximum"])) if numeric else present)
    if "minLength" in prop:
        suspect = suspect | (
            (present & (column.str.len_chars() < prop["minLength"])) if dtype == pl.String else present
        )
    return suspect


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "other"
