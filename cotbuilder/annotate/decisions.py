"""The numbers behind a kernel author's decisions, read from the code (comments blanked) and the unit's harness facts.

Each entry says where it was read (a 1-based line of the kernel source) and, where a number follows from others, the
numbers it follows from, so a rationale can show the arithmetic and a gate can check every number a teacher states.
What cannot be read statically stays None / absent: nothing here guesses.

- buffers: every `InitBuffer` (queue or TBuf): its position, buffer count, bytes per buffer, total bytes;
- ub: the sum of those totals against the SoC's Unified Buffer (cotbuilder/verify/data/socs.toml);
- split: total elements (from the statement's or harness's shapes) / blockDim = elements per core, tiles per core;
- cube_calls: the first call of each Matmul-object step (SetTensorA, IterateAll...) and basic cube API, with its line;
- vector_calls: each vector compute call with its element count and, in count mode, the 256-byte repeats it takes;
- casts / fp32 compute / sync points / DataCopyPad: numerical and pipeline choices with their lines.
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
from typing import Any

from ..parse.constants import dtype_sizes, fold
from ..paths import package_data
from .code_facts import blank_comments, device_part

# The vector unit's facts a rationale may state (AscendC API docs: a repeat processes 256 bytes = 8 blocks of 32
# bytes; repeatTimes is an 8-bit field, at most 255; DataCopy moves whole 32-byte blocks).
REPEAT_BYTES = 256
MAX_REPEAT = 255
BLOCK_BYTES = 32
_INIT_RE = re.compile(r"\bInitBuffer\s*\(\s*(\w+)\s*,\s*([^;]*?)\)\s*;")
_QUE_DECL_RE = re.compile(
    r"\b(TQue(?:Bind)?|TBuf)\s*<\s*(?:AscendC::)?(?:TPosition|QuePosition)::(\w+)(?:\s*,\s*([^>]*))?>\s*(\w+(?:\s*,\s*\w+)*)"
)
_CAST_RE = re.compile(r"\bCast(?:<[^>]*>)?\s*\([^;]*?RoundMode::(\w+)")
_LOCAL_FLOAT_RE = re.compile(r"\bLocalTensor\s*<\s*float\s*>|\bAllocTensor\s*<\s*float\s*>|\bGet\s*<\s*float\s*>")
_SYNC_RE = re.compile(
    r"\b(PipeBarrier\s*<\s*(?:AscendC::)?(?:pipe_t::)?(PIPE_\w+)\s*>"
    r"|SetFlag\s*<\s*(?:AscendC::)?HardEvent::(\w+)\s*>|SyncAll\b)"
)
# statically placed local buffers: `LocalMemAllocator<Hardware::UB> ub;` then `x = ub.Alloc<half, 256>();`
_ALLOCATOR_RE = re.compile(r"\bLocalMemAllocator\s*<\s*(?:AscendC::)?(?:Hardware::)?(\w+)\s*>\s+(\w+)")
_ALLOC_RE = re.compile(
    r"\b(\w+)\s*=\s*(\w+)\s*\.\s*(?:template\s+)?Alloc\s*<\s*([\w:]+)\s*,\s*([^<>;]+?)\s*>\s*\(\s*\)"
)
_ALLOC_MEMORY = {"UB": "UB", "L1": "L1", "L0A": "L0A", "L0B": "L0B", "L0C": "L0C", "BIAS": "BT"}
# SIMT kernels (asc-devkit 03_simt_api): a thread's global index, its bound check, a grid-stride loop, the launch
_SIMT_INDEX_RE = re.compile(r"\b(\w+)\s*=\s*blockIdx\.x\s*\*\s*blockDim\.x\s*\+\s*threadIdx\.x\b")
_SIMT_STRIDE_RE = re.compile(
    r"\b(\w+)\s*\+=\s*(blockDim\.x\s*\*\s*gridDim\.x|gridDim\.x\s*\*\s*blockDim\.x|blockDim\.x)\b"
)
_LAUNCH_RE = re.compile(r"<<<([^<>;]*)>>>")
_PAD_RE = re.compile(r"\bDataCopyPad\s*[<(]")
# the Cube's work, in the order a kernel writes it: the high-level Matmul object's calls, then the basic cube API
_CUBE_CALL_RE = re.compile(
    r"\.\s*(SetTensorA|SetTensorB|SetBias|SetTail|SetOrgShape|Iterate|IterateAll|IterateBatch|IterateNBatch|GetTensorC|End)"
    r"\s*(?:<[^;()]*>)?\s*\("
    r"|\b(LoadData|LoadDataWithTranspose|Mmad|Fixpipe)\s*(?:<[^;()]*>)?\s*\("
)
_SPLIT_ARGS_RE = re.compile(r",(?![^()<>]*[)>])")
_CONSTEXPR_RE = re.compile(r"\b(?:constexpr|const)\s+(?:static\s+)?[\w:]+\s+([A-Za-z_]\w*)\s*=\s*([^;{}]+);")
_LOCAL_DECL_RE = re.compile(r"\bLocalTensor\s*<\s*(?:AscendC::)?(\w+)\s*>\s+(\w+)")
_C_DTYPES = {"half": "float16", "float": "float32", "bfloat16_t": "bfloat16", "int8_t": "int8", "uint8_t": "uint8"}
_C_DTYPES |= {"int16_t": "int16", "int32_t": "int32", "int64_t": "int64", "float16_t": "float16"}
_C_DTYPES |= {"uint16_t": "uint16", "uint32_t": "uint32", "uint64_t": "uint64", "float32_t": "float32"}
# which on-chip memory a TPosition lives in (TBuf without a position: VECCALC, the UB)
_MEMORY = {"VECIN": "UB", "VECOUT": "UB", "VECCALC": "UB", "A1": "L1", "B1": "L1", "C1": "L1", "A2": "L0A"}
_MEMORY |= {"B2": "L0B", "CO1": "L0C", "C2": "BT"}
_REDUCE_COUNT_AT_3 = {"ReduceMax", "ReduceMin", "ReduceSum"}
_FLOAT_BYTES = {"float16": 2, "bfloat16": 2, "float32": 4, "int8": 1, "uint8": 1, "int16": 2, "int32": 4, "int64": 8}
_FLOAT_BYTES |= {"uint16": 2, "uint32": 4, "uint64": 8}


@functools.cache
def socs() -> dict[str, Any]:
    return tomllib.loads(package_data("verify/data/socs.toml").read_text(encoding="utf-8"))


def _line(code: str, pos: int) -> int:
    return code.count("\n", 0, pos) + 1


def _args(text: str) -> list[str]:
    return [a.strip() for a in _SPLIT_ARGS_RE.split(text)]


def read(
    kernel: str,
    constants: dict[str, int],
    compute_apis: list[str],
    main_dtype: str | None,
    tile_length: int | None,
    block_dim: int | None,
    soc: str | None,
    total_elements: int | None,
) -> dict[str, Any]:
    """The decision numbers of one kernel (see the module doc). `constants`: the parser's folded constants."""
    code = device_part(blank_comments(kernel or ""))
    env: dict[str, int | None] = dict(constants or {})
    for name, expr in _CONSTEXPR_RE.findall(code):  # the kernel's own constants, in order, where the parser has none
        if env.get(name) is None:
            env[name] = fold(expr, env)
    elem = _FLOAT_BYTES.get(main_dtype or "")
    out: dict[str, Any] = {"arch": {"block_bytes": BLOCK_BYTES, "repeat_bytes": REPEAT_BYTES, "max_repeat": MAX_REPEAT}}

    positions = {}
    for m in _QUE_DECL_RE.finditer(code):
        kind, pos, _depth, names = m.groups()
        for name in re.split(r"\s*,\s*", names):  # `TQue<VECIN, 2> inQueueX, inQueueY;`
            positions[name] = {"kind": "TBuf" if kind == "TBuf" else "TQue", "position": pos}
    buffers = []
    for m in _INIT_RE.finditer(code):
        name, rest = m.group(1), _args(m.group(2))
        decl = positions.get(name, {})
        if len(rest) == 2:
            count, size = fold(rest[0], env), fold(rest[1], env)
        elif len(rest) == 1:
            count, size = 1, fold(rest[0], env)
        else:
            continue
        # 0 is a member's default before Init sets it (`uint32_t tileLength = 0;`), not the buffer's size
        count, size = count or None, size or None
        buffers.append(
            {
                "name": name,
                "position": decl.get("position"),
                "memory": _MEMORY.get((decl.get("position") or "VECCALC").upper(), decl.get("position")),
                "kind": decl.get("kind") or ("TQue" if len(rest) == 2 else "TBuf"),
                "count": count,
                "bytes": size,
                "total": count * size if count and size else None,
                "line": _line(code, m.start()),
            }
        )
    buffers += _allocated(code, env, main_dtype) + _ubuf_arrays(code, env)
    if buffers:
        out["buffers"] = buffers
    table = socs().get((soc or "").lower(), {})
    in_ub = [b for b in buffers if b["memory"] == "UB"]  # L1 / L0 buffers of the Cube are other memories
    known = [b["total"] for b in in_ub if b["total"]]
    if known and len(known) == len(in_ub):
        used = sum(known)
        ub = {"used_bytes": used, "soc": (soc or "").lower() or None, "capacity_bytes": table.get("ub_bytes")}
        if table.get("ub_bytes"):
            ub["percent"] = round(100 * used / table["ub_bytes"], 1)
            if tile_length and used % tile_length == 0:
                # every buffer scales with the tile: the largest tile the UB would hold, rounded to 32-byte blocks
                per_elem = used // tile_length
                limit = table["ub_bytes"] // per_elem
                if elem:
                    limit -= limit % (BLOCK_BYTES // elem or 1)
                ub["bytes_per_tile_element"] = per_elem
                ub["max_tile_elements"] = limit
        out["ub"] = ub

    if tile_length and elem:
        tile_bytes = tile_length * elem
        out["tile"] = {"elements": tile_length, "bytes": tile_bytes, "blocks": tile_bytes / BLOCK_BYTES}
    if total_elements and block_dim:
        per_core, rem = divmod(total_elements, block_dim)
        split = {"total_elements": total_elements, "block_dim": block_dim, "per_core": per_core, "remainder": rem}
        if elem:
            split["per_core_bytes"] = per_core * elem
            split["per_core_blocks"] = per_core * elem / BLOCK_BYTES
        if tile_length and per_core:
            split["tiles_per_core"], split["tile_remainder"] = divmod(per_core, tile_length)
        out["split"] = split

    local_types = {name: t for t, name in _LOCAL_DECL_RE.findall(code)}
    calls = []
    for api in compute_apis:
        for m in re.finditer(rf"\b{re.escape(api)}\s*(?:<[^;()]*>)?\s*\(([^;]*)\)\s*;", code):
            args = _args(m.group(1))
            # the element count is the last argument, and the fourth of a reduction (dst, src, work, count, calIndex)
            at = 3 if api in _REDUCE_COUNT_AT_3 and len(args) >= 4 else -1
            count = fold(args[at], env) if args else None
            if count is None and args and re.search(r"tile_?len(?:gth)?$", args[at].split("->")[-1], re.I):
                count = tile_length
            call: dict[str, Any] = {"api": api, "line": _line(code, m.start()), "args": len(args)}
            if count and (2 <= len(args) <= 4 or at == 3):
                call["count"] = count
                # a repeat holds 256 bytes of the widest operand (a Cast half -> float takes 64 per repeat)
                sizes = [_FLOAT_BYTES.get(_C_DTYPES.get(local_types.get(_var(a), ""), "")) for a in args[:2]]
                if all(sizes) and len(sizes) == 2:
                    width = max(sizes)
                    dtype = next(_C_DTYPES[local_types[_var(a)]] for a in args[:2] if _size_of(local_types, a) == width)
                    per_repeat = REPEAT_BYTES // width
                    call.update(dtype=dtype, per_repeat=per_repeat, repeats=math.ceil(count / per_repeat))
            calls.append(call)
            if len(calls) >= 12:
                break
    if calls:
        out["vector_calls"] = calls
    casts = [{"round_mode": m.group(1), "line": _line(code, m.start())} for m in _CAST_RE.finditer(code)]
    if casts:
        out["casts"] = casts[:6]
    if main_dtype in ("float16", "bfloat16"):
        m = _LOCAL_FLOAT_RE.search(code)
        if m:
            out["fp32_compute_line"] = _line(code, m.start())
    sync = []
    for m in _SYNC_RE.finditer(code):
        what = m.group(2) or m.group(3) or "SyncAll"
        sync.append({"kind": m.group(1).split("<")[0].strip(), "what": what, "line": _line(code, m.start())})
    if sync:
        out["sync"] = sync[:8]
    cube, seen = [], set()
    for m in _CUBE_CALL_RE.finditer(code):
        api = m.group(1) or m.group(2)
        if api not in seen:  # the first call of each: where the kernel starts that step
            seen.add(api)
            cube.append({"api": api, "line": _line(code, m.start())})
    if cube:
        out["cube_calls"] = cube[:8]
    pads = [_line(code, m.start()) for m in _PAD_RE.finditer(code)]
    if pads:
        out["pad_lines"] = pads[:6]
    m = re.search(r"\bTCubeTiling\s+\w+\s*;", code)
    if m and cube:  # a Matmul object's tiling: a TCubeTiling the host filled, registered with the pipe
        reg = re.search(r"\bREGIST_MATMUL_OBJ\s*\(", code)
        out["cube_tiling"] = {"line": _line(code, m.start()), "regist_line": _line(code, reg.start()) if reg else None}
    simt = _simt(code, blank_comments(kernel or ""), env)
    if simt:
        out["simt"] = simt
    return out


def _allocated(code: str, env: dict[str, int | None], main_dtype: str | None) -> list[dict[str, Any]]:
    """Buffers placed by a LocalMemAllocator: element type and count are template arguments, fixed at compile time.
    A type that is a template parameter of the kernel has no size here (its buffer is listed by element count)."""
    memory = {name: _ALLOC_MEMORY.get(hw.upper(), hw) for hw, name in _ALLOCATOR_RE.findall(code)}
    out = []
    for m in _ALLOC_RE.finditer(code):
        var, allocator, ctype, count_expr = m.groups()
        if allocator not in memory:
            continue
        count = fold(count_expr, env)
        dtype = _C_DTYPES.get(ctype.removeprefix("AscendC::"))
        size = _FLOAT_BYTES.get(dtype or "")
        out.append(
            {
                "name": var,
                "position": None,
                "memory": memory[allocator],
                "kind": "LocalMemAllocator",
                "count": 1,
                "elements": count,
                "element_type": ctype.removeprefix("AscendC::"),
                "dtype": dtype,
                "template_type": bool(re.search(rf"\b(?:typename|class)\s+{re.escape(ctype)}\b", code)),
                "bytes": count * size if count and size else None,
                "total": count * size if count and size else None,
                "line": _line(code, m.start()),
            }
        )
    return out


def _ubuf_arrays(code: str, env: dict[str, int | None]) -> list[dict[str, Any]]:
    """UB arrays of the C API (`__ubuf__ float xLocal[TILE_LENGTH];`): element type and count fixed in the code."""
    out = []
    for m in re.finditer(r"\b__ubuf__\s+([\w:]+)\s+(\w+)\s*\[([^\]]+)\]\s*;", code):
        ctype, name, count_expr = m.groups()
        count = fold(count_expr, env)
        size = _FLOAT_BYTES.get(_C_DTYPES.get(ctype, ""))
        out.append(
            {
                "name": name,
                "position": None,
                "memory": "UB",
                "kind": "ubuf_array",
                "count": 1,
                "elements": count,
                "element_type": ctype,
                "dtype": _C_DTYPES.get(ctype),
                "template_type": bool(re.search(rf"\b(?:typename|class)\s+{re.escape(ctype)}\b", code)),
                "bytes": count * size if count and size else None,
                "total": count * size if count and size else None,
                "line": _line(code, m.start()),
            }
        )
    return out


def _simt(code: str, whole: str, env: dict[str, int | None]) -> dict[str, Any] | None:
    """The thread mapping of a SIMT kernel: the global index (block index x threads per block + thread index), the
    bound check that stops threads past the data, a grid-stride loop, the launch's blocks x threads, and the lines
    where threads index global memory directly through the entry's pointer parameters (no UB staging)."""
    if not re.search(r"\bthreadIdx\.[xyz]\b", code):
        return None
    out: dict[str, Any] = {}
    m = _SIMT_INDEX_RE.search(code)
    if m:
        var = m.group(1)
        out["index"] = {"var": var, "line": _line(code, m.start())}
        g = re.search(rf"\bif\s*\(\s*{var}\s*>=\s*([\w.]+)\s*\)\s*\{{?\s*return\b", code)
        if g:
            out["guard"] = {"bound": g.group(1), "line": _line(code, g.start())}
    s = _SIMT_STRIDE_RE.search(code)
    if s:
        out["stride"] = {"var": s.group(1), "step": " ".join(s.group(2).split()), "line": _line(code, s.start())}
    for launch in _LAUNCH_RE.finditer(whole):
        args = _args(launch.group(1))
        if len(args) == 4:  # <<<blocks, threads per block, dynamic UB bytes, stream>>>
            blocks, threads = fold(args[0], env), fold(args[1], env)
            out["launch"] = {"blocks": blocks, "threads": threads, "line": _line(whole, launch.start())}
            if blocks and threads:
                out["launch"]["total_threads"] = blocks * threads
            break
    params = []
    for entry in re.finditer(r"\b__global__\b[^;{]*?\(([^)]*)\)", code):
        params += re.findall(r"\*\s*(?:__restrict__\s+)?(\w+)\s*(?:,|$)", entry.group(1))
    if params and not re.search(r"\bDataCopy|\b__ubuf__\b|\bLocalTensor\b|\bAlloc\s*<", code):  # no local staging
        lines = sorted({_line(code, a.start()) for a in re.finditer(rf"\b(?:{'|'.join(params)})\s*\[", code)})
        if lines:
            out["direct_gm_lines"] = lines[:4]
    return out or None


def _var(arg: str) -> str:
    """The tensor variable of an argument: `zLocal[offset]` -> zLocal, `this->buf` -> buf."""
    m = re.match(r"\s*(?:this->)?(\w+)", arg)
    return m.group(1) if m else ""


def _size_of(local_types: dict[str, str], arg: str) -> int | None:
    return _FLOAT_BYTES.get(_C_DTYPES.get(local_types.get(_var(arg), ""), ""))


def dtype_size(dtype: str | None) -> int | None:
    return _FLOAT_BYTES.get(dtype or "") or dtype_sizes().get(dtype or "")
