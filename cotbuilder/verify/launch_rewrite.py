"""Turn `<<<…>>>` kernel launches in host code into the emulator's launch, so NPU-mode mains build on the CPU."""

from __future__ import annotations

import re

LAUNCH_MACRO = "COTBUILDER_LAUNCH"  # emulator/README.md: the rewrite target, same as ICPU_RUN_KF(kernel, blockDim, ...)
LAUNCH_FUNCTION = "cotbuilder::launch"  # for template kernels whose template arguments contain commas
_LAUNCH = re.compile(r"([A-Za-z_][\w:]*(?:\s*<[^<>;()]*>)?)\s*<<<")


def _split_top_level(text: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _matching_paren(text: str, open_idx: int) -> int:
    depth = 0
    for i in range(open_idx, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def rewrite_launches(source: str) -> tuple[str, int]:
    """Return (rewritten source, number of launches rewritten). Unparseable launches are left as they are."""
    out, pos, count = [], 0, 0
    while (m := _LAUNCH.search(source, pos)) is not None:
        close = source.find(">>>", m.end())
        paren = source.find("(", close + 3) if close >= 0 else -1
        if close < 0 or paren < 0 or source[close + 3 : paren].strip():
            out.append(source[pos : m.end()])
            pos = m.end()
            continue
        end = _matching_paren(source, paren)
        if end < 0:
            break
        config = _split_top_level(source[m.end() : close])
        args = source[paren + 1 : end].strip()
        kernel = re.sub(r"\s+", "", m.group(1))
        block_dim = config[0] if config else "1"
        target = LAUNCH_FUNCTION if "," in kernel else LAUNCH_MACRO  # a macro would split kernel<a, b>
        call = f"{target}({kernel}, {block_dim}{', ' + args if args else ''})"
        out.append(source[pos : m.start()] + call)
        pos = end + 1
        count += 1
    out.append(source[pos:])
    return "".join(out), count
