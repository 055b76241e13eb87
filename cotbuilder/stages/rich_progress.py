"""The CLI's Progress: a rich bar per stage (done/total, elapsed, ETA, the stage's note), one line per long item in
flight (e.g. files read so far of a repository), and the stage's log lines printed above the bar.

The bar is drawn only on a terminal; log lines are printed everywhere (scripts and tests read them)."""

from __future__ import annotations

import threading
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class RichProgress:
    def __init__(self, console: Console, *, live: bool = True):
        self.console = console
        self.live = live and console.is_terminal
        self._progress: Progress | None = None
        self._task: Any = None
        self._subtasks: dict[str, Any] = {}
        self._lock = threading.Lock()  # notes come from executor threads

    def start(self, stage: str, total: int) -> None:
        if not self.live:
            return
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[note]}"),
            console=self.console,
            transient=False,
        )
        self._progress.start()
        self._task = self._progress.add_task(stage, total=total, note="")

    def advance(self, note: str = "", lines: list[str] | None = None) -> None:
        for line in lines or ():
            self.console.print(line, highlight=False, soft_wrap=True)
        if self._progress is not None:
            self._progress.update(self._task, advance=1, note=note)

    def note(self, label: str, done: int | None) -> None:
        if self._progress is None:
            return
        with self._lock:
            task = self._subtasks.get(label)
            if done is None:
                if task is not None:
                    self._progress.remove_task(self._subtasks.pop(label))
                return
            if task is None:
                task = self._subtasks[label] = self._progress.add_task(f"  {label[-60:]}", total=None, note="")
            self._progress.update(task, completed=done)

    def finish(self) -> None:
        if self._progress is not None:
            for task in self._subtasks.values():
                self._progress.remove_task(task)
            self._subtasks.clear()
            self._progress.stop()
            self._progress = None
