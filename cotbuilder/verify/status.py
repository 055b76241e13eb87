"""`cotbuilder status` section: verifications per backend and status, and the most needed missing APIs."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..store import Store


def status_section(store: Store, console: Console) -> None:
    rows = store.rows(
        "SELECT backend, backend_version, soc, status, count(*) AS n FROM verifications "
        "GROUP BY ALL ORDER BY backend, soc, n DESC"
    )
    if not rows:
        return
    table = Table("backend", "soc", "status", "units", title="verifications")
    for r in rows:
        table.add_row(f"{r['backend']}@{r['backend_version']}", r["soc"], r["status"], str(r["n"]))
    console.print(table)
    missing = store.rows(
        "SELECT api, count(*) AS n FROM (SELECT unnest(CAST(missing_apis AS VARCHAR[])) AS api "
        "FROM verifications WHERE missing_apis IS NOT NULL) GROUP BY api ORDER BY n DESC LIMIT 10"
    )
    if missing:
        console.print("missing in the emulator (units): " + ", ".join(f"{m['api']} ({m['n']})" for m in missing))
