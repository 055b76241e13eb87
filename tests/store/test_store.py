"""The store: schema validation, transactions, read-only queries."""

from __future__ import annotations

import json

import pytest

from cotbuilder.records import RecordError
from cotbuilder.store import TABLES, Store, utcnow


def _source(i: int, **kw):
    return {
        "source_id": f"{i:064x}",
        "kind": "local",
        "url": f"/tmp/src{i}",
        "status": "ok",
        "crawled_at": utcnow(),
        **kw,
    }


def test_invalid_record_is_refused_and_nothing_is_written(workspace):
    with Store(workspace) as store:
        store.insert("sources", [_source(1)])
        with pytest.raises(RecordError, match="kind"):
            store.insert("sources", [_source(2), _source(3, kind="ftp")])
        assert store.count("sources") == 1


def test_transaction_rolls_back_every_write_on_error(workspace):
    with Store(workspace) as store:
        with pytest.raises(RuntimeError):
            with store.transaction():
                store.insert("sources", [_source(1)])
                raise RuntimeError("crash between record and completion mark")
        assert store.count("sources") == 0


def test_insert_replaces_rows_with_the_same_key(workspace):
    with Store(workspace) as store:
        store.insert("sources", [_source(1, status="failed", error="boom")])
        store.insert("sources", [_source(1)])
        assert store.rows("SELECT status, error FROM sources") == [{"status": "ok", "error": None}]


def test_query_cli_reads_and_refuses_writes(workspace, cli):
    with Store(workspace) as store:
        store.insert("sources", [_source(1), _source(2)])
    ok = cli("query", "SELECT count(*) AS n FROM sources", "--json", workspace=workspace)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == '{"n": 2}'
    refused = cli("query", "DELETE FROM sources", workspace=workspace)
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: refused: `cotbuilder query` only reads the store")
    assert "DELETE" in refused.stderr
    with Store(workspace) as store:
        assert store.count("sources") == 2


@pytest.mark.parametrize(
    "sql",
    [
        "EXPLAIN ANALYZE COPY (SELECT * FROM sources) TO '{out}'",
        "COPY sources TO '{out}'",
        "EXPORT DATABASE '{out}'",
        "ATTACH '{out}' AS other",
        "SET enable_external_access = true; COPY sources TO '{out}'",
        "RESET enable_external_access; COPY sources TO '{out}'",
    ],
)
def test_query_cannot_write_any_file(workspace, cli, tmp_path, sql):
    with Store(workspace) as store:
        store.insert("sources", [_source(1)])
    out = tmp_path / "written_by_query"
    res = cli("query", sql.format(out=out), workspace=workspace)
    assert res.returncode == 2, res.stdout + res.stderr
    assert res.stderr.startswith("error: refused: `cotbuilder query` only reads the store"), res.stderr
    assert not out.exists()
    with Store(workspace) as store:
        assert store.count("sources") == 1


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT content FROM read_text('{secret}')",
        "SELECT * FROM read_csv('{secret}', header = false)",
        "SELECT * FROM glob('{folder}/*')",
        "SELECT content::VARCHAR AS c FROM read_blob('{secret}')",
        "SELECT * FROM '{folder}/secret.csv'",
    ],
)
def test_query_cannot_read_host_files(workspace, cli, tmp_path, sql):
    Store(workspace).close()
    secret = tmp_path / "host" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("host-only-content-7f3a\n")
    (secret.parent / "secret.csv").write_text("host-only-content-7f3a\n")
    res = cli("query", sql.format(secret=secret, folder=secret.parent), "--json", workspace=workspace)
    assert res.returncode == 2, res.stdout
    assert "host-only-content-7f3a" not in res.stdout + res.stderr
    assert "secret.txt" not in res.stdout


def test_query_still_runs_read_only_statements_of_every_kind(workspace, cli):
    with Store(workspace) as store:
        store.insert("sources", [_source(1), _source(2, kind="git")])
    sql = "DESCRIBE sources; SELECT kind, count(*) AS n FROM sources GROUP BY kind ORDER BY kind"
    res = cli("query", sql, "--json", workspace=workspace)
    assert res.returncode == 0, res.stderr
    assert [json.loads(line) for line in res.stdout.splitlines()] == [
        {"kind": "git", "n": 1},
        {"kind": "local", "n": 1},
    ]
    explain = cli("query", "EXPLAIN SELECT * FROM sources", workspace=workspace)
    assert explain.returncode == 0 and "SEQ_SCAN" in explain.stdout.replace(" ", "_").upper(), explain.stderr


def test_query_without_a_store_says_how_to_make_one(workspace, cli):
    res = cli("query", "SELECT 1", workspace=workspace)
    assert res.returncode == 2
    assert "cotbuilder crawl" in res.stderr


def _table_rows(text: str) -> list[list[str]]:
    """The body rows of the rich tables in `text`, as lists of stripped cells."""
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in text.splitlines() if line.startswith("│")]


def test_status_counts_every_table_and_shows_each_stages_last_run(workspace, cli):
    from cotbuilder.stats import stage_run

    with Store(workspace) as store:
        store.insert("sources", [_source(1), _source(2), _source(3, kind="git")])
        with stage_run(store, "crawl", {"sources": []}) as stats:
            stats.kept(3)
            stats.skip("source unchanged")
        with stage_run(store, "crawl", {"sources": ["again"]}) as stats:  # the later run is the one shown
            stats.kept(1)
    res = cli("status", workspace=workspace)
    assert res.returncode == 0, res.stderr
    rows = _table_rows(res.stdout)
    counts = {r[0]: r[1] for r in rows if len(r) == 2}
    assert counts == {t: "0" for t in TABLES} | {"sources": "3", "runs": "2"}
    (crawl,) = [r for r in rows if len(r) == 5 and r[0] == "crawl"]
    assert crawl[1] == "ok" and crawl[4] == "kept=1"


def test_query_json_nests_json_columns_instead_of_quoting_them(workspace, cli):
    with Store(workspace) as store:
        store.insert("sources", [_source(1, skipped=[{"path": "a.bin", "reason": "binary"}])])
    res = cli("query", "SELECT skipped FROM sources", "--json", workspace=workspace)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == {"skipped": [{"path": "a.bin", "reason": "binary"}]}


def test_a_workspace_from_an_older_version_gets_new_columns_and_keeps_its_rows(workspace):
    with Store(workspace) as store:
        store.insert("sources", [_source(1)])
        store.execute("ALTER TABLE sources DROP COLUMN n_units")  # as a workspace made before the column existed
    with Store(workspace) as store:
        assert store.rows("SELECT source_id, n_units FROM sources") == [{"source_id": f"{1:064x}", "n_units": None}]
        store.insert("sources", [_source(2, n_units=3)])
        assert store.count("sources", "n_units = 3") == 1


def _dedup_frame(n: int, **override):
    import hashlib

    import polars as pl

    ids = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(n)]
    columns = {
        "unit_id": ids,
        "cluster_id": ids,
        "cluster_size": [1] * n,
        "is_representative": [True] * n,
        "method": ["unique"] * n,
        "similarity": [1.0] * n,
        "representative_id": ids,
        "code_hash": ids,
        "config_hash": ["c"] * n,
        "input_hash": ["i"] * n,
        "created_at": [utcnow()] * n,
    }
    return pl.DataFrame({**columns, **override})


def test_insert_frame_writes_every_row_and_replaces_rows_with_the_same_key(workspace):
    with Store(workspace) as store:
        assert store.insert_frame("dedup", _dedup_frame(500)) == 500
        store.insert_frame("dedup", _dedup_frame(3, method=["exact"] * 3, cluster_size=[3] * 3))
        assert store.count("dedup") == 500
        assert store.rows("SELECT method, count(*) AS n FROM dedup GROUP BY 1 ORDER BY 1") == [
            {"method": "exact", "n": 3},
            {"method": "unique", "n": 497},
        ]


def test_insert_frame_refuses_a_bad_row_and_writes_nothing(workspace):
    with Store(workspace) as store:
        store.insert_frame("dedup", _dedup_frame(2))
        bad = _dedup_frame(300, cluster_size=[1] * 299 + [0])
        with pytest.raises(RecordError, match="cluster_size"):
            store.insert_frame("dedup", bad)
        assert store.count("dedup") == 2


def test_insert_frame_refuses_unknown_and_json_columns(workspace):
    import polars as pl

    from cotbuilder.store import StoreError

    with Store(workspace) as store:
        with pytest.raises(StoreError, match="no column"):
            store.insert_frame("dedup", _dedup_frame(1).with_columns(pl.lit(1).alias("bogus")))
        with pytest.raises(StoreError, match="JSON columns go through insert"):
            store.insert_frame("sources", pl.DataFrame({"source_id": ["1" * 64], "skipped": [[]]}))


def test_arrow_reads_in_bulk_even_after_a_scalar_read_left_its_result_open(workspace):
    with Store(workspace) as store:
        store.insert("sources", [_source(1), _source(2)])
        assert store.scalar("SELECT count(*) FROM sources") == 2
        table = store.arrow("SELECT source_id FROM sources WHERE kind = ? ORDER BY 1", ["local"])
        assert table.column("source_id").to_pylist() == [f"{1:064x}", f"{2:064x}"]
