"""LLM clients behind one interface: `await client.generate(messages, params) -> ChatResponse`.

`OpenAIChatClient` speaks to any OpenAI-compatible chat-completions server (OpenAI, vLLM, SGLang, llama.cpp server,
DeepSeek...) through the official `openai` package with its own retries switched off, so the retry policy that counts is
ours (`retry.py`). Errors come back as three kinds: `TransientError` (worth retrying: 429, 5xx, timeouts, connection
drops, a 200 whose body is not a well-formed chat completion; carries the server's Retry-After), `RequestRejected` (a
4xx that will not change on retry) and `AnswerRejected` (an answer that must not be kept: over the size cap).

The server is not trusted: its body is read through a byte cap (a hostile or broken server cannot fill memory), every
field of the completion is type-checked, and usage must be non-negative integers (it decides the budget).
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from typing import Any

from ..crawl.urlredact import secret_parts

DEFAULT_MAX_ANSWER_CHARS = 200_000
# Bytes of a response body per allowed answer character: UTF-8 and JSON escapes (\uXXXX) take up to 6 bytes a
# character, plus room for the envelope.
_BYTES_PER_CHAR = 6
_ENVELOPE_BYTES = 64 * 1024


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


class AnswerRejected(Exception):
    """The server answered, but the answer is not kept (not cached, not stored): the item fails with this reason. The
    answer's usage is still counted: it was paid for."""

    def __init__(self, reason: str, *, usage: dict[str, int] | None = None):
        super().__init__(reason)
        self.reason = reason
        self.usage = usage or {}


class BodyTooLarge(Exception):
    """A response body went past the transport's byte cap (raised while reading it)."""


def response_fields(completion: Any, max_chars: int) -> ChatResponse:
    """A ChatResponse from whatever the client parsed, or TransientError when it is not a well-formed completion (an
    HTML error page from a proxy comes back as a str, a wrong shape as a model with wrong field types)."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise TransientError(f"the server answered 200 without a chat completion ({_shape(completion)})")
    choice = choices[0]
    msg = getattr(choice, "message", None)
    content = getattr(msg, "content", None)
    refusal = getattr(msg, "refusal", None)
    finish = getattr(choice, "finish_reason", None)
    for name, value in (("content", content), ("refusal", refusal), ("finish_reason", finish)):
        if value is not None and not isinstance(value, str):
            raise TransientError(f"the server answered 200 with a malformed completion ({name} is not text)")
    usage = _usage(getattr(completion, "usage", None))
    model = getattr(completion, "model", None)
    text = content or ""
    if len(text) > max_chars or len(refusal or "") > max_chars:
        raise AnswerRejected(
            f"too large: answer of {max(len(text), len(refusal or ''))} characters > --max-answer-chars {max_chars}",
            usage=usage,
        )
    return ChatResponse(
        text=text,
        finish_reason=finish,
        usage=usage,
        refusal=refusal,
        model=model if isinstance(model, str) else None,
    )


def _usage(usage: Any) -> dict[str, int]:
    if usage is None:
        return {}
    out = {}
    for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
        value = getattr(usage, key, None)
        if value is None:
            value = 0
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TransientError(f"the server answered 200 with invalid usage ({key}={value!r})")
        out[key] = value
    return out


def _shape(value: Any) -> str:
    if isinstance(value, str):
        return f"a {len(value)}-character text body"
    return f"a {type(value).__name__}"


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
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str | None = None,
        timeout: float = 120.0,
        max_answer_chars: int = DEFAULT_MAX_ANSWER_CHARS,
    ):
        import openai

        self.model = model
        key_var = api_key_env or "OPENAI_API_KEY"
        api_key = os.environ.get(key_var)
        if not api_key:
            # Local servers (vLLM, llama.cpp) accept any key; the client insists on one being set.
            api_key = "no-key"
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        # What must never be stored, cached or logged: the key, and credentials the base URL may carry.
        self.secrets = sorted(
            {*([api_key] if api_key != "no-key" else []), *secret_parts(self.base_url)}, key=len, reverse=True
        )
        self.endpoint = endpoint_of(self.base_url)  # which server, for the cache key (no credentials)
        self.max_answer_chars = max_answer_chars
        self.max_body_bytes = max_answer_chars * _BYTES_PER_CHAR + _ENVELOPE_BYTES
        self._openai = openai
        self._client = openai.AsyncOpenAI(
            api_key=api_key,
            base_url=self.base_url,
            timeout=timeout,
            max_retries=0,
            http_client=_capped_http_client(openai, self.max_body_bytes, timeout),
        )

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
        except BodyTooLarge as exc:
            raise AnswerRejected(f"too large: {exc}") from exc
        except ValueError as exc:  # a 200 whose body is not JSON (json.JSONDecodeError)
            raise TransientError(
                f"the server answered 200 with a body that is not JSON ({type(exc).__name__})"
            ) from exc
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
        return response_fields(completion, self.max_answer_chars)

    def _scrub(self, text: str) -> str:
        """A server may echo the key (or the base URL's credentials) in an error message; it must not reach our logs
        or records."""
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return text

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


def _capped_http_client(openai: Any, max_bytes: int, timeout: float) -> Any:
    """The `openai` package's own HTTP client class, with a transport that stops reading a response body past
    `max_bytes` (BodyTooLarge). The transport classes come from the HTTP library that client class is built on."""
    base = openai.DefaultAsyncHttpxClient
    http = importlib.import_module(
        next(c for c in base.__mro__ if c.__name__ == "AsyncClient").__module__.split(".")[0]
    )

    class CappedStream(http.AsyncByteStream):
        def __init__(self, inner: Any):
            self._inner = inner

        async def __aiter__(self):
            seen = 0
            async for chunk in self._inner:
                seen += len(chunk)
                if seen > max_bytes:
                    raise BodyTooLarge(f"response body over {max_bytes} bytes")
                yield chunk

        async def aclose(self) -> None:
            await self._inner.aclose()

    class CappedTransport(http.AsyncHTTPTransport):
        async def handle_async_request(self, request: Any) -> Any:
            response = await super().handle_async_request(request)
            declared = response.headers.get("content-length")
            if declared and declared.isdigit() and int(declared) > max_bytes:
                await response.aclose()
                raise BodyTooLarge(f"response body of {declared} bytes > {max_bytes}")
            response.stream = CappedStream(response.stream)
            return response

    limits = http.Limits(max_connections=1000, max_keepalive_connections=100)  # the openai client's own defaults
    return base(transport=CappedTransport(limits=limits), timeout=timeout)
