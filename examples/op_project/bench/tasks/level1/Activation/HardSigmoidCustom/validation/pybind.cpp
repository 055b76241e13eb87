#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

/**
 * The binding the benchmark builds: allocate the output, call the op's aclnn API.
 */
at::Tensor custom_pybind_api(const at::Tensor &x)
{
    at::Tensor y = torch::empty_like(x);
    EXEC_NPU_CMD(aclnnCustomOp, x, y);
    return y;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("custom_pybind_api", &custom_pybind_api, "");
}
