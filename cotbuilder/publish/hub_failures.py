"""Failures of the Hub (network, auth, HTTP errors) as one line for the user, never with the token in it."""

from __future__ import annotations


def is_hub_failure(exc: BaseException) -> bool:
    """Network, auth and HTTP errors from talking to the Hub (not bugs in cotbuilder)."""
    import importlib

    from huggingface_hub.errors import HfHubHTTPError

    kinds: list[type[BaseException]] = [HfHubHTTPError, OSError]
    # huggingface_hub's HTTP client changed over releases (requests, httpx, now httpx2): whichever is installed
    for module, name in (("httpx2", "HTTPError"), ("httpx", "HTTPError"), ("requests", "RequestException")):
        try:
            kinds.append(getattr(importlib.import_module(module), name))
        except (ImportError, AttributeError):
            pass
    return isinstance(exc, tuple(kinds))


def hub_failure_line(exc: BaseException, repo_id: str) -> str:
    """One line: what failed, the repo, the HTTP status if any. The token never appears (scrubbed if a message
    echoes a header)."""
    import re

    def attr(obj: object, name: str) -> object:
        try:
            return getattr(obj, name, None)
        except RuntimeError:  # httpx's `.request` raises when unset
            return None

    response = attr(exc, "response")
    status = attr(response, "status_code")
    request = attr(exc, "request") or attr(response, "request")
    what = f"{request.method} {str(request.url).split('?', 1)[0]}" if request is not None else ""
    detail = (str(exc).strip().splitlines() or [""])[0]
    line = f"upload of dataset {repo_id} failed: {type(exc).__name__}"
    if status is not None:
        line += f" (HTTP {status})"
    if what:
        line += f" on {what}"
    if detail:
        line += f": {detail}"
    from huggingface_hub import get_token

    token = get_token()
    if token:
        line = line.replace(token, "***")
    return re.sub(r"hf_[A-Za-z0-9]{6,}", "hf_***", line)
