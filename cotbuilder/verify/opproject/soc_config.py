"""An OpDef's per-SoC prototype: `AICore().AddConfig("ascend910b", config)` with its own Input/Output dtype lists
replaces the OpDef's lists on that SoC (an op may declare bf16 only for the SoCs that have it). The describe run
records every config (`configs` in its JSON, SoC-independent so it caches once per op); this picks the verified
SoC's.
"""

from __future__ import annotations

import copy
from typing import Any


def for_soc(op: dict[str, Any], soc: str) -> dict[str, Any]:
    """`op` with the dtypes of the config registered for `soc` (exact name, or a prefix of it: ascend910b for
    ascend910b1), when that config names every input and output; else `op` unchanged."""
    soc = soc.lower()
    configs = op.get("configs") or {}
    name = next((k for k in configs if k.lower() == soc), None) or next(
        (k for k in configs if k and soc.startswith(k.lower())), None
    )
    if name is None:
        return op
    cfg = configs[name]
    sides = {"inputs": cfg.get("inputs") or {}, "outputs": cfg.get("outputs") or {}}
    if any(p["name"] not in sides[side] for side in sides for p in op[side]):
        return op
    out = copy.deepcopy(op)
    for side, lists in sides.items():
        for p in out[side]:
            p["dtypes"] = list(lists[p["name"]])
    return out
