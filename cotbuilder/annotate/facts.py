"""What is known for sure about one unit: its parsed features, what its harness files state, its verification.

The static teacher writes only from these facts and the gates check every teacher's numbers against them, so both read
the same dict. A fact that is not known is None (or empty): nobody may state a number for it.
"""

from __future__ import annotations

import math
import re
import tomllib
from typing import Any

from ..hashing import sha256_text, stable_json
from . import decisions
from .apis import api_category
from .code_facts import claims as code_claims

# Kernel entry parameters that are not tensors of the operator (the contract: inputs, outputs, workspace, tiling).
_NON_TENSOR_PARAMS = {"workspace", "tiling", "usrworkspace", "userworkspace", "tiling_gm", "tilinggm"}
_SOC_RE = re.compile(r"\b(ascend\d{3}[a-z]?\d*[a-z]?\d*)\b", re.I)
# `xGm.SetGlobalBuffer((__gm__ T*)x + ...)`: which GM tensor variable wraps which entry parameter. (The leading \b
# makes the regex try word starts only, not every character: a third of the time on a real kernel.)
_GM_BIND_RE = re.compile(r"\b(\w+)\s*\.\s*SetGlobalBuffer\s*\(\s*\(\s*__gm__[^)]*\)\s*\(?\s*(\w+)")
# `DataCopy(zGm[...], zLocal, n)`: the first argument is the destination.
_COPY_DST_RE = re.compile(r"\bDataCopy(?:Pad)?\s*\(\s*(\w+)")
# test-data scripts: `x = np.random.uniform(-1, 1, [8, 2048]).astype(np.float16)`
_GEN_RE = re.compile(
    r"^\s*(?:input_)?(\w+?)(?:_gm)?\s*=\s*np\.random\.\w+\([^\n]*?[\[(]\s*(\d+(?:\s*,\s*\d+)*)\s*,?\s*[\])]\s*\)"
    r"\s*\.astype\(\s*np\.(\w+)\s*\)",
    re.M,
)
_DTYPE_BYTES = {
    "float32": 4,
    "float": 4,
    "half": 2,
    "float16": 2,
    "bfloat16": 2,
    "bfloat16_t": 2,
    "int32": 4,
    "int32_t": 4,
    "int16": 2,
    "int16_t": 2,
    "int8": 1,
    "int8_t": 1,
    "uint8": 1,
    "uint8_t": 1,
    "int64": 8,
    "int64_t": 8,
    "uint32_t": 4,
    "uint32": 4,
    "float64": 8,
    "uint16": 2,
    "uint16_t": 2,
    "uint64": 8,
    "uint64_t": 8,
    "bool": 1,
}


def dtype_bytes(dtype: str | None) -> int | None:
    return _DTYPE_BYTES.get((dtype or "").lower())


def facts_hash(facts: dict[str, Any]) -> str:
    """Short digest of everything the prompt, the static teacher and the gates read about a unit: stored with its
    annotation, so new facts (a verification that arrived later, a re-parse) make the annotation stale."""
    return sha256_text(stable_json(facts))[:16]


def unit_facts(
    unit: dict[str, Any], verification: dict[str, Any] | None = None, statement: dict[str, Any] | None = None
) -> dict[str, Any]:
    """`statement`: what statement_store derived for the unit ({"form": ...} or {"reason": ...}), None = not asked."""
    feats = unit.get("features") or {}
    files = unit.get("files") or []
    entry = (unit.get("entry") or [{}])[0] if unit.get("entry") else {}
    params = [p["name"] for p in entry.get("params", [])]
    tensor_params = [p for p in params if p.lower() not in _NON_TENSOR_PARAMS]
    spec = _verify_spec(files)
    kernel = unit.get("kernel_code") or ""
    host = unit.get("host_code") or ""
    apis = dict(feats.get("apis") or {})
    claims = code_claims(kernel, host)

    inputs, outputs = _io_roles(tensor_params, kernel, spec, feats.get("op_def"))
    shapes = _shapes(files, spec)
    for t in inputs + outputs:
        if t["name"] in shapes:
            t.setdefault("shape", shapes[t["name"]]["shape"])
            t.setdefault("dtype", shapes[t["name"]]["dtype"])

    block_dim = feats.get("block_dim")
    if block_dim is None and isinstance(spec.get("block_dim"), int):
        block_dim = spec["block_dim"]
    tiling_fields = [f.get("name") for f in feats.get("tiling_fields") or [] if f.get("name")]
    tiling_values = dict(spec.get("tiling") or {})
    tile_length = feats.get("tile_length")
    if tile_length is None:  # a host-tiled kernel: the harness fixes the tile length through its tiling struct
        tile_length = next(
            (v for k, v in tiling_values.items() if k.lower().replace("_", "") == "tilelength" and isinstance(v, int)),
            None,
        )
    dtypes = claims["gm_dtypes"] if kernel.strip() else [d for d in feats.get("dtypes") or [] if d != "uint8_t"]
    compute_apis = [a for a in sorted(apis) if api_category(a) in {"vector", "reduce", "cube", "scalar_math"}]
    vfact = _verification_fact(verification)
    soc = _soc(feats.get("op_def"), files)
    form = (statement or {}).get("form")
    target_soc = _table_soc(soc) or _table_soc((vfact or {}).get("soc")) or (soc or "").lower() or None
    main_dtype = _main_dtype(form, inputs, dtypes)
    total = _total_elements(form, inputs, feats.get("constants") or {}, tiling_values)
    return {
        "unit_id": unit.get("unit_id"),
        "name": unit.get("name"),
        "layout": unit.get("layout"),
        "category": unit.get("category"),
        "entry_name": entry.get("name") or unit.get("name"),
        "tensor_params": tensor_params,
        "has_tiling_param": any(p.lower().startswith("tiling") for p in params),
        "inputs": inputs,
        "outputs": outputs,
        # GM data types read from the code; the parser's list holds `__gm__ uint8_t*` address casts, which are not a
        # data type, so uint8 from it never counts
        "dtypes": dtypes,
        "positions": list(feats.get("positions") or []),
        "buffer_num": feats.get("buffer_num"),
        "tile_length": tile_length,
        "block_dim": block_dim,
        "ub_bytes": feats.get("ub_bytes"),
        "tiling_fields": tiling_fields,
        "tiling_values": tiling_values,
        # the code's folded integer constants (parser): numbers a teacher may quote from the code
        "constants": dict(feats.get("constants") or {}),
        "uses_cube": bool(feats.get("uses_cube")),
        "multi_core": bool(feats.get("multi_core")),
        "kernel_class": feats.get("kernel_class"),
        "methods": list(feats.get("methods") or []),
        "apis": apis,
        "compute_apis": compute_apis,
        "soc": soc,
        "claims": {k: v for k, v in claims.items() if k != "gm_dtypes"},
        "reads_tiling_macro": "GET_TILING_DATA" in kernel,
        "host_launch": _host_launch(host),
        "verification": vfact,
        "statement": _statement_fact(statement, entry.get("name") or unit.get("name"), target_soc),
        "tensors": _tensor_sizes(form, inputs, outputs),
        "decisions": decisions.read(
            kernel,
            feats.get("constants") or {},
            compute_apis,
            main_dtype,
            tile_length,
            block_dim,
            target_soc,
            total,
        ),
    }


def _statement_fact(statement: dict[str, Any] | None, entry: str, soc: str | None) -> dict[str, Any] | None:
    """The exact task statement (structured form + its prose) or why there is none; None when nobody derived it."""
    if statement is None:
        return None
    form = statement.get("form")
    if not form:
        return {"reason": statement.get("reason") or "no statement"}
    from .statement_prose import prose, prose_matches

    text, text_zh = prose(form, entry, soc), prose(form, entry, soc, "zh")
    wrong = prose_matches(text, form) + prose_matches(text_zh, form, "zh")
    if wrong:
        return {"reason": f"prose gate: {wrong[0]}"}
    # the task of an annotation in that language (a --lang zh row's user turn is Chinese)
    return {"form": form, "prose": text, "prose_zh": text_zh, "soc": soc}


def _tensor_sizes(form: dict[str, Any] | None, inputs: list[dict], outputs: list[dict]) -> list[dict[str, Any]]:
    """Each input and output with its shape, element count and bytes: the statement's cases, else the harness's."""
    out = []
    for role, items in (
        ("input", (form or {}).get("inputs") or inputs),
        ("output", (form or {}).get("outputs") or outputs),
    ):
        for t in items:
            shape = t.get("shape")
            if not (isinstance(shape, list) and all(isinstance(n, int) for n in shape) and t.get("dtype")):
                continue
            dtype = _norm_dtype(t["dtype"])
            n = math.prod(shape)
            size = dtype_bytes(dtype)
            out.append(
                {"role": role, "name": t["name"], "dtype": dtype, "shape": shape, "elements": n}
                | ({"bytes": n * size} if size else {})
            )
    return out


def _table_soc(soc: str | None) -> str | None:
    """The SoC table's name for `soc` (ascend910b1 -> ascend910b: the table is per chip family), else None."""
    soc = (soc or "").lower()
    names = [n for n in decisions.socs() if soc.startswith(n)]
    return max(names, key=len) if names else None


def _main_dtype(form: dict[str, Any] | None, inputs: list[dict], dtypes: list[str]) -> str | None:
    """The data type the kernel computes in: the statement's first input, else the only GM data type."""
    if form and form.get("inputs"):
        return _norm_dtype(form["inputs"][0].get("dtype") or "")
    for t in inputs:
        if t.get("dtype"):
            return _norm_dtype(t["dtype"])
    return dtypes[0] if len(dtypes) == 1 else None


def _total_elements(
    form: dict[str, Any] | None, inputs: list[dict], constants: dict[str, Any], tiling: dict[str, Any]
) -> int | None:
    """Elements of the first input: from the statement's (or harness's) shape, else a TOTAL_LENGTH-like constant."""
    shapes = [t.get("shape") for t in (form or {}).get("inputs") or []] + [t.get("shape") for t in inputs]
    for shape in shapes:
        if isinstance(shape, list) and shape and all(isinstance(n, int) for n in shape):
            return math.prod(shape)
    for source in (tiling, constants):
        for k, v in source.items():
            if k.lower().replace("_", "") in {"totallength", "totalnum", "totalsize"} and isinstance(v, int) and v > 0:
                return v
    return None


def _verify_spec(files: list[dict[str, Any]]) -> dict[str, Any]:
    for f in files:
        if f.get("path", "").endswith("verify_spec.toml"):
            try:
                return tomllib.loads(f.get("text") or "")
            except tomllib.TOMLDecodeError:
                return {}
    return {}


def _io_roles(
    tensor_params: list[str], kernel: str, spec: dict[str, Any], op_def: dict[str, Any] | None
) -> tuple[list[dict], list[dict]]:
    """Inputs and outputs among the entry's GM parameters, from the harness spec, the op definition or the kernel's
    own copies back to GM. When none of these says, both lists stay empty (the roles are then not stated)."""
    if spec.get("inputs") or spec.get("outputs"):
        ins = [{"name": i["name"], "shape": i.get("shape"), "dtype": i.get("dtype")} for i in spec.get("inputs", [])]
        outs = [{"name": o["name"], "shape": o.get("shape"), "dtype": o.get("dtype")} for o in spec.get("outputs", [])]
        return ins, outs
    if isinstance(op_def, dict) and (op_def.get("inputs") or op_def.get("outputs")):

        def conv(items):
            out = []
            for it in items or []:
                if isinstance(it, dict) and it.get("name"):
                    d = it.get("dtype") or (it.get("dtypes") or [None])[0]
                    out.append({"name": it["name"], **({"dtype": _norm_dtype(d)} if d else {})})
            return out

        return conv(op_def.get("inputs")), conv(op_def.get("outputs"))
    gm_of = {param: var for var, param in _GM_BIND_RE.findall(kernel)}
    if not gm_of:
        return [], []
    destinations = set(_COPY_DST_RE.findall(kernel))
    outs = [p for p in tensor_params if gm_of.get(p) in destinations]
    ins = [p for p in tensor_params if p in gm_of and p not in outs]
    if not outs or not ins:
        return [], []
    return [{"name": p} for p in ins], [{"name": p} for p in outs]


def _norm_dtype(d: str) -> str:
    d = str(d).replace("ge::", "").replace("DT_", "").lower()
    return {"float": "float32", "half": "float16", "bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}.get(d, d)


def _shapes(files: list[dict[str, Any]], spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for f in files:
        if f.get("role") == "generator":
            for name, dims, dtype in _GEN_RE.findall(f.get("text") or ""):
                found[name] = {"shape": [int(d) for d in dims.split(",")], "dtype": dtype}
    for t in list(spec.get("inputs", [])) + list(spec.get("outputs", [])):
        found[t["name"]] = {"shape": t.get("shape"), "dtype": t.get("dtype")}
    return found


def _soc(op_def: dict[str, Any] | None, files: list[dict[str, Any]]) -> str | None:
    if isinstance(op_def, dict):
        for key in ("soc", "socs", "soc_versions", "aicore_configs", "targets"):
            val = op_def.get(key)
            if isinstance(val, str) and val:
                return val
            if isinstance(val, list) and val and isinstance(val[0], str):
                return val[0]
    for f in files:
        if f.get("role") in {"build", "op_def", "host_main", "other", "op_json"}:
            m = _SOC_RE.search(f.get("text") or "")
            if m:
                return m.group(1)
    return None


def _host_launch(host: str) -> str | None:
    if "ICPU_RUN_KF" in host and "<<<" in host:
        return "both"
    if "ICPU_RUN_KF" in host:
        return "cpu"
    if "<<<" in host:
        return "npu"
    return None


def _verification_fact(v: dict[str, Any] | None) -> dict[str, Any] | None:
    if not v:
        return None
    cases = v.get("cases") if isinstance(v.get("cases"), list) else None
    outputs = []
    for case in cases or []:  # what one compared case checked: each output's size, dtype, tolerance and error
        for o in case.get("outputs") or []:
            if isinstance(o, dict) and o.get("name") and isinstance(o.get("n"), int):
                err = o.get("max_abs_err")
                outputs.append(
                    {
                        "name": o["name"],
                        "dtype": o.get("dtype"),
                        "n": o["n"],
                        "atol": o.get("atol"),
                        "rtol": o.get("rtol"),
                        "max_abs_err": float(f"{err:.3g}") if isinstance(err, (int, float)) else None,
                    }
                )
        if outputs:
            break
    seeds = sorted({c.get("seed") for c in cases or [] if isinstance(c.get("seed"), int)})
    return {
        "backend": v.get("backend"),
        "status": v.get("status"),
        "soc": v.get("soc"),
        "cases": len(cases) if cases is not None else None,
        "seeds": seeds,
        "outputs": outputs[:4],
    }
