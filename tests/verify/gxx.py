"""A syntax-only g++ run against the emulator's headers, for tests of what a header declares (no PCH, no link)."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
KERNEL_INCLUDES = ("include", "include/basic_api")


def syntax_only(
    source: Path, text: str, *flags: str, includes: tuple[str, ...] = KERNEL_INCLUDES
) -> subprocess.CompletedProcess:
    """Write `text` to `source` and check it with g++ -fsyntax-only (-I each of `includes` under emulator/)."""
    source.write_text(text)
    dirs = [f"-I{REPO / 'emulator' / d}" for d in includes]
    return subprocess.run(
        ["g++", "-std=c++17", "-fsyntax-only", *flags, *dirs, str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
