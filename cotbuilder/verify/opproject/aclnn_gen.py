"""Generate what msOpGen generates for an op: `aclnn_<op>.h` and its implementation, from the op's OpDef.

The signature follows msOpGen's order: inputs (a required input `const aclTensor *x`, an optional one
`const aclTensor *xOptional`, a dynamic one `const aclTensorList *x`, a `.Scalar()` one `const aclScalar *x`), then
attributes (bool, int64_t, double, char *, const aclIntArray * ...; an optional attribute's name ends in Optional),
then outputs, then `uint64_t *workspaceSize, aclOpExecutor **executor`. Two rules of the aclnn call guide
(单算子API调用.md): an input and an output of the same name are one `aclTensor *xRef` in the input's place, and a
`ValueDepend` input of DT_INT64 / DT_BOOL / DT_FLOAT is a `const aclIntArray *` / `aclBoolArray *` / `aclFloatArray *`
(the `aclnn<Op>TensorGetWorkspaceSize` twin that takes it as a tensor is not generated). The second phase is
`aclnn<Op>(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)`.
The implementation hands everything to the emulated framework (`impl/host/aclnn_runtime.h`), which runs the op's
TilingFunc and launches the kernel variant compiled for the call's dtypes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

ATTR_TYPES = {
    "bool": ("bool", "attr_bool"),
    "int": ("int64_t", "attr_int"),
    "float": ("double", "attr_float"),
    "string": ("char *", "attr_str"),
    "list_int": ("const aclIntArray *", "attr_list_int"),
    "list_float": ("const aclFloatArray *", "attr_list_float"),
    "list_bool": ("const aclBoolArray *", "attr_list_bool"),
}


class Unsupported(ValueError):
    """The OpDef uses something the emulated aclnn layer does not model (the message names it)."""


def snake(op_type: str) -> str:
    """msOpGen's file/kernel name for an op type: AddCustom -> add_custom, TopKV3 -> top_kv3,
    AvgPool3D -> avg_pool3_d (an underscore before a capital that follows a lower-case letter or digit, or that
    starts a capitalised word after another capital)."""
    out = []
    for i, ch in enumerate(op_type):
        if ch.isupper() and i > 0:
            prev, nxt = op_type[i - 1], op_type[i + 1] if i + 1 < len(op_type) else ""
            if prev.islower() or prev.isdigit() or (prev.isupper() and nxt.islower()):
                out.append("_")
        out.append(ch.lower())
    return "".join(out)


def header_name(op_type: str) -> str:
    return f"aclnn_{snake(op_type)}.h"


@dataclass
class Param:
    kind: str  # tensor | optional | list | scalar | scalar_list | attr
    c_type: str
    name: str
    call: str  # the OpCall method that records it
    in_signature: bool = True  # False: recorded only (the output half of an xRef, passed once as the input)


def _camel(name: str) -> str:
    """OpDef names are used as they are, except that a snake_case name becomes lowerCamel as msOpGen writes it."""
    if "_" not in name:
        return name
    head, *rest = [p for p in name.split("_") if p]
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


# a value-depend input's GE dtype code -> the aclnn array type it becomes
ARRAY_TYPES = {9: "const aclIntArray *", 12: "const aclBoolArray *", 0: "const aclFloatArray *"}


def _array_type(p: dict[str, Any]) -> str | None:
    codes = set(p.get("dtypes") or [])
    return ARRAY_TYPES.get(codes.pop()) if p.get("value_depend") and len(codes) == 1 else None


def parameters(op: dict[str, Any]) -> list[Param]:
    params: list[Param] = []
    seen: set[str] = set()
    # the guide's Ref rule keeps the input of an input/output pair of one name, dynamic (list) pairs too: a binding
    # passes `varRef` once (NPUKernelBench ScatterList)
    output_names = {p["name"]: p["param_type"] == "dynamic" for p in op["outputs"]}
    refs: dict[str, str] = {}  # OpDef name of an input that is also an output -> its xRef parameter

    def unique(name: str) -> str:
        base, n = name, 1
        while name in seen:
            name, n = f"{base}{n}", n + 1
        seen.add(name)
        return name

    for p in op["inputs"]:
        name = _camel(p["name"])
        to = p.get("to_dtype", 28)
        if p["scalar_list"]:
            params.append(
                Param(
                    "scalar_list", "const aclScalarList *", unique(name), f"scalar_list_input(%s, (ge::DataType){to})"
                )
            )
        elif p["scalar"]:
            params.append(Param("scalar", "const aclScalar *", unique(name), f"scalar_input(%s, (ge::DataType){to})"))
        elif p["param_type"] == "dynamic" and output_names.get(p["name"]):
            refs[p["name"]] = unique(name + "Ref")
            params.append(Param("list", "aclTensorList *", refs[p["name"]], "dynamic_input(%s)"))
        elif p["param_type"] == "dynamic":
            params.append(Param("list", "const aclTensorList *", unique(name), "dynamic_input(%s)"))
        elif p["name"] in output_names and not output_names[p["name"]]:
            refs[p["name"]] = unique(name + "Ref")
            params.append(Param("ref", "aclTensor *", refs[p["name"]], "input(%s)"))
        elif array := _array_type(p):
            optional = "Optional" if p["param_type"] == "optional" else ""
            params.append(Param("array", array, unique(name + optional), "array_input(%s)"))
        elif p["param_type"] == "optional":
            params.append(Param("optional", "const aclTensor *", unique(name + "Optional"), "optional_input(%s)"))
        else:
            params.append(Param("tensor", "const aclTensor *", unique(name), "input(%s)"))
    for a in op["attrs"]:
        if a["kind"] not in ATTR_TYPES:
            raise Unsupported(f"attribute {a['name']} of kind {a['kind']} in the aclnn signature")
        c_type, call = ATTR_TYPES[a["kind"]]
        name = _camel(a["name"]) + ("" if a["required"] else "Optional")
        params.append(Param("attr", c_type, unique(name), call + "(%s)"))
    for p in op["outputs"]:
        if p["name"] in refs and p["param_type"] == "dynamic":
            params.append(Param("list", "aclTensorList *", refs[p["name"]], "dynamic_output(%s)", in_signature=False))
            continue
        if p["name"] in refs:
            params.append(Param("ref", "aclTensor *", refs[p["name"]], "output(%s)", in_signature=False))
            continue
        name = _camel(p["name"])
        if name in seen:
            name = name + "Out"
        if p["param_type"] == "dynamic":
            params.append(Param("list", "const aclTensorList *", unique(name), "dynamic_output(%s)"))
        else:
            params.append(Param("tensor", "const aclTensor *", unique(name), "output(%s)"))
    return params


def _decl(p: Param) -> str:
    return f"{p.c_type}{'' if p.c_type.endswith('*') else ' '}{p.name}"


def _guard(op_type: str) -> str:
    return "ACLNN_" + re.sub(r"\W", "_", snake(op_type)).upper() + "_H_"


def generate_header(op: dict[str, Any]) -> str:
    op_type = op["type"]
    sig = ",\n    ".join(_decl(p) for p in parameters(op) if p.in_signature)
    sig = sig + ",\n    " if sig else ""
    return (
        f"// Generated by cotbuilder verify from the OpDef of {op_type} (what msOpGen generates for it).\n"
        f"#ifndef {_guard(op_type)}\n#define {_guard(op_type)}\n\n"
        '#include "aclnn/aclnn_base.h"\n\n'
        '#ifdef __cplusplus\nextern "C" {\n#endif\n\n'
        f"aclnnStatus aclnn{op_type}GetWorkspaceSize(\n    {sig}uint64_t *workspaceSize,\n    aclOpExecutor **executor);\n\n"
        f"aclnnStatus aclnn{op_type}(\n    void *workspace,\n    uint64_t workspaceSize,\n    aclOpExecutor *executor,\n"
        "    aclrtStream stream);\n\n"
        "#ifdef __cplusplus\n}\n#endif\n\n"
        f"#endif  // {_guard(op_type)}\n"
    )


@dataclass
class Variant:
    """One compiled kernel: its C++ symbol and the dtype column (codes; -1 = any) it serves."""

    symbol: str
    dtypes: list[int]


def generate_source(
    op: dict[str, Any], n_kernel_params: int, variants: list[Variant], register_only: bool = False
) -> str:
    """The implementation: record every argument on a cbhost::OpCall in OpDef order, run the host side, launch.
    `register_only` (a harness calling the op's hand-written layer, opapi.py): no aclnn API, only the kernel variants
    registered under the op type for that layer's l0 launch, and the device-memory guard switched on."""
    op_type = op["type"]
    n_io = len(op["inputs"]) + len(op["outputs"])
    if n_kernel_params != n_io + 2:
        raise Unsupported(
            f"kernel entry takes {n_kernel_params} pointers, the OpDef has {len(op['inputs'])} inputs and "
            f"{len(op['outputs'])} outputs (+ workspace, tiling)"
        )
    if register_only:
        return _variant_table(op_type, n_kernel_params, variants, '#include "impl/host/opapi_guard.h"\n') + (
            f'\nstatic const bool cotbuilder_registered = cbhost::register_kernels("{op_type}", {n_kernel_params}, '
            "cotbuilder_variants) && cbhost::opapi::activate_guard();\n"
        )
    params = parameters(op)
    records = "\n".join("    call." + (p.call % p.name) + ";" for p in params)
    sig = ", ".join(_decl(p) for p in params if p.in_signature)
    sig = sig + ", " if sig else ""
    return (
        _variant_table(op_type, n_kernel_params, variants, f'#include "{header_name(op_type)}"\n')
        + f'\nextern "C" aclnnStatus aclnn{op_type}GetWorkspaceSize({sig}uint64_t *workspaceSize, aclOpExecutor **executor)\n'
        "{\n"
        f'    cbhost::OpCall call("{op_type}");\n'
        f"{records}\n"
        "    return call.prepare(workspaceSize, executor, cotbuilder_variants);\n"
        "}\n\n"
        f'extern "C" aclnnStatus aclnn{op_type}(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, '
        "aclrtStream stream)\n"
        "{\n    return cbhost::run(workspace, workspaceSize, executor, stream);\n}\n"
    )


def _variant_table(op_type: str, n_kernel_params: int, variants: list[Variant], include: str) -> str:
    """The kernel entries' declarations, one launcher per variant, and the table `cotbuilder_variants`."""
    args = ", ".join(f"(GM_ADDR)a[{i}]" for i in range(n_kernel_params))
    decls, launchers, table = [], [], []
    for i, v in enumerate(variants):
        decls.append(f"void {v.symbol}({', '.join(['GM_ADDR'] * n_kernel_params)});")
        launchers.append(
            f"static void cotbuilder_launch_{i}(uint32_t blockDim, void **a) {{\n"
            f"    ICPU_RUN_KF({v.symbol}, blockDim, {args});\n}}"
        )
        table.append(f"    {{{{{', '.join(str(d) for d in v.dtypes)}}}, cotbuilder_launch_{i}}},")
    return (
        f"// Generated by cotbuilder verify from the OpDef of {op_type}: the emulated aclnn layer.\n"
        '#include "kernel_operator.h"\n'
        + include
        + '#include "impl/host/aclnn_runtime.h"\n\n'
        + "\n".join(decls)
        + "\n\n"
        + "\n".join(launchers)
        + "\n\nstatic const std::vector<cbhost::KernelVariant> cotbuilder_variants = {\n"
        + "\n".join(table)
        + "\n};\n"
    )
