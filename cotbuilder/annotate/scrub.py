"""Teacher answers are untrusted text: credentials in them are redacted before the answer is cached, stored or published.

A server (or a model told to by a prompt injection in crawled code) may echo the API key it was sent, the base URL's
credentials, or any key it saw. The crawl's secret scanner (detect-secrets plugins + our patterns) runs over the answer
text and the refusal; the client's own secrets are replaced wherever they occur, even where no pattern would see them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..crawl import secrets as scanner
from .client import ChatResponse

KNOWN = "<REDACTED:teacher_credential>"


def redact_answer(response: ChatResponse, known_secrets: Iterable[str] = ()) -> tuple[ChatResponse, int]:
    """(the response with every secret replaced by a typed marker, how many were found)."""
    found = 0
    fields = {}
    for name in ("text", "refusal"):
        value = getattr(response, name)
        if not value:
            continue
        for secret in known_secrets:
            if secret and secret in value:
                found += value.count(secret)
                value = value.replace(secret, KNOWN)
        scan = scanner.scan(value, "teacher_answer.md")
        found += len(scan.findings)
        fields[name] = scan.text
    return (replace(response, **fields) if found else response), found
