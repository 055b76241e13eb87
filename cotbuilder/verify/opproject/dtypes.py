"""The GE/ACL data types an op project names, read once from `data/dtypes.toml`."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from ...paths import package_data


@dataclass(frozen=True)
class DType:
    name: str  # DT_FLOAT16
    code: int
    ctype: str  # half
    numpy: str  # float16
    acl: str  # ACL_FLOAT16
    torch: str  # float16


@cache
def table() -> dict[int, DType]:
    raw = tomllib.loads(package_data("verify/opproject/data/dtypes.toml").read_text(encoding="utf-8"))
    return {v["code"]: DType(k, v["code"], v["ctype"], v["numpy"], v["acl"], v["torch"]) for k, v in raw.items()}


def by_code(code: int) -> DType | None:
    return table().get(code)


def by_numpy(name: str) -> DType | None:
    """float16 / float32 / bfloat16 ... -> the GE type (first match: int4 shares int8's numpy type)."""
    for d in table().values():
        if d.numpy == name:
            return d
    return None
