"""The store's tables, generated from the record schemas: `cotbuilder/store/tables/<table>.sql` and `docs/tables.md`.

A record's columns are declared once, in `schemas/<kind>.schema.json`: its `x-table` ({name, key, row}) makes it a
table, each property is a column in the schema's order, and the column's SQL type follows from its JSON type (string
VARCHAR, integer INTEGER, number DOUBLE, boolean BOOLEAN, object/array JSON) unless the property says `x-sql`
(TIMESTAMP, BIGINT). A column is NOT NULL when the schema requires it and does not allow null; `x-table.key` is the
primary key. Run `python -m cotbuilder.store.generate` after editing a schema; tests/store/test_generated_tables.py
fails while the files lag behind.
"""

from __future__ import annotations

import json
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..paths import _REPO, data_dir

TABLES_DIR = Path(__file__).resolve().parent / "tables"
DOC = "docs/tables.md"
_NOTICE = "Generated from schemas/{kind}.schema.json by `python -m cotbuilder.store.generate`: edit the schema."


@dataclass(frozen=True)
class Column:
    name: str
    sql_type: str
    not_null: bool
    primary_key: bool
    description: str
    json_type: str  # as the table reference shows it


@dataclass(frozen=True)
class Table:
    name: str
    kind: str
    description: str  # the schema's description
    row: str  # "one row per ..."
    columns: tuple[Column, ...]


def _types(prop: dict[str, Any]) -> set[str]:
    declared = prop.get("type")
    if declared is not None:
        return {declared} if isinstance(declared, str) else set(declared)
    values = prop.get("enum", [prop["const"]] if "const" in prop else [])
    names = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string"}
    return {names.get(type(v), "object") for v in values} or {"object"}


def _sql_type(name: str, prop: dict[str, Any], types: set[str]) -> str:
    if "x-sql" in prop:
        return prop["x-sql"]
    kinds = types - {"null"}
    if kinds & {"object", "array"}:
        return "JSON"
    if kinds == {"boolean"}:
        return "BOOLEAN"
    if kinds == {"integer"}:
        return "INTEGER"
    if kinds <= {"integer", "number"} and kinds:
        return "DOUBLE"
    if kinds == {"string"}:
        return "VARCHAR"
    raise ValueError(f"column {name}: no SQL type for JSON type(s) {sorted(kinds)}; give it an x-sql")


def _shown_type(prop: dict[str, Any], types: set[str]) -> str:
    if "enum" in prop:
        return " \\| ".join("null" if v is None else f"`{v}`" for v in prop["enum"])
    return " \\| ".join(sorted(types - {"null"})) + (" \\| null" if "null" in types else "")


def table_of(kind: str, schema: dict[str, Any]) -> Table | None:
    meta = schema.get("x-table")
    if not meta:
        return None
    required = set(schema.get("required", []))
    key = meta.get("key", [])
    columns = []
    for name, prop in schema["properties"].items():
        types = _types(prop)
        if "description" not in prop:
            raise ValueError(f"schemas/{kind}.schema.json: column {name} has no description")
        columns.append(
            Column(
                name=name,
                sql_type=_sql_type(name, prop, types),
                not_null=name in required and "null" not in types,
                primary_key=[name] == key,
                description=prop["description"],
                json_type=_shown_type(prop, types),
            )
        )
    return Table(meta["name"], kind, schema.get("description", ""), meta["row"], tuple(columns))


def tables() -> list[Table]:
    out = []
    for path in sorted(data_dir("schemas").glob("*.schema.json")):
        kind = path.name.removesuffix(".schema.json")
        table = table_of(kind, json.loads(path.read_text(encoding="utf-8")))
        if table is not None:
            out.append(table)
    return out


def ddl(table: Table) -> str:
    width = max(len(c.name) for c in table.columns) + 1
    lines = [f"-- record: {table.kind}", f"-- {_NOTICE.format(kind=table.kind)}"]
    lines += [f"-- {line}" for line in textwrap.wrap(f"One row per {table.row}. {table.description}", 115)]
    lines.append(f"CREATE TABLE IF NOT EXISTS {table.name} (")
    for i, c in enumerate(table.columns):
        spec = c.sql_type + (" PRIMARY KEY" if c.primary_key else " NOT NULL" if c.not_null else "")
        sep = "," if i < len(table.columns) - 1 else ""
        comment = " ".join(c.description.split())
        lines.append(f"    {c.name:<{width}}{spec + sep:<22} -- {comment}".rstrip())
    lines.append(");")
    return "\n".join(lines) + "\n"


def reference(all_tables: list[Table]) -> str:
    lines = [
        "# Tables",
        "",
        f"<!-- {_NOTICE.format(kind='*')} -->",
        "",
        'The store is one DuckDB file, `<workspace>/store.duckdb`. Read it with `cotbuilder query "SQL"` (read-only,',
        "`--json` for JSON lines). Every row is validated against its JSON Schema in `schemas/` before it is written;",
        "JSON columns hold the nested values the schema describes (query them with `->>` / `json_extract`).",
        "",
        "| table | record (schema) | one row per |",
        "|---|---|---|",
    ]
    lines += [
        f"| [`{t.name}`](#{t.name}) | [`{t.kind}`](../schemas/{t.kind}.schema.json) | {t.row} |" for t in all_tables
    ]
    for t in all_tables:
        lines += [
            "",
            f"## {t.name}",
            "",
            t.description,
            "",
            "| column | SQL type | JSON type | meaning |",
            "|---|---|---|---|",
        ]
        for c in t.columns:
            flags = " (key)" if c.primary_key else "" if c.not_null else " (nullable)"
            meaning = " ".join(c.description.split()).replace("|", "\\|")
            lines.append(f"| `{c.name}` | {c.sql_type}{flags} | {c.json_type} | {meaning} |")
    return "\n".join(lines) + "\n"


def generated_files() -> dict[Path, str]:
    """Every generated file and the text it must have."""
    all_tables = tables()
    files = {TABLES_DIR / f"{t.name}.sql": ddl(t) for t in all_tables}
    files[_REPO / DOC] = reference(all_tables)
    return files


def main() -> int:
    stale = [p for p in TABLES_DIR.glob("*.sql") if p not in generated_files()]
    for path in stale:  # a table whose schema lost its x-table
        path.unlink()
    for path, text in generated_files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
