"""The workspace store: one DuckDB file holding every stage's records, plus a content-addressed cache folder.

Every stage reads and writes through this module. Tables are declared in `tables/<name>.sql` (one file per table, its
first line `-- record: <kind>` naming the JSON Schema its rows are validated against), so a stage adds its table by
adding a file, never by editing this one.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from .. import records
from ..hashing import stable_json

DEFAULT_WORKSPACE = "cotbuilder-work"
DB_NAME = "store.duckdb"
_TABLES_DIR = Path(__file__).resolve().parent / "tables"
# Statement types a read-only query may run: reading and describing, never changing anything.
_READ_ONLY_TYPES = {"SELECT", "EXPLAIN", "PRAGMA"}


class StoreError(RuntimeError):
    """A store operation failed in a way the user can act on (message says how)."""


class ReadOnlyQueryError(StoreError):
    pass


@dataclass(frozen=True)
class TableSpec:
    name: str
    kind: str  # the record kind: schemas/<kind>.schema.json
    ddl: str
    json_columns: frozenset[str]
    key: tuple[str, ...]


def _load_table_specs() -> dict[str, TableSpec]:
    specs: dict[str, TableSpec] = {}
    for path in sorted(_TABLES_DIR.glob("*.sql")):
        ddl = path.read_text(encoding="utf-8")
        kind_match = re.search(r"^--\s*record:\s*(\S+)", ddl, re.M)
        if not kind_match:
            raise StoreError(f"{path} must start with '-- record: <kind>'")
        json_cols = frozenset(re.findall(r"^\s*(\w+)\s+JSON\b", ddl, re.M | re.I))
        key_match = re.search(r"PRIMARY KEY\s*\(([^)]*)\)", ddl, re.I)
        key = tuple(c.strip() for c in key_match.group(1).split(",")) if key_match else ()
        specs[path.stem] = TableSpec(path.stem, kind_match.group(1), ddl, json_cols, key)
    return specs


TABLES: dict[str, TableSpec] = _load_table_specs()


def _declared_columns(ddl: str) -> list[tuple[str, str]]:
    """(name, type) of each column a table's DDL declares (one column per line, as the tables/*.sql files write)."""
    start = re.search(r"CREATE TABLE[^(]*\(", ddl, re.I)
    body = ddl[start.end() : ddl.rindex(")")] if start else ""
    columns = []
    for line in body.splitlines():
        match = re.match(r"\s*(\w+)\s+([A-Za-z]+(?:\[\])?)", line.split("--", 1)[0])
        if match and match.group(1).upper() not in ("PRIMARY", "UNIQUE", "CHECK", "FOREIGN"):
            columns.append((match.group(1), match.group(2)))
    return columns


def resolve_workspace(workspace: str | os.PathLike[str] | None) -> Path:
    """--workspace, else $COTBUILDER_WORKSPACE, else ./cotbuilder-work."""
    chosen = workspace or os.environ.get("COTBUILDER_WORKSPACE") or DEFAULT_WORKSPACE
    return Path(chosen).expanduser().resolve()


def utcnow() -> _dt.datetime:
    return _dt.datetime.now(_dt.UTC).replace(tzinfo=None)


def _to_db(value: Any, is_json: bool) -> Any:
    if is_json:
        return None if value is None else stable_json(value)
    return value


def _json_safe(value: Any) -> Any:
    """Values as they would appear in JSON (for schema validation): datetimes become ISO strings."""
    if isinstance(value, _dt.datetime):
        return value.isoformat()
    return value


def json_safe_row(row: dict[str, Any]) -> dict[str, Any]:
    """A record as its JSON Schema sees it (what `insert` validates)."""
    return {k: _json_safe(v) for k, v in row.items()}


class Store:
    """One workspace: `<dir>/store.duckdb` and `<dir>/cache/`.

    DuckDB allows one writing process per file: stages compute in worker processes and write from the parent.
    """

    def __init__(self, workspace: str | os.PathLike[str] | None = None, *, read_only: bool = False):
        self.workspace = resolve_workspace(workspace)
        self.read_only = read_only
        self.db_path = self.workspace / DB_NAME
        if read_only:
            if not self.db_path.exists():
                raise StoreError(
                    f"no store at {self.db_path}: run `cotbuilder crawl` (or `cotbuilder run`) first, "
                    "or point --workspace / COTBUILDER_WORKSPACE at an existing workspace"
                )
        else:
            self.workspace.mkdir(parents=True, exist_ok=True)
            self.cache_dir.mkdir(exist_ok=True)
        try:
            self.con = duckdb.connect(str(self.db_path), read_only=read_only)
        except duckdb.IOException as exc:  # another process holds the write lock
            raise StoreError(f"cannot open {self.db_path}: {exc}") from exc
        self._in_tx = False
        self._column_cache: dict[str, list[str]] = {}
        if not read_only:
            for spec in TABLES.values():
                self.con.execute(spec.ddl)
                self._add_missing_columns(spec)

    # -- paths ---------------------------------------------------------------------------------------------------
    @property
    def cache_dir(self) -> Path:
        return self.workspace / "cache"

    def cache_path(self, *parts: str) -> Path:
        path = self.cache_dir.joinpath(*parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    # -- transactions --------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def transaction(self) -> Iterator[Store]:
        """All writes inside commit together or not at all (a record and its completion mark go in one of these)."""
        if self._in_tx:  # nested: the outer transaction decides
            yield self
            return
        self.con.execute("BEGIN TRANSACTION")
        self._in_tx = True
        try:
            yield self
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        else:
            self.con.execute("COMMIT")
        finally:
            self._in_tx = False

    # -- writing -------------------------------------------------------------------------------------------------
    def insert(self, table: str, rows: Iterable[dict[str, Any]], *, validate: bool = True) -> int:
        """Insert or replace `rows` (dicts keyed by column) after validating each against the table's schema."""
        spec = self._spec(table)
        rows = list(rows)
        if not rows:
            return 0
        # Every column is written (absent ones as NULL): DuckDB's INSERT OR REPLACE with a column list would keep the
        # old values of unlisted columns, and a replaced record must not inherit fields of the one it replaces.
        columns = self._columns(table)
        unknown = {k for row in rows for k in row} - set(columns)
        if unknown:
            raise StoreError(f"table {table} has no column(s) {', '.join(sorted(unknown))}")
        if validate:
            for row in rows:
                records.validate(spec.kind, json_safe_row(row))
        placeholders = ", ".join("?" for _ in columns)
        sql = f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({placeholders})"
        params = [[_to_db(row.get(c), c in spec.json_columns) for c in columns] for row in rows]
        with self.transaction():
            self._write_rows(table, columns, sql, params)
        return len(rows)

    def _write_rows(self, table: str, columns: list[str], sql: str, params: list[list[Any]]) -> None:
        """Bulk path through an Arrow table (DuckDB's executemany goes row by row: ~100x slower on thousands of
        rows); executemany stays the fallback when Arrow cannot type a column (mixed value types)."""
        if len(params) > 1:
            import pyarrow as pa

            try:
                data = pa.table({c: [row[i] for row in params] for i, c in enumerate(columns)})
            except (pa.ArrowInvalid, pa.ArrowTypeError):
                data = None
            if data is not None:
                self.con.register("_cotbuilder_new_rows", data)
                try:
                    self.con.execute(
                        f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) "
                        f"SELECT {', '.join(columns)} FROM _cotbuilder_new_rows"
                    )
                finally:
                    self.con.unregister("_cotbuilder_new_rows")
                return
        self.con.executemany(sql, params)

    def execute(self, sql: str, params: Iterable[Any] | None = None) -> None:
        """A write statement from a stage module (deletes, status updates). Stages own their SQL; users get query()."""
        self.con.execute(sql, list(params) if params is not None else None)

    # -- reading -------------------------------------------------------------------------------------------------
    def rows(self, sql: str, params: Iterable[Any] | None = None) -> list[dict[str, Any]]:
        """Run SQL and return dicts; JSON columns come back parsed."""
        cur = self.con.execute(sql, list(params) if params is not None else None)
        names = [d[0] for d in cur.description]
        json_idx = {i for i, d in enumerate(cur.description) if str(d[1]).upper() == "JSON"}
        out = []
        for tup in cur.fetchall():
            out.append(
                {
                    n: (json.loads(v) if i in json_idx and isinstance(v, str) else v)
                    for i, (n, v) in enumerate(zip(names, tup, strict=False))
                }
            )
        return out

    def scalar(self, sql: str, params: Iterable[Any] | None = None) -> Any:
        row = self.con.execute(sql, list(params) if params is not None else None).fetchone()
        return None if row is None else row[0]

    def has_table(self, name: str) -> bool:
        """A read-only store opened on an older workspace may lack a later stage's table."""
        # duckdb_tables() answers from the catalog; information_schema is a view that costs ~50 ms per look.
        return bool(self.scalar("SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [name]))

    def count(self, table: str, where: str = "", params: Iterable[Any] | None = None) -> int:
        self._spec(table)
        return int(self.scalar(f"SELECT count(*) FROM {table} {('WHERE ' + where) if where else ''}", params))

    def query_readonly(self, sql: str) -> tuple[list[str], list[tuple[Any, ...]], set[str]]:
        """User SQL (`cotbuilder query`): refused unless every statement only reads. Returns column names, rows and
        the names of JSON-typed columns (so `--json` can nest them instead of printing JSON inside a string)."""
        try:
            statements = duckdb.extract_statements(sql)
        except duckdb.Error as exc:
            raise ReadOnlyQueryError(f"cannot parse query: {exc}") from exc
        if not statements:
            raise ReadOnlyQueryError("empty query")
        for st in statements:
            kind = str(st.type).rsplit(".", 1)[-1]
            if kind not in _READ_ONLY_TYPES:
                raise ReadOnlyQueryError(
                    f"refused: `cotbuilder query` only reads the store, and this is a {kind} statement "
                    f"({st.query.strip()[:60]!r}). Stages change the store; queries only look."
                )
        cur = None
        for st in statements:
            cur = self.con.execute(st)
        assert cur is not None
        if not cur.description:
            return [], [], set()
        names = [d[0] for d in cur.description]
        json_columns = {d[0] for d in cur.description if str(d[1]).upper() == "JSON"}
        return names, cur.fetchall(), json_columns

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers -------------------------------------------------------------------------------------------------
    def _add_missing_columns(self, spec: TableSpec) -> None:
        """A workspace made by an older cotbuilder gets the columns added since (NULL in its existing rows), so
        opening it never fails and no stage needs its own migration code."""
        present = {r[1] for r in self.con.execute(f"PRAGMA table_info('{spec.name}')").fetchall()}
        for name, sql_type in _declared_columns(spec.ddl):
            if name not in present:
                self.con.execute(f"ALTER TABLE {spec.name} ADD COLUMN {name} {sql_type}")

    def _columns(self, table: str) -> list[str]:
        if table not in self._column_cache:
            self._column_cache[table] = [r[1] for r in self.con.execute(f"PRAGMA table_info('{table}')").fetchall()]
        return self._column_cache[table]

    def _spec(self, table: str) -> TableSpec:
        try:
            return TABLES[table]
        except KeyError:
            raise StoreError(f"unknown table {table!r}; tables: {', '.join(sorted(TABLES))}") from None
