"""annotate's lines in `cotbuilder status`: annotations by status and gates, tokens and cost per teacher."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..store import Store


def status_section(store: Store, console: Console) -> None:
    rows = store.rows(
        "SELECT teacher->>'provider' AS provider, teacher->>'model' AS model, lang, kind, count(*) AS n, "
        "count(*) FILTER (WHERE status = 'ok' AND gates_passed) AS publishable, "
        "count(*) FILTER (WHERE status = 'failed') AS failed, "
        "count(*) FILTER (WHERE status = 'ok' AND NOT gates_passed) AS gates_failed, "
        "coalesce(sum(CAST(usage->>'prompt_tokens' AS BIGINT)), 0) AS prompt_tokens, "
        "coalesce(sum(CAST(usage->>'completion_tokens' AS BIGINT)), 0) AS completion_tokens, "
        "coalesce(sum(cost_usd), 0) AS cost FROM annotations GROUP BY ALL ORDER BY provider, model, lang, kind"
    )
    if not rows:
        return
    table = Table(
        "teacher",
        "lang",
        "kind",
        "annotations",
        "publishable",
        "failed",
        "gates failed",
        "prompt tokens",
        "completion tokens",
        "cost USD",
        title="annotations",
    )
    total_cost = total_in = total_out = 0
    for r in rows:
        table.add_row(
            f"{r['provider']}:{r['model']}",
            r["lang"],
            r["kind"],
            str(r["n"]),
            str(r["publishable"]),
            str(r["failed"]),
            str(r["gates_failed"]),
            str(r["prompt_tokens"]),
            str(r["completion_tokens"]),
            f"{r['cost']:.4f}",
        )
        total_cost += r["cost"]
        total_in += r["prompt_tokens"]
        total_out += r["completion_tokens"]
    table.add_row(
        "total",
        "",
        "",
        str(sum(r["n"] for r in rows)),
        str(sum(r["publishable"] for r in rows)),
        str(sum(r["failed"] for r in rows)),
        str(sum(r["gates_failed"] for r in rows)),
        str(total_in),
        str(total_out),
        f"{total_cost:.4f}",
    )
    console.print(table)
