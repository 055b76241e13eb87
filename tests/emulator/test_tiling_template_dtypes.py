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
