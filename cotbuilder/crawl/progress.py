"""The crawl's live progress: one bar for the sources, one line per source being read (files or pages so far)."""

from __future__ import annotations

import threading
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class CrawlProgress:
    def __init__(self, console: Console):
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        self._console = console
        self._lock = threading.Lock()
        self._overall: Any = None
        self._tasks: dict[str, Any] = {}

    def __enter__(self) -> CrawlProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def start(self, n_sources: int) -> None:
        self._overall = self._progress.add_task("sources", total=n_sources)

    def files(self, label: str, done: int) -> None:
        """Called from worker threads as a source's files (or pages) are read."""
        with self._lock:
            task = self._tasks.get(label)
            if task is None:
                task = self._tasks[label] = self._progress.add_task(f"  {label[-60:]}", total=None)
            self._progress.update(task, completed=done)

    def source_done(self, result: Any) -> None:
        label = result.spec.label()
        shown = escape(label)
        with self._lock:
            task = self._tasks.pop(label, None)
            if task is not None:
                self._progress.remove_task(task)
        if self._overall is not None:
            self._progress.advance(self._overall)
        if result.status == "unchanged":
            line = f"{shown}: unchanged, skipped (fingerprint {str(result.fingerprint)[:16]})"
        elif result.status == "failed":
            line = f"[red]{shown}: failed[/red] — {escape(str(result.error))}"
        else:
            line = f"{shown}: {len(result.files)} files, {len(result.units)} units, {len(result.skipped)} skipped" + (
                f" @ {result.commit[:12]}" if result.commit else ""
            )
        self._console.print(line, markup=True, highlight=False)
