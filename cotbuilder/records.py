"""Record validation against the JSON Schemas in schemas/ (the source of truth for every record)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema

from .paths import data_dir


class RecordError(ValueError):
    """A record does not match its schema; the message names the record kind, the field and the problem."""


@cache
def _validator(kind: str) -> jsonschema.protocols.Validator:
    path = data_dir("schemas") / f"{kind}.schema.json"
    if not path.is_file():
        raise RecordError(f"no schema for record kind {kind!r} (looked for {path})")
    schema = json.loads(path.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def schema_of(kind: str) -> dict[str, Any]:
    return _validator(kind).schema


def validate(kind: str, record: dict[str, Any]) -> None:
    """Raise RecordError with the first (most relevant) problem if `record` is not a valid `kind`."""
    error = jsonschema.exceptions.best_match(_validator(kind).iter_errors(record))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(record)"
        raise RecordError(f"invalid {kind} record at {where}: {error.message}")
