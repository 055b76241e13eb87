"""Progress as callbacks: stages and executors report, whoever drives them decides how to show it.

Driver side, `Progress` receives: the number of items planned, one `advance` per committed result (with a short note
and optional log lines from the stage), and `note(label, done)` from inside long items (e.g. files read so far of one
repository). The CLI passes a rich progress bar (`stages/rich_progress.py`); library calls pass nothing.

Worker side, `note(label, done)` is what `work` calls; `done=None` says that item is finished. The executor routes it to
the driver's Progress: directly when work runs in the driver's process, through a queue from a pool process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Progress(Protocol):
    def start(self, stage: str, total: int) -> None: ...

    def advance(self, note: str = "", lines: list[str] | None = None) -> None: ...

    def note(self, label: str, done: int | None) -> None: ...

    def finish(self) -> None: ...


class NoProgress:
    """For library calls and tests: nothing is shown."""

    def start(self, stage: str, total: int) -> None:
        pass

    def advance(self, note: str = "", lines: list[str] | None = None) -> None:
        pass

    def note(self, label: str, done: int | None) -> None:
        pass

    def finish(self) -> None:
        pass


_sink: Callable[[str, int | None], None] | None = None


def set_note_sink(sink: Callable[[str, int | None], None] | None) -> None:
    """Where `note` goes in this process (set by the executor)."""
    global _sink
    _sink = sink


def note(label: str, done: int | None) -> None:
    """Called by `work`: progress inside one item. A no-op when nobody listens."""
    if _sink is not None:
        _sink(label, done)
