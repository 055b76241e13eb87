"""Unit features: what the kernel uses (APIs with counts, dtypes, queue positions, buffers) and how it is launched.

Input is the per-file facts of the unit's files (already parsed once each); nothing is re-parsed here.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

from ..apidocs.lists import documented_apis
from .constants import dtype_sizes, resolve
from .facts import FileFacts

_CUBE_POSITIONS = {"A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2"}
_BUFFER_NUM_RE = re.compile(r"(?i)^(k_?)?buffer_?num$")
_TILE_RE = re.compile(r"(?i)^(k_?)?tile_?(len|length|size)$")
_BLOCK_DIM_RE = re.compile(r"(?i)^(k_?)?(block_?dim|num_?blocks|block_?num|core_?num|use_?core_?num|used_?core_?num)$")


@cache
def api_table() -> dict[str, str]:
    """AscendC API name -> category: the documented API list (also read by the annotate quality gates)."""
    return documented_apis()


def count_apis(kernel: list[FileFacts], defined: set[str]) -> dict[str, int]:
    """AscendC API names called or used as types in the kernel files, with counts.

    A name the unit defines itself (a kernel class's `Init`, `Process`, `Compute`) is the user's, not the API's.
    """
    table = api_table()
    counts: Counter = Counter()
    for f in kernel:
        for bag in (f.free_calls, f.member_calls, f.types):
            for name in bag.keys() & table.keys():  # the few API names among the many a file uses, found in C
                if name not in defined:
                    counts[name] += bag[name]
    return dict(sorted(counts.items()))


def unit_features(kernel: list[FileFacts], others: list[FileFacts]) -> dict:
    every = kernel + others
    defined = {fn.name for f in every for fn in f.functions}
    defined |= {c for f in every for c in f.classes} | {s for f in every for s in f.structs}
    apis = count_apis(kernel, defined)
    table = api_table()
    env = resolve(_merged_constants(every))

    sizes = dtype_sizes()
    dtypes = sorted({t for f in kernel for t in f.template_types if t in sizes})
    positions = sorted({p for f in kernel for p in f.positions})
    kernel_class, methods = _kernel_class(kernel)
    tiling_fields = _tiling_fields(every)
    op_def = next((f.op_def for f in others + kernel if f.op_def), None)
    block_idx = any(n in f.free_calls or n in f.member_calls for f in kernel for n in ("GetBlockIdx", "GetBlockNum"))
    uses_cube = any(table.get(a) in ("cube", "conv") for a in apis) or bool(_CUBE_POSITIONS & set(positions))
    return {
        "apis": apis,
        "api_categories": dict(sorted(Counter(table[a] for a in apis).items())),
        "dtypes": dtypes,
        "positions": positions,
        "buffer_num": _first_named(env, _BUFFER_NUM_RE),
        "tile_length": _first_named(env, _TILE_RE),
        "block_dim": _block_dim(every, env),
        "ub_bytes": _ub_bytes(kernel, env),
        "tiling_fields": tiling_fields,
        "tiling_structs": sorted({s for f in every for s in f.tiling_structs}),
        "tiling_funcs": sorted({t for f in others for t in f.tiling_funcs}),
        "uses_cube": uses_cube,
        "multi_core": block_idx,
        "kernel_class": kernel_class,
        "methods": methods,
        "op_def": op_def,
        # the folded constants, so later stages can check a rationale's numbers against the code
        "constants": dict(sorted((k, v) for k, v in env.items() if v is not None)[:200]),
    }


def _merged_constants(files: list[FileFacts]) -> dict[str, str | None]:
    merged: dict[str, str | None] = {}
    for f in files:
        for name, expr in f.const_exprs.items():
            if name in merged and merged[name] != expr:
                merged[name] = None  # defined differently in two files: not statically knowable
            else:
                merged[name] = expr
    return merged


def _first_named(env: dict[str, int | None], pattern: re.Pattern[str]) -> int | None:
    for name, value in env.items():
        if value is not None and pattern.match(name):
            return value
    return None


def _block_dim(files: list[FileFacts], env: dict[str, int | None]) -> int | None:
    from .constants import fold

    for f in files:
        for expr in f.block_dim_exprs:
            value = fold(expr, env)
            if value is not None and value > 0:
                return value
    return _first_named(env, _BLOCK_DIM_RE)


def _ub_bytes(kernel: list[FileFacts], env: dict[str, int | None]) -> int | None:
    """Sum of the InitBuffer sizes when every one is a constant (queue: num * len, buffer: len), else None."""
    from .constants import fold

    calls = [args for f in kernel for args in f.init_buffers]
    if not calls:
        return None
    total = 0
    for args in calls:
        if len(args) == 3:
            num, length = fold(args[1], env), fold(args[2], env)
            if num is None or length is None:
                return None
            total += num * length
        elif len(args) == 2:
            length = fold(args[1], env)
            if length is None:
                return None
            total += length
        else:
            return None
    return total


def _kernel_class(kernel: list[FileFacts]) -> tuple[str | None, list[str]]:
    """The class that drives the kernel: one with Init and Process if any, else the one with most methods."""
    classes: dict[str, list[str]] = {}
    for f in kernel:
        for name, methods in f.classes.items():
            merged = classes.setdefault(name, [])
            merged.extend(m for m in methods if m not in merged)
    if not classes:
        return None, []

    def rank(item: tuple[str, list[str]]) -> tuple[int, int, int]:
        name, methods = item
        return ("Process" in methods and "Init" in methods, name.startswith("Kernel"), len(methods))

    name, methods = max(classes.items(), key=rank)
    return name, methods


def _tiling_fields(files: list[FileFacts]) -> list[dict]:
    seen: dict[str, dict] = {}
    for f in files:
        for field in f.tiling_fields:
            seen.setdefault(field["name"], field)
    if not seen:  # plain struct tiling: struct XxxTilingData { uint32_t totalLength; ... }
        for f in files:
            for sname, fields in f.structs.items():
                if "tiling" in sname.lower():
                    for field in fields:
                        entry = {"name": field["name"], "type": field["type"]}
                        if field.get("array_len"):
                            entry["array_len"] = field["array_len"]
                        seen.setdefault(field["name"], entry)
    return list(seen.values())
