"""Regex scans re can run fast. A pattern that opens with a literal is searched by jumping from one occurrence of the
literal to the next; one that opens with `\\b`, a lookbehind or an alternation is tried at every byte of the text.
So the patterns of this package open with their literal (`\\bclass` is written `class(?<!\\wclass)`), and an
alternation of words becomes one pattern per word, run by `leftmost_matches` as the alternation would run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import AnyStr


def leftmost_matches(patterns: Sequence[re.Pattern[AnyStr]], text: AnyStr) -> Iterator[re.Match[AnyStr]]:
    """The matches of `(?:p1|p2|...)`, left to right without overlap, for patterns of which at most one can match
    at any position (they open with different literals). Each is searched forward on its own; a match found inside
    the one taken before it is looked for again after it, as the alternation's scan would."""
    found = [p.search(text) for p in patterns]
    pos = 0
    while True:
        first = None
        for i, m in enumerate(found):
            if m is not None and m.start() < pos:
                m = found[i] = patterns[i].search(text, pos)
            if m is not None and (first is None or m.start() < first.start()):
                first = m
        if first is None:
            return
        yield first
        pos = first.end()
