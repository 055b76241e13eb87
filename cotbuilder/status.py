"""`cotbuilder status`: counts per table and the last run of each stage."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from .store import TABLES, Store


def render_status(store: Store, console: Console) -> None:
    counts = Table("table", "rows", title=f"workspace {store.workspace}")
    for name in sorted(TABLES):
        counts.add_row(name, str(store.count(name)))
    console.print(counts)

    runs = store.rows(
        "SELECT stage, status, started_at, ended_at, counts, reasons FROM runs "
        "QUALIFY row_number() OVER (PARTITION BY stage ORDER BY started_at DESC) = 1 ORDER BY started_at"
    )
    last = Table("stage", "status", "started", "seconds", "counts", title="last run of each stage")
    for r in runs:
        seconds = (r["ended_at"] - r["started_at"]).total_seconds() if r["ended_at"] else None
        summary = ", ".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in sorted(r["counts"].items())
        )
        last.add_row(
            r["stage"], r["status"], str(r["started_at"])[:19], f"{seconds:.1f}" if seconds is not None else "", summary
        )
    console.print(last)
    for extra in _extra_sections():
        extra(store, console)


def _extra_sections():
    """Stages may add a section to `status` (e.g. annotate's token and cost totals) by defining
    `status_section(store, console)` in `cotbuilder/<stage>/status.py`."""
    import importlib

    for pkg in ("crawl", "annotate", "verify", "dedup", "decontam", "publish"):
        try:
            mod = importlib.import_module(f"cotbuilder.{pkg}.status")
        except ModuleNotFoundError:
            continue
        yield mod.status_section
