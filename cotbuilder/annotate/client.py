"""LLM clients behind one interface: `await client.generate(messages, params) -> ChatResponse`.

`OpenAIChatClient` speaks to any OpenAI-compatible chat-completions server (OpenAI, vLLM, SGLang, llama.cpp server,
DeepSeek...) through the official `openai` package with its own retries switched off, so the retry policy that counts is
ours (`retry.py`). Errors come back as two kinds: `TransientError` (worth retrying: 429, 5xx, timeouts, connection
drops; carries the server's Retry-After) and `RequestRejected` (a 4xx that will not change on retry).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ChatResponse:
    text: str
    finish_reason: str | None
    usage: dict[str, int] = field(default_factory=dict)
    refusal: str | None = None
    model: str | None = None


class TransientError(Exception):
    def __init__(self, message: str, *, status: int | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class RequestRejected(Exception):
    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.status = status


def parse_retry_after(headers: Any) -> float | None:
    """Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date)."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        import email.utils
        import time

        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - time.time())


class OpenAIChatClient:
    """An OpenAI-compatible server. The API key is read here and handed only to the `openai` client: it is never part of
    a cache key, a record, or a log line."""

    provider = "openai-compatible"
    supports_repair = True

    def __init__(
        self, model: str, *, base_url: str | None = None, api_key_env: str | None = None, timeout: float = 120.0
    ):
        import openai

        self.model = model
        key_var = api_key_env or "OPENAI_API_KEY"
        api_key = os.environ.get(key_var)
        if not api_key:
            # Local servers (vLLM, llama.cpp) accept any key; the client insists on one being set.
            api_key = "no-key"
        self._secret = api_key if api_key != "no-key" else None
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        self.endpoint = endpoint_of(self.base_url)  # which server, for the cache key (no credentials)
        self._openai = openai
        self._client = openai.AsyncOpenAI(api_key=api_key, base_url=self.base_url, timeout=timeout, max_retries=0)

    async def generate(
        self, messages: list[dict[str, str]], params: dict[str, Any], *, facts: dict[str, Any] | None = None
    ) -> ChatResponse:
        openai = self._openai
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages}
        for key in ("temperature", "max_tokens", "top_p", "seed", "response_format"):
            if params.get(key) is not None:
                kwargs[key] = params[key]
        try:
            completion = await self._client.chat.completions.create(**kwargs)
        except openai.APITimeoutError as exc:
            raise TransientError("timeout") from exc
        except openai.APIConnectionError as exc:
            raise TransientError(f"connection error: {type(exc.__cause__).__name__ if exc.__cause__ else exc}") from exc
        except openai.APIStatusError as exc:
            status = exc.status_code
            message = self._scrub(_error_message(exc))
            if status == 429 or status >= 500 or status == 408:
                raise TransientError(
                    f"HTTP {status}: {message}", status=status, retry_after=parse_retry_after(exc.response.headers)
                ) from exc
            raise RequestRejected(f"HTTP {status}: {message}", status=status) from exc
        if not completion.choices:
            raise TransientError("the server answered with no choices")
        choice = completion.choices[0]
        msg = choice.message
        usage = completion.usage
        return ChatResponse(
            text=msg.content or "",
            finish_reason=choice.finish_reason,
            usage={
                "prompt_tokens": getattr(usage, "prompt_tokens", 0) or 0,
                "completion_tokens": getattr(usage, "completion_tokens", 0) or 0,
                "total_tokens": getattr(usage, "total_tokens", 0) or 0,
            }
            if usage
            else {},
            refusal=getattr(msg, "refusal", None),
            model=completion.model,
        )

    def _scrub(self, text: str) -> str:
        """A server may echo the key in an error message; it must not reach our logs or records."""
        return text.replace(self._secret, "[redacted]") if self._secret else text

    async def aclose(self) -> None:
        await self._client.close()


DEFAULT_BASE_URL = "https://api.openai.com/v1"  # the `openai` client's default


def endpoint_of(base_url: str | None) -> str:
    """The server a base URL names, for the cache key: scheme, host, port and path, lower-cased where URLs are case
    blind, without user:password, query or fragment (those may carry credentials) or a trailing slash."""
    from urllib.parse import urlsplit

    parts = urlsplit((base_url or DEFAULT_BASE_URL).strip())
    scheme = (parts.scheme or "https").lower()
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != {"http": 80, "https": 443}.get(scheme):
        host = f"{host}:{port}"
    return f"{scheme}://{host}{parts.path.rstrip('/')}"


def _error_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:300]
    return str(getattr(exc, "message", exc))[:300]
