"""The workspace store: one DuckDB file holding every stage's records, plus a content-addressed cache folder.

Every stage reads and writes through this module. Tables are declared in `tables/<name>.sql` (one file per table, its
first line `-- record: <kind>` naming the JSON Schema its rows are validated against; generated from that schema by
`python -m cotbuilder.store.generate`), so a stage adds its table by adding a schema, never by editing this file.

The DuckDB connection is held only while it is used (lease.py): `cotbuilder status` and `cotbuilder query` read while
a stage runs, between its batches. One process at a time writes a workspace (writer_lock.py).
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
from . import writer_lock
from .lease import Lease, StoreBusy

DEFAULT_WORKSPACE = "cotbuilder-work"
DB_NAME = "store.duckdb"
_TABLES_DIR = Path(__file__).resolve().parent / "tables"
# A reader's DuckDB: no file other than the store itself is read or written (no COPY TO, no read_csv/glob/read_text of
# host files, no ATTACH, no extension loading), and no query can switch that back on.
_READER_CONFIG = {"enable_external_access": False, "lock_configuration": True}
# Seconds a reader / a writer waits for the file while another process holds it (overridable, e.g. for a long query).
READ_WAIT_S = float(os.environ.get("COTBUILDER_STORE_READ_WAIT", "60"))
WRITE_WAIT_S = float(os.environ.get("COTBUILDER_STORE_WRITE_WAIT", "600"))


class StoreError(RuntimeError):
    """A store operation failed in a way the user can act on (message says how)."""


class ReadOnlyQueryError(StoreError):
    pass


class WorkspaceBusy(StoreError):
    """Another process writes this workspace (its command is in the message)."""


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
        key = tuple(re.findall(r"^\s*(\w+)\s+\w+\s+PRIMARY KEY\b", ddl, re.M | re.I))
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

    A writing store takes the workspace's writer lock and holds its DuckDB connection only while a read or a
    transaction runs (released after `idle_s` of idleness, at once when a reader waits). A read-only store never
    writes, and cannot make DuckDB touch any other file.
    """

    def __init__(
        self,
        workspace: str | os.PathLike[str] | None = None,
        *,
        read_only: bool = False,
        wait_s: float | None = None,
        idle_s: float = 0.2,
    ):
        self.workspace = resolve_workspace(workspace)
        self.read_only = read_only
        self.db_path = self.workspace / DB_NAME
        self._writer = False
        if read_only:
            if not self.db_path.exists():
                raise StoreError(
                    f"no store at {self.db_path}: run `cotbuilder crawl` (or `cotbuilder run`) first, "
                    "or point --workspace / COTBUILDER_WORKSPACE at an existing workspace"
                )
            self._lease = Lease(
                self.db_path, read_only=True, config=_READER_CONFIG, wait_s=wait_s or READ_WAIT_S, idle_s=None
            )
        else:
            self.workspace.mkdir(parents=True, exist_ok=True)
            self.cache_dir.mkdir(exist_ok=True)
            try:
                writer_lock.acquire(self.db_path)
            except writer_lock.WorkspaceBusy as exc:
                raise WorkspaceBusy(str(exc)) from None
            self._writer = True
            self._lease = Lease(self.db_path, read_only=False, wait_s=wait_s or WRITE_WAIT_S, idle_s=idle_s)
        self._in_tx = False
        self._column_cache: dict[str, list[str]] = {}
        try:
            with self._connection() as con:
                if not read_only:
                    for spec in TABLES.values():
                        con.execute(spec.ddl)
                        self._add_missing_columns(con, spec)
        except BaseException:
            self.close()
            raise

    @contextlib.contextmanager
    def _connection(self) -> Iterator[duckdb.DuckDBPyConnection]:
        try:
            with self._lease.connection() as con:
                yield con
        except StoreBusy as exc:
            raise StoreError(f"cannot open {self.db_path}: {exc}") from exc
        except duckdb.IOException as exc:  # not a DuckDB file, no permission...
            if self._lease.is_open:
                raise
            raise StoreError(f"cannot open {self.db_path}: {exc}") from exc

    def release(self) -> None:
        """Let other processes in now (a stage about to compute for a while; readers get in anyway after idle_s)."""
        self._lease.release_if_idle(force=True)

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
        """All writes inside commit together or not at all (a record and its completion mark go in one of these).
        The connection is held for the whole transaction: readers see the store before it or after it."""
        with self._connection() as con:
            if self._in_tx:  # nested: the outer transaction decides
                yield self
                return
            con.execute("BEGIN TRANSACTION")
            self._in_tx = True
            try:
                yield self
            except BaseException:
                con.execute("ROLLBACK")
                raise
            else:
                con.execute("COMMIT")
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
        with self.transaction(), self._connection() as con:
            self._write_rows(con, table, columns, sql, params)
        return len(rows)

    def insert_frame(self, table: str, frame: Any) -> int:
        """`insert` for many rows at once, given as a polars DataFrame (one column per table column; absent columns
        are NULL): validated a column at a time (records.validate_frame: a bad row raises as `insert` would), written
        through Arrow. For tables of plain columns: a JSON column goes through `insert`."""
        import polars as pl

        spec = self._spec(table)
        columns = self._columns(table)
        unknown = set(frame.columns) - set(columns)
        if unknown:
            raise StoreError(f"table {table} has no column(s) {', '.join(sorted(unknown))}")
        if set(frame.columns) & spec.json_columns:
            raise StoreError(f"insert_frame takes plain columns; {table}'s JSON columns go through insert")
        if not len(frame):
            return 0
        records.validate_frame(spec.kind, frame)
        data = frame.select([pl.col(c) if c in frame.columns else pl.lit(None).alias(c) for c in columns]).to_arrow()
        with self.transaction(), self._connection() as con:
            con.register("_cotbuilder_new_frame", data)
            try:
                con.execute(
                    f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) "
                    f"SELECT {', '.join(columns)} FROM _cotbuilder_new_frame"
                )
            finally:
                con.unregister("_cotbuilder_new_frame")
        return len(frame)

    def _write_rows(
        self, con: duckdb.DuckDBPyConnection, table: str, columns: list[str], sql: str, params: list[list[Any]]
    ) -> None:
        """Bulk path through an Arrow table (DuckDB's executemany goes row by row: ~100x slower on thousands of
        rows); executemany stays the fallback when Arrow cannot type a column (mixed value types)."""
        if len(params) > 1:
            import pyarrow as pa

            try:
                data = pa.table({c: [row[i] for row in params] for i, c in enumerate(columns)})
            except (pa.ArrowInvalid, pa.ArrowTypeError):
                data = None
            if data is not None:
                con.register("_cotbuilder_new_rows", data)
                try:
                    con.execute(
                        f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) "
                        f"SELECT {', '.join(columns)} FROM _cotbuilder_new_rows"
                    )
                finally:
                    con.unregister("_cotbuilder_new_rows")
                return
        con.executemany(sql, params)

    def execute(self, sql: str, params: Iterable[Any] | None = None) -> None:
        """A write statement from a stage module (deletes, status updates). Stages own their SQL; users get query()."""
        with self._connection() as con:
            con.execute(sql, list(params) if params is not None else None)

    # -- reading -------------------------------------------------------------------------------------------------
    def rows(self, sql: str, params: Iterable[Any] | None = None) -> list[dict[str, Any]]:
        """Run SQL and return dicts; JSON columns come back parsed."""
        with self._connection() as con:
            cur = con.execute(sql, list(params) if params is not None else None)
            names = [d[0] for d in cur.description]
            json_idx = {i for i, d in enumerate(cur.description) if str(d[1]).upper() == "JSON"}
            fetched = cur.fetchall()
        out = []
        for tup in fetched:
            out.append(
                {
                    n: (json.loads(v) if i in json_idx and isinstance(v, str) else v)
                    for i, (n, v) in enumerate(zip(names, tup, strict=False))
                }
            )
        return out

    def arrow(self, sql: str, params: Iterable[Any] | None = None) -> Any:
        """Run SQL and return a pyarrow Table (bulk reads: columns stay Arrow buffers, no Python object per value;
        JSON columns come back as their text)."""
        with self._connection() as con:
            con.complete()  # a result an earlier execute() left unread (fetchone) would refuse this query
            return con.sql(sql, params=list(params) if params is not None else None).to_arrow_table()

    def scalar(self, sql: str, params: Iterable[Any] | None = None) -> Any:
        with self._connection() as con:
            row = con.execute(sql, list(params) if params is not None else None).fetchone()
        return None if row is None else row[0]

    def has_table(self, name: str) -> bool:
        """A read-only store opened on an older workspace may lack a later stage's table."""
        # duckdb_tables() answers from the catalog; information_schema is a view that costs ~50 ms per look.
        return bool(self.scalar("SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [name]))

    def count(self, table: str, where: str = "", params: Iterable[Any] | None = None) -> int:
        self._spec(table)
        return int(self.scalar(f"SELECT count(*) FROM {table} {('WHERE ' + where) if where else ''}", params))

    def query_readonly(self, sql: str) -> tuple[list[str], list[tuple[Any, ...]], set[str]]:
        """User SQL (`cotbuilder query`), on a read-only store: DuckDB itself refuses every write to the store and
        every access to another file (see _READER_CONFIG), whatever the statement type (`EXPLAIN ANALYZE COPY ... TO`
        included). Returns column names, rows and the names of JSON-typed columns (so `--json` can nest them)."""
        if not self.read_only:
            raise ReadOnlyQueryError("user queries run on a read-only store (Store(..., read_only=True))")
        try:
            statements = duckdb.extract_statements(sql)
        except duckdb.Error as exc:
            raise ReadOnlyQueryError(f"cannot parse query: {exc}") from exc
        if not statements:
            raise ReadOnlyQueryError("empty query")
        with self._connection() as con:
            cur = None
            for st in statements:
                try:
                    cur = con.execute(st)
                except (duckdb.PermissionException, duckdb.InvalidInputException) as exc:
                    raise ReadOnlyQueryError(
                        f"refused: `cotbuilder query` only reads the store ({_first_line(exc)}). "
                        "Stages change the store; queries only look, and never touch other files."
                    ) from exc
            assert cur is not None
            if not cur.description:
                return [], [], set()
            names = [d[0] for d in cur.description]
            json_columns = {d[0] for d in cur.description if str(d[1]).upper() == "JSON"}
            return names, cur.fetchall(), json_columns

    def close(self) -> None:
        self._lease.close()
        if self._writer:
            self._writer = False
            writer_lock.release(self.db_path)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers -------------------------------------------------------------------------------------------------
    @staticmethod
    def _add_missing_columns(con: duckdb.DuckDBPyConnection, spec: TableSpec) -> None:
        """A workspace made by an older cotbuilder gets the columns added since (NULL in its existing rows), so
        opening it never fails and no stage needs its own migration code."""
        present = {r[1] for r in con.execute(f"PRAGMA table_info('{spec.name}')").fetchall()}
        for name, sql_type in _declared_columns(spec.ddl):
            if name not in present:
                con.execute(f"ALTER TABLE {spec.name} ADD COLUMN {name} {sql_type}")

    def _columns(self, table: str) -> list[str]:
        if table not in self._column_cache:
            with self._connection() as con:
                info = con.execute(f"PRAGMA table_info('{table}')").fetchall()
            self._column_cache[table] = [r[1] for r in info]
        return self._column_cache[table]

    def _spec(self, table: str) -> TableSpec:
        try:
            return TABLES[table]
        except KeyError:
            raise StoreError(f"unknown table {table!r}; tables: {', '.join(sorted(TABLES))}") from None


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def writing_process(workspace: str | os.PathLike[str] | None) -> dict[str, Any] | None:
    """The process writing the workspace now ({pid, command, since}), or None (for `status`)."""
    return writer_lock.read_holder(resolve_workspace(workspace) / DB_NAME)
