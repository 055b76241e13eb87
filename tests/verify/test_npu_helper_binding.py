"""A benchmark binding's EXEC_NPU_CMD against the generated aclnn API, built with the real g++: the real helper calls
the aclnn symbol through an untyped pointer, so a string attribute passed as `const char*` or `std::string` to an API
that takes `char *` (msOpGen's form) builds there and must build here. A reference answer refused by our typed shim
was reported as the answer's `failed_compile` (NPUKernelBench CrossEntropyLoss)."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

BINDING = """
#include "pytorch_npu_helper.hpp"
int aclnnLossGetWorkspaceSize(const aclTensor* x, char* reduction, const aclTensor* y, uint64_t* ws,
                              aclOpExecutor** ex);
int aclnnLoss(void* ws, uint64_t size, aclOpExecutor* ex, aclrtStream stream);
void bind(const at::Tensor& x, at::Tensor& y, std::string reduction) {
    const char* cstr = reduction.c_str();
    EXEC_NPU_CMD(aclnnLoss, x, cstr, y);
    EXEC_NPU_CMD(aclnnLoss, x, reduction, y);
    EXEC_NPU_CMD(aclnnLoss, x, "mean", y);
}
"""


def _syntax(source: str, tmp_path: Path) -> subprocess.CompletedProcess:
    tu = tmp_path / "binding.cpp"
    tu.write_text(source)
    includes = [f"-I{REPO / 'emulator' / d}" for d in ("include", "harness_include")]
    return subprocess.run(
        ["g++", "-std=c++17", "-fsyntax-only", "-w", *includes, str(tu)], capture_output=True, text=True, timeout=120
    )


def test_a_string_attribute_passed_as_const_char_or_std_string_builds_against_a_char_pointer_api(tmp_path):
    res = _syntax(BINDING, tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]


def test_a_binding_passing_the_wrong_argument_is_still_a_compile_error(tmp_path):
    """The conversions stay typed: a tensor where the API takes the string is refused (a model's wrong call)."""
    res = _syntax(
        BINDING.replace("EXEC_NPU_CMD(aclnnLoss, x, cstr, y);", "EXEC_NPU_CMD(aclnnLoss, x, x, y);"), tmp_path
    )
    assert res.returncode != 0 and "aclTensor" in res.stderr, res.stderr[-3000:]


SCALAR_LIST_BINDING = """
#include "pytorch_npu_helper.hpp"
int aclnnForeachAddScalarListGetWorkspaceSize(const aclTensorList* x, const aclScalarList* scalars,
                                              const aclTensorList* out, uint64_t* ws, aclOpExecutor** ex);
int aclnnForeachAddScalarList(void* ws, uint64_t size, aclOpExecutor* ex, aclrtStream stream);
void bind(std::vector<at::Tensor>& x, std::vector<at::Tensor>& out, const std::vector<at::Scalar>& scalars) {
    at::TensorList xs = x, outs = out;
    at::ArrayRef<at::Scalar> list = scalars;
    EXEC_NPU_CMD(aclnnForeachAddScalarList, xs, list, outs);
    EXEC_NPU_CMD(aclnnForeachAddScalarList, x, scalars, out);
}
"""


def test_a_list_of_scalars_converts_to_an_acl_scalar_list(tmp_path):
    """A foreach binding passes its scalars as `at::ArrayRef<at::Scalar>` (or a vector of them) where the aclnn API
    takes `const aclScalarList*` (NPUKernelBench ForeachAddScalarList): it builds, as with torch_npu's helper. Before,
    the helper had no such conversion and the task's own binding failed to compile."""
    res = _syntax(SCALAR_LIST_BINDING, tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
