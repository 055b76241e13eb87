"""The emulator's include tree is laid out like the real AscendC headers: a kernel that includes a real public header
(`adv_api/math/tanh.h`, its older `lib/` spelling, the bare `kernel_tpipe.h`) instead of `kernel_operator.h` builds
and runs, every generated forwarding header resolves, and a family the emulator does not model has no header (so such
a kernel stays `unsupported`, naming the header)."""

from __future__ import annotations

import subprocess

import numpy as np

from cotbuilder.apidocs import forwarders
from cotbuilder.apidocs.lists import is_toolkit_header
from cotbuilder.verify import diagnostics

from .conftest import FLAGS, INCLUDE, INCLUDE_FLAGS

# Written here in the style of a real sample: the kernel file includes only the high-level API's own header.
TANH_KERNEL = r"""
#include "adv_api/math/tanh.h"
#include "lib/math/kernel_operator_asin_intf.h"
#include "kernel_tpipe.h"

class KernelTanh {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n) {
        n_ = n;
        xGm.SetGlobalBuffer((__gm__ float*)x, n);
        yGm.SetGlobalBuffer((__gm__ float*)y, n);
        pipe.InitBuffer(inQ, 1, n * sizeof(float));
        pipe.InitBuffer(outQ, 1, n * sizeof(float));
    }
    __aicore__ inline void Process() {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::DataCopy(xl, xGm, n_);
        inQ.EnQue(xl);
        AscendC::LocalTensor<float> xi = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::Tanh(yl, xi, n_);
        outQ.EnQue(yl);
        inQ.FreeTensor(xi);
        AscendC::LocalTensor<float> yo = outQ.DeQue<float>();
        AscendC::DataCopy(yGm, yo, n_);
        outQ.FreeTensor(yo);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t n_ = 0;
};

extern "C" __global__ __aicore__ void tanh_kernel(GM_ADDR x, GM_ADDR y) {
    KernelTanh op;
    op.Init(x, y, 64);
    op.Process();
}
"""

TANH_MAIN = r"""
#include <cstdio>
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void tanh_kernel(GM_ADDR x, GM_ADDR y);
int main() {
    const uint32_t n = 64;
    float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(n * sizeof(float));
    for (uint32_t i = 0; i < n; ++i) x[i] = -3.0f + 6.0f * i / (n - 1);
    ICPU_RUN_KF(tanh_kernel, 1, (GM_ADDR)x, (GM_ADDR)y);
    for (uint32_t i = 0; i < n; ++i) printf("%.9g\n", y[i]);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return 0;
}
"""


def test_a_kernel_including_only_the_real_tanh_header_builds_and_computes_tanh(tmp_path):
    (tmp_path / "kernel.cpp").write_text(TANH_KERNEL)
    (tmp_path / "main.cpp").write_text(TANH_MAIN)
    exe = tmp_path / "tanh"
    # no precompiled header: it would bring kernel_operator.h in and hide a forwarding header that does not resolve
    build = subprocess.run(
        ["g++", *FLAGS, *INCLUDE_FLAGS, str(tmp_path / "kernel.cpp"), str(tmp_path / "main.cpp"), "-o", str(exe)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    got = np.array([float(v) for v in run.stdout.split()], dtype=np.float32)
    x = (-3.0 + 6.0 * np.arange(64) / 63).astype(np.float32)
    np.testing.assert_allclose(got, np.tanh(x), rtol=1e-5, atol=1e-6)


def test_every_generated_forwarding_header_resolves_in_one_translation_unit(tmp_path):
    generated = forwarders.existing(INCLUDE)
    assert len(generated) > 300  # basic_api, adv_api, lib/ and utils/ spellings
    for spelling in (
        "adv_api/math/tanh.h",
        "lib/math/tanh.h",
        "basic_api/kernel_tpipe.h",
        "adv_api/math/tanh_tiling.h",
    ):
        assert spelling in generated
    source = tmp_path / "all.cpp"
    source.write_text("".join(f'#include "{path}"\n' for path in generated) + "int main() { return 0; }\n")
    proc = subprocess.run(
        ["g++", *FLAGS, *INCLUDE_FLAGS, "-fsyntax-only", str(source)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_a_family_the_emulator_does_not_model_has_no_header_and_stays_unsupported():
    # The Ascend 950 tensor API is not emulated: its real header is not forwarded, so the build stops at the include
    # and verify calls it a toolkit header the backend lacks, not the kernel's bug.
    assert not (INCLUDE / "tensor_api" / "tensor.h").exists()
    assert is_toolkit_header("tensor_api/tensor.h")
    log = "k.cpp:2:10: fatal error: tensor_api/tensor.h: No such file or directory"
    assert diagnostics.missing_apis(log) == ["<tensor_api/tensor.h>"]
    # ...while a project's own missing header is the project's problem
    assert diagnostics.missing_apis("k.cpp:2:10: fatal error: my_helpers.h: No such file or directory") == []


def test_host_tiling_code_gets_securec_from_the_register_headers_as_with_cann(toolchain, tmp_path):
    """Op host code calls memset_s / memcpy_s without including securec.h (CANN's register headers bring it): the
    shims must too, or a correct op is failed_compile. The bounds check is securec's: a too-long copy returns nonzero."""
    src = tmp_path / "host.cpp"
    src.write_text(
        '#include "register/tilingdata_base.h"\n#include <cstdio>\n'
        "int main() { char buf[8]; int ok = memset_s(buf, sizeof buf, 0, 8);\n"
        '  int over = memcpy_s(buf, sizeof buf, "0123456789", 10);\n'
        '  std::printf("%d %d\\n", ok, over != 0); return 0; }\n',
        encoding="utf-8",
    )
    exe = toolchain.build(src, tmp_path / "host")
    assert subprocess.run([str(exe)], capture_output=True, text=True, timeout=30).stdout.split() == ["0", "1"]
