"""Parquet shards `data/<config>/<split>-XXXXX-of-YYYYY.parquet` (the file naming the Hub's loaders expect), and the
train/test assignment: by dedup cluster, so a unit's rows (its languages and samples) and its near-duplicates always
land in the same split."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any


def split_of(cluster_id: str, test_fraction: float) -> str:
    """`test` for a stable share of clusters (a hash of the cluster id, so a later push keeps each cluster's split)."""
    if test_fraction <= 0:
        return "train"
    bucket = int.from_bytes(hashlib.sha256(f"split:{cluster_id}".encode()).digest()[:8], "big") / 2**64
    return "test" if bucket < test_fraction else "train"


def write_shards(
    rows: list[dict[str, Any]], splits: list[str], folder: Path, config_name: str, rows_per_shard: int
) -> tuple[dict[str, list[Path]], Any, dict[str, int]]:
    """(shard paths per split, arrow schema, bytes per split). `splits[i]` is the split of `rows[i]`; one schema for
    all splits (inferred from every row), so the splits load as one dataset."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pylist(rows)
    out = folder / "data" / config_name
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, list[Path]] = {}
    nbytes: dict[str, int] = {}
    for split in sorted(set(splits), key=lambda s: (s != "train", s)):
        part = table.take([i for i, s in enumerate(splits) if s == split])
        n_shards = max(1, -(-part.num_rows // rows_per_shard))
        paths[split] = []
        for i in range(n_shards):
            path = out / f"{split}-{i:05d}-of-{n_shards:05d}.parquet"
            pq.write_table(part.slice(i * rows_per_shard, rows_per_shard), path, compression="zstd")
            paths[split].append(path)
        nbytes[split] = int(part.nbytes)
    return paths, table.schema, nbytes
