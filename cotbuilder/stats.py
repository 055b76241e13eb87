"""What a stage did: counters, skip/fail reasons, the closing stats table, and the `runs` row.

The stage driver (`stages/driver.py`) wraps every stage run in `stage_run(store, "crawl", config)`; the stage counts with
the StageStats it is handed, so the user always knows how many items each step kept, skipped and failed, and why.
"""

from __future__ import annotations

import contextlib
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from .hashing import config_hash
from .stages.base import StageRefused
from .store import Store, utcnow

MAX_ERRORS_KEPT = 100


@dataclass
class StageStats:
    stage: str
    config: dict[str, Any]
    counts: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    errors: list[dict[str, str]] = field(default_factory=list)
    status: str | None = None  # set explicitly to override the derived status
    started_at: Any = field(default_factory=utcnow)
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)

    def add(self, key: str, n: int | float = 1) -> None:
        self.counts[key] += n

    def kept(self, n: int = 1) -> None:
        self.counts["kept"] += n

    def skip(self, reason: str, n: int = 1) -> None:
        """Deliberately not processed (already done, filtered out): not an error."""
        self.counts["skipped"] += n
        self.reasons[f"skipped: {reason}"] += n

    def fail(self, reason: str, item: str | None = None, error: str | None = None) -> None:
        self.counts["failed"] += 1
        self.reasons[f"failed: {reason}"] += 1
        if len(self.errors) < MAX_ERRORS_KEPT:
            self.errors.append({"item": item or "", "reason": reason, "error": (error or reason)[:2000]})

    @property
    def derived_status(self) -> str:
        if self.status:
            return self.status
        if self.counts["failed"] and not self.counts["kept"]:
            return "failed"
        return "partial" if self.counts["failed"] else "ok"

    def table(self) -> Table:
        table = Table(title=f"{self.stage}: {self.derived_status}", show_header=True, header_style="bold")
        table.add_column("count")
        table.add_column("value", justify="right")
        for key in sorted(self.counts):
            value = self.counts[key]
            table.add_row(key, f"{value:.4g}" if isinstance(value, float) else str(value))
        for reason, n in self.reasons.most_common():
            table.add_row(f"  {reason}", str(n))
        return table

    def render(self, console: Console | None = None) -> None:
        (console or Console(stderr=True)).print(self.table())

    def record(self, store: Store) -> None:
        store.insert(
            "runs",
            [
                {
                    "run_id": self.run_id,
                    "stage": self.stage,
                    "config_hash": config_hash(self.config),
                    "config": self.config,
                    "started_at": self.started_at,
                    "ended_at": utcnow(),
                    "status": self.derived_status,
                    "counts": dict(self.counts),
                    "reasons": dict(self.reasons),
                    "errors": self.errors,
                }
            ],
        )


@contextlib.contextmanager
def stage_run(store: Store, stage: str, config: dict[str, Any]) -> Iterator[StageStats]:
    """Count a stage's work and write its `runs` row at the end, also when it is interrupted or crashes."""
    stats = StageStats(stage, config)
    try:
        yield stats
    except KeyboardInterrupt:
        stats.status = "interrupted"
        stats.record(store)
        raise
    except StageRefused as exc:  # its settings or input, not a crash: the reason says so
        stats.status = "failed"
        stats.fail("refused", error=str(exc))
        stats.record(store)
        raise
    except Exception as exc:
        stats.status = "failed"
        stats.fail("stage crashed", error=f"{type(exc).__name__}: {exc}")
        stats.record(store)
        raise
    else:
        stats.record(store)
