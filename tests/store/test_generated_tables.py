"""Record columns are declared once, in schemas/: the store's DDL and docs/tables.md are generated from them."""

from __future__ import annotations

import copy
import json

import pytest

from cotbuilder.paths import data_dir
from cotbuilder.store import TABLES, Store
from cotbuilder.store import generate as gen


def test_ddl_and_table_reference_match_the_schemas():
    stale = [
        str(path)
        for path, text in gen.generated_files().items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]
    assert not stale, f"out of date with schemas/ (run `python -m cotbuilder.store.generate`): {stale}"
    assert sorted(p.stem for p in gen.TABLES_DIR.glob("*.sql")) == sorted(t.name for t in gen.tables())


def test_a_new_store_has_exactly_the_schema_columns_types_and_nullability(workspace):
    with Store(workspace) as store:
        for table in gen.tables():
            info = store.rows(f"PRAGMA table_info('{table.name}')")
            got = [(r["name"], r["type"], r["notnull"] or r["pk"]) for r in info]
            want = [(c.name, c.sql_type, c.not_null or c.primary_key) for c in table.columns]
            assert got == want, table.name


def test_every_table_the_store_creates_is_generated_from_a_schema():
    assert sorted(TABLES) == sorted(t.name for t in gen.tables())
    for name, spec in TABLES.items():
        assert spec.ddl.splitlines()[1].startswith("-- Generated from schemas/"), name


def test_editing_a_schema_changes_the_ddl_it_generates():
    schema = json.loads((data_dir("schemas") / "source.schema.json").read_text(encoding="utf-8"))
    committed = (gen.TABLES_DIR / "sources.sql").read_text(encoding="utf-8")
    assert gen.ddl(gen.table_of("source", schema)) == committed
    edited = copy.deepcopy(schema)
    edited["properties"]["mirror"] = {"type": ["string", "null"], "description": "a mirror URL"}
    assert "    mirror " in gen.ddl(gen.table_of("source", edited))
    assert gen.ddl(gen.table_of("source", edited)) != committed


def test_a_column_without_a_description_or_sql_type_is_refused():
    schema = json.loads((data_dir("schemas") / "source.schema.json").read_text(encoding="utf-8"))
    schema["properties"]["mystery"] = {"type": "string"}
    with pytest.raises(ValueError, match="column mystery has no description"):
        gen.table_of("source", schema)
    schema["properties"]["mystery"] = {"type": ["string", "integer"], "description": "?"}
    with pytest.raises(ValueError, match="no SQL type"):
        gen.table_of("source", schema)
