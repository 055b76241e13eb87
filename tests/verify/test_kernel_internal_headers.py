"""Two toolkit headers kernels include directly besides kernel_operator.h: `kernel_type.h` (the data-type codes as
macros, numbered as ge::DataType) and `kernel_log.h` (KERNEL_LOG, ASCENDC_ASSERT). cann-ops adaptive_avg_pool3d and
group_norm_grad include them; missing, they were `unsupported` for a header the toolkit has. Built with the real g++."""

from __future__ import annotations

from .gxx import syntax_only

KERNEL = r"""
#include "kernel_type.h"
#include "kernel_log.h"
static_assert(DT_FLOAT == 0 && DT_FLOAT16 == 1 && DT_INT32 == 3 && DT_BF16 == 27, "ge::DataType's numbering");
template <int CODE> struct Elem;
template <> struct Elem<DT_FLOAT16> { using T = half; };
extern "C" __global__ __aicore__ void scale(GM_ADDR x) {
    AscendC::GlobalTensor<Elem<DT_FLOAT16>::T> gm;
    gm.SetGlobalBuffer((__gm__ half*)x, 16);
    KERNEL_LOG(KERNEL_INFO, "block %d", (int)AscendC::GetBlockIdx());
    ASCENDC_ASSERT(AscendC::GetBlockIdx() >= 0, { KERNEL_LOG(KERNEL_ERROR, "negative block"); });
}
"""


def test_a_kernel_including_the_type_codes_and_log_headers_builds(tmp_path):
    built = syntax_only(tmp_path / "k.cpp", KERNEL, "-DASCENDC_CPU_DEBUG")
    assert built.returncode == 0, built.stderr[-2000:]
