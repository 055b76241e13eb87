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


_PYTHON_BLOCK = re.compile(r"```(?:python|py)\s*\n(.*?)```", re.S)
_OPDEF = re.compile(r"class\s+(\w+)\s*:\s*public\s+OpDef\b")


def parse_multikernelbench(reply: str) -> dict[str, str] | None:
    """MultiKernelBench's pybind layout: a Python block whose string constants hold the op project, the binding and
    ModelNew (read with `ast`, never run) -> {path: text} under the op's own names; None when no block defines
    `kernel_src`."""
    import ast

    from ..tasks.multikernelbench import ANSWER_STRINGS

    for block in _PYTHON_BLOCK.findall(reply) or [reply]:
        if "kernel_src" not in block:
            continue
        try:
            tree = ast.parse(block)
        except SyntaxError:
            continue
        found = {
            node.targets[0].id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id in ANSWER_STRINGS and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        }  # fmt: skip
        if "kernel_src" not in found:
            continue
        from ..verify.opproject.aclnn_gen import snake

        op = _OPDEF.search(found.get("host_operator_src", ""))
        name = snake(op.group(1)) if op else "custom_op"
        paths = {"project_json_src": f"{name}.json", "host_tiling_src": f"op_host/{name}_tiling.h",
                 "host_operator_src": f"op_host/{name}.cpp", "kernel_src": f"op_kernel/{name}.cpp",
                 "python_bind_src": f"pybind/{name}_pybind.cpp", "model_src": "model_new.py"}  # fmt: skip
        return {paths[k]: v for k, v in found.items()}
    return None


def parse_answer(reply: str) -> str | dict[str, str] | None:
    """The answer in `reply`: one kernel source (str), {path: text} for several files, or None."""
    if (mkb := parse_multikernelbench(reply)) is not None:
        return mkb
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
