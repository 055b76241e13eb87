"""The torch-extension shim's element access, as benchmark bindings use it (NPUKernelBench's ForeachSubScalarList reads
its list of scalars with `scalar_tensor.accessor<float, 1>()`, others take `t.item<float>()`): built with the real g++
against the shim and run. Before, such bindings were `unsupported` ("torch-extension shim lacks: ... accessor")."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cotbuilder.verify.opproject.build import OpBuild
from cotbuilder.verify.opproject.run import failed_build

REPO = Path(__file__).resolve().parents[2]

PROGRAM = r"""
#include <cstdio>
#include <torch/extension.h>
int main() {
    at::Tensor v = at::empty({3}, at::kFloat);
    float* p = v.data_ptr<float>();
    p[0] = 1.5f; p[1] = -2.0f; p[2] = 4.25f;
    auto a = v.accessor<float, 1>();
    std::vector<at::Scalar> scalars;
    for (int i = 0; i < v.size(0); ++i) scalars.push_back(at::Scalar(a[i]));
    std::printf("list %g %g %g\n", scalars[0].toDouble(), scalars[1].toDouble(), scalars[2].toDouble());
    at::Tensor m = at::zeros({2, 3}, at::kInt);
    auto ma = m.accessor<int, 2>();
    ma[1][2] = 7;  // written through the accessor, read back through the data
    std::printf("matrix %d %d %d\n", m.data_ptr<int>()[5], (int)ma.size(0), (int)ma.size(1));
    at::Tensor one = at::full({1}, at::Scalar(3.5), at::kHalf);
    std::printf("item %g %lld\n", one.item<float>(), (long long)at::full({1}, at::Scalar(9), at::kLong).item().toLong());
    try { v.item<float>(); std::printf("no throw\n"); } catch (const std::exception& e) { std::printf("item throws\n"); }
    try { v.accessor<float, 2>(); std::printf("no throw\n"); } catch (const std::exception& e) { std::printf("dims throw\n"); }
    try { v.accessor<double, 1>(); std::printf("no throw\n"); } catch (const std::exception& e) { std::printf("type throws\n"); }
    at::Tensor h = torch::empty_like(m, torch::dtype(torch::kFloat32));  // RmsNormGrad's dgamma output
    std::printf("options %d %d\n", (int)(h.scalar_type() == at::kFloat), (int)h.numel());
    at::Tensor back = h.to(one.dtype());  // a TypeMeta: NPUKernelBench IsFinite's binding casts so
    std::printf("to dtype %d\n", (int)(back.scalar_type() == at::kHalf));
    return 0;
}
"""


def test_accessor_and_item_read_and_write_a_tensors_elements_and_refuse_a_wrong_shape_or_type(tmp_path):
    src = tmp_path / "shim.cpp"
    src.write_text(PROGRAM)
    includes = [f"-I{REPO / 'emulator' / d}" for d in ("include", "include/basic_api", "harness_include")]
    exe = tmp_path / "shim"
    built = subprocess.run(
        ["g++", "-std=c++17", "-O0", "-w", "-pthread", "-DASCENDC_CPU_DEBUG", *includes, str(src), "-o", str(exe)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines() == [
        "list 1.5 -2 4.25",
        "matrix 7 2 3",
        "item 3.5 9",
        "item throws",
        "dims throw",
        "type throws",
        "options 1 6",
        "to dtype 1",
    ], run.stdout


def test_a_binding_that_needs_a_torch_name_the_shim_lacks_is_the_shims_gap_not_a_compile_failure():
    """g++ names a missing namespace member without `torch::` in the message ("'dtype' is not a member of 'torch'",
    as NPUKernelBench's RmsNormGrad binding met it): that is the shim's gap, `unsupported`, never `failed_compile`."""
    log = "cotbuilder_gen/pybind_bound.cpp:24:60: error: 'dtype' is not a member of 'torch'; did you mean 'Dtype'?"
    failed = OpBuild(ok=False, stage="harness", log=log, outcome="error", reason=log)
    v = failed_build(failed, "benchmark", {})
    assert v.status == "unsupported" and "torch-extension shim lacks" in v.reason, v.reason
