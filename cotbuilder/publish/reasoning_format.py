"""The `reasoning` export format: an assistant turn `<think>REASONING</think>` followed by the code, laid out the way
NPUKernelBench reads a model's answer, and a parser for that layout.

The parser is ours, written from the rules NPUKernelBench documents for its answers (its docs/LLM_KERNEL_GENERATION.md
and the output templates its prompts show), not from its code. In our words:
- kernel-only mode: the kernel is the text between the first `<kernel_impl>` and the next `</kernel_impl>`; when that
  text holds a ```cpp fenced block, the kernel is the inside of the first such block;
- full mode (an op project): each file is announced by a line `================== <path> ==================` (paths
  relative to the op project: `op_host/<name>_tiling.h`, `op_host/<name>.cpp`, `op_kernel/<name>.cpp`), the next line
  opens a ```cpp fence, and the file runs up to the first line that starts with ``` after it;
- whitespace around a file's code is dropped, and a missing or empty file is an error; the whole answer is searched,
  the reasoning included (a reasoning that names a header or the tag would be read as code).
Push renders every row and keeps it only if this parser gives back the unit's files (see rows.py), so a published row
is one the benchmark's harness reads as the unit's own code.
"""

from __future__ import annotations

import re

KERNEL_IMPL = "<kernel_impl>"  # the one key of a kernel-only answer's files: the tag names no path
_RULE = "=" * 18
_HEADER_RE = re.compile(rf"^{_RULE} (\S[^\n]*?) {_RULE}$", re.MULTILINE)
_FENCE_RE = re.compile(r"```cpp\s*(.*?)\s*```", re.DOTALL)


class FormatError(ValueError):
    """The answer does not hold the code the layout requires (the message says which part)."""


def header(path: str) -> str:
    return f"{_RULE} {path} {_RULE}"


def render(reasoning: str, files: dict[str, str]) -> str:
    """The assistant turn: `<think>` reasoning `</think>`, then `files` — {KERNEL_IMPL: code} in the kernel-only
    layout, otherwise one headed ```cpp block per path, in the given order."""
    if not files:
        raise FormatError("no file to render")
    parts = [f"<think>\n{reasoning.strip()}\n</think>", ""]
    if KERNEL_IMPL in files:
        if len(files) != 1:
            raise FormatError("a kernel-only answer holds exactly one file")
        parts.append(f"<kernel_impl>\n```cpp\n{files[KERNEL_IMPL].strip()}\n```\n</kernel_impl>")
    else:
        parts += [f"{header(path)}\n```cpp\n{code.strip()}\n```" for path, code in files.items()]
    return "\n".join(parts) + "\n"


def parse_think(text: str) -> str:
    """The reasoning: the text between the first `<think>` and the next `</think>` ('' when there is none)."""
    m = re.search(r"<think>(.*?)</think>", text, re.DOTALL)
    return m.group(1).strip() if m else ""


def parse_kernel_impl(text: str) -> str:
    """The kernel of a kernel-only answer."""
    m = re.search(r"<kernel_impl>(.*?)</kernel_impl>", text, re.DOTALL)
    if m is None:
        raise FormatError("no <kernel_impl> ... </kernel_impl> block")
    inner = m.group(1)
    fenced = _FENCE_RE.search(inner)
    code = (fenced.group(1) if fenced else inner).strip()
    if not code:
        raise FormatError("the <kernel_impl> block is empty")
    return code


def parse_file(text: str, path: str) -> str:
    """One file of a full answer: the first ```cpp block right under the header line of `path` (and, as for a
    kernel-only block, the inside of a ```cpp block nested in it)."""
    m = re.search(rf"{re.escape(header(path))}\n```cpp\n(.*?)\n```", text, re.DOTALL)
    if m is None:
        raise FormatError(f"no ```cpp block under the header of {path}")
    fenced = _FENCE_RE.search(m.group(1))
    code = (fenced.group(1) if fenced else m.group(1)).strip()
    if not code:
        raise FormatError(f"the block of {path} is empty")
    return code


def parse_files(text: str, paths: list[str] | None = None) -> dict[str, str]:
    """The files of a full answer: `paths` (as NPUKernelBench asks for its three), or every headed file."""
    if paths is None:
        paths = list(dict.fromkeys(_HEADER_RE.findall(text)))
        if not paths:
            raise FormatError("no file header line")
    return {path: parse_file(text, path) for path in paths}


def parse(text: str) -> tuple[str, dict[str, str]]:
    """(reasoning, files) of an assistant turn: the kernel-only layout when it has a `<kernel_impl>` tag."""
    if "<kernel_impl>" in text:
        return parse_think(text), {KERNEL_IMPL: parse_kernel_impl(text)}
    return parse_think(text), parse_files(text)
