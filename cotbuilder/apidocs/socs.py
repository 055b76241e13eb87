"""The per-SoC size table (cotbuilder/verify/data/socs.toml): the C++ header the emulator reads it through, and the
check of its memory sizes against the toolkit's own constants (TOTAL_UB_SIZE ... per __NPU_ARCH__ in asc-devkit's
impl/basic_api/utils/kernel_utils_constants.h).

The constants header is C preprocessor text: blocks `#if ... (__NPU_ARCH__ == 2201) ...` / `#elif ...` holding
`const uint32_t TOTAL_UB_SIZE = 192 * 1024;`. We read only that much of it (which arches a branch names, the
TOTAL_* assignments in it, arithmetic of integer literals), so a regex does; a C parser would be more than the job."""

from __future__ import annotations

import ast
import operator
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..paths import emulator_dir, package_data

CONSTANTS_HEADER = "impl/basic_api/utils/kernel_utils_constants.h"
SIZE_FIELDS = {
    "ub_bytes": "TOTAL_UB_SIZE",
    "l1_bytes": "TOTAL_L1_SIZE",
    "l0a_bytes": "TOTAL_L0A_SIZE",
    "l0b_bytes": "TOTAL_L0B_SIZE",
    "l0c_bytes": "TOTAL_L0C_SIZE",
}
# Macros a TOTAL_* expression may use, with the value that makes it a hardware size: the matmul framework's L1
# reserve is software, not hardware.
MACROS = {"KFC_L1_RESERVER_SIZE": 0}
FIELDS = ("ub_bytes", "l1_bytes", "l0a_bytes", "l0b_bytes", "l0c_bytes", "float_saturation", "aic_cores", "aiv_cores")


def table_path() -> Path:
    return package_data("verify/data/socs.toml")


def header_path() -> Path:
    return emulator_dir() / "include" / "impl" / "emu" / "soc_table.h"


def load() -> dict[str, dict]:
    return tomllib.loads(table_path().read_text(encoding="utf-8"))


def render_header(table: dict[str, dict]) -> str:
    lines = [
        "// GENERATED from cotbuilder/verify/data/socs.toml by `python -m cotbuilder.apidocs socs --write`;",
        "// do not edit. The one table of per-SoC sizes (UB, L1, L0A/B/C bytes per core; cube and vector cores).",
        "#pragma once",
        "#include <cstdint>",
        "",
        "namespace cbemu {",
        "",
        "struct SocInfo {",
        "    const char* name;",
        "    const char* npu_arch;",
        *[f"    uint32_t {f};" for f in FIELDS],  # float_saturation: 0 / 1
        "};",
        "",
        "inline constexpr SocInfo kSocTable[] = {",
    ]
    for name, row in table.items():
        values = ", ".join(str(int(row[f])) for f in FIELDS)  # bool -> 0/1
        lines.append(f'    {{"{name}", "{row["npu_arch"]}", {values}}},')
    lines += ["};", "", "}  // namespace cbemu", ""]
    return "\n".join(lines)


@dataclass(frozen=True)
class Mismatch:
    soc: str
    field: str
    table: int
    toolkit: int | None

    def __str__(self) -> str:
        found = "not defined" if self.toolkit is None else str(self.toolkit)
        return f"{self.soc}: {self.field} = {self.table} in socs.toml, the toolkit's {SIZE_FIELDS[self.field]}: {found}"


_BRANCH = re.compile(r"^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)$")
_ARCH = re.compile(r"__NPU_ARCH__\s*==\s*(\d+)")
_ASSIGN = re.compile(r"\b(TOTAL_\w+_SIZE)\s*=\s*([^;]+);")


def toolkit_sizes(text: str) -> dict[str, dict[str, int]]:
    """{arch digits: {TOTAL_*: bytes}} from the constants header: an assignment belongs to the arches its innermost
    enclosing `#if/#elif` names; one outside any arch branch belongs to every arch (`*`)."""
    sizes: dict[str, dict[str, int]] = {}
    stack: list[list[str]] = []  # arches of the current branch at each nesting level
    for line in text.splitlines():
        if m := _BRANCH.match(line):
            kind, cond = m.groups()
            if kind in ("if", "ifdef", "ifndef"):
                stack.append(_ARCH.findall(cond))
            elif kind == "elif" and stack:
                stack[-1] = _ARCH.findall(cond)
            elif kind == "else" and stack:
                stack[-1] = []
            elif kind == "endif" and stack:
                stack.pop()
            continue
        for name, expr in _ASSIGN.findall(line):
            arches = next((level for level in reversed(stack) if level), ["*"])
            value = _evaluate(expr)
            if value is not None:
                for arch in arches:
                    sizes.setdefault(arch, {})[name] = value
    return sizes


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}


def _evaluate(expr: str) -> int | None:
    """Integer arithmetic of literals and the MACROS above; None for anything else."""
    try:
        tree = ast.parse(expr.strip().replace("/", "//"), mode="eval").body
    except SyntaxError:
        return None

    def value(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name) and node.id in MACROS:
            return MACROS[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](value(node.left), value(node.right))
        raise ValueError(ast.dump(node))

    try:
        return value(tree)
    except ValueError:
        return None


def check(table: dict[str, dict], constants_text: str) -> list[Mismatch]:
    """Every memory size of every SoC against the toolkit's TOTAL_* for its arch."""
    sizes = toolkit_sizes(constants_text)
    out = []
    for soc, row in table.items():
        arch = row["npu_arch"].removeprefix("dav-")
        known = {**sizes.get("*", {}), **sizes.get(arch, {})}
        for field, const in SIZE_FIELDS.items():
            if known.get(const) != row[field]:
                out.append(Mismatch(soc, field, row[field], known.get(const)))
    return out
