"""The generated aclnn API follows two rules of the aclnn call guide (单算子API调用.md) that benchmark bindings rely on:
an input and an output of the same name are one `aclTensor *xRef` in the input's place (an `aclTensorList *xRef`
for a dynamic pair: NPUKernelBench ScatterList's binding passes `varRef` once), and a ValueDepend input of
DT_INT64 / DT_BOOL / DT_FLOAT is an aclIntArray / aclBoolArray / aclFloatArray. Without them the NPUKernelBench
Eye and Fill reference answers were the answer's `failed_compile` (their bindings call the API the real msOpGen
makes). The generated layer and a caller are built with the real g++ against the emulator's aclnn runtime."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cotbuilder.verify.opproject import aclnn_gen

REPO = Path(__file__).resolve().parents[2]


def _input(name, dtypes=(1,), value_depend=False, param_type="required"):
    return {
        "name": name,
        "param_type": param_type,
        "scalar": False,
        "scalar_list": False,
        "dtypes": list(dtypes),
        "value_depend": value_depend,
    }


def _output(name, param_type="required"):
    return {"name": name, "param_type": param_type}


EYE = {  # writes its result into its input: Input("y") and Output("y")
    "type": "EyeLike",
    "inputs": [_input("y")],
    "outputs": [_output("y")],
    "attrs": [{"name": "num_rows", "kind": "int", "required": True}],
}
SCATTER = {  # updates a list of tensors in place: dynamic Input("var") and Output("var")
    "type": "ScatterListLike",
    "inputs": [_input("var", param_type="dynamic"), _input("indice", dtypes=(3,))],
    "outputs": [_output("var", param_type="dynamic")],
    "attrs": [{"name": "axis", "kind": "int", "required": False}],
}
FILL = {  # the shape is a value-depend int64 input
    "type": "FillLike",
    "inputs": [_input("dims", dtypes=(9, 9), value_depend=True), _input("value", dtypes=(1, 0))],
    "outputs": [_output("y")],
    "attrs": [],
}


def _signature(op):
    return [(p.c_type, p.name) for p in aclnn_gen.parameters(op) if p.in_signature]


def test_an_input_and_output_of_one_name_are_one_ref_parameter_recorded_as_both():
    assert _signature(EYE) == [("aclTensor *", "yRef"), ("int64_t", "numRows")]
    records = [p.call % p.name for p in aclnn_gen.parameters(EYE)]
    assert records == ["input(yRef)", "attr_int(numRows)", "output(yRef)"]


def test_a_dynamic_input_and_output_of_one_name_are_one_ref_list_recorded_as_both():
    assert _signature(SCATTER) == [
        ("aclTensorList *", "varRef"),
        ("const aclTensor *", "indice"),
        ("int64_t", "axisOptional"),
    ]
    records = [p.call % p.name for p in aclnn_gen.parameters(SCATTER)]
    assert records == ["dynamic_input(varRef)", "input(indice)", "attr_int(axisOptional)", "dynamic_output(varRef)"]
    apart = {**SCATTER, "outputs": [_output("out", param_type="dynamic")]}  # different names: two lists
    assert [n for _, n in _signature(apart)] == ["var", "indice", "axisOptional", "out"]


def test_a_value_depend_input_of_one_array_dtype_is_an_array_and_otherwise_a_tensor():
    assert _signature(FILL) == [
        ("const aclIntArray *", "dims"),
        ("const aclTensor *", "value"),
        ("const aclTensor *", "y"),
    ]
    mixed = {**FILL, "inputs": [_input("dims", dtypes=(9, 3), value_depend=True), FILL["inputs"][1]]}
    assert _signature(mixed)[0] == ("const aclTensor *", "dims")
    plain = {**FILL, "inputs": [_input("dims", dtypes=(9, 9)), FILL["inputs"][1]]}
    assert _signature(plain)[0] == ("const aclTensor *", "dims")


CALLER = """
#include "aclnn_eye_like.h"
#include "aclnn_fill_like.h"
#include "aclnn_scatter_list_like.h"
int call(aclTensor* y, const aclTensor* value, aclTensor* out, aclTensorList* var) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    int64_t dims[2] = {2, 3};
    aclIntArray* shape = aclCreateIntArray(dims, 2);
    return aclnnEyeLikeGetWorkspaceSize(y, 3, &ws, &ex) + aclnnFillLikeGetWorkspaceSize(shape, value, out, &ws, &ex) +
           aclnnScatterListLikeGetWorkspaceSize(var, value, 0, &ws, &ex);
}
"""


def _syntax(folder: Path, source: str) -> subprocess.CompletedProcess:
    argv = ["g++", "-std=c++17", "-fsyntax-only", "-w", f"-I{REPO / 'emulator' / 'include'}", f"-I{folder}", source]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=folder)


def test_the_generated_layer_and_a_binding_style_caller_build(tmp_path):
    for op, n_kernel_params in ((EYE, 4), (FILL, 5), (SCATTER, 5)):
        (tmp_path / aclnn_gen.header_name(op["type"])).write_text(aclnn_gen.generate_header(op))
        variant = aclnn_gen.Variant("cotbuilder_kernel", [-1] * (n_kernel_params - 2))
        (tmp_path / f"{op['type']}.cpp").write_text(aclnn_gen.generate_source(op, n_kernel_params, [variant]))
    with open(tmp_path / "FillLike.cpp", "a") as tu:  # the caller in one of the two TUs: one g++ run less
        tu.write(CALLER)
    for source in ("EyeLike.cpp", "FillLike.cpp", "ScatterListLike.cpp"):
        res = _syntax(tmp_path, source)
        assert res.returncode == 0, (source, res.stderr[-3000:])
