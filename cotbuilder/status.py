"""`cotbuilder status`: counts per table, the last run of each registered stage, then each stage's own section
(`status=` in its registry entry, e.g. verify's outcomes per backend, annotate's tokens and cost)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from .stages.registry import STAGES, Registry
from .store import TABLES, Store, writing_process


def render_status(store: Store, console: Console, registry: Registry = STAGES) -> None:
    writer = writing_process(store.workspace)
    if writer:  # a stage is running: the counts below are its last committed batch
        console.print(f"running: pid {writer.get('pid')}: {writer.get('command')} (since {writer.get('since')})")
    counts = Table("table", "rows", title=f"workspace {store.workspace}")
    for name in sorted(TABLES):
        counts.add_row(name, str(store.count(name)))
    console.print(counts)

    last = {
        r["stage"]: r
        for r in store.rows(
            "SELECT stage, status, started_at, ended_at, counts FROM runs "
            "QUALIFY row_number() OVER (PARTITION BY stage ORDER BY started_at DESC) = 1"
        )
    }
    table = Table("stage", "status", "started", "seconds", "counts", title="last run of each stage")
    for entry in registry:
        r = last.get(entry.verb)
        if r is None:
            table.add_row(entry.verb, "never run", "", "", "")
            continue
        seconds = (r["ended_at"] - r["started_at"]).total_seconds() if r["ended_at"] else None
        summary = ", ".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in sorted(r["counts"].items())
        )
        table.add_row(
            entry.verb,
            r["status"],
            str(r["started_at"])[:19],
            f"{seconds:.1f}" if seconds is not None else "",
            summary,
        )
    console.print(table)
    for entry in registry:
        section = entry.status_section()
        if section is not None:
            section(store, console)
