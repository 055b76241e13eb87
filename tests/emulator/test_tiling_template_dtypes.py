"""Tiling template programming's native DataType values (Utils-API/Tiling模板编程/模板参数定义.md lists C_DT_FLOAT,
C_DT_FLOAT16, ... C_DT_FLOAT4_E1M2 for ASCENDC_TPL_DATATYPE_DECL / _SEL): hicann op projects declare their dtype
template parameters with them (e.g. ops-math asin_grad's tiling key header), so without them the op's host does not
compile. They are the ge::DataType numbers: the host encodes the dtype it reads from the tensor, the kernel compares
its template argument with the same constant."""

from __future__ import annotations

import subprocess


def test_native_datatype_constants_are_the_ge_datatype_numbers_and_select_the_kernel_instance(toolchain, tmp_path):
    src = tmp_path / "tpl_dtypes.cpp"
    src.write_text(
        """
#include <cstdio>
#include "graph/types.h"
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_DATATYPE_DECL(D_T_Y, C_DT_FLOAT, C_DT_FLOAT16, C_DT_BF16, ASCENDC_TPL_INPUT(0)),
                      ASCENDC_TPL_BOOL_DECL(FAST, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_Y, C_DT_FLOAT)),
                ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_Y, C_DT_BF16), ASCENDC_TPL_BOOL_SEL(FAST, 1)));

static_assert(C_DT_FLOAT == ge::DT_FLOAT && C_DT_FLOAT16 == ge::DT_FLOAT16 && C_DT_INT8 == ge::DT_INT8 &&
              C_DT_INT32 == ge::DT_INT32 && C_DT_UINT8 == ge::DT_UINT8 && C_DT_INT16 == ge::DT_INT16 &&
              C_DT_UINT16 == ge::DT_UINT16 && C_DT_UINT32 == ge::DT_UINT32 && C_DT_INT64 == ge::DT_INT64 &&
              C_DT_UINT64 == ge::DT_UINT64 && C_DT_DOUBLE == ge::DT_DOUBLE && C_DT_BOOL == ge::DT_BOOL &&
              C_DT_COMPLEX64 == ge::DT_COMPLEX64 && C_DT_BF16 == ge::DT_BF16 && C_DT_INT4 == ge::DT_INT4 &&
              C_DT_UINT1 == ge::DT_UINT1 && C_DT_INT2 == ge::DT_INT2 && C_DT_COMPLEX32 == ge::DT_COMPLEX32 &&
              C_DT_HIFLOAT8 == ge::DT_HIFLOAT8 && C_DT_FLOAT8_E5M2 == ge::DT_FLOAT8_E5M2 &&
              C_DT_FLOAT8_E4M3FN == ge::DT_FLOAT8_E4M3FN && C_DT_FLOAT4_E2M1 == ge::DT_FLOAT4_E2M1 &&
              C_DT_FLOAT4_E1M2 == ge::DT_FLOAT4_E1M2, "C_DT_* are the ge::DataType numbers");

int main() {
    ge::DataType x = ge::DT_BF16;  // what the host reads from its input tensor
    std::printf("%llu", (unsigned long long)GET_TPL_TILING_KEY(x, 1));
    for (const auto& inst : cbhost::tpl_instances(g_tilingDeclareParams, g_tilingSelectParams))
        std::printf(" %llu:%llu", (unsigned long long)inst.key, (unsigned long long)inst.values[0]);
    std::printf("\\n");
    return 0;
}
"""
    )
    exe = toolchain.build(src, tmp_path / "tpl_dtypes")
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=True).stdout.split()
    # DT_BF16 (27) in the 8-bit dtype field, FAST = 1 in the next bit
    assert out[0] == str(27 | 1 << 8)
    # the legal instances: float with FAST 0 and 1, bf16 with FAST 1 only
    assert sorted(out[1:]) == sorted(["0:0", str(1 << 8) + ":0", str(27 | 1 << 8) + ":27"])


def test_the_describe_step_reads_template_parameters_declared_inside_the_ops_namespace(toolchain, tmp_path):
    """ops-math declares them in `namespace PowerOp { ... }`: the describe main (verify/data/tpl_describe_main.cpp)
    reads g_tilingDeclareParams from the namespace tpl_namespace finds; before, its build failed and the op was
    labelled failed_compile for our generated code's error."""
    from cotbuilder.paths import package_data
    from cotbuilder.verify.opproject import tpl_dispatch

    header = tmp_path / "op_tpl.h"
    header.write_text(
        """
#include "ascendc/host_api/tiling/template_argument.h"
namespace PowerOp {
struct Unrelated { int a; };
ASCENDC_TPL_ARGS_DECL(Power, ASCENDC_TPL_UINT_DECL(MODE, 2, ASCENDC_TPL_UI_LIST, 0, 1, 2));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 0, 2)));
}  // namespace PowerOp
"""
    )
    namespace = tpl_dispatch.tpl_namespace(header.read_text())
    assert namespace == "PowerOp"
    assert tpl_dispatch.tpl_namespace("ASCENDC_TPL_SEL(x);") is None
    files = {"op_kernel/arch35/a.h": "ASCENDC_TPL_SEL(", "op_kernel/b.h": "ASCENDC_TPL_SEL("}
    assert tpl_dispatch.tpl_headers(files)[0] == "op_kernel/b.h"  # a modelled SoC's declaration first
    main = tmp_path / "describe.cpp"
    main.write_text(package_data("verify/data/tpl_describe_main.cpp").read_text(encoding="utf-8"))
    extra = [f'-DCOTBUILDER_TPL_HEADER="{header}"', f"-DCOTBUILDER_TPL_NAMESPACE={namespace}"]
    exe = toolchain.build(main, tmp_path / "describe", extra)
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=True).stdout
    assert '"params":["MODE"]' in out and '"values":[2]' in out and '"values":[1]' not in out, out
