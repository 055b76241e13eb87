"""The device compiler's scalar builtins `min` / `max`, for a kernel that calls them undeclared.

They are what the clang-based device compiler gives every kernel (no header declares them), so a kernel that uses
them is right; g++ does not have them. The emulator's `impl/emu/device_builtins.h` declares them. It is forced in
only when a kernel's compile fails for want of them, so no kernel that compiles without it (one that defines a
global `min` of its own, or calls `std::min` through a using-directive) ever meets it.
"""

from __future__ import annotations

import re

FLAGS = ["-include", "impl/emu/device_builtins.h"]
_Q, _P = "['\u2018]", "['\u2019]"  # g++ quotes with ' or, in a UTF-8 locale, with curly quotes
_NAME = f"{_Q}(?:min|max)"
_MISSING = re.compile(
    f"{_NAME}{_P} was not declared in this scope"
    f"|there are no arguments to {_NAME}{_P} that depend on a template parameter"
    f"|use of undeclared identifier {_NAME}{_P}"
    # a namespace's own min (AscendC::min, through a using-directive) found instead of the builtin
    f"|no matching function for call to {_NAME}(?:{_P}|\\()"
)


def missing(log: str) -> bool:
    """Whether a compile log says the kernel called the builtin min / max."""
    return _MISSING.search(log) is not None


def with_builtins(argv: list[str]) -> list[str]:
    """The compile `argv` (ending `-c SOURCE -o OUT`) with the builtins forced in after the other forced headers."""
    return [*argv[:-4], *FLAGS, *argv[-4:]]
