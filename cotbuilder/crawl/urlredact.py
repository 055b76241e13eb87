"""Take credentials out of source URLs: user info (`https://user:token@host`) and secret-looking query parameters
(`?access_token=...`).

What a crawl stores, hashes, logs or publishes is the redacted URL; the real one stays in memory for git and HTTP.
Error text from git or HTTP may quote the URL back, so `redact_urls_in` cleans any text that is shown or stored.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..paths import package_data

# Schemes where the user name alone is not a credential (ssh://git@host/...): only a password is removed there.
_KEEP_USER = {"ssh", "git+ssh", "ssh+git"}
_URL_IN_TEXT = re.compile(r"""[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'"<>`]+""")


@lru_cache(maxsize=1)
def _secret_params() -> frozenset[str]:
    data = tomllib.loads(package_data("crawl/data/url_secrets.toml").read_text(encoding="utf-8"))
    return frozenset(_param_key(n) for n in data["query_params"])


def _param_key(name: str) -> str:
    return name.lower().replace("-", "_")


def redact_url(url: str) -> str:
    """`url` without credentials; a string that is not a `scheme://` URL (a path, `git@host:o/r`) is returned as is."""
    if "://" not in url:
        return url
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a malformed netloc, handled below
    except ValueError:
        return _strip_userinfo_text(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}@{host}" if parts.scheme.lower() in _KEEP_USER and user else host
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [(k, v) for k, v in pairs if _param_key(k) not in _secret_params()]
        if len(kept) != len(pairs):
            query = urlencode(kept)
    if netloc == parts.netloc and query == parts.query:
        return url  # nothing secret: keep the text exactly as given
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _strip_userinfo_text(url: str) -> str:
    scheme, rest = url.split("://", 1)
    head, sep, tail = rest.partition("/")
    return f"{scheme}://{head.rsplit('@', 1)[-1]}{sep}{tail}"


def redact_urls_in(text: str | None) -> str | None:
    """Every URL inside free text (an error message, a source argument with `@ref`) redacted."""
    if not text or "://" not in text:
        return text
    return _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)


def secret_parts(url: str | None) -> list[str]:
    """The credential pieces of `url` (user info, secret query values), longest first, for scrubbing text that
    may quote them outside a URL (e.g. `unreachable host user:token@host`)."""
    if not url or "://" not in url:
        return []
    parts: set[str] = set()
    try:
        split = urlsplit(url)
    except ValueError:
        return []
    if "@" in split.netloc:
        userinfo = split.netloc.rsplit("@", 1)[0]
        user, _, password = userinfo.partition(":")
        parts.update(p for p in (userinfo, password) if p)
        if split.scheme.lower() not in _KEEP_USER and user:
            parts.add(user)
    for key, value in parse_qsl(split.query, keep_blank_values=True):
        if value and _param_key(key) in _secret_params():
            parts.add(value)
    return sorted((p for p in parts if len(p) >= 3), key=len, reverse=True)


def scrub(text: str | None, secret_url: str | None = None) -> str | None:
    """`text` with every URL redacted and every credential piece of `secret_url` replaced by a marker."""
    if not text:
        return text
    if secret_url:
        text = text.replace(secret_url, redact_url(secret_url))
        for part in secret_parts(secret_url):
            text = text.replace(part, "<REDACTED>")
    return redact_urls_in(text)
