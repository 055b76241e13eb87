"""Find credentials in crawled text and redact them before anything is stored.

detect-secrets plugins do the line-based detection (with their false-positive filters); a few patterns of our own
(data/secrets.toml) add what they miss, notably whole private-key blocks, Hugging Face tokens, AWS secret keys and
bare (unquoted) credentials. Three views of the text are scanned, because a secret can hide from a line scanner:
  - the text itself;
  - the text with `\"` and `\'` unescaped (a key inside a JSON or C string literal: `"{\"api_key\": \"...\"}"`);
  - runs of adjacent string literals joined (`"sk-proj-" "abc..."`, `'AKIA' + 'IOSF...'`): each literal of a run
    that holds part of a secret is redacted.
`path_findings` scans a file's path (a secret in a file or folder name). A finding is reported as {type, line} only: the
secret itself is never returned, logged or stored.
"""

from __future__ import annotations

import bisect
import math
import re
import threading
import tomllib
from collections import Counter
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
    icase: bool = False


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
            p["type"],
            re.compile(p["regex"]),
            p.get("secret", 0),
            bool(p.get("multiline", False)),
            p["needle"].lower() if p.get("icase") else p.get("needle", ""),
            bool(p.get("icase", False)),
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


_NEWLINE = re.compile("\n")


def _suspect_lines(text: str) -> set[int]:
    """Numbers (1-based) of the lines some prefilter matches."""
    lowered = None
    newlines: list[int] | None = None
    hits: set[int] = set()
    for pf in _prefilters():
        if pf.icase:
            lowered = lowered if lowered is not None else text.lower()
            haystack = lowered
        else:
            haystack = text
        if not any(n in haystack for n in pf.needles):
            continue
        starts = [m.start() for m in pf.regex.finditer(text)]
        if starts:
            newlines = newlines if newlines is not None else [m.start() for m in _NEWLINE.finditer(text)]
            hits.update(bisect.bisect_left(newlines, start) + 1 for start in starts)
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
    lowered = None
    for pat in _patterns():
        if pat.icase:
            lowered = lowered if lowered is not None else text.lower()
            if pat.needle not in lowered:
                continue
        elif pat.needle not in text:
            continue
        for m in pat.regex.finditer(text):
            value = m.group(pat.group)
            if value:
                out.append((pat.type, text.count("\n", 0, m.start(pat.group)) + 1, value))
    return out


# -- bare keyword = value --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BareRule:
    keywords: tuple[str, ...]
    keyword_regex: re.Pattern[str]
    value_regex: re.Pattern[str]
    min_length: int
    min_entropy: float
    code_suffixes: tuple[str, ...]


@lru_cache(maxsize=1)
def _bare_rule() -> BareRule:
    cfg = _config()["bare_keyword"]
    words = "|".join(re.escape(k).replace("_", "_?") for k in cfg["keywords"])
    return BareRule(
        tuple(k.lower() for k in cfg["keywords"]),
        re.compile(rf"(?i)(?:{words})"),
        # Matched right after a keyword, bounded repeats only (this runs on every suspect line).
        re.compile(r"s?[\"'\]]{0,3}\s{0,3}(?:[:=]|=>|:=)\s{0,3}(?P<secret>[A-Za-z0-9_\-+/=.~!@#$%^&*]{8,200})"),
        int(cfg["min_length"]),
        float(cfg["min_entropy"]),
        tuple(cfg["code_suffixes"]),
    )


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _looks_random(value: str, rule: BareRule) -> bool:
    return (
        len(value) >= rule.min_length
        and "REDACTED" not in value
        and any(c.isalpha() for c in value)
        and any(c.isdigit() for c in value)
        and _entropy(value) >= rule.min_entropy
    )


_COMMENT = re.compile(r"//|#|/\*|^\s*\*")


def _bare_findings(text: str, filename: str) -> list[tuple[str, int, str]]:
    rule = _bare_rule()
    squashed = text.lower().replace("_", "")
    if not any(k.replace("_", "") in squashed for k in rule.keywords):
        return []
    code = filename.lower().endswith(rule.code_suffixes)
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if len(line) > 4096 or not rule.keyword_regex.search(line):
            continue
        if code:
            m = _COMMENT.search(line)
            if not m:
                continue
            line = line[m.start() :]
        for keyword in rule.keyword_regex.finditer(line):
            match = rule.value_regex.match(line, keyword.end())
            if match:
                value = match.group("secret").rstrip(".,;")
                if _looks_random(value, rule):
                    out.append(("Secret Keyword", number, value))
    return out


# -- string literals split in pieces ----------------------------------------------------------------------------------
_LITERAL = r"(?:\"(?:[^\"\\\n]|\\.){0,400}\"|'(?:[^'\\\n]|\\.){0,400}')"
_LITERAL_RUN = re.compile(rf"{_LITERAL}(?:[ \t]*(?:\+|\\)?[ \t]*\n?[ \t]*(?:\+[ \t]*)?{_LITERAL})+")
_ONE_LITERAL = re.compile(_LITERAL)


_ADJACENT = re.compile(r"[\"'][ \t]*(?:\+|\\)?[ \t]*\n?[ \t]*(?:\+[ \t]*)?[\"']")


def _split_literal_findings(text: str, filename: str) -> list[tuple[str, int, str, list[str]]]:
    """Secrets that only appear once adjacent literals are joined: (type, line, joined secret, [literal pieces])."""
    if not _ADJACENT.search(text):
        return []
    out = []
    for run in _LITERAL_RUN.finditer(text):
        pieces = [m.group(0) for m in _ONE_LITERAL.finditer(run.group(0))]
        joined = "".join(p[1:-1] for p in pieces)
        line_start = text.rfind("\n", 0, run.start()) + 1
        prefix = text[line_start : run.start()]
        view = f'{prefix}"{joined}"'
        for type_, _line, value in _scan_views(view, filename):
            if value and not any(value in p for p in pieces):  # whole in one piece: the plain scan has it
                hit = [p for p in pieces if p[1:-1] and (p[1:-1] in value or value in p[1:-1])]
                out.append((type_, text.count("\n", 0, run.start()) + 1, value, hit))
    return out


def _scan_views(text: str, filename: str) -> list[tuple[str, int, str]]:
    return _pattern_findings(text) + _detect_secrets_findings(text, filename) + _bare_findings(text, filename)


def _escaped_line_findings(text: str, filename: str) -> list[tuple[str, int, str]]:
    """Findings on the lines holding escaped quotes, with those unescaped; only secrets that occur in `text` as is."""
    if '\\"' not in text and "\\'" not in text:
        return []
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if '\\"' in line or "\\'" in line]
    view = "\n".join(line.replace('\\"', '"').replace("\\'", "'") for _, line in lines)
    return [(t, lines[n - 1][0], value) for t, n, value in _scan_views(view, filename) if value in text]


def _findings(text: str, filename: str) -> list[tuple[str, int, str]]:
    return _scan_views(text, filename) + _escaped_line_findings(text, filename)


def scan(text: str, filename: str = "file.txt") -> ScanResult:
    """Detect secrets in `text` and return it with every occurrence of each secret replaced by a typed marker."""
    raw = _findings(text, filename)
    split = _split_literal_findings(text, filename)
    if not raw and not split:
        return ScanResult(text)
    redacted = text
    # Longest first, so a secret that contains another is replaced whole.
    for type_, _line, value in sorted(raw, key=lambda f: -len(f[2])):
        redacted = redacted.replace(value, MARKER.format(type=type_.replace(" ", "_")))
    for type_, _line, _value, pieces in split:
        marker = MARKER.format(type=type_.replace(" ", "_"))
        for piece in sorted(pieces, key=len, reverse=True):
            redacted = redacted.replace(piece, piece[0] + marker + piece[-1])
    seen = set()
    findings = []
    for type_, line, *_rest in sorted(raw + split, key=lambda f: (f[1], f[0])):
        if (type_, line) not in seen:
            seen.add((type_, line))
            findings.append({"type": type_, "line": line})
    return ScanResult(redacted, findings)


def path_findings(path: str) -> tuple[str, list[str]]:
    """(the path with secrets replaced by markers, the secret types found) for a file or page path."""
    view = path.replace("/", "\n")  # one path segment per line: a line scanner sees each name on its own
    raw = _pattern_findings(view) + _detect_secrets_findings(view, "path.txt")
    if not raw:
        return path, []
    redacted = path
    for type_, _line, value in sorted(raw, key=lambda f: -len(f[2])):
        value = _EXTENSION.sub("", value)  # a token widened over `.cpp` keeps the name's extension readable
        redacted = redacted.replace(value, MARKER.format(type=type_.replace(" ", "_")))
    return redacted, sorted({f[0] for f in raw})


_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
