"""What the host half of an op run said: the emulated aclnn layer's `COTBUILDER_HOST` / `COTBUILDER_STAGE` lines,
and the tiling bytes decoded by field name from the op's BEGIN_TILING_DATA_DEF.

A verification records, per case: block dim, tiling key, workspace sizes and the tiling fields. A host failure
(TilingFunc returned an error, set no block dim, wrote more than the tiling buffer holds) is a `failed_run` of the
host; a crash is charged to the stage that was running when it happened.
"""

from __future__ import annotations

import json
import re
import struct
from dataclasses import dataclass, field
from typing import Any

_LINE = re.compile(r"^COTBUILDER_(HOST|STAGE) (\{.*\})\s*$", re.M)
_STRUCT = re.compile(r"BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)(.*?)END_TILING_DATA_DEF", re.S)
_FIELD = re.compile(
    r"TILING_DATA_FIELD_DEF(?P<kind>_ARR|_STRUCT)?\s*\(\s*(?P<type>[\w:]+)\s*,\s*(?:(?P<n>[\w:]+)\s*,\s*)?(?P<name>\w+)\s*\)"
)
_FORMATS = {
    "uint8_t": "B",
    "int8_t": "b",
    "char": "b",
    "bool": "?",
    "uint16_t": "H",
    "int16_t": "h",
    "half": "e",
    "uint32_t": "I",
    "int32_t": "i",
    "int": "i",
    "unsigned": "I",
    "float": "f",
    "uint64_t": "Q",
    "int64_t": "q",
    "size_t": "Q",
    "double": "d",
    "long": "q",
}


@dataclass
class HostReport:
    calls: list[dict[str, Any]] = field(default_factory=list)  # one per aclnn call, in order
    last_stage: str | None = None  # host_tiling | kernel | kernel_done

    @property
    def failed(self) -> dict[str, Any] | None:
        return next((c for c in self.calls if not c.get("ok")), None)

    def crash_stage(self) -> str:
        """Who was running when the process died: the host (TilingFunc) or the kernel."""
        return "host" if self.last_stage == "host_tiling" else "kernel"


def parse(stderr: str) -> HostReport:
    report = HostReport()
    for m in _LINE.finditer(stderr):
        try:
            data = json.loads(m.group(2))
        except ValueError:
            continue
        if m.group(1) == "HOST":
            report.calls.append(data)
        else:
            report.last_stage = data.get("stage")
    return report


def strip(stderr: str) -> str:
    """The stderr without the protocol lines (for logs)."""
    return _LINE.sub("", stderr).strip()


def layout(header_text: str, struct_name: str | None = None) -> list[tuple[str, str, int]] | None:
    """(name, struct format, count) per field of the tiling struct (the first, or `struct_name`); None when a
    field's type is not a plain scalar the decoder knows (a nested library struct)."""
    structs = {m.group(1): m.group(2) for m in _STRUCT.finditer(header_text)}
    if not structs:
        return None
    name = struct_name.split("::")[-1] if struct_name else next(iter(structs))
    body = structs.get(name)
    if body is None:
        return None
    fields = []
    for m in _FIELD.finditer(body):
        fmt = _FORMATS.get(m.group("type").split("::")[-1])
        if m.group("kind") == "_STRUCT" or fmt is None:
            return fields or None
        count = 1
        if m.group("kind") == "_ARR":
            try:
                count = int(m.group("n"), 0)
            except ValueError:
                return fields or None
        fields.append((m.group("name"), fmt, count))
    return fields


def decode(data: bytes, fields: list[tuple[str, str, int]]) -> dict[str, Any]:
    """Field values from the tiling bytes, natural alignment (what SaveToBuffer and GET_TILING_DATA agree on)."""
    out: dict[str, Any] = {}
    at = 0
    for name, fmt, count in fields:
        size = struct.calcsize(fmt)
        at = (at + size - 1) // size * size
        if at + size * count > len(data):
            break
        values = list(struct.unpack_from(f"<{count}{fmt}", data, at))
        out[name] = values if count > 1 else values[0]
        at += size * count
    return out
