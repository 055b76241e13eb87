"""What the compiler and the emulator tell us: emulator diagnostics on stderr, and missing AscendC APIs in g++ errors."""

from __future__ import annotations

import functools
import json
import re
import tomllib
from typing import Any

from ..apidocs.identifiers import is_toolkit_name
from ..apidocs.intrinsics import device_intrinsics
from ..apidocs.lists import (
    documented_apis,
    emulated_apis,
    header_declared_names,
    is_listed_toolkit_header,
    is_toolkit_header,
    older_toolkit_names,
)
from ..paths import package_data

DIAG_PREFIX = "COTBUILDER_DIAG "
MAX_DIAGS = 200
# Emulator findings whose kernel is wrong on hardware whatever output the emulated run happened to produce; and
# `opapi_bypass`: a hand-written aclnn layer wrote the output (or fed the kernel) itself, so the output compared is not
# the kernel's whatever it holds (impl/host/opapi_guard.h).
# Warnings that name the likely cause of a wrong output (an atomic sum onto memory nobody wrote, a copy the hardware
# rounds down to whole 32-byte blocks): a wrong_answer with no error diagnostic quotes the first of them in its reason.
EXPLAINING_WARNINGS = frozenset({"atomic_onto_poison", "datacopy_rounddown"})

RULE_BREAKS = frozenset(
    {
        "race",
        "sync",
        "sync_deadlock",
        "illegal_cast",
        "queue_depth",
        "too_many_buffers",
        "scratch_too_small",
        "schedule_dependent",
        "opapi_bypass",
        # the max/min register read after a counter-mode reduction: undefined (GetReduceRepeatMaxMinSpr(ISASI).md)
        "maxmin_counter_mode",
    }
)

# g++ messages that name something the emulator does not provide
_Q = "['\u2018\u2019]"  # g++ quotes names with ' or, in a UTF-8 locale, with curly quotes
_NOT_MEMBER = re.compile(
    rf"error: {_Q}(?:struct |class )?([A-Za-z_][\w:]*){_Q} is not a member of {_Q}(AscendC[\w:]*){_Q}"
)
_NOT_DECLARED = re.compile(rf"error: {_Q}([A-Za-z_]\w*){_Q} was not declared in this scope")
_NO_TEMPLATE = re.compile(rf"error: {_Q}([A-Za-z_]\w*){_Q} (?:does not name a type|has not been declared)")
# the same lookup failure inside a template: "there are no arguments to 'X' that depend on a template parameter"
_NO_DEPENDENT = re.compile(rf"error: there are no arguments to {_Q}([A-Za-z_]\w*){_Q} that depend on a template")
_MISSING_HEADER = re.compile(r"fatal error: ([\w./+-]+): No such file or directory")
_NOT_IN_NAMESPACE = re.compile(rf"error: {_Q}(\w+){_Q} in namespace {_Q}(AscendC[\w:]*){_Q} does not name a")
_QUALIFIED_UNDECLARED = re.compile(rf"error: {_Q}(AscendC::[\w:]+){_Q} has not been declared")
_NO_MEMBER = re.compile(
    rf"error: {_Q}(?:class |struct )?(AscendC::\w+)(?:<[^'\u2019]*>)?{_Q} has no member named "
    rf"{_Q}(\w+){_Q}"
)
_EMULATOR_REFUSES = re.compile(r"static assertion failed: cotbuilder emulator: ([^\n]+)")
_NO_MATCH = re.compile(rf"error: no matching function for call to {_Q}(AscendC::)?(\w+)")


def known_apis() -> dict[str, str]:
    """AscendC API names the docs document (a name g++ cannot find among them is the kernel's, not the emulator's)."""
    return documented_apis()


# how the toolkit spells its types and constants (DataCopyParams, HALF_DEFAULT_REPEAT_STRIDE), not a kernel's locals
_TYPE_SPELLING = re.compile(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+")


def missing_apis(compile_log: str, older_names: bool = False) -> list[str]:
    """AscendC APIs / toolkit headers a failed build needed and the backend lacks, in order of first mention.
    `older_names`: also names the toolkit's headers declare without a page of their own (older names kept for
    compatibility, e.g. GetReduceMaxMinCount) and names an earlier CANN had (apidocs/renames.py: ArithProgression,
    now Arange); checked after the named gaps, which say more about some of them."""
    found: dict[str, None] = {}
    apis = known_apis()
    older = older_toolkit_names() if older_names else {}
    for line in compile_log.splitlines():
        if m := _NOT_MEMBER.search(line):
            if is_toolkit_name(m.group(1).rsplit("::", 1)[-1]):  # else a misspelled or invented API: the kernel's bug
                found[f"{m.group(2)}::{m.group(1)}"] = None
        elif (m := _NOT_DECLARED.search(line)) or (m := _NO_TEMPLATE.search(line)) or (m := _NO_DEPENDENT.search(line)):
            if m.group(1) in apis or (older_names and m.group(1) in header_declared_names()):
                found[f"AscendC::{m.group(1)}"] = None
            elif m.group(1) in older:  # gone from today's headers: say what it is called now
                found[_older_label(m.group(1), older[m.group(1)])] = None
            elif m.group(1).startswith(("acl", "ACL_")):  # the host runtime (acl/acl.h) is part of the toolkit
                found[f"acl::{m.group(1)}"] = None
            elif m.group(1).endswith("Impl") and is_toolkit_name(m.group(1)):
                # the implementation layer under a documented API (DataCopyPadGm2UBImpl): kernels call it directly
                found[f"AscendC::{m.group(1)} (the toolkit's implementation layer)"] = None
            elif m.group(1) in device_intrinsics():  # the device compiler declares these itself (apidocs.intrinsics)
                found[f"{m.group(1)} (a device intrinsic: the ISA layer under the AscendC API)"] = None
            elif (
                _TYPE_SPELLING.fullmatch(m.group(1))
                and is_toolkit_name(m.group(1))
                and m.group(1) not in emulated_apis()
            ):
                # a type or constant the docs name that the emulator does not declare (LoadData3DParamsV2Pro); one
                # the emulator declares is the kernel's own slip (no `using namespace AscendC`)
                found[f"AscendC::{m.group(1)}"] = None
        elif m := _NOT_IN_NAMESPACE.search(line):
            if is_toolkit_name(m.group(1)):
                found[f"{m.group(2)}::{m.group(1)}"] = None
        elif m := _QUALIFIED_UNDECLARED.search(line):
            if is_toolkit_name(m.group(1).rsplit("::", 1)[-1]):
                found[m.group(1)] = None
        elif m := _NO_MEMBER.search(line):
            if is_toolkit_name(m.group(2)):
                found[f"{m.group(1)}::{m.group(2)}"] = None
        elif m := _EMULATOR_REFUSES.search(line):  # the emulator's own "not supported" static_asserts
            found[m.group(1).strip()[:120]] = None
        elif m := _MISSING_HEADER.search(line):
            header = m.group(1)
            if is_toolkit_header(header):
                found[f"<{header}>"] = None
        elif m := _NO_MATCH.search(line):
            # unqualified (`using namespace AscendC`): an overload of a documented API the emulator lacks (e.g. a
            # 950-only one); a no-match on the kernel's own function stays its compile error
            if m.group(1) or m.group(2) in apis or m.group(2) in older:
                found[f"AscendC::{m.group(2)} (this overload)"] = None
    return list(found)


def _older_label(name: str, current: str) -> str:
    """`AscendC::ArithProgression (an older toolkit name; now Arange)`: the gap named as the kernel spells it."""
    return f"AscendC::{name} (an older toolkit name{f'; now {current}' if current else ''})"


@functools.lru_cache(maxsize=1)
def _gaps() -> tuple[tuple[str, re.Pattern[str]], ...]:
    data = tomllib.loads(package_data("verify/data/gaps.toml").read_text(encoding="utf-8"))
    return tuple((g["name"], re.compile(g["regex"])) for g in data["gap"])


_HASH_ERROR = re.compile(r"error: #error ([^\n]*)")
_AMBIGUOUS = re.compile(rf"error: (?:reference to|call of overloaded) {_Q}(\w+)[^\n]*?{_Q} is ambiguous")
_CANDIDATE = re.compile(r"^(\S+?):\d+:\d+: note:\s+(?:candidates are:\s+)?")


def _emulator_candidate(lines: list[str], i: int, marker: str = "") -> str | None:
    """The emulator header (path below emulator/include/) of a candidate g++ notes under the error at line i, whose
    note also holds `marker`; None when every candidate is the code's own (the code's error, not our gap)."""
    for note in lines[i + 1 : i + 30]:
        c = _CANDIDATE.match(note.strip())
        if c is None:
            if "error:" in note:
                return None
            continue
        if "/emulator/include/" in c.group(1) and marker in note:
            return c.group(1).split("/emulator/include/", 1)[1]
    return None


def emulator_name_clash(compile_log: str) -> str | None:
    """The code's own name made ambiguous by one the emulator declares (AscendC::IsInf, a host shim's
    optiling::AlignUp): declared where the toolkit the code was written for had nothing - the emulator's gap, named,
    not the code's bug."""
    lines = compile_log.splitlines()
    for i, line in enumerate(lines):
        if (m := _AMBIGUOUS.search(line)) and (header := _emulator_candidate(lines, i)):
            return (
                f"{m.group(1)} declared by the emulator ({header}, as by current CANN) collides with the code's own "
                f"{m.group(1)} (written for a toolkit without it)"
            )
    return None


_NO_CONVERSION = re.compile(rf"error: no matches converting function {_Q}(\w+){_Q} to type")


def emulator_function_address(compile_log: str) -> str | None:
    """An API whose address the code takes as the toolkit's function type (a `void (*)(dst, src, count)` template
    argument) in a form without an address form (impl/emu/diag.h): its overloads end in a defaulted source-location
    parameter, so none has that type. The emulator's gap, named; a no-match whose candidates are the code's own
    functions stays its compile error."""
    lines = compile_log.splitlines()
    for i, line in enumerate(lines):
        if (m := _NO_CONVERSION.search(line)) and _emulator_candidate(lines, i, "cbemu::SrcLoc"):
            return (
                f"the address of {m.group(1)} taken as a plain function type: the emulator's {m.group(1)} ends "
                "in a source-location parameter, so no overload has the toolkit's type"
            )
    return None


def unsupported_gap(compile_log: str, cmake_vars: tuple[str, ...] = ()) -> tuple[str, list[str]] | None:
    """Why a failed build is cotbuilder's gap rather than the kernel's bug: ("missing in emulator", [APIs/headers]),
    ("emulator gap", [feature]) or ("CMake option the harness did not set", [-DVAR]); None when it is the code's own
    error. `cmake_vars`: the unit's CMake variables (a `#error` naming one means a configuration we did not pass)."""
    missing = missing_apis(compile_log)
    if missing:
        guessed = [m for m in missing if m.startswith("<") and not is_listed_toolkit_header(m[1:-1])]
        if guessed and len(guessed) == len(missing):  # named like the toolkit's, but the toolkit has no such file
            return "header found neither in the unit nor in the emulator", missing
        return "missing in emulator", missing
    for name, regex in _gaps():
        if regex.search(compile_log):
            return "emulator gap", [name]
    if clash := emulator_name_clash(compile_log) or emulator_function_address(compile_log):
        return "emulator gap", [clash]
    if older := missing_apis(compile_log, older_names=True):
        return "missing in emulator", older
    for m in _HASH_ERROR.finditer(compile_log):
        named = [v for v in cmake_vars if re.search(rf"\b{re.escape(v)}\b", m.group(1))]
        if named:
            return "CMake option the harness did not set", [f"-D{named[0]}"]
    return None


_LEGALITY = re.compile(r"static assertion failed: (cotbuilder legality: [^\n]+)")
_INSTANTIATION = re.compile(r"In instantiation of .*\[with ([^\]]+)\]")
_REQUIRED_HERE = re.compile(r"^(\S+?):(\d+):\d+:\s+required from here")


def legality_error(log: str) -> str | None:
    """The emulator's legality rejection (an element type or Cast pair the docs do not list for the SoC) as one
    line naming the API, the types, the kernel's line and the doc page; None when the build failed otherwise."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if not (m := _LEGALITY.search(line)):
            continue
        types = where = ""
        for back in reversed(lines[max(0, i - 40) : i]):
            if not where and (r := _REQUIRED_HERE.search(back.strip())) and "/emulator/include/" not in r.group(1):
                where = f" at {r.group(1).rsplit('/', 1)[-1]}:{r.group(2)}"
            if not types and (w := _INSTANTIATION.search(back)):
                params = [b for b in w.group(1).split("; ") if re.match(r"[A-Z]\w* = ", b)]  # T = ..., U = ...
                types = " [" + "; ".join(params or [w.group(1)]) + "]"
            if types and where:
                break
        return f"{m.group(1)}{types}{where}"[:600]
    return None


# A line the toolchain itself writes (ld, collect2, cc1plus, as, the driver) saying the host ran out of disk. Only such
# lines count: gcc quotes the unit's source after "file:line:col:", so a kernel cannot fake one with a string or #error.
_HOST_DISK_RE = re.compile(
    r"^(?:\S*/)?(?:ld(?:\.\w+)?|collect2|cc1plus|cc1|as|g\+\+(?:-\d+)?|c\+\+|gcc(?:-\d+)?|ar)(?:: [^:\n]*)*: "
    r".*(?:No space left on device|Disk quota exceeded)",
    re.MULTILINE,
)


def host_disk_error(compile_log: str) -> str | None:
    """The toolchain's own line when a build failed because the host's disk was full: an infrastructure error (retried,
    not stored), never `failed_compile` (a linker that cannot write says nothing of the kernel)."""
    m = _HOST_DISK_RE.search(compile_log or "")
    return m.group(0).strip()[:300] if m else None


def first_error(log: str, limit: int = 300) -> str:
    if (legal := legality_error(log)) is not None:  # the kernel's fault, not the emulator's: say which rule
        return legal
    for line in log.splitlines():
        if "error" in line:
            if "/emulator/include/" in line:  # not the unit's fault: say so
                return "emulator header error: " + line.split("/emulator/include/", 1)[1].strip()[:limit]
            return line.strip()[:limit]
    lines = [ln for ln in log.strip().splitlines() if ln.strip()]
    return lines[-1][:limit] if lines else ""


def parse_emulator_diagnostics(stderr: str) -> tuple[list[dict[str, Any]], str]:
    """Split stderr into the emulator's COTBUILDER_DIAG records and the rest (the run log)."""
    diags: list[dict[str, Any]] = []
    rest: list[str] = []
    seen: set[tuple] = set()
    for line in stderr.splitlines():
        idx = line.find(DIAG_PREFIX)
        if idx < 0:
            rest.append(line)
            continue
        try:
            raw = json.loads(line[idx + len(DIAG_PREFIX) :])
        except json.JSONDecodeError:
            rest.append(line)
            continue
        diag = {
            "kind": str(raw.get("kind", "unknown")),
            "severity": str(raw.get("severity", "error")),
            "message": str(raw.get("message", "")),
            "file": raw.get("file"),
            "line": raw.get("line") if isinstance(raw.get("line"), int) else None,
        }
        for extra in ("api", "core", "count"):
            if extra in raw:
                diag[extra] = raw[extra]
        key = (diag["kind"], diag["message"], diag["file"], diag["line"])
        if key in seen:  # the same check firing on every core / every tile: keep one
            continue
        seen.add(key)
        if len(diags) < MAX_DIAGS:
            diags.append(diag)
    return diags, "\n".join(rest)


def errors(diags: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [d for d in diags if d.get("severity") == "error"]


# what the emulator reports when a kernel reaches something it does not model (a Matmul policy, a Transpose type,
# an Ascend 950 parameter form): a gap of the emulator, never a verdict on the kernel
RUNTIME_GAPS = frozenset({"unsupported", "unsupported_api"})


def unsupported(diags: list[dict[str, Any]]) -> list[str]:
    """APIs and variants the emulator reported at run time as not modelled."""
    return [str(d.get("api") or d["message"]) for d in diags if d["kind"] in RUNTIME_GAPS]
