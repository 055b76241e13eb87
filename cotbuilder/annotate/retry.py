"""Retry policy for transient errors (429, 5xx, timeouts): exponential backoff with full jitter, and the server's
Retry-After when it gives one (then we wait exactly that long: guessing shorter just earns another 429), up to
`max_retry_after` seconds: a server (or anything between us and it) must not park the run for hours with one header."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass
class RetryPolicy:
    max_retries: int = 6
    base: float = 1.0  # first backoff ceiling in seconds
    cap: float = 60.0  # no backoff longer than this
    max_retry_after: float = 60.0  # the longest Retry-After honoured; a longer one is cut to this (and counted)

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random | None = None) -> float:
        """Seconds to wait before retry number `attempt` (1-based)."""
        if retry_after is not None:
            return min(retry_after, self.max_retry_after)
        ceiling = min(self.cap, self.base * (2 ** (attempt - 1)))
        return (rng or random).uniform(ceiling / 2, ceiling)
