"""Code out of a teacher's reply, by the rules the benchmarks give their models: NPUKernelBench's `<kernel_impl>`
tag (kernel_only) and per-file headers (`==== op_kernel/x.cpp ====` then a fenced block; `### path` is taken too),
else the largest fenced C++ block. A reply with none of these is unparseable (None): prose is not an answer."""

from __future__ import annotations

import re

from ..reward.extract import extract_code

_KERNEL_IMPL = re.compile(r"<kernel_impl>(.*?)</kernel_impl>", re.S)
# a header line naming a file, then its fenced block
_FILE_BLOCK = re.compile(
    r"^(?:=+\s*|#{2,4}\s*|//\s*file:\s*)`?([\w./-]+\.(?:cpp|h|hpp|cc|json))`?\s*=*\s*\n+```[^\n]*\n(.*?)```",
    re.M | re.S,
)


def parse_answer(reply: str) -> str | dict[str, str] | None:
    """The answer in `reply`: one kernel source (str), {path: text} for several files, or None."""
    if m := _KERNEL_IMPL.search(reply):
        inner = m.group(1)
        return (extract_code(inner) if "```" in inner else inner).strip() or None
    files = {path: text for path, text in _FILE_BLOCK.findall(reply)}
    if files:
        return files
    if "```" not in reply:
        return None
    code = extract_code(reply)
    return code if code.strip() else None
