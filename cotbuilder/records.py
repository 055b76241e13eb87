"""Record validation against the JSON Schemas in schemas/ (the source of truth for every record)."""

from __future__ import annotations

import json
from collections.abc import Callable
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


@cache
def _compiled(kind: str) -> Callable[[dict[str, Any]], Any]:
    """The schema compiled to Python by fastjsonschema: ~20x faster than jsonschema on a valid record (a stage that
    writes 100k rows spent more time validating them than computing them). fastjsonschema reads drafts 4-7; our
    schemas use only keywords those drafts read as 2020-12 does (tests/test_records.py compares the two on every
    schema). One leniency: it takes a tuple for a JSON array, which is stored as the same JSON."""
    import fastjsonschema

    schema = {**_validator(kind).schema, "$schema": "http://json-schema.org/draft-07/schema#"}
    return fastjsonschema.compile(schema)


def validate(kind: str, record: dict[str, Any]) -> None:
    """Raise RecordError with the first (most relevant) problem if `record` is not a valid `kind`."""
    from fastjsonschema import JsonSchemaException

    try:
        _compiled(kind)(record)
        return
    except JsonSchemaException:
        pass  # invalid: jsonschema names the most relevant problem
    error = jsonschema.exceptions.best_match(_validator(kind).iter_errors(record))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(record)"
        raise RecordError(f"invalid {kind} record at {where}: {error.message}")
