"""What a source is (git repo, local folder, doc site), how `--source` strings and manifests become one, its id."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..hashing import sha256_text
from .urlredact import redact_url

KINDS = ("git", "local", "docs")
_SCP_LIKE = re.compile(r"^[\w.-]+@[\w.-]+:")  # user@host:path (ssh)
_KIND_PREFIX = re.compile(r"^(git|local|docs)\+(?=.)")  # explicit kind: git+https://..., docs+/path, local+./x
# Hosts whose https URLs of the form /owner/name are git repositories rather than documentation pages.
_GIT_HOSTS = {"github.com", "gitee.com", "gitcode.com", "gitlab.com", "bitbucket.org", "atomgit.com"}
_DOC_SUFFIXES = (".html", ".htm", ".md", ".markdown")


class SourceError(ValueError):
    """A source string or manifest entry the user must fix (bad usage: exit 2)."""


@dataclass
class SourceSpec:
    kind: str  # git | local | docs
    url: str  # as given (URL, or path resolved to absolute), credentials removed: what is stored, hashed and shown
    ref: str | None = None
    license: str | None = None  # licence the manifest declares
    manifest: str | None = None
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    prefix: str | None = None  # docs: only follow links under this URL prefix
    max_pages: int | None = None
    max_depth: int | None = None
    max_bytes: int | None = None
    rate_limit: float | None = None
    name: str | None = None
    # The URL as given when it carries credentials (user info, ?token=): only ever handed to git / HTTP, in memory.
    secret_url: str | None = field(default=None, repr=False, compare=False)

    @property
    def access_url(self) -> str:
        return self.secret_url or self.url

    @property
    def is_remote(self) -> bool:
        return "://" in self.url and not self.url.startswith("file://") or bool(_SCP_LIKE.match(self.url))

    @property
    def source_id(self) -> str:
        """sha256 of kind + canonical location + ref: the same source crawled twice is one source."""
        return sha256_text(f"{self.kind}\n{canonical_location(self.url)}\n{self.ref or ''}")

    def label(self) -> str:
        return self.name or (f"{self.url}@{self.ref}" if self.ref else self.url)


def canonical_location(url: str) -> str:
    if "://" in url or _SCP_LIKE.match(url):
        return url.rstrip("/")
    return str(Path(url).expanduser().resolve())


def _split_ref(text: str) -> tuple[str, str | None]:
    """`location@ref` -> (location, ref). `@` also appears in ssh URLs (git@host:...) and user info, so a split is
    accepted only when the left side still looks like a whole location and the right side like a ref name."""
    if Path(text).expanduser().exists() or "@" not in text:
        return text, None
    left, ref = text.rsplit("@", 1)
    if not ref or ":" in ref or any(c.isspace() for c in ref):
        return text, None
    if "://" in left:
        after_scheme = left.split("://", 1)[1]
        if "/" not in after_scheme.strip("/") and not left.startswith("file://"):
            return text, None  # https://user@host/... : that @ was user info
    elif not (_SCP_LIKE.match(left) or Path(left).expanduser().exists() or "/" in left or left.startswith(".")):
        return text, None
    return left, ref


def guess_kind(location: str) -> str:
    if _SCP_LIKE.match(location) or location.startswith(("ssh://", "git://", "file://")):
        return "git"
    if location.startswith(("http://", "https://")):
        parts = urlsplit(location)
        path = parts.path.rstrip("/")
        if path.endswith(".git"):
            return "git"
        if parts.hostname in _GIT_HOSTS and len([p for p in path.split("/") if p]) == 2:
            return "git"
        return "docs"
    path = Path(location).expanduser()
    if path.is_file() and path.suffix.lower() in _DOC_SUFFIXES:
        return "docs"
    if (path / ".git").exists() or _is_bare_repo(path):
        return "git"
    return "local"


def _is_bare_repo(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir() and (path / "refs").is_dir()


def parse_source(text: str, *, base: Path | None = None) -> SourceSpec:
    """One `--source` value: URL or path, optional `@ref`, optional `git+`/`local+`/`docs+` prefix to force the kind.

    Relative paths resolve against `base` (a manifest's folder) or the current directory.
    """
    text = text.strip()
    if not text:
        raise SourceError("empty --source")
    forced = None
    m = _KIND_PREFIX.match(text)
    if m and not text.startswith(("git+ssh://",)):
        forced, text = m.group(1), text[m.end() :]
    location, ref = _split_ref(text)
    location = _absolute(location, base)
    public = redact_url(location)
    kind = forced or guess_kind(location)
    if ref and kind != "git":
        raise SourceError(f"@{ref}: only git sources take a ref ({public} is a {kind} source)")
    if kind in ("local",) or (kind in ("docs", "git") and "://" not in location and not _SCP_LIKE.match(location)):
        if not Path(location).exists():
            raise SourceError(f"no such file or folder: {location}")
    return SourceSpec(kind=kind, url=public, ref=ref, secret_url=location if location != public else None)


def _absolute(location: str, base: Path | None) -> str:
    if "://" in location or _SCP_LIKE.match(location):
        return location
    path = Path(location).expanduser()
    if not path.is_absolute():
        path = (base or Path.cwd()) / path
    return str(path.resolve())


_MANIFEST_KEYS = {
    "kind",
    "url",
    "ref",
    "license",
    "include",
    "exclude",
    "prefix",
    "max_pages",
    "max_depth",
    "max_bytes",
    "rate_limit",
    "name",
    "note",
    "homepage",
}


def load_manifest(path: Path) -> list[SourceSpec]:
    """Sources of a TOML manifest: `[[source]]` tables (see crawlers/*.toml). Relative paths resolve against the
    manifest's folder."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SourceError(f"no such manifest: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SourceError(f"manifest {path} is not valid TOML: {exc}") from None
    entries = data.get("source")
    if not isinstance(entries, list) or not entries:
        raise SourceError(f"manifest {path} has no [[source]] entries")
    specs = []
    for i, entry in enumerate(entries, start=1):
        specs.append(_spec_from_entry(entry, path, i))
    return specs


_STRING_KEYS = ("kind", "url", "ref", "license", "prefix", "name", "note", "homepage")
_LIST_KEYS = ("include", "exclude")
_INT_KEYS = ("max_pages", "max_depth", "max_bytes")


def _check_types(entry: dict[str, Any], where: str) -> None:
    """A value of the wrong type is an error, never a guess: `include = "math/*"` would otherwise be read as the
    characters of the string (every file, or none), silently."""
    for key in _STRING_KEYS:
        if key in entry and not isinstance(entry[key], str):
            raise SourceError(f"{where}: `{key}` must be a string, not {_toml_type(entry[key])}")
    for key in _LIST_KEYS:
        if key in entry and (not isinstance(entry[key], list) or not all(isinstance(g, str) and g for g in entry[key])):
            raise SourceError(
                f'{where}: `{key}` must be a list of glob strings (e.g. {key} = ["math/*"]), '
                f"not {_toml_type(entry[key])}"
            )
    for key in _INT_KEYS:
        if key in entry and (isinstance(entry[key], bool) or not isinstance(entry[key], int) or entry[key] < 0):
            raise SourceError(f"{where}: `{key}` must be a non-negative integer, not {entry[key]!r}")
    rate = entry.get("rate_limit", 0)
    if isinstance(rate, bool) or not isinstance(rate, int | float) or rate < 0:
        raise SourceError(f"{where}: `rate_limit` must be a non-negative number of seconds, not {rate!r}")


def _toml_type(value: Any) -> str:
    names = {str: "a string", list: "an array", dict: "a table", bool: "a boolean", int: "an integer"}
    return f"{names.get(type(value), type(value).__name__)} ({value!r})"[:120]


def _spec_from_entry(entry: dict[str, Any], manifest: Path, index: int) -> SourceSpec:
    where = f"{manifest} [[source]] #{index}"
    if not isinstance(entry, dict):
        raise SourceError(f"{where}: each [[source]] must be a table")
    unknown = set(entry) - _MANIFEST_KEYS
    if unknown:
        raise SourceError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    _check_types(entry, where)
    if "url" not in entry:
        raise SourceError(f"{where}: missing `url`")
    kind = entry.get("kind")
    if kind is not None and kind not in KINDS:
        raise SourceError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    prefix = f"{kind}+" if kind else ""
    ref = entry.get("ref")
    try:
        spec = parse_source(prefix + str(entry["url"]) + (f"@{ref}" if ref else ""), base=manifest.parent)
    except SourceError as exc:
        raise SourceError(f"{where}: {exc}") from None
    spec.ref = ref or spec.ref
    spec.license = entry.get("license")
    spec.manifest = str(manifest)
    spec.include = list(entry.get("include", []))
    spec.exclude = list(entry.get("exclude", []))
    spec.prefix = entry.get("prefix")
    spec.name = entry.get("name")
    for key in ("max_pages", "max_depth", "max_bytes"):
        if key in entry:
            setattr(spec, key, int(entry[key]))
    if "rate_limit" in entry:
        spec.rate_limit = float(entry["rate_limit"])
    return spec


def resolve_manifest_path(name: str) -> Path:
    """A manifest given as a path, or as a name of one shipped in crawlers/ (`demo`, `ascend-public.toml`)."""
    from ..paths import data_dir

    path = Path(name).expanduser()
    if path.is_file():
        return path.resolve()
    shipped = data_dir("crawlers") / (name if name.endswith(".toml") else f"{name}.toml")
    if shipped.is_file():
        return shipped
    raise SourceError(f"no such manifest: {name} (nor {shipped})")
