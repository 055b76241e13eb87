"""A hand-written aclnn layer on CANN's op-api framework (`opdev/*.h`, `aclnn_kernels/*.h`, `l0op::<Op>` launched
with `ADD_TO_LAUNCHER_LIST_AICORE`): when a harness calls an aclnn API such a layer defines, the layer is built and
runs on the emulated framework (emulator/include/opdev, aclnn_kernels, impl/host/opapi_*.h) instead of the API
generated from the OpDef. Its l0 launch runs the op's own TilingFunc and kernel through the same launcher the
generated layer uses (the generated source only registers the kernel variants then).

Which sources: the hand-written host sources the layout skipped (`layout.HANDWRITTEN`) that define an API the
harness calls, and, transitively, those that define an l0 op (`namespace l0op`) one of them calls. The op under test: the first op the OpDef registers
that their l0 launches name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ...paths import emulator_dir
from . import layout

_DEFINED = re.compile(r"\b(aclnn\w+GetWorkspaceSize)\s*\([^;{}]*\)\s*\{")
_CALLED = re.compile(r"\b(aclnn\w+GetWorkspaceSize)\s*\(")
_LAUNCH = re.compile(r"\bADD_TO_LAUNCHER_LIST_AICORE\s*\(\s*(\w+)")
_L0_DEFS = re.compile(r"\bnamespace\s+l0op\b")


@dataclass
class OpApiLayer:
    sources: list[str]  # the hand-written sources to build, in path order
    called: list[str]  # the aclnn APIs the harness calls that they define
    launched: list[str] = field(default_factory=list)  # op types their l0 AI Core launches name

    def op_type(self, registered: list[str]) -> str | None:
        """The op under test: the first launched op the OpDef registers (compared without case and underscores)."""
        norm = {r.replace("_", "").lower(): r for r in registered}
        for name in self.launched:
            if name.replace("_", "").lower() in norm:
                return norm[name.replace("_", "").lower()]
        return None


def handwritten(lay: layout.OpLayout) -> list[str]:
    return sorted(p for p, why in lay.skipped_host.items() if why.startswith(layout.HANDWRITTEN))


def layer_for(
    lay: layout.OpLayout | None,
    text_of: Callable[[str], str],
    harness_texts: list[str],
    registered: list[str] = (),
) -> OpApiLayer | None:
    """The hand-written layer a harness calls, or None. An API named as msOpGen names an op the OpDef registers
    (aclnn<Op>) stays the generated one, as verified before: the hand-written layer is built for the APIs only it
    provides (aclnnPowTensorScalar for Pows)."""
    if lay is None:
        return None
    sources = handwritten(lay)
    if not sources:
        return None
    generated = {f"aclnn{op}GetWorkspaceSize" for op in registered}
    called = {name for t in harness_texts for name in _CALLED.findall(layout.strip_comments(t))} - generated
    texts = {p: layout.strip_comments(text_of(p)) for p in sources}
    defining = {p for p, t in texts.items() if called & set(_DEFINED.findall(t))}
    if not defining:
        return None
    chosen = sorted(_with_l0_definers(defining, texts))
    hit = sorted(called & {n for p in defining for n in _DEFINED.findall(texts[p])})
    launched: list[str] = []
    for p in chosen:
        for name in _LAUNCH.findall(texts[p]):
            if name not in launched:
                launched.append(name)
    return OpApiLayer(chosen, hit, launched)


_L0_CALL = re.compile(r"\bl0op::(\w+)\s*\(")


def _with_l0_definers(chosen: set[str], texts: dict[str, str]) -> set[str]:
    """`chosen` and, transitively, the sources (`namespace l0op`) that define an `l0op::X` one of them calls: an l0
    source nothing calls (an AI CPU sort beside the op) is not built."""
    l0 = {p: t for p, t in texts.items() if _L0_DEFS.search(t)}
    todo, out = list(chosen), set(chosen)
    while todo:
        text = texts[todo.pop()]
        for name in set(_L0_CALL.findall(text)) | _bare_l0_calls(text):
            definition = re.compile(rf"\b{re.escape(name)}\s*\([^;{{}}]*\)\s*(?:const\s*)?\{{")
            for path, body in l0.items():
                if path not in out and definition.search(body):
                    out.add(path)
                    todo.append(path)
    return out


def _bare_l0_calls(text: str) -> set[str]:
    """Names called unqualified inside `namespace l0op { ... }` (an l0 op calling another)."""
    if not _L0_DEFS.search(text):
        return set()
    return set(re.findall(r"\b([A-Z]\w*)\s*\(", text))


# The op-api framework's pieces the emulation lacks, as g++ reports them in a hand-written layer's code: a missing
# header, a name not in namespace op / l0op, a member an emulated class lacks, an undeclared framework macro or name.
_GAP = re.compile(
    r"fatal error: [\w./+-]+: No such file or directory|"
    r"is not a member of '(?:op|l0op|aclOpExecutor|op::\w+)'|"
    r"'(?:struct |class |const )*(?:aclTensor|aclScalar|aclIntArray|aclFloatArray|aclBoolArray|aclTensorList|"
    r"aclOpExecutor|op::\w+)\W[^']*' has no member named|"
    r"has no member named '\w+'|"
    r"'\w+' was not declared in this scope|'\w+' does not name a type|'\w+' has not been declared|"
    r"no matching function for call to '(?:l0op|op)::|no matching function for call to 'aclOpExecutor::"
)


def compile_gap(log: str) -> str | None:
    """The first error of a hand-written layer's compile when it names a framework piece not emulated, or lies in
    the emulated framework's own headers (a use they do not model), else None (the layer's own error:
    failed_compile)."""
    ours = str(emulator_dir())
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if " error: " in line or "fatal error:" in line:
            # the error's own notes (up to the next error) point into the framework's headers: a macro or function
            # of ours the layer uses in a way they do not model
            notes = []
            for later in lines[i + 1 :]:
                if " error: " in later:
                    break
                notes.append(later)
            ours_involved = line.startswith(ours) or any(n.startswith(ours) for n in notes)
            return line.strip()[:240] if _GAP.search(line) or ours_involved else None
    return None


_UNDEFINED_L0 = re.compile(r"undefined reference to [`'\u2018](l0op|op)::(\w+)\(([^()]*)\)['\u2019]")
_PARAM_TYPE = re.compile(r"[\w:<>,*& ]*")


def builtin_stubs(link_log: str) -> str | None:
    """A source defining every `l0op::X(...)` / `op::X(...)` the link lacks: a CANN built-in l0 op (Pow, Square,
    PadV3Grad ...) or level-2 helper (ProcessEmptyTensorWithValue ...) that the layer calls on some path and the unit
    does not define. Each stub stops the run as unsupported, naming it, if the path is taken (so it never returns;
    the symbol does not depend on the return type). None when there is none, or a parameter type is not one a stub
    can spell."""
    found: dict[str, tuple[str, str]] = {}
    for space, name, params in _UNDEFINED_L0.findall(link_log):
        if not _PARAM_TYPE.fullmatch(params):
            return None
        found[f"{space}::{name}({params})"] = (space, f"void {name}({params})")
    if not found:
        return None
    body = []
    for key, (space, sig) in sorted(found.items()):
        what = "a CANN built-in l0 op the unit does not define" if space == "l0op" else "a CANN op-api helper"
        body.append(
            f"namespace {space} {{\n{sig} {{\n"
            f'    ::cbhost::opapi::gap("{what}", "{key.split("(")[0]}");\n'
            f"}}\n}}  // namespace {space}"
        )
    return (
        "// Generated by cotbuilder verify: the CANN built-in l0 ops and helpers the hand-written layer names and the\n"
        "// unit does not define (opapi.builtin_stubs).\n"
        '#include "impl/host/opapi.h"\n\n' + "\n".join(body) + "\n"
    )
