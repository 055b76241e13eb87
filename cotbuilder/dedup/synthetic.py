"""Generated AscendC-style kernels with known duplicate groups, for measuring dedup (tests and benchmarks/).

Each base kernel fills `data/synthetic_kernel.cpp.tmpl` with random identifiers, inputs, a random chain of vector API
calls and random helper functions (~600-1000 tokens, like real single-file kernels). Variants of a base:
  exact       the same text
  reformatted other indentation, line breaks and comments (same token stream)
  renamed     the class and the entry function renamed (what a fork usually changes)
  shared80    the base plus two blocks of new statements making up ~20% of the result (80% of it shared with the base)
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from string import Template

from ..paths import package_data

VARIANTS = ("exact", "reformatted", "renamed", "shared80")
_SYLLABLES = (
    "ka",
    "lo",
    "mi",
    "ne",
    "ru",
    "ta",
    "vo",
    "zi",
    "pe",
    "sa",
    "do",
    "fu",
    "gi",
    "ha",
    "ju",
    "be",
    "co",
    "xa",
    "yo",
    "wu",
    "qi",
    "tor",
    "mel",
    "dar",
    "kin",
    "sol",
    "ver",
    "nox",
    "pix",
    "lum",
)
_BINARY = ("Add", "Sub", "Mul", "Div", "Max", "Min", "And", "Or")
_UNARY = ("Abs", "Exp", "Ln", "Sqrt", "Rsqrt", "Reciprocal", "Relu", "Not")
_SCALAR = ("Adds", "Muls", "Maxs", "Mins")
_DTYPES = ("half", "float", "int32_t", "int16_t")


@lru_cache(maxsize=1)
def _template() -> Template:
    return Template(package_data("dedup/data/synthetic_kernel.cpp.tmpl").read_text(encoding="utf-8"))


def _name(rng: random.Random, parts: int = 3, cap: bool = False) -> str:
    word = "".join(rng.choice(_SYLLABLES) for _ in range(parts))
    word += str(rng.randrange(100))
    return word[0].upper() + word[1:] if cap else word


def _statement(rng: random.Random, dtype: str, tensors: list[str], tile: str) -> str:
    dst, a, b = rng.choice(tensors), rng.choice(tensors), rng.choice(tensors)
    kind = rng.random()
    if kind < 0.45:
        return f"{rng.choice(_BINARY)}({dst}, {a}, {b}, this->{tile});"
    if kind < 0.75:
        return f"{rng.choice(_UNARY)}({dst}, {a}, this->{tile});"
    return f"{rng.choice(_SCALAR)}({dst}, {a}, ({dtype}){rng.randint(1, 999)}.{rng.randint(0, 99)}, this->{tile});"


def _helper(rng: random.Random, dtype: str) -> str:
    name, arg, acc, k = _name(rng, 2, True), _name(rng, 2), _name(rng, 2), _name(rng, 1)
    body = "\n".join(
        f"            {acc} = {acc} {rng.choice('+-*^|&')} ({arg} {rng.choice(['>>', '<<', '%', '/'])} "
        f"{rng.randint(1, 31)}) + {k} * {rng.randint(2, 977)};"
        for _ in range(rng.randint(3, 8))
    )
    return (
        f"    __aicore__ inline uint32_t {name}(uint32_t {arg})\n    {{\n        uint32_t {acc} = {rng.randint(0, 99999)};\n"
        f"        for (uint32_t {k} = 0; {k} < {rng.randint(2, 64)}; {k}++) {{\n{body}\n        }}\n"
        f"        return {acc};\n    }}\n"
    )


def base_kernel(rng: random.Random) -> str:
    dtype = rng.choice(_DTYPES)
    n_in = rng.randint(1, 3)
    ins = [_name(rng) for _ in range(n_in)]
    n = {
        k: _name(rng, cap=k[0].isupper())
        for k in (
            "Klass",
            "TILE",
            "blockLen",
            "tileCount",
            "tileLen",
            "total",
            "tiles",
            "loops",
            "i",
            "p",
            "CopyIn",
            "Compute",
            "CopyOut",
            "outLocal",
            "outQueue",
            "outGm",
            "entry",
            "op",
            "out",
        )
    }
    n["TILE"] = n["TILE"].upper()
    gms = [f"{x}Gm" for x in ins]
    queues = [f"{x}Que" for x in ins]
    locals_ = [f"{x}Loc" for x in ins]
    tensors = locals_ + [n["outLocal"]]
    set_globals = "\n".join(
        f"        {g}.SetGlobalBuffer((__gm__ {dtype} *){x} + this->{n['blockLen']} * GetBlockIdx(), this->{n['blockLen']});"
        for g, x in zip(gms + [n["outGm"]], ins + [n["out"]], strict=False)
    )
    init_buffers = "\n".join(
        f"        pipe.InitBuffer({q}, BUFFER_NUM, this->{n['tileLen']} * sizeof({dtype}));"
        for q in queues + [n["outQueue"]]
    )
    copy_in = "\n".join(
        f"        LocalTensor<{dtype}> {loc} = {q}.AllocTensor<{dtype}>();\n"
        f"        DataCopy({loc}, {g}[{n['p']} * this->{n['tileLen']}], this->{n['tileLen']});\n"
        f"        {q}.EnQue({loc});"
        for loc, q, g in zip(locals_, queues, gms, strict=False)
    )
    compute = "\n".join(
        [f"        LocalTensor<{dtype}> {loc} = {q}.DeQue<{dtype}>();" for loc, q in zip(locals_, queues, strict=False)]
        + [f"        LocalTensor<{dtype}> {n['outLocal']} = {n['outQueue']}.AllocTensor<{dtype}>();"]
        + [f"        {_statement(rng, dtype, tensors, n['tileLen'])}" for _ in range(rng.randint(4, 14))]
        + [f"        {n['outQueue']}.EnQue<{dtype}>({n['outLocal']});"]
        + [f"        {q}.FreeTensor({loc});" for loc, q in zip(locals_, queues, strict=False)]
    )
    helpers = "".join(_helper(rng, dtype) for _ in range(rng.randint(1, 4)))
    return _template().substitute(
        n,
        buffer_num=rng.choice([1, 2]),
        tile_len=rng.choice([128, 256, 512, 1024, 2048]),
        dtype=dtype,
        gm_params=", ".join(f"GM_ADDR {x}" for x in ins + [n["out"]]),
        entry_params=", ".join(f"GM_ADDR {x}" for x in ins + [n["out"]]),
        entry_args=", ".join(ins + [n["out"]]),
        set_globals=set_globals,
        init_buffers=init_buffers,
        copy_in=copy_in,
        compute=compute,
        helpers=helpers,
        queues="\n".join(f"    TQue<QuePosition::VECIN, BUFFER_NUM> {q};" for q in queues)
        + f"\n    TQue<QuePosition::VECOUT, BUFFER_NUM> {n['outQueue']};",
        globals="\n".join(f"    GlobalTensor<{dtype}> {g};" for g in gms + [n["outGm"]]),
    )


def reformat(code: str, rng: random.Random) -> str:
    """Same tokens, other layout: re-indent, move braces, add comments and blank lines."""
    out = []
    for line in code.splitlines():
        stripped = line.strip()
        if stripped == "{" and out:
            out[-1] += " {"
            continue
        indent = " " * ((len(line) - len(line.lstrip())) // 2)
        out.append(indent + re.sub(r"\s*,\s*", ", " if rng.random() < 0.5 else ",", stripped))
        if rng.random() < 0.1:
            out.append(indent + "// " + _name(rng, 4))
    return "/* reformatted copy */\n" + "\n\n".join(out) + "\n"


def rename(code: str, rng: random.Random) -> str:
    """Rename the class and the entry function (whole-word, everywhere)."""
    klass = re.search(r"^class (\w+)", code, re.M).group(1)
    entry = re.search(r"__aicore__ void (\w+)\(", code).group(1)
    for old in (klass, entry):
        code = re.sub(rf"\b{old}\b", _name(rng, 3, old[0].isupper()), code)
    return code


def shared80(code: str, rng: random.Random) -> str:
    """Insert two blocks of new statements amounting to ~20% of the result's lines (80% of it shared with the base)."""
    lines = code.splitlines()
    extra = max(2, len(lines) // 4)
    for block in (extra // 2, extra - extra // 2):
        pos = rng.randrange(10, len(lines) - 5)
        new = [
            f"        uint32_t {_name(rng, 2)} = {rng.randint(1, 9999)} * {_name(rng, 2)} + {rng.randint(1, 99)};"
            for _ in range(block)
        ]
        lines[pos:pos] = new
    return "\n".join(lines) + "\n"


def variant(code: str, kind: str, rng: random.Random) -> str:
    if kind == "exact":
        return code
    if kind == "reformatted":
        return reformat(code, rng)
    if kind == "renamed":
        return rename(code, rng)
    if kind == "shared80":
        return shared80(code, rng)
    raise ValueError(kind)


def corpus(n_bases: int, dup_fraction: float = 0.5, seed: int = 0) -> tuple[list[str], list[int]]:
    """(codes, group) where group[i] is the base index code i was made from: equal groups are true duplicates."""
    rng = random.Random(seed)
    codes: list[str] = []
    groups: list[int] = []
    for g in range(n_bases):
        base = base_kernel(rng)
        codes.append(base)
        groups.append(g)
        if rng.random() < dup_fraction:
            for kind in rng.sample(VARIANTS, rng.randint(1, len(VARIANTS))):
                codes.append(variant(base, kind, rng))
                groups.append(g)
    return codes, groups


SYNTHETIC_SOURCE_ID = "0" * 63 + "5"  # the `sources` row synthetic units belong to (benchmarks fill a store with them)


def source_row() -> dict:
    from ..store import utcnow

    return {
        "source_id": SYNTHETIC_SOURCE_ID,
        "kind": "local",
        "url": "synthetic://cotbuilder.dedup.synthetic",
        "status": "ok",
        "crawled_at": utcnow(),
    }


def unit_rows(codes: list[str]) -> list[dict]:
    """`units` rows for generated kernels (one kernel file each; what crawl would write, minus the parse facts), for
    benchmarks that need a store of a given size."""
    import hashlib

    from ..store import utcnow

    now = utcnow()
    rows = []
    for i, code in enumerate(codes):
        unit_id = hashlib.sha256(f"synthetic\0{i}\0{code}".encode()).hexdigest()
        rows.append(
            {
                "unit_id": unit_id,
                "source_id": SYNTHETIC_SOURCE_ID,
                "layout": "kernel_launch",
                "name": f"synthetic_{i}",
                "root": f"synthetic/{i}",
                "files": [{"path": "kernel.cpp", "role": "kernel", "file_id": None, "text": code}],
                "kernel_code": code,
                "host_code": "",
                "entry": [],
                "features": {"apis": {}, "dtypes": [], "uses_cube": False, "multi_core": True},
                "category": "elementwise",
                "complexity": 2,
                "diagnostics": [],
                "license": "Apache-2.0",
                "created_at": now,
            }
        )
    return rows


def kernels(n: int, seed: int = 0, max_variants: int = 3) -> list[str]:
    """Exactly n kernels (a benchmark's corpus size): bases, 30% of them followed by 1..max_variants variants.
    Unlike corpus() it sizes by kernels, not bases, and keeps no groups."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        base = base_kernel(rng)
        out.append(base)
        if rng.random() < 0.3:
            out += [variant(base, kind, rng) for kind in rng.sample(VARIANTS, rng.randint(1, max_variants))]
    return out[:n]
