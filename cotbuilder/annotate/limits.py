"""Requests-per-minute and tokens-per-minute limiters: token buckets that refill continuously.

A bucket starts full (a burst of up to one minute's allowance) and `acquire(n)` waits until n tokens are there. A request
bigger than the whole bucket waits for a full bucket instead of forever.
"""

from __future__ import annotations

import asyncio
import time


class TokenBucket:
    def __init__(self, per_minute: float | None):
        self.capacity = float(per_minute) if per_minute else 0.0
        self.rate = self.capacity / 60.0
        self.tokens = self.capacity
        self.stamp = time.monotonic()
        self._lock = asyncio.Lock()

    @property
    def enabled(self) -> bool:
        return self.capacity > 0

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    async def acquire(self, n: float = 1.0) -> None:
        if not self.enabled:
            return
        n = min(float(n), self.capacity)
        async with self._lock:  # first come, first served: a waiter keeps its place
            while True:
                self._refill()
                if self.tokens >= n:
                    self.tokens -= n
                    return
                await asyncio.sleep((n - self.tokens) / self.rate)

    def refund(self, n: float) -> None:
        """Give back what an estimate over-charged (the real usage is known after the answer)."""
        if self.enabled and n > 0:
            self._refill()
            self.tokens = min(self.capacity, self.tokens + n)


def estimate_tokens(messages: list[dict[str, str]], max_tokens: int | None) -> int:
    """A cheap upper-ish estimate: ~4 characters per token for the prompt, plus the completion allowance."""
    chars = sum(len(m.get("content") or "") for m in messages)
    return chars // 4 + 16 * len(messages) + (max_tokens or 1024)
