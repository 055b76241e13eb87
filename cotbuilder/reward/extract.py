"""Code out of a model's completion: the largest fenced C++ block, or the text itself when it has no fence."""

from __future__ import annotations

import re

_FENCE = re.compile(r"```[ \t]*([\w+#-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)
_CPP = {"", "cpp", "c++", "cc", "cxx", "c", "h", "hpp", "ascendc"}


def extract_code(completion: str) -> str:
    """The code an answer holds. Blocks tagged with another language (python, text...) are not code; without any
    fence the whole completion is taken as the code (the compiler then judges it)."""
    if "```" not in completion:
        return completion
    blocks = [m.group(2) for m in _FENCE.finditer(completion) if m.group(1).lower() in _CPP]
    return max(blocks, key=len) if blocks else ""
