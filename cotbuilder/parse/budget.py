"""Limits for parsing one file: crawled code is hostile, and some inputs are slow to read.

tree-sitter parses fast, but its query cursor takes time quadratic in the tree's depth (100 000 unbalanced `(` took
51 s to query). Two limits, both raising Unparseable so that the caller records the file as skipped:
  - nesting depth, checked before anything is parsed: brackets nested deeper than MAX_DEPTH (no real kernel comes
    near it) would make a tree that deep. This is the guard that bounds the query: a query cannot be interrupted
    here (cancelling one through tree-sitter's progress callback crashes the 0.26 Python binding, even on small
    files), so what would make it slow is refused up front.
  - time, per file: `limit(seconds)` sets a deadline for the current thread, checked between the parse steps.
Deadlines are per thread: the crawler parses several sources at once.
"""

from __future__ import annotations

import threading
import time

import numpy as np

MAX_DEPTH = 1000
_state = threading.local()
_OPENERS, _CLOSERS = b"([{", b")]}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _OPENERS + _CLOSERS)
_STEP = np.zeros(256, dtype=np.int8)
_STEP[list(_OPENERS)] = 1
_STEP[list(_CLOSERS)] = -1


class Unparseable(Exception):
    """The file is left out; the message says which limit it passed."""


class limit:  # lower case: it reads as a function, `with budget.limit(seconds):`
    """A deadline `seconds` from now for the current thread, until the block ends (a class: entered once per file,
    it costs a fraction of a generator-based context manager)."""

    __slots__ = ("seconds", "previous")

    def __init__(self, seconds: float | None):
        self.seconds = seconds

    def __enter__(self) -> None:
        self.previous = getattr(_state, "deadline", None)
        _state.limit = self.seconds
        _state.deadline = None if self.seconds is None else time.monotonic() + self.seconds

    def __exit__(self, *exc: object) -> None:
        _state.deadline = self.previous


def check() -> None:
    deadline = getattr(_state, "deadline", None)
    if deadline is not None and time.monotonic() > deadline:
        raise Unparseable(f"parse time limit exceeded ({_state.limit:g} s)")


def check_depth(data: bytes) -> None:
    """Unparseable when brackets nest deeper than MAX_DEPTH (an unbalanced run of `(` counts as nesting)."""
    if len(data) <= MAX_DEPTH:
        return
    brackets = data.translate(None, _NOT_BRACKETS)  # the depth only changes at a bracket: the rest is dropped
    if len(brackets) - sum(brackets.count(c) for c in (b")", b"]", b"}")) <= MAX_DEPTH:
        return  # no deeper than the number of openers
    depth = np.cumsum(_STEP[np.frombuffer(brackets, dtype=np.uint8)], dtype=np.int64)
    deepest = int(depth.max())
    if deepest > MAX_DEPTH:
        raise Unparseable(f"brackets nested {deepest} deep (limit {MAX_DEPTH})")
