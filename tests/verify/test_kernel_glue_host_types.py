"""A tiling header that names the host contexts (kernel_glue.variants): the op build reads it as host code, the
kernel's translation unit here includes it, so the kernel prelude declares the host contexts first. The build of such
an op is measured on NPUKernelBench's AddRmsNorm family (closing note of session 14); this checks the prelude, which
a build cannot pass without."""

from __future__ import annotations

from cotbuilder.verify.opproject import kernel_glue

OP = {"type": "AddRmsNorm", "inputs": [{"name": "x", "dtypes": [1]}], "outputs": [{"name": "y", "dtypes": [1]}]}
KERNEL = 'extern "C" __global__ __aicore__ void add_rms_norm(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {}\n'
HEADER = (
    '#include "register/tilingdata_base.h"\nnamespace optiling {\nBEGIN_TILING_DATA_DEF(AddRmsNormTilingData)\n'
    "TILING_DATA_FIELD_DEF(uint32_t, num_row);\nEND_TILING_DATA_DEF;\n"
    "REGISTER_TILING_DATA_CLASS(AddRmsNorm, AddRmsNormTilingData)\n}\n"
)
HELPER = (
    "template <typename T>\ninline T* GetCompileInfoPtr(gert::TilingParseContext* context)\n{\n"
    "    return context->GetCompiledInfo<T>();\n}\n"
)


def _prelude(header: str) -> str:
    (variant,) = kernel_glue.variants(OP, [KERNEL], {"op_host/add_rms_norm_tiling.h": header}, KERNEL)
    return variant.prelude


def test_the_host_contexts_come_before_a_tiling_header_that_names_them():
    prelude = _prelude(HEADER + HELPER)
    host = prelude.index(f'#include "{kernel_glue.HOST_TYPES_HEADER}"')
    assert host < prelude.index('#include "op_host/add_rms_norm_tiling.h"')


def test_a_tiling_header_of_structs_only_brings_no_host_code_into_the_kernel():
    assert kernel_glue.HOST_TYPES_HEADER not in _prelude(HEADER)
    assert kernel_glue.HOST_TYPES_HEADER not in _prelude(HEADER + "// gert::TilingContext in a comment\n")


def test_an_output_named_as_an_input_gets_the_ref_dtype_macros():
    """cann-ops eye_fp64 declares Input("y") and Output("y") and its kernel reads DTYPE_Y_REF: the toolkit's kernel
    build (ascendc_impl_build.py) suffixes an output named as an input with _REF."""
    op = {"type": "EyeFp64", "inputs": [{"name": "y", "dtypes": [11]}], "outputs": [{"name": "y", "dtypes": [11]}]}
    (variant,) = kernel_glue.variants(op, ["DTYPE_Y_REF " + KERNEL], {}, "DTYPE_Y_REF " + KERNEL)
    assert "#define DTYPE_Y double" in variant.prelude and "#define DTYPE_Y_REF double" in variant.prelude
    assert "#define ORIG_DTYPE_Y_REF 11" in variant.prelude
