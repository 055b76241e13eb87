"""One teacher request, done properly: cache first, then rate limits, budget, retries, structured-output fallback.

Order of a completed request: credentials in the answer are redacted (scrub.py), then the answer is written to the
cache (atomically) before anything else happens with it; the annotation row comes later in its own transaction. An
answer over the size cap is neither cached nor stored (AnswerRejected), but its cost counts. So a kill at any point loses only requests
in flight, and a resumed run finds every completed answer in the cache and does not send it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .cache import ResponseCache, cache_key
from .client import AnswerRejected, ChatResponse, RequestRejected, TransientError
from .limits import TokenBucket, estimate_tokens
from .pricing import cost_usd
from .retry import RetryPolicy
from .scrub import redact_answer
from .task import response_format


class BudgetExhausted(Exception):
    """--max-cost reached: no new request is started."""


class GaveUp(Exception):
    """A transient error persisted through every retry."""


class FatalTeacherError(Exception):
    """The server refuses every request (bad key, unknown model, wrong URL): stop the run."""


@dataclass
class Budget:
    max_cost: float | None
    spent: float = 0.0
    in_flight: int = 0
    finished: int = 0
    exhausted: bool = False

    def reserve(self) -> None:
        """Refuse to start a request if what is spent plus what is in flight (at the average cost so far) reaches the
        budget; the first requests start before any cost is known, so the overshoot is at most the concurrency."""
        if self.max_cost is None:
            self.in_flight += 1
            return
        average = self.spent / self.finished if self.finished else 0.0
        if self.exhausted or self.spent + self.in_flight * average >= self.max_cost:
            self.exhausted = True
            raise BudgetExhausted()
        self.in_flight += 1

    def settle(self, cost: float | None) -> None:
        self.in_flight -= 1
        if cost is not None:
            self.spent += cost
            self.finished += 1
            if self.max_cost is not None and self.spent >= self.max_cost:
                self.exhausted = True


@dataclass
class RequestCounters:
    sent: int = 0  # HTTP requests that went out (retries included)
    completed: int = 0  # answers received and cached
    cache_hits: int = 0
    retries: int = 0
    waited_s: float = 0.0  # time spent waiting for backoff / Retry-After
    retry_after_capped: int = 0  # Retry-After headers longer than --max-retry-after (waited only that long)
    secrets_redacted: int = 0  # credentials found in answers (redacted before caching and storing)
    rejected_too_large: int = 0  # answers over --max-answer-chars (not cached, not stored)
    downgrades: list[str] = field(default_factory=list)


def key_params(temperature: float, max_tokens: int, sample_index: int) -> dict[str, Any]:
    """What (besides model and prompt) decides the answer; part of the cache key and the annotation id."""
    return {"temperature": temperature, "max_tokens": max_tokens, "sample": sample_index}


class Requester:
    def __init__(
        self,
        client: Any,
        *,
        cache: ResponseCache | None,
        budget: Budget,
        policy: RetryPolicy,
        rpm: float | None,
        tpm: float | None,
        structured: str,
        max_tokens: int,
        temperature: float,
        price_table: str | None,
        use_cache: bool = True,
        concurrency: int | None = None,
        save_answer: Callable[..., None] | None = None,
    ):
        self.client = client
        self.cache = cache if use_cache else None
        self.budget = budget
        self.policy = policy
        self.rpm = TokenBucket(rpm)
        self.tpm = TokenBucket(tpm)
        self.mode = "json_schema" if structured == "auto" else structured
        self.auto = structured == "auto"
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.price_table = price_table
        self.counters = RequestCounters()
        self._rng = random.Random()
        # Request slots: held only while a request (with its retries) is out, not while its answer is cached, checked
        # and stored, so slow disks or gates never leave the server with fewer than `concurrency` requests.
        self._slots = asyncio.Semaphore(concurrency) if concurrency else None
        # Where a fresh answer goes to be cached: the stage hands it to its background writer (which stores it before
        # the annotation row built from it); without one it is written here, in a worker thread.
        self.save_answer = save_answer

    def key_params(self, sample_index: int) -> dict[str, Any]:
        return key_params(self.temperature, self.max_tokens, sample_index)

    def cost(self, usage: dict[str, int]) -> float:
        return cost_usd(self.client.model, usage, self.price_table)

    async def complete(
        self,
        messages: list[dict[str, str]],
        *,
        kind: str,
        sample_index: int,
        prompt_version: str,
        facts: dict[str, Any] | None = None,
        unit_id: str | None = None,
    ) -> tuple[ChatResponse, bool]:
        """(response, came_from_cache)."""
        key = None
        if self.cache is not None:
            key = cache_key(
                provider=self.client.provider,
                model=self.client.model,
                params=self.key_params(sample_index),
                messages=messages,
                prompt_version=prompt_version,
                endpoint=getattr(self.client, "endpoint", None),
            )
            hit = self.cache.get(key)
            if hit is not None:
                self.counters.cache_hits += 1
                return self._redacted(hit), True  # an entry cached before answers were scanned
        async with self._slots or contextlib.nullcontext():
            self.budget.reserve()
            cost = None
            try:
                response = await self._send_with_retries(messages, kind, sample_index, facts)
                cost = self.cost(response.usage)
            except AnswerRejected as exc:
                cost = self.cost(exc.usage)
                self.counters.rejected_too_large += 1
                raise
            finally:
                self.budget.settle(cost)
        response = self._redacted(response)
        if self.cache is not None and key is not None:
            meta = {
                "provider": self.client.provider,
                "endpoint": getattr(self.client, "endpoint", None),
                "model": self.client.model,
                "params": self.key_params(sample_index),
                "prompt_version": prompt_version,
                "kind": kind,
                "unit_id": unit_id,
            }
            if self.save_answer is not None:
                self.save_answer(self.cache, key, response, meta)
            else:  # fsync in a worker thread: the event loop keeps serving the other requests meanwhile
                await asyncio.to_thread(self.cache.put, key, response, meta)
        self.counters.completed += 1
        return response, False

    def _redacted(self, response: ChatResponse) -> ChatResponse:
        response, found = redact_answer(response, getattr(self.client, "secrets", ()))
        self.counters.secrets_redacted += found
        return response

    async def _send_with_retries(self, messages, kind, sample_index, facts) -> ChatResponse:
        attempt = 0
        while True:
            params = {
                "temperature": self.temperature,
                "max_tokens": self.max_tokens,
                "response_format": response_format(kind, self.mode),
            }
            estimate = estimate_tokens(messages, self.max_tokens) if self.tpm.enabled else 0
            await self.rpm.acquire(1)
            await self.tpm.acquire(estimate)
            self.counters.sent += 1
            try:
                response = await self.client.generate(messages, params, facts=facts)
            except TransientError as exc:
                attempt += 1
                if attempt > self.policy.max_retries:
                    raise GaveUp(f"gave up after {self.policy.max_retries} retries: {exc}") from exc
                delay = self.policy.delay(attempt, exc.retry_after, self._rng)
                if exc.retry_after is not None and exc.retry_after > self.policy.max_retry_after:
                    self.counters.retry_after_capped += 1
                self.counters.retries += 1
                self.counters.waited_s += delay
                await asyncio.sleep(delay)
                continue
            except RequestRejected as exc:
                if exc.status in (401, 403, 404):
                    raise FatalTeacherError(str(exc)) from exc
                if self.auto and self.mode != "none" and exc.status in (400, 422):
                    # The server does not take this response_format: fall back one level, for the rest of the run.
                    old = self.mode
                    self.mode = "json_object" if old == "json_schema" else "none"
                    self.counters.downgrades.append(f"{old}->{self.mode}: {exc}")
                    continue
                raise
            used = response.usage.get("total_tokens") or 0
            if used:
                self.tpm.refund(estimate - used)
            return response
