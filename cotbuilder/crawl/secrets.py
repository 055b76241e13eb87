"""Find credentials in crawled text and redact them before anything is stored.

detect-secrets plugins do the line-based detection (with their false-positive filters); a few patterns of our own
(data/secrets.toml) add what they miss, notably whole private-key blocks and Hugging Face tokens. A finding is reported
as {type, line} only: the secret itself is never returned, logged or stored.
"""

from __future__ import annotations

import re
import threading
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..paths import package_data

MARKER = "<REDACTED:{type}>"
_settings_lock = threading.Lock()
_configured = False


@dataclass(frozen=True)
class Pattern:
    type: str
    regex: re.Pattern[str]
    group: str | int
    multiline: bool
    needle: str


@dataclass
class ScanResult:
    text: str  # redacted text (equal to the input when nothing was found)
    findings: list[dict[str, Any]] = field(default_factory=list)  # [{type, line}]

    @property
    def found(self) -> bool:
        return bool(self.findings)


@lru_cache(maxsize=1)
def _config() -> dict[str, Any]:
    return tomllib.loads(package_data("crawl/data/secrets.toml").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _patterns() -> tuple[Pattern, ...]:
    return tuple(
        Pattern(
            p["type"], re.compile(p["regex"]), p.get("secret", 0), bool(p.get("multiline", False)), p.get("needle", "")
        )
        for p in _config().get("pattern", [])
    )


@dataclass(frozen=True)
class Prefilter:
    needles: tuple[str, ...]
    icase: bool
    regex: re.Pattern[str]


@lru_cache(maxsize=1)
def _prefilters() -> tuple[Prefilter, ...]:
    return tuple(
        Prefilter(tuple(p["needles"]), bool(p.get("icase", False)), re.compile(p["regex"]))
        for p in _config()["prefilter"]
    )


def _suspect_lines(text: str) -> set[int]:
    """Numbers (1-based) of the lines some prefilter matches."""
    lowered = None
    hits: set[int] = set()
    for pf in _prefilters():
        if pf.icase:
            lowered = lowered if lowered is not None else text.lower()
            haystack = lowered
        else:
            haystack = text
        if not any(n in haystack for n in pf.needles):
            continue
        for m in pf.regex.finditer(text):
            hits.add(text.count("\n", 0, m.start()) + 1)
    return hits


def _configure_detect_secrets() -> None:
    """Select our plugin list once per process (detect-secrets keeps its settings in a global)."""
    global _configured
    with _settings_lock:
        if _configured:
            return
        from detect_secrets.settings import configure_settings_from_baseline, default_settings

        with default_settings() as settings:  # the default filter set, which we keep
            baseline = settings.json()
        baseline["plugins_used"] = [{"name": name} for name in _config()["plugins"]]
        configure_settings_from_baseline(baseline)
        _configured = True


def _detect_secrets_findings(text: str, filename: str) -> list[tuple[str, int, str]]:
    _configure_detect_secrets()
    # The line-based scan over in-memory lines (detect-secrets' public scan_file wants a path on disk, and its public
    # scan_line skips the file-type-aware keyword rules).
    from detect_secrets.core.scan import _process_line_based_plugins

    suspects = _suspect_lines(text)
    if not suspects:
        return []
    all_lines = text.splitlines()
    lines = [(n, all_lines[n - 1]) for n in sorted(suspects) if n <= len(all_lines)]
    out = []
    by_number = dict(lines)
    for secret in _process_line_based_plugins(lines, filename):
        if secret.secret_value:
            value = _widen(by_number.get(secret.line_number, ""), secret.secret_value)
            out.append((secret.type, secret.line_number, value))
    return out


_TOKEN_CHAR = re.compile(r"[A-Za-z0-9_\-+/=.~]")


def _widen(line: str, value: str) -> str:
    """Some plugins report only a capture group (e.g. `ghp` of a GitHub token): widen the value to the whole token
    around it on its line, so the redaction removes all of it."""
    start = line.find(value)
    if start < 0:
        return value
    end = start + len(value)
    while start > 0 and _TOKEN_CHAR.match(line[start - 1]):
        start -= 1
    while end < len(line) and _TOKEN_CHAR.match(line[end]):
        end += 1
    return line[start:end]


def _pattern_findings(text: str) -> list[tuple[str, int, str]]:
    out = []
    for pat in _patterns():
        if pat.needle not in text:
            continue
        for m in pat.regex.finditer(text):
            value = m.group(pat.group)
            if value:
                out.append((pat.type, text.count("\n", 0, m.start(pat.group)) + 1, value))
    return out


def scan(text: str, filename: str = "file.txt") -> ScanResult:
    """Detect secrets in `text` and return it with every occurrence of each secret replaced by a typed marker."""
    raw = _pattern_findings(text) + _detect_secrets_findings(text, filename)
    if not raw:
        return ScanResult(text)
    redacted = text
    # Longest first, so a secret that contains another is replaced whole.
    for type_, _line, value in sorted(raw, key=lambda f: -len(f[2])):
        redacted = redacted.replace(value, MARKER.format(type=type_.replace(" ", "_")))
    seen = set()
    findings = []
    for type_, line, _value in sorted(raw, key=lambda f: (f[1], f[0])):
        if (type_, line) not in seen:
            seen.add((type_, line))
            findings.append({"type": type_, "line": line})
    return ScanResult(redacted, findings)
