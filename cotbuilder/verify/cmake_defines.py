"""The compile definitions a unit's own build gives its sources (CMakeLists.txt), for the emulator build.

Samples select code with macros their CMake sets (`SCENARIO_NUM=${SCENARIO_NUM}`, `NPU_ARCH=${NPU_ARCH_ID}`); without
them the sources do not compile. We read `target_compile_definitions`, `add_compile_definitions`,
`add_definitions(-D…)` and the toolkit's `ascendc_compile_definitions(…)`, resolve `${VAR}` from `set(VAR value …)` /
`option(VAR "…" ON|OFF)` (preferring the value that names the SoC's architecture when a variable is set per
architecture) or from `-DVAR=value` in the unit's README / run script, and write them to a forced-include header
(not the command line: the precompiled header must see the same flags every time). `if()/elseif()/else()` blocks are evaluated with those values (the sample's default configuration), so an
`if(USE_SILU_MODE)` guarded definition is only set when the option's default is ON; a condition we cannot evaluate
keeps the definitions inside it. `__NPU_ARCH__` is defined as the device compiler does for the sample's architecture
(`CMAKE_ASC_ARCHITECTURES` / `--npu-arch=`), or the SoC's when the sample names none.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from .npu import soc_table

_COMMAND = re.compile(r"\b(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)", re.S)
_SET = re.compile(r"\bset\s*\(\s*(\w+)\s+\"?([^\s\")]+)\"?", re.I)
_ARCH = re.compile(r"dav-\d+")
_ARCH_CACHE = re.compile(r"\bset\s*\(\s*CMAKE_ASC_ARCHITECTURES\b[^)]*?\bCACHE\b([^)]*)\)", re.I)
_IS_CACHE = re.compile(r"set\s*\([^)]*\bCACHE\b", re.I)
_OPTION = re.compile(r"\boption\s*\(\s*(\w+)\s+\"[^\"]*\"\s+(\w+)\s*\)", re.I)
CLI_DEF = re.compile(r"-D(\w+)=([\w.\-]+)")
_SHELL_SET = re.compile(r"^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)=([\w.\-]+)\s*(?:#.*)?$", re.M)
# a run script's positional parameter with its default (`case_name=${1:-"case1"}`): what `bash run.sh` runs
_SHELL_DEFAULT = re.compile(r"""^\s*(?:export\s+)?([A-Za-z_]\w*)=\$\{\d+:-["']?([\w.\-]+)["']?\}""", re.M)
_NPU_ARCH_FLAG = re.compile(r"--npu-arch=(dav-\d+)")
_VAR = re.compile(r"\$\{(\w+)\}")
_TOKEN = re.compile(r'"[^"]*"|[()]|[^\s()]+')
_SCOPES = {"PRIVATE", "PUBLIC", "INTERFACE"}
_FALSE = {"0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND", ""}
_TRUE = {"1", "ON", "YES", "TRUE", "Y"}
ARCH_VAR = "CMAKE_ASC_ARCHITECTURES"
# the commands that define macros: CMake's own, and the CANN toolkit's helper for ASC sources
# (`ascendc_compile_definitions(target PRIVATE -DX=...)`)
_DEFINING = ("target_compile_definitions", "add_compile_definitions", "add_definitions", "ascendc_compile_definitions")
_PER_TARGET = ("target_compile_definitions", "ascendc_compile_definitions")


def arch_number(soc: str) -> str:
    return soc_table()[soc]["npu_arch"].removeprefix("dav-")


def _strip_comments(cmake: str) -> str:
    return re.sub(r"(?m)(^|\s)#.*$", r"\1", cmake)  # a comment starts a line or follows a blank


def variables(cmake: str, docs: list[str], soc: str) -> dict[str, str]:
    """Each variable's value in the sample's default configuration (the first value the CMake file sets, then the
    docs' `-DVAR=value`), except that a value naming the SoC's architecture wins when there are several."""
    values: dict[str, list[str]] = {}
    cmake = _strip_comments(cmake)
    cached: set[str] = set()
    for m in sorted([*_SET.finditer(cmake), *_OPTION.finditer(cmake)], key=lambda m: m.start()):
        name = m.group(1)
        if m.re is _OPTION or _IS_CACHE.match(cmake, m.start()):
            if name in cached:  # CMake keeps the first cache entry: a later set(... CACHE) is not an option
                continue
            cached.add(name)
        values.setdefault(name, []).append(m.group(2))
    for m in _NPU_ARCH_FLAG.finditer(cmake):
        values.setdefault(ARCH_VAR, []).append(m.group(1))
    # the arches a sample offers: its cache entry's help text ("NPU architecture: dav-2201, dav-3510") and the
    # docs' lines about CMAKE_ASC_ARCHITECTURES (a README table row "`dav-3510`（默认）、`dav-2201`")
    first_cache = _ARCH_CACHE.search(cmake)
    offered = _ARCH.findall(first_cache.group(1)) if first_cache else []
    for text in docs:
        offered += [a for line in text.splitlines() if ARCH_VAR in line for a in _ARCH.findall(line)]
    if offered:
        values.setdefault(ARCH_VAR, []).extend(offered)
    for text in docs:
        for pattern in (CLI_DEF, _SHELL_SET, _SHELL_DEFAULT):
            for m in pattern.finditer(text):
                values.setdefault(m.group(1), []).append(m.group(2))
    arch = arch_number(soc)
    chosen = {}
    for name, options in values.items():
        if name == ARCH_VAR:
            wanted = f"dav-{arch}"
            chosen[name] = wanted if wanted in options else options[0]
            continue
        chosen[name] = arch if arch in options else options[0]
    chosen.setdefault(ARCH_VAR, f"dav-{arch}")
    _avoid_refused_defaults(cmake, values, chosen)
    # the emulator runs the sample's CPU twin: its run-mode switch takes the cpu branch (samples build
    # `CYCLENUMS=10000` timing loops for npu and one pass for cpu)
    for name in ("CMAKE_ASC_RUN_MODE", "RUN_MODE"):
        if name in chosen:
            chosen[name] = "cpu"
    return chosen


def _refuses(cmake: str, var: dict[str, str]) -> bool:
    """Whether CMake certainly reaches a `message(FATAL_ERROR ...)` with these values (every enclosing condition
    known to be true)."""
    stack: list[tuple[bool | None, bool | None]] = []
    for m in _COMMAND.finditer(cmake):
        name, args = m.group(1).lower(), m.group(2)
        if name == "if":
            c = condition(args, var)
            stack.append((c, c))
        elif name == "elseif" and stack:
            _, taken = stack[-1]
            c = _and(_not(taken), condition(args, var))
            stack[-1] = (c, _or(taken, c))
        elif name == "else" and stack:
            _, taken = stack[-1]
            stack[-1] = (_not(taken), True)
        elif name == "endif" and stack:
            stack.pop()
        elif name == "message" and "FATAL_ERROR" in args and all(run is True for run, _ in stack):
            return True
    return False


def _avoid_refused_defaults(cmake: str, values: dict[str, list[str]], chosen: dict[str, str]) -> None:
    """A CMake default the file itself refuses (`set(SCENARIO_NUM 0 CACHE ...)` then `if(SCENARIO_NUM LESS 1)
    message(FATAL_ERROR ...)`: the user must pass -DSCENARIO_NUM) is replaced by the first value the docs give that
    the file accepts - what a user following the README would build. The architecture is never changed here."""
    if not _refuses(cmake, chosen):
        return
    for name, options in values.items():
        if name == ARCH_VAR:
            continue
        for candidate in options:
            if candidate != chosen.get(name) and not _refuses(cmake, {**chosen, name: candidate}):
                chosen[name] = candidate
                return


def configuration_variables(unit: dict[str, Any]) -> tuple[str, ...]:
    """Variables a user sets on the cmake command line to configure the sample (cache entries, options, and what
    its compile definitions read): a `#error` naming one means a configuration the harness did not pass."""
    cmake, _ = _texts(unit)
    names = {m.group(1) for m in _OPTION.finditer(cmake)}
    names |= {m.group(1) for m in _SET.finditer(cmake) if _IS_CACHE.match(cmake, m.start())}
    names |= set(_VAR.findall(cmake))
    return tuple(sorted(n for n in names if not n.startswith("CMAKE_")))


def sample_arch(cmake: str, docs: list[str], soc: str) -> str:
    """The architecture number the sample is built for: the SoC's when the sample supports it, else its default."""
    return variables(cmake, docs, soc)[ARCH_VAR].removeprefix("dav-")


# ---- if() conditions: three-valued (True, False, None = cannot tell) -------------------------------------------------


def _not(a: bool | None) -> bool | None:
    return None if a is None else not a


def _and(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    return None if a is None or b is None else True


def _or(a: bool | None, b: bool | None) -> bool | None:
    if a is True or b is True:
        return True
    return None if a is None or b is None else False


_BINARY = {
    "STREQUAL",
    "EQUAL",
    "LESS",
    "GREATER",
    "LESS_EQUAL",
    "GREATER_EQUAL",
    "MATCHES",
    "IN_LIST",
    "STRLESS",
    "STRGREATER",
    "VERSION_EQUAL",
    "VERSION_LESS",
    "VERSION_GREATER",
}


class _Condition:
    def __init__(self, args: str, var: dict[str, str], lists: dict[str, list[str]]):
        self.tokens = _TOKEN.findall(args)
        self.pos = 0
        self.var, self.lists = var, lists

    def value(self, token: str) -> str | None:
        """An operand's value: a quoted string or ${VAR} expanded; a bare word is a variable if one is known."""
        quoted = len(token) >= 2 and token[0] == token[-1] == '"'
        text = token[1:-1] if quoted else token
        missing = False

        def sub(m: re.Match) -> str:
            nonlocal missing
            if m.group(1) not in self.var:
                missing = True
            return self.var.get(m.group(1), "")

        text = _VAR.sub(sub, text)
        if missing:
            return None
        if not quoted and text in self.var:
            return self.var[text]
        return text

    def truth(self, token: str) -> bool | None:
        quoted = token.startswith('"')
        text = self.value(token)
        if text is None:
            return None
        if token.upper() in _TRUE or re.fullmatch(r"-?\d*[1-9]\d*(\.\d*)?", token):
            return True
        if token.upper() in _FALSE or token.upper().endswith("-NOTFOUND"):
            return False
        if not quoted and re.fullmatch(r"\w+", token):  # a variable name: defined and not a false constant
            return token in self.var and self.var[token].upper() not in _FALSE
        return None

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        self.pos += 1
        return self.tokens[self.pos - 1]

    def parse_or(self) -> bool | None:
        left = self.parse_and()
        while self.peek() == "OR":
            self.take()
            left = _or(left, self.parse_and())
        return left

    def parse_and(self) -> bool | None:
        left = self.parse_not()
        while self.peek() == "AND":
            self.take()
            left = _and(left, self.parse_not())
        return left

    def parse_not(self) -> bool | None:
        if self.peek() == "NOT":
            self.take()
            return _not(self.parse_not())
        return self.parse_atom()

    def parse_atom(self) -> bool | None:
        token = self.peek()
        if token is None:
            return None
        self.take()
        if token == "(":
            inner = self.parse_or()
            if self.peek() == ")":
                self.take()
            return inner
        if token == "DEFINED" and self.peek() is not None:
            return self.take() in self.var
        if token in ("EXISTS", "IS_DIRECTORY", "COMMAND", "TARGET", "POLICY", "IS_ABSOLUTE"):
            if self.peek() is not None:
                self.take()
            return None
        op = self.peek()
        if op in _BINARY:
            self.take()
            right = self.take() if self.peek() is not None else '""'
            return self.compare(token, op, right)
        return self.truth(token)

    def compare(self, left_token: str, op: str, right_token: str) -> bool | None:
        if op == "IN_LIST":
            item = self.value(left_token)
            if item is None or right_token not in self.lists:
                return None
            return item in self.lists[right_token]
        left, right = self.value(left_token), self.value(right_token)
        if left is None or right is None:
            return None
        if op == "STREQUAL":
            return left == right
        if op == "MATCHES":
            try:
                return re.search(right, left) is not None
            except re.error:
                return None
        if op in ("STRLESS", "STRGREATER"):
            return left < right if op == "STRLESS" else left > right
        try:
            a, b = float(left), float(right)
        except ValueError:
            return None if op.startswith("VERSION") else False
        return {
            "EQUAL": a == b,
            "LESS": a < b,
            "GREATER": a > b,
            "LESS_EQUAL": a <= b,
            "GREATER_EQUAL": a >= b,
            "VERSION_EQUAL": a == b,
            "VERSION_LESS": a < b,
            "VERSION_GREATER": a > b,
        }[op]


def condition(args: str, var: dict[str, str], lists: dict[str, list[str]] | None = None) -> bool | None:
    """Evaluate an `if(...)` argument string: True / False, or None when it depends on something we cannot know."""
    parsed = _Condition(args, var, lists or {})
    result = parsed.parse_or()
    return None if parsed.pos != len(parsed.tokens) else result


def _active_commands(cmake: str, var: dict[str, str]) -> list[tuple[str, str]]:
    """The (command, args) pairs CMake would execute in the default configuration; a branch whose condition cannot
    be decided counts as executed (the old, permissive reading) so nothing the sample needs is lost."""
    lists: dict[str, list[str]] = {}
    stack: list[tuple[bool | None, bool | None]] = []  # (this branch runs, an earlier branch ran)
    out = []
    for m in _COMMAND.finditer(_strip_comments(cmake)):
        name, args = m.group(1).lower(), m.group(2)
        if name == "if":
            c = condition(args, var, lists)
            stack.append((c, c))
        elif name == "elseif" and stack:
            _, taken = stack[-1]
            c = _and(_not(taken), condition(args, var, lists))
            stack[-1] = (c, _or(taken, c))
        elif name == "else" and stack:
            _, taken = stack[-1]
            stack[-1] = (_not(taken), True)
        elif name == "endif" and stack:
            stack.pop()
        elif all(run is not False for run, _ in stack):
            if name == "set":
                words = args.split()
                if words:
                    items = [w.strip('"') for w in words[1:]]
                    if "CACHE" in items:
                        items = items[: items.index("CACHE")]
                    lists.setdefault(words[0], items)
            out.append((name, args))
    return out


def _string_regex_match(args: str, var: dict[str, str]) -> None:
    """CMake's `string(REGEX MATCH <regex> <out> <input>...)`: <out> = the first match in the joined inputs (the
    regex dialects agree on the simple patterns CMakeLists use to pull a number out of `dav-2201`)."""
    try:
        words = shlex.split(args)
    except ValueError:
        return
    if len(words) < 5 or words[:2] != ["REGEX", "MATCH"]:
        return
    text = _VAR.sub(lambda v: var.get(v.group(1), "\0"), "".join(words[4:]))
    if "\0" in text:
        return
    try:
        m = re.search(words[2], text)
    except re.error:
        return
    var[words[3]] = m.group(0) if m else ""


def definitions(cmake: str, docs: list[str], soc: str) -> list[tuple[str, str | None]]:
    """(name, value or None) for each definition whose value could be resolved, in the default configuration."""
    var = variables(cmake, docs, soc)
    out: list[tuple[str, str | None]] = []
    for command, args in _active_commands(cmake, var):
        if command == "string":
            _string_regex_match(args, var)  # `string(REGEX MATCH "([0-9]+)" ARCH_NUM "${CMAKE_ASC_ARCHITECTURES}")`
            continue
        if command not in _DEFINING:
            continue
        tokens = args.split()
        if command in _PER_TARGET:
            tokens = tokens[1:]
        for token in tokens:
            if token.upper() in _SCOPES or token.startswith("$<"):
                continue
            if command == "add_definitions":
                if not token.startswith("-D"):
                    continue
                token = token[2:]
            elif command == "ascendc_compile_definitions":
                token = token.removeprefix("-D")  # the toolkit's helper takes compiler flags or bare names
            token = _VAR.sub(lambda v: var.get(v.group(1), "\0"), token)
            if "\0" in token or not token:
                continue
            name, _, value = token.partition("=")
            if re.fullmatch(r"[A-Za-z_]\w*", name):
                out.append((name, value if "=" in token else None))
    return out


def _texts(unit: dict[str, Any]) -> tuple[str, list[str]]:
    cmake = "\n".join(f["text"] for f in unit["files"] if f["path"].endswith("CMakeLists.txt"))
    docs = [f["text"] for f in unit["files"] if f["path"].endswith((".md", ".sh"))]
    return cmake, docs


def defines_header(unit: dict[str, Any], soc: str) -> str:
    cmake, docs = _texts(unit)
    lines = [
        "// Generated by cotbuilder verify: the unit's own compile definitions (from its CMakeLists.txt).",
        f"#ifndef __NPU_ARCH__\n#define __NPU_ARCH__ {sample_arch(cmake, docs, soc)}\n#endif",
    ]
    for name, value in definitions(cmake, docs, soc):
        lines.append(f"#ifndef {name}\n#define {name} {value if value is not None else 1}\n#endif")
    return "\n".join(lines) + "\n"


def docs_variables(unit: dict[str, Any], soc: str) -> dict[str, str]:
    cmake, docs = _texts(unit)
    return variables(cmake, docs, soc)


def unit_arch(unit: dict[str, Any], soc: str) -> str:
    """`dav-NNNN`: the architecture the unit is built for under `soc` (see `sample_arch`)."""
    cmake, docs = _texts(unit)
    return "dav-" + sample_arch(cmake, docs, soc)
