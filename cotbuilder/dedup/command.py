"""`cotbuilder dedup`: exact and MinHash-LSH near-duplicate clusters over the units' code."""

from __future__ import annotations

import typer

from ..cli_common import EXIT_PARTIAL, EXIT_USAGE, console, open_store
from .stage import DedupConfig


def command(
    ctx: typer.Context,
    threshold: float = typer.Option(
        0.7,
        "--threshold",
        min=0.0,
        max=1.0,
        help="Jaccard similarity of code-token shingles at which units are duplicates.",
    ),
    num_perm: int = typer.Option(256, "--num-perm", min=16, help="MinHash permutations."),
    ngram: int = typer.Option(5, "--ngram", min=1, help="Shingle length in code tokens."),
    verify_jaccard: bool = typer.Option(
        False, "--verify-jaccard", help="Check each LSH candidate pair with the exact Jaccard."
    ),
    backend: str = typer.Option("rensa", "--backend", help="MinHash signatures: rensa (fast) or datasketch."),
) -> None:
    """Cluster duplicate units (exact, then MinHash LSH near-duplicates over code tokens) and choose one
    representative per cluster: verified > licence allowed > has harness > better annotation > unit_id.
    Results go to the `dedup` table; an unchanged re-run does nothing."""
    from .stage import run

    if backend not in ("rensa", "datasketch"):
        console.print(f"[red]error:[/red] --backend must be rensa or datasketch, not {backend!r}")
        raise typer.Exit(EXIT_USAGE)
    config = DedupConfig(
        threshold=threshold, num_perm=num_perm, ngram=ngram, verify_jaccard=verify_jaccard, backend=backend
    )
    store = open_store(ctx)
    with store:
        stats = run(store, config)
    stats.render(console)
    if stats.counts["failed"]:
        raise typer.Exit(EXIT_PARTIAL)
