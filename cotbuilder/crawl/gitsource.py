"""Git sources: find the commit a source points at cheaply, and bring exactly that commit into the clone cache.

The cheap probe (`git ls-remote` for URLs, `git rev-parse` for a local repository) lets an unchanged source be skipped
without cloning. A clone is shallow (`--depth 1` of the ref, or a fetch of the exact sha) and lives in the workspace
cache, one folder per URL, reused by the next crawl of a changed source.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..hashing import sha256_text
from .urlredact import redact_urls_in

_FULL_SHA = re.compile(r"^[0-9a-f]{40}$")
GIT_TIMEOUT_S = 600
PROBE_TIMEOUT_S = 60
# Never prompt for credentials (a crawl is unattended), never let a repo's own config run programs.
_GIT_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_ASKPASS": "true",
    "SSH_ASKPASS": "true",
    "GIT_LFS_SKIP_SMUDGE": "1",
    "GIT_CONFIG_NOSYSTEM": "1",
}


class GitError(RuntimeError):
    """A git operation failed; the message is the reason shown to the user (git's own last lines)."""


class EmptyRepository(GitError):
    pass


@dataclass
class Checkout:
    path: Path
    commit: str
    cloned: bool  # True when this call fetched anything


def _run(args: list[str], *, cwd: Path | None = None, timeout: float = GIT_TIMEOUT_S) -> str:
    env = {**os.environ, **_GIT_ENV}
    try:
        proc = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} timed out after {timeout:.0f} s") from None
    if proc.returncode != 0:
        # git may quote the URL back, credentials and all.
        tail = redact_urls_in(" ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:]))
        raise GitError(f"git {args[0]} failed: {tail or f'exit {proc.returncode}'}")
    return proc.stdout


def is_local_repo(url: str) -> bool:
    return "://" not in url and "@" not in url.split("/", 1)[0] and Path(url).is_dir()


def fetch_url(url: str) -> str:
    """What to hand `git fetch`: local repositories go through file:// so that --depth is honoured."""
    return Path(url).resolve().as_uri() if is_local_repo(url) else url


def probe(url: str, ref: str | None) -> str:
    """The commit sha `url@ref` points at now, without cloning. Raises EmptyRepository / GitError."""
    if ref and _FULL_SHA.match(ref.lower()):
        return ref.lower()
    if is_local_repo(url):
        try:
            return _run(
                ["rev-parse", "--verify", "--quiet", f"{ref or 'HEAD'}^{{commit}}"],
                cwd=Path(url),
                timeout=PROBE_TIMEOUT_S,
            ).strip()
        except GitError:
            if not ref and not _run(["rev-list", "--all", "-n", "1"], cwd=Path(url), timeout=PROBE_TIMEOUT_S).strip():
                raise EmptyRepository("empty repository: no commits to crawl") from None
            raise GitError(f"no such ref {ref or 'HEAD'} in {url}") from None
    patterns = [ref, f"refs/heads/{ref}", f"refs/tags/{ref}", f"refs/tags/{ref}^{{}}"] if ref else ["HEAD"]
    out = _run(["ls-remote", url, *patterns], timeout=PROBE_TIMEOUT_S)
    refs = dict(reversed(line.split("\t", 1)) for line in out.splitlines() if "\t" in line)
    if not refs:
        if not ref and not _run(["ls-remote", url], timeout=PROBE_TIMEOUT_S).strip():
            raise EmptyRepository("empty repository: no commits to crawl")
        if ref:  # maybe an abbreviated sha: only a clone can tell
            return ""
        raise GitError(f"{url} has no HEAD")
    for name in (f"refs/tags/{ref}^{{}}", f"refs/tags/{ref}", f"refs/heads/{ref}", ref, "HEAD"):
        if name and name in refs:
            return refs[name]
    return next(iter(refs.values()))


def cache_dir_for(cache_root: Path, url: str) -> Path:
    return cache_root / "git" / sha256_text(url)[:24]


def checkout(
    url: str, ref: str | None, dest: Path, expected: str | None = None, public_url: str | None = None
) -> Checkout:
    """Make `dest` a shallow checkout of `url@ref` (or exactly `expected` when the probe resolved it).

    `url` may carry credentials: it is only passed on git's command line, never written to the clone's config
    (`origin` is `public_url`, the redacted URL), so nothing on disk keeps the token."""
    dest.mkdir(parents=True, exist_ok=True)
    if not (dest / ".git").is_dir():
        _run(["init", "--quiet", str(dest)])
    source = fetch_url(url)
    public = fetch_url(public_url) if public_url else source
    try:
        _run(["remote", "set-url", "origin", public], cwd=dest)
    except GitError:
        _run(["remote", "add", "origin", public], cwd=dest)
    # Fetch from the URL itself rather than the remote's name: the credentials stay off the disk.
    remote = source if source != public else "origin"
    if expected and _has_commit(dest, expected):
        _run(["checkout", "--quiet", "--force", "--detach", expected], cwd=dest)
        _clean(dest)
        return Checkout(dest, expected, cloned=False)
    want = ref or "HEAD"
    try:
        _run(["fetch", "--quiet", "--depth", "1", "--no-tags", remote, expected or want], cwd=dest)
    except GitError as first:
        if not (ref or expected):
            raise
        # Servers that refuse a sha in `want`, or an abbreviated sha: fetch the history and look it up.
        try:
            _run(["fetch", "--quiet", "--tags", remote, "+refs/heads/*:refs/remotes/origin/*"], cwd=dest)
            _run(["checkout", "--quiet", "--force", "--detach", f"{expected or want}^{{commit}}"], cwd=dest)
        except GitError:
            raise first from None
    else:
        _run(["checkout", "--quiet", "--force", "--detach", "FETCH_HEAD"], cwd=dest)
    _clean(dest)
    commit = _run(["rev-parse", "HEAD"], cwd=dest).strip()
    return Checkout(dest, commit, cloned=True)


def _has_commit(dest: Path, sha: str) -> bool:
    try:
        _run(["cat-file", "-e", f"{sha}^{{commit}}"], cwd=dest, timeout=PROBE_TIMEOUT_S)
        return True
    except GitError:
        return False


def _clean(dest: Path) -> None:
    """Remove untracked leftovers so the checkout is exactly the commit."""
    _run(["clean", "-qfdx"], cwd=dest)


def remove_checkout(dest: Path) -> None:
    shutil.rmtree(dest, ignore_errors=True)
