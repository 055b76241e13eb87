#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>
#include <ATen/Scalar.h>
#include "pytorch_npu_helper.hpp"

/**
 * The binding the benchmark builds: the scalars tensor becomes a host scalar list, one output per input tensor.
 */
std::vector<at::Tensor> custom_pybind_api(std::vector<at::Tensor> &x, const at::Tensor &scalars)
{
    std::vector<at::Scalar> values;
    if (scalars.scalar_type() == at::ScalarType::Long) {
        auto a = scalars.accessor<int64_t, 1>();
        for (int64_t i = 0; i < scalars.size(0); i++) {
            values.push_back(at::Scalar(a[i]));
        }
    } else {
        auto a = scalars.accessor<float, 1>();
        for (int64_t i = 0; i < scalars.size(0); i++) {
            values.push_back(at::Scalar(a[i]));
        }
    }
    std::vector<at::Tensor> y;
    for (const auto &t : x) {
        y.push_back(torch::empty_like(t));
    }
    at::TensorList xs = at::TensorList(x);
    at::TensorList ys = at::TensorList(y);
    at::ArrayRef<at::Scalar> scalarList(values);
    EXEC_NPU_CMD(aclnnCustomOp, xs, scalarList, ys);
    return y;
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.doc() = "Python bindings for kernel_gen_ops";
    m.def("custom_pybind_api", &custom_pybind_api, "");
}
