"""Parquet shards `data/<config>/train-XXXXX-of-YYYYY.parquet` (the file naming the Hub's loaders expect)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def write_shards(
    rows: list[dict[str, Any]], folder: Path, config_name: str, rows_per_shard: int
) -> tuple[list[Path], Any, int]:
    """(shard paths, arrow schema, total bytes)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pylist(rows)
    out = folder / "data" / config_name
    out.mkdir(parents=True, exist_ok=True)
    n_shards = max(1, -(-len(rows) // rows_per_shard))
    paths = []
    for i in range(n_shards):
        path = out / f"train-{i:05d}-of-{n_shards:05d}.parquet"
        pq.write_table(table.slice(i * rows_per_shard, rows_per_shard), path, compression="zstd")
        paths.append(path)
    return paths, table.schema, int(table.nbytes)
