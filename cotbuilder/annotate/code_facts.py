"""Claims about a kernel that are read from its code, never from its comments or licence text, each with its span.

The static teacher states a claim of a class (tail handling, a loop over tiles, a per-core slice, reading the core
index, data types) only when this module found it, and the gates re-check every such claim a teacher made against the
same reading. A claim is `{"line": N, "code": "the matching line"}` (1-based line of the kernel source) or None.

Why regexes over comment-blanked code and not the tree-sitter parse: the claims are about a handful of constructs
(an `if` condition, a loop inside one method, an offset expression) and must also work on the single-source `.asc`
files whose host `main` is in the same text, which are cut off here at `main`. Blanking comments keeps offsets, so a
span's line number is the line in the unit's own file.
"""

from __future__ import annotations

import re
from typing import Any

_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRING_RE = re.compile(r'"(?:\\.|[^"\\\n])*"')
_MAIN_RE = re.compile(r"^\s*(?:int|int32_t|auto)\s+main\s*\(", re.M)
_GLOBAL_RE = re.compile(r"\b__global__\b[^;{]*\(")
# a `%` in a condition is a remainder test only on a size ("len % ALIGN != 0"), not a parity ("i % 2 == 0")
_SIZE_MOD_RE = re.compile(r"\w*(?:[lL]en|[lL]ength|[sS]ize|[nN]um|[cC]ount|[bB]ytes)\w*\s*%")
# a branch handles data only if it moves or computes some (a size check in a tiling helper does not)
_MOVES_DATA_RE = re.compile(r"\b(?:DataCopy\w*|CopyIn\w*|CopyOut\w*|Compute\w*|AscendC::[A-Z]\w*)\s*[<(]")
_TAIL_WORD = r"\w*(?:[tT]ail|[rR]emain|[lL]ast[A-Z_]\w*|[lL]eft[A-Z_]?\w*)\w*"
_TAIL_IF_RE = re.compile(r"\bif\s*\(([^(){};]*(?:\([^(){};]*\)[^(){};]*)*)\)")
_LOOP_RE = re.compile(r"\b(?:for|while)\s*\(")
# the core index: C++ API, a kernel's own variable, SIMT, and the C API (asc-devkit 02_simd_c_api)
_BLOCK_IDX_RE = re.compile(r"\bGetBlockIdx\s*\(\s*\)|\bblock_idx\b|\bblockIdx\b|\basc_get_block_idx\s*\(")
_ASSIGN_RE = re.compile(r"\b(\w+)\s*=\s*([^;=][^;]*);")
# where a GM address is formed: a GlobalTensor's base, a GM tensor's index, a C-API copy's GM argument
_GM_USE_RE = re.compile(
    r"SetGlobalBuffer\s*\(([^;]*)\)\s*;|\w+(?:Gm|GM|Global|_gm|_global)\w*\s*\[([^\]]*)\]"
    r"|\basc_copy_(?:gm2ub|ub2gm)\w*\s*\(([^;]*)\)\s*;"
)
_GT_RE = re.compile(r"\bGlobalTensor\s*<\s*([\w:]+)\s*>\s*(\w+)")
# GM tensors that hold bookkeeping, not the operator's data: their type is not a data type of the operator
_BOOKKEEPING_RE = re.compile(r"shape|tiling|sync|work|flag|info", re.I)
_GM_CAST_RE = re.compile(r"__gm__\s+([\w:]+)\s*\*\s*\)")
_TEMPLATE_RE = re.compile(
    r"\btemplate\s*<([^<>]*(?:<[^<>]*>[^<>]*)*)>\s*(?:class|struct|__\w+__\s+|inline\s+|void\s+)*\s*(\w+)"
)
_DTYPES = {
    "half": "float16",
    "float16_t": "float16",
    "float": "float32",
    "float32_t": "float32",
    "bfloat16_t": "bfloat16",
    "int8_t": "int8",
    "uint8_t": "uint8",
    "int16_t": "int16",
    "uint16_t": "uint16",
    "int32_t": "int32",
    "uint32_t": "uint32",
    "int64_t": "int64",
    "uint64_t": "uint64",
}


def blank_comments(code: str) -> str:
    """The code with every comment replaced by spaces (newlines kept): offsets and line numbers stay the same, and a
    word that only a comment or the licence header holds ("refer to the License for details") is gone."""
    code = _COMMENT_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
    return code


def device_part(code: str) -> str:
    """The device side of a kernel source: up to the end of the last `__global__` entry (the host helpers, tiling
    and `main` of a single-source file mostly come after it), else up to a host `main`; host functions before it
    (a top-level function without `__aicore__`/`__global__`) are blanked."""
    code = _blank_host_functions(code)
    entries = list(_GLOBAL_RE.finditer(code))
    if entries:
        depth, i = 0, code.find("{", entries[-1].end())
        while 0 <= i < len(code):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
            if depth == 0:
                return code[:i]
    m = _MAIN_RE.search(code)
    return code[: m.start()] if m else code


_TOP_FUNC_RE = re.compile(r"^[A-Za-z_][\w:<>,*&\s]*\b(\w+)\s*\([^;{}]*\)\s*(?:const\s*)?\{", re.M)


def _blank_host_functions(code: str) -> str:
    out = list(code)
    for m in _TOP_FUNC_RE.finditer(code):
        header = m.group(0)
        if "__aicore__" in header or "__global__" in header or re.match(r"\s*(?:class|struct|namespace)\b", header):
            continue
        if code[: m.start()].count("{") != code[: m.start()].count("}"):  # not at top level (a method)
            continue
        depth, i = 1, m.end()
        while depth and i < len(code):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        for j in range(m.end(), i - 1):
            if out[j] != "\n":
                out[j] = " "
    return "".join(out)


def _span(code: str, pos: int) -> dict[str, Any]:
    line = code.count("\n", 0, pos) + 1
    start = code.rfind("\n", 0, pos) + 1
    end = code.find("\n", pos)
    return {"line": line, "code": " ".join(code[start : end if end != -1 else len(code)].split())[:160]}


def method_body(code: str, name: str) -> tuple[int, int] | None:
    """(start, end) offsets of the body of the first definition of method `name` (brace matched)."""
    for m in re.finditer(rf"\b{name}\s*\([^;{{)]*(?:\)[^;{{]*)?\{{", code):
        depth, i = 1, m.end()
        while depth and i < len(code):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        return m.end(), i
    return None


def tail_branch(code: str) -> dict[str, Any] | None:
    """A branch that handles a remainder: an `if` whose condition names a tail/remainder/last-tile quantity or takes a
    `%`, or a ternary choosing a tail length."""
    for m in _TAIL_IF_RE.finditer(code):
        cond = m.group(1)
        if (re.search(_TAIL_WORD, cond) or _SIZE_MOD_RE.search(cond)) and _MOVES_DATA_RE.search(_branch(code, m.end())):
            return _span(code, m.start())
    m = re.search(rf"\?\s*(?:this->)?{_TAIL_WORD}\s*:|:\s*(?:this->)?{_TAIL_WORD}\s*[;)]|{_TAIL_WORD}[^;?]*\?", code)
    return _span(code, m.start()) if m else None


def _branch(code: str, at: int) -> str:
    """The statement or braced block that follows an `if (...)` ending at `at`."""
    rest = code[at:].lstrip()
    if not rest.startswith("{"):
        return rest.split(";", 1)[0]
    depth, i = 0, 0
    while i < len(rest):
        depth += {"{": 1, "}": -1}.get(rest[i], 0)
        i += 1
        if depth == 0:
            break
    return rest[:i]


def process_loop(code: str) -> dict[str, Any] | None:
    body = method_body(code, "Process")
    if body is None:
        return None
    m = _LOOP_RE.search(code, body[0], body[1])
    return _span(code, m.start()) if m else None


def reads_block_idx(code: str) -> dict[str, Any] | None:
    m = _BLOCK_IDX_RE.search(code)
    return _span(code, m.start()) if m else None


def core_slice(code: str) -> dict[str, Any] | None:
    """A global-memory offset that depends on the core index: GetBlockIdx() (or a variable computed from it, one
    assignment deep) inside a SetGlobalBuffer argument or a GM tensor index."""
    tainted = {"GetBlockIdx", "block_idx", "asc_get_block_idx"}
    for _ in range(2):  # x = GetBlockIdx(); off = x * len; -> both tainted
        for name, rhs in _ASSIGN_RE.findall(code):
            if any(re.search(rf"\b{t}\b", rhs) for t in tainted):
                tainted.add(name)
    for m in _GM_USE_RE.finditer(code):
        arg = m.group(1) or m.group(2) or m.group(3) or ""
        if any(re.search(rf"\b{t}\b", arg) for t in tainted):
            return _span(code, m.start())
    return None


def gm_dtypes(code: str, whole: str | None = None) -> list[str]:
    """Element types of the global-memory tensors: `GlobalTensor<T>` and `(__gm__ T*)` casts. A type that is not a
    builtin is resolved through the code (`whole`: with the host side, which launches the template): aliases
    (`using`, `typedef`, `#define DTYPE_X half`), a template parameter through the arguments at that position of every
    instantiation of its template (`KernelAdd<half>` in the entry, `add_custom<float, 256><<<...>>>` in main), a
    member type of an instantiated template (`X_TYPE::T`), and both branches of `Conditional<c, A, B>::type`.
    `__gm__ uint8_t*` kernel parameters (GM_ADDR) are untyped addresses, not a data type, so they never count; a
    `GlobalTensor<uint8_t>` does."""
    declared = _GT_RE.findall(code)
    named = [t for t, var in declared if not _BOOKKEEPING_RE.search(var)]
    if not declared:  # no GlobalTensor: the typed casts of the GM addresses say it
        named = [t for t in _GM_CAST_RE.findall(code) if t != "uint8_t"]
    types = _TypeResolver(whole or code)
    out: set[str] = set()
    for t in named:
        out |= {_DTYPES[c] for c in types.expand(t) if c in _DTYPES}
    return sorted(out)


_ALIAS_RES = (
    re.compile(r"\busing\s+(?P<name>\w+)\s*=\s*(?P<rhs>[^;{}]+);"),
    re.compile(r"\btypedef\s+(?P<rhs>[^;{}]+?)\s+(?P<name>\w+)\s*;"),
    re.compile(r"^[ \t]*#[ \t]*define[ \t]+(?P<name>\w+)[ \t]+(?P<rhs>[\w:]+)[ \t]*$", re.M),
)
# member types of AscendC library templates the kernel text does not define: template -> {member: argument index}
# (`MatmulType<TPosition::GM, CubeFormat::ND, half>::T` is half: the element type is its third argument)
_LIBRARY_MEMBERS = {"MatmulType": {"T": 2}}
_CONDITIONAL_RE = re.compile(r"(?:\w+::)*[cC]onditional(?:_t)?\s*<(.*)>(?:::type)?$", re.S)
_NAMESPACES_RE = re.compile(r"\b(?:typename|const|volatile|AscendC::|std::)\s*|^::|[*&]")


def _top_level_split(text: str) -> list[str]:
    """`a, B<c, d>, e` -> ['a', 'B<c, d>', 'e']."""
    parts, depth, cur = [], 0, []
    for ch in text:
        depth += {"<": 1, ">": -1, "(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def _top_level_scope(t: str) -> int:
    """Offset of the last `::` outside template brackets (`MatmulType<TPosition::GM, half>::T` -> before `T`), or -1."""
    depth, found = 0, -1
    for i, ch in enumerate(t):
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if depth == 0 and t.startswith("::", i):
            found = i
    return found


def _angle_args(text: str, at: int) -> tuple[str, int] | None:
    """The text between the `<` at `at` and its matching `>`, and the offset after it."""
    depth, i = 0, at
    while i < len(text) and i - at < 400:
        depth += {"<": 1, ">": -1}.get(text[i], 0)
        if depth == 0:
            return text[at + 1 : i], i + 1
        if text[i] in ";{}":
            return None
        i += 1
    return None


class _TypeResolver:
    """What a type name in the kernel stands for, read from the code's own declarations (no compiler here: the
    kernels are crawled text, and only these few C++ forms decide a data type in AscendC samples)."""

    def __init__(self, text: str):
        self.text = text
        self.aliases: dict[str, list[str]] = {}
        for rx in _ALIAS_RES:
            for m in rx.finditer(text):
                self.aliases.setdefault(m.group("name"), []).append(m.group("rhs").strip())
        # template name -> [(parameter names in order, offset of the declaration's end)]
        self.templates: dict[str, list[tuple[list[str], int]]] = {}
        for m in _TEMPLATE_RE.finditer(text):
            params = [re.findall(r"\w+", p)[-1] if re.findall(r"\w+", p) else "" for p in _top_level_split(m.group(1))]
            self.templates.setdefault(m.group(2), []).append((params, m.end()))
        self._done: dict[tuple, set[str]] = {}
        self._busy: set[tuple] = set()
        self._insts: dict[str, list[list[str]]] = {}

    def expand(self, t: str, bind: dict[str, str] | None = None, depth: int = 0) -> set[str]:
        """The concrete types `t` can be: builtin names, or `Template<args>` texts."""
        t = " ".join(_NAMESPACES_RE.sub("", t).split())
        bind = bind or {}
        key = (t, tuple(sorted(bind.items())))
        if depth > 10 or not t or key in self._busy:  # `T` instantiated with another template's `T`: a cycle
            return set()
        if key not in self._done:
            self._busy.add(key)
            try:
                self._done[key] = self._expand(t, bind, depth)
            finally:
                self._busy.discard(key)
        return self._done[key]

    def _expand(self, t: str, bind: dict[str, str], depth: int) -> set[str]:
        if t in bind:
            return self.expand(bind[t], None, depth + 1)
        if t in _DTYPES:
            return {t}
        m = _CONDITIONAL_RE.match(t)
        if m:  # Conditional<cond, A, B>::type: either branch, as the instantiation decides
            args = _top_level_split(m.group(1))
            return set().union(*(self.expand(a, bind, depth + 1) for a in args[1:3])) if len(args) == 3 else set()
        sep = _top_level_scope(t)
        if sep > 0:  # X_TYPE::T: the member alias T of what X_TYPE is instantiated with
            head, member = t[:sep], t[sep + 2 :]
            out: set[str] = set()
            for inst in self.expand(head, bind, depth + 1):
                name, _, rest = inst.partition("<")
                args = _top_level_split(rest[:-1]) if rest.endswith(">") else []
                library = _LIBRARY_MEMBERS.get(name.strip(), {})
                if member in library and name.strip() not in self.templates and library[member] < len(args):
                    out |= self.expand(args[library[member]], bind, depth + 1)
                for params, at in self.templates.get(name.strip(), []):
                    body = self._body(at)
                    for rx in _ALIAS_RES[:2]:
                        for a in rx.finditer(body):
                            if a.group("name") == member:
                                out |= self.expand(
                                    a.group("rhs"), dict(zip(params, args, strict=False)), depth + 1
                                )  # defaults unbound
            return out
        if "<" in t:  # an instantiation: keep it (a member lookup needs its arguments), names bound substituted
            return {re.sub(r"\b\w+\b", lambda w: bind.get(w.group(0), w.group(0)), t)}
        out = set()
        for rhs in self.aliases.get(t, []):
            out |= self.expand(rhs, None, depth + 1)
        for owner, decls in self.templates.items():
            for params, _ in decls:
                if t in params:
                    k = params.index(t)
                    for args in self._instantiations(owner):
                        if k < len(args):
                            out |= self.expand(args[k], None, depth + 1)
        return out

    def _instantiations(self, owner: str) -> list[list[str]]:
        if owner in self._insts:
            return self._insts[owner]
        out = self._insts[owner] = []
        for m in re.finditer(rf"\b{re.escape(owner)}\s*<", self.text):
            got = _angle_args(self.text, m.end() - 1)
            if got:
                out.append(_top_level_split(got[0]))
        return out

    def _body(self, at: int) -> str:
        i = self.text.find("{", at)
        if i < 0 or ";" in self.text[at:i]:
            return ""
        depth, j = 0, i
        while j < len(self.text):
            depth += {"{": 1, "}": -1}.get(self.text[j], 0)
            j += 1
            if depth == 0:
                break
        return self.text[i:j]


def claims(kernel_code: str, host_code: str = "") -> dict[str, Any]:
    """Every claim class for one kernel source: spans (or None) and the GM data types (`host_code`, e.g. the `main`
    of a single-source sample, is read only for the template arguments it launches the kernel with)."""
    whole = blank_comments(kernel_code or "")
    code = device_part(whole)
    if host_code:
        whole += "\n" + blank_comments(host_code)
    return {
        "tail_branch": tail_branch(code),
        "process_loop": process_loop(code),
        "core_slice": core_slice(code),
        "reads_block_idx": reads_block_idx(code),
        "gm_dtypes": gm_dtypes(code, whole),
    }
