"""Compile an op's kernel the way the op build does, for the emulator: once per dtype column of its OpDef.

msOpGen compiles `op_kernel/<op>.cpp` once per supported dtype combination, with `DTYPE_<PARAM>` (the C type) and
`ORIG_DTYPE_<PARAM>` (the GE code) defined for every input and output, the op's tiling struct visible to
`GET_TILING_DATA`, and the entry given a name per binary. Here each variant is the same source compiled with a
forced-include prelude that does this; the source itself gets three mechanical edits: `extern "C"` is dropped from
the entry (so an op named like a C library function - `sqrt`, `log` - does not clash with <cmath>), the entry's
name becomes `COTBUILDER_ENTRY`, which the prelude defines per variant, and the device compiler's bracketed
function-type attributes (`__forceinline__ [aicore] void f()`, `[host, aicore]`: Catlass-style code) become the
`__aicore__` qualifier, which g++ can parse. An entry declared inside an unnamed namespace has internal linkage: the
device compiler's launch stub sits in the kernel's own translation unit, the emulated aclnn layer in another, so
such an entry is renamed `COTBUILDER_ENTRY_INNER` and a forwarding `COTBUILDER_ENTRY` is appended at global scope.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any

from ...parse.includes import includes_of
from ..build import DEVICE_CORE_MACRO
from ..launch_rewrite import rewrite_launches
from . import dtypes
from .layout import Entry, strip_comments

_DTYPE_MACRO = re.compile(r"\b(?:ORIG_)?DTYPE_[A-Z0-9_]+\b")
_ORIG_MACRO = re.compile(r"\bORIG_DTYPE_[A-Z0-9_]+\b")
# the host contexts' namespace: a tiling header that names it is host code (emulator/include/impl/host/contexts.h)
_HOST_TYPES = re.compile(r"\bgert\s*::")
HOST_TYPES_HEADER = "impl/host/contexts.h"
_REGISTER = re.compile(r"REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")
# What touches the Cube unit (matmul / convolution, the L0/L1 positions): an op kernel with none of it is a vector
# kernel, which the op build compiles for the AIV cores of the split architecture (ASCEND_IS_AIV true there)
CUBE_API = re.compile(
    r"\b(Matmul|MatmulImpl|Mmad|LoadData|LoadData2D|LoadData3DV2|Fixpipe|TCubeTiling|REGIST_MATMUL_OBJ|BatchMatmul|"
    r"MatmulApiTiling|MultiCoreMatmulTiling|TPosition::(?:A1|A2|B1|B2|CO1|CO2|C1|C2))\b|matmul_intf\.h"
)
VECTOR_CORE = "#undef CBEMU_PLAIN_CORE\n#define CBEMU_PLAIN_CORE ::cbemu::CoreKind::AIV"

# The DT_* codes the kernel side defines (kernel_type.h); written out by rewriting the code table.
ENTRY_MACRO = "COTBUILDER_ENTRY"


@dataclass
class KernelVariant:
    index: int
    symbol: str
    dtypes: list[int]  # per IR input then output (-1: any)
    prelude: str


# AscendC names newer toolkits declare that code written for an older one defines itself (cann-ops' is_finite has a
# class template IsFinite beside `using namespace AscendC`): the emulator hides its own (CBEMU_HIDE_<name>) when the
# kernel defines the name, as that older toolkit had nothing by it.
NEWER_APIS = ("IsFinite", "IsInf")


def own_newer_apis(texts: list[str]) -> list[str]:
    """The NEWER_APIS the kernel's code defines itself (a class, struct or function of that name)."""
    code = "\n".join(texts)
    own = []
    for name in NEWER_APIS:
        defined = rf"\b(?:class|struct)\s+{name}\b|\b[\w:<>]+\s+{name}\s*\([^;{{}}]*\)\s*(?:const\s*)?\{{"
        if re.search(defined, code):
            own.append(name)
    return own


def hide_flags(names: list[str]) -> list[str]:
    """The compiler flags hiding the emulator's declarations of `names` (from own_newer_apis)."""
    return [f"-DCBEMU_HIDE_{name}" for name in names]


def uses_dtype_macros(texts: list[str]) -> bool:
    return any(_DTYPE_MACRO.search(strip_comments(t)) for t in texts)


# `[aicore]` / `[host, aicore]` after whitespace or at a line start (never `x[aicore]`, an index)
_BRACKET_ATTR = re.compile(r"(?:(?<=\s)|^)\[\s*(?:host\s*,\s*)?aicore\s*\]", re.MULTILINE)


def bracket_attributes_to_qualifier(text: str) -> str:
    """The device compiler's `[aicore]` / `[host, aicore]` function attributes as `__aicore__`."""
    return _BRACKET_ATTR.sub("__aicore__", text)


INNER_ENTRY_MACRO = "COTBUILDER_ENTRY_INNER"
_NAMESPACE_OPEN = re.compile(r"\bnamespace\s*(?P<name>[\w:]*)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?\{", re.S)


def in_unnamed_namespace(clean: str, offset: int) -> bool:
    """Whether `offset` of the comment-free source lies inside an unnamed namespace (`namespace { ... }`)."""
    opens = {m.end() - 1: not m.group("name") for m in _NAMESPACE_OPEN.finditer(clean, 0, offset)}
    stack: list[bool] = []
    for i, ch in enumerate(clean[:offset]):
        if ch == "{":
            stack.append(opens.get(i, False))
        elif ch == "}" and stack:
            stack.pop()
    return any(stack)


def _param_names(params: str) -> list[str] | None:
    """The parameter names of `GM_ADDR x, GM_ADDR y` (None when one has no name: nothing to forward)."""
    names = []
    for p in (q.strip() for q in params.split(",")):
        if not p or p == "void":
            continue
        m = re.search(r"(\w+)\s*(?:\[\s*\])?$", p.split("=")[0].strip())
        if m is None or m.group(1) == p.strip():
            return None
        names.append(m.group(1))
    return names


def rewrite_entry(text: str, entry: Entry) -> str:
    """The kernel source with its entry renamed to COTBUILDER_ENTRY and without `extern "C"` (offsets elsewhere kept
    as they are: only the entry's own declaration changes). An entry in an unnamed namespace is renamed
    COTBUILDER_ENTRY_INNER and forwarded to from a global COTBUILDER_ENTRY appended at the end."""
    pattern = re.compile(
        r"(?P<ext>extern\s*\"C\"\s*)?(?P<q>(?:__global__\s+__aicore__|__aicore__\s+__global__)\s+void\s+)"
        + re.escape(entry.name)
        + r"(?=\s*\()"
    )
    clean = strip_comments(text)
    out, last, forward = [], 0, None
    name = ENTRY_MACRO
    for m in pattern.finditer(clean):
        name = ENTRY_MACRO
        params = re.match(r"\s*\(([^)]*)\)", clean[m.end() :])
        if not entry.is_template and params and in_unnamed_namespace(clean, m.start()):
            names = _param_names(params.group(1))
            if names is not None:
                name = INNER_ENTRY_MACRO
                forward = (
                    "\n// cotbuilder: the entry above is in an unnamed namespace (internal linkage); the launch is in "
                    "another translation unit\n"
                    f"__global__ __aicore__ void {ENTRY_MACRO}({params.group(1)}) "
                    f"{{ {INNER_ENTRY_MACRO}({', '.join(names)}); }}\n"
                )
        out.append(text[last : m.start()])
        out.append(m.group("q") + name)
        last = m.end()
    out.append(text[last:])
    if forward:
        out.append(forward)
    return bracket_attributes_to_qualifier(_own_launches("".join(out), entry.name, name))


def _own_launches(text: str, old: str, new: str) -> str:
    """A kernel file may carry its own launch stub for the op build (`void <op>_do(...) { <op><<<...>>>(...); }`
    outside `__CCE_KT_TEST__`): it launches the renamed entry, through the emulator's launch. Never called here
    (the emulated aclnn layer launches the entry), it only has to compile."""
    if "<<<" not in text:
        return text
    renamed = re.sub(rf"\b{re.escape(old)}(?=\s*(?:<[^<>;()]*>)?\s*<<<)", new, text)
    return rewrite_launches(renamed)[0]


def tiling_struct_for(op_type: str, headers: dict[str, str]) -> str | None:
    """The struct `REGISTER_TILING_DATA_CLASS(<op_type>, Struct)` names, qualified with optiling:: when declared
    there; None when the op registers none (it then uses GET_TILING_DATA_WITH_STRUCT or a plain struct)."""
    for text in headers.values():
        for m in _REGISTER.finditer(strip_comments(text)):
            if m.group(1) == op_type:
                return f"optiling::{m.group(2)}" if re.search(r"namespace\s+optiling\b", text) else m.group(2)
    return None


_DEF_STRUCT = re.compile(r"BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)")


def structs_to_lift(tiling_headers: dict[str, str], kernel_texts: list[str]) -> list[str]:
    """Tiling structs declared in namespace optiling that the kernel names bare and does not declare itself."""
    kernel = "\n".join(strip_comments(t) for t in kernel_texts)
    out = []
    for text in tiling_headers.values():
        if not re.search(r"namespace\s+optiling\b", text):
            continue
        for name in _DEF_STRUCT.findall(strip_comments(text)):
            declared = re.search(r"\b(?:struct|class)\s+" + re.escape(name) + r"\b", kernel)
            if re.search(r"\b" + re.escape(name) + r"\b", kernel) and not declared and name not in out:
                out.append(name)
    return out


_GUARD = re.compile(r"^\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+\1\b", re.M)


def include_guard(text: str) -> str | None:
    """The header's `#ifndef X` / `#define X` include guard (the first such pair), or None."""
    m = _GUARD.search(strip_comments(text))
    return m.group(1) if m else None


def _reaches(kernel_text: str, kernel_path: str | None, header: str, unit_paths: frozenset[str]) -> bool:
    """Whether the kernel's own includes bring the tiling header `header`. An include of its file name found next to
    the kernel first is that file, not the header: cann-ops strided_slice_assign_v2's kernel includes its own
    op_kernel/strided_slice_assign_v2.h, not op_host's tiling header of the same name."""
    base = posixpath.basename(header)
    for name, angled in includes_of(kernel_text):
        if posixpath.basename(name) != base:
            continue
        if kernel_path is None:
            return True
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(kernel_path), name))
        if angled or beside == header or beside not in unit_paths:
            return True  # the header itself, or found through the include folders (which hold the header's)
    return False


def _dt_macros() -> str:
    return "\n".join(f"#define {d.name} {d.code}" for d in sorted(dtypes.table().values(), key=lambda d: d.code))


def dtype_columns(op: dict[str, Any]) -> list[list[int]]:
    """The OpDef's dtype combinations: column j takes the j-th dtype of every input and output that lists enough
    (a param with one dtype serves every column)."""
    params = op["inputs"] + op["outputs"]
    width = max((len(p["dtypes"]) for p in params), default=0)
    cols = []
    for j in range(width):
        col = []
        for p in params:
            ds = p["dtypes"]
            col.append(ds[j] if j < len(ds) else (ds[0] if len(ds) == 1 else -1))
        if col not in cols:
            cols.append(col)
    return cols


def prelude(
    op: dict[str, Any],
    column: list[int] | None,
    symbol: str,
    tiling_includes: list[str],
    tiling_struct: str | None,
    define_dt_codes: bool,
    global_structs: list[str] = (),
    host_types: bool = False,
    vector_only: bool = False,
    shared_guards: list[str] = (),
) -> str:
    lines = ["// Generated by cotbuilder verify: what the op build defines for this kernel binary.", DEVICE_CORE_MACRO]
    if vector_only:  # a kernel of no declared AIC/AIV type testing ASCEND_IS_AIV runs its vector code
        lines.append(VECTOR_CORE)
    if host_types:
        lines.append(f'#include "{HOST_TYPES_HEADER}"')
    lines += [f'#include "{inc}"' for inc in tiling_includes]
    # the op build gives the kernel its tiling structs without the header's include guard; a kernel header that
    # spells the same guard (cann-ops ctc_loss_v3_grad: op_host/ and op_kernel/ both CTC_LOSS_V3_GRAD_H_) must not
    # be skipped for the copy included here
    lines += [f"#undef {guard}" for guard in shared_guards]
    # the op build generates the kernel's copy of each tiling struct in the global namespace
    lines += [f"using optiling::{name};" for name in global_structs]
    # a device build compiles ASSERT out (only the CPU-debug twin evaluates it)
    lines += ["#undef ASSERT", "#define ASSERT(x)"]
    if tiling_struct:
        lines += ["#undef COTBUILDER_TILING_TYPE", f"#define COTBUILDER_TILING_TYPE {tiling_struct}"]
    if define_dt_codes:
        lines.append(_dt_macros())
    if column is not None:
        inputs = {p["name"].upper() for p in op["inputs"]}
        for i, (p, code) in enumerate(zip(op["inputs"] + op["outputs"], column, strict=False)):
            d = dtypes.by_code(code)
            if d is None:
                continue
            macro = p["name"].upper()
            if i >= len(op["inputs"]) and macro in inputs:  # an output named as an input (a ref): the toolkit's
                macro += "_REF"  # kernel build (ascendc_impl_build.py) suffixes its macros with _REF
            lines.append(f"#define DTYPE_{macro} {d.ctype}")
            lines.append(f"#define ORIG_DTYPE_{macro} {d.code}")
    lines.append(f"#define {ENTRY_MACRO} {symbol}")
    lines.append(f"#define {INNER_ENTRY_MACRO} {symbol}_inner")
    return "\n".join(lines) + "\n"


def variants(
    op: dict[str, Any],
    kernel_texts: list[str],
    tiling_headers: dict[str, str],
    kernel_text: str,
    kernel_path: str | None = None,
    unit_paths: frozenset[str] = frozenset(),
) -> list[KernelVariant]:
    """One variant per dtype column when the kernel reads DTYPE_/ORIG_DTYPE_ macros, else one for every call.
    The tiling headers the kernel's own includes do not bring are included by the prelude (`kernel_path` and
    `unit_paths` tell which file an include of the same name finds first: see _reaches)."""
    struct = tiling_struct_for(op["type"], tiling_headers)
    global_structs = structs_to_lift(tiling_headers, kernel_texts)
    includes = [p for p in tiling_headers if not _reaches(kernel_text, kernel_path, p, unit_paths)]
    kernel_guards = {g for t in kernel_texts if (g := include_guard(t))}
    shared_guards = [g for p in includes if (g := include_guard(tiling_headers[p])) and g in kernel_guards]
    # the op build reads a tiling header as host code; here the kernel's translation unit includes it (the prelude or
    # the kernel itself), so what it may name of the host API beside its structs (a `gert::TilingParseContext*`
    # helper) is declared first
    host_types = any(_HOST_TYPES.search(strip_comments(text)) for text in tiling_headers.values())
    dt_codes = any(_ORIG_MACRO.search(strip_comments(t)) for t in kernel_texts)
    vector_only = not any(CUBE_API.search(strip_comments(t)) for t in kernel_texts)
    if uses_dtype_macros(kernel_texts):
        cols = dtype_columns(op) or [[]]
    else:
        cols = [None]
    out = []
    for i, col in enumerate(cols):
        symbol = f"cotbuilder_kernel_v{i}"
        out.append(
            KernelVariant(
                i,
                symbol,
                list(col) if col else [],
                prelude(
                    op, col, symbol, includes, struct, dt_codes, global_structs, host_types, vector_only, shared_guards
                ),
            )
        )
    return out
