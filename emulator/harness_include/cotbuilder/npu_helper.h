// EXEC_NPU_CMD for a benchmark's binding on the emulator, written for cotbuilder (clean room): each argument is
// converted to its aclnn form (a tensor to an aclTensor over the same GM bytes, a tensor list to an aclTensorList,
// a Scalar to an aclScalar, an int array to an aclIntArray, an absent optional to nullptr, anything else as it is),
// then the op's generated aclnn<Op>GetWorkspaceSize / aclnn<Op> pair runs, as the real helper does through torch_npu.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "cotbuilder/torch_shim.h"

namespace cotbuilder_bind {

inline aclDataType acl_dtype(at::ScalarType t) {
    switch (t) {
        case at::ScalarType::Float: return ACL_FLOAT;
        case at::ScalarType::Half: return ACL_FLOAT16;
        case at::ScalarType::BFloat16: return ACL_BF16;
        case at::ScalarType::Double: return ACL_DOUBLE;
        case at::ScalarType::Char: return ACL_INT8;
        case at::ScalarType::Byte: return ACL_UINT8;
        case at::ScalarType::Short: return ACL_INT16;
        case at::ScalarType::Int: return ACL_INT32;
        case at::ScalarType::Long: return ACL_INT64;
        case at::ScalarType::Bool: return ACL_BOOL;
        case at::ScalarType::UInt16: return ACL_UINT16;
        case at::ScalarType::UInt32: return ACL_UINT32;
        case at::ScalarType::UInt64: return ACL_UINT64;
        case at::ScalarType::ComplexFloat: return ACL_COMPLEX64;
        default: return ACL_DT_UNDEFINED;
    }
}

inline aclTensor* convert(const at::Tensor& t) {
    if (!t.defined()) return nullptr;
    std::vector<int64_t> dims = t.sizes().vec(), strides = t.strides();
    return aclCreateTensor(dims.data(), dims.size(), acl_dtype(t.scalar_type()), strides.data(), 0, ACL_FORMAT_ND,
                           dims.data(), dims.size(), t.data_ptr());
}
inline aclTensor* convert(const c10::optional<at::Tensor>& t) { return t ? convert(*t) : nullptr; }
inline aclTensorList* convert(const at::TensorList& l) {
    std::vector<const aclTensor*> ts;
    for (const auto& t : l) ts.push_back(convert(t));
    return aclCreateTensorList(ts.data(), ts.size());
}
inline aclTensorList* convert(const std::vector<at::Tensor>& l) { return convert(at::TensorList(l)); }
inline aclScalar* convert(const at::Scalar& s) {
    if (s.isFloatingPoint()) {
        float v = s.toFloat();
        return aclCreateScalar(&v, ACL_FLOAT);
    }
    if (s.isBoolean()) {
        bool v = s.toBool();
        return aclCreateScalar(&v, ACL_BOOL);
    }
    int64_t v = s.toLong();
    return aclCreateScalar(&v, ACL_INT64);
}
inline aclScalar* convert(const c10::optional<at::Scalar>& s) { return s ? convert(*s) : nullptr; }
// A list of scalars (foreach ops' scalar lists: `at::ArrayRef<at::Scalar>` or a std::vector of them) is an
// aclScalarList of the converted scalars, as torch_npu's helper builds it.
inline aclScalarList* convert(const at::ArrayRef<at::Scalar>& l) {
    std::vector<const aclScalar*> ss;
    for (const auto& s : l) ss.push_back(convert(s));
    return aclCreateScalarList(ss.data(), ss.size());
}
inline aclScalarList* convert(const std::vector<at::Scalar>& l) { return convert(at::ArrayRef<at::Scalar>(l)); }
inline aclIntArray* convert(const at::IntArrayRef& a) { return aclCreateIntArray(a.data(), a.size()); }
inline aclIntArray* convert(const std::vector<int64_t>& a) { return aclCreateIntArray(a.data(), a.size()); }
inline aclIntArray* convert(const c10::optional<at::IntArrayRef>& a) { return a ? convert(*a) : nullptr; }
inline aclBoolArray* convert(const at::ArrayRef<bool>& a) {
    std::vector<bool> v(a.begin(), a.end());
    std::unique_ptr<bool[]> raw(new bool[v.size() ? v.size() : 1]);
    for (size_t i = 0; i < v.size(); ++i) raw[i] = v[i];
    return aclCreateBoolArray(raw.get(), v.size());
}
inline aclFloatArray* convert(const std::vector<float>& a) { return aclCreateFloatArray(a.data(), a.size()); }
inline aclDataType convert(at::ScalarType t) { return acl_dtype(t); }
// The generated aclnn API takes a string attribute as `char *` (msOpGen's form). The real EXEC_NPU_CMD calls the
// aclnn symbol through an untyped function pointer, so a binding passing `const char*` builds there: ours is typed,
// hence the cast (aclnn never writes the string).
inline char* convert(const std::string& s) { return const_cast<char*>(s.c_str()); }
inline char* convert(const char* s) { return const_cast<char*>(s); }
template <typename T>
inline T convert(T v) {
    return v;
}

}  // namespace cotbuilder_bind

// The helper functions a binding may call besides EXEC_NPU_CMD (the benchmark's helper header offers them).
inline aclScalar* ConvertTensorToAclScaler(const at::Tensor& t) {
    if (!t.defined() || t.numel() < 1) return nullptr;
    return aclCreateScalar(t.data_ptr(), ::cotbuilder_bind::acl_dtype(t.scalar_type()));
}
inline c10::Scalar ConvertTensorToScalar(const at::Tensor& t) {
    if (!t.defined() || t.numel() < 1) return c10::Scalar(0.0);
    return at::detail::scalar_at(t.data_ptr<uint8_t>(), t.scalar_type());  // the first element, as item() reads one
}
inline at::Tensor CopyTensorHostToDevice(const at::Tensor& t) { return t; }
inline at::Tensor CopyScalarToDevice(const c10::Scalar& s, at::ScalarType t) {
    return at::empty({1}, t).fill_(s);
}

namespace cotbuilder_bind {

[[noreturn]] inline void fail(const char* api, int status) {
    throw std::runtime_error(std::string(api) + " failed with status " + std::to_string(status) + ": " +
                             aclGetRecentErrMsg());
}

}  // namespace cotbuilder_bind

#define EXEC_NPU_CMD(aclnn_api, ...)                                                                    \
    do {                                                                                                \
        uint64_t cbnpu_ws_size = 0;                                                                     \
        aclOpExecutor* cbnpu_executor = nullptr;                                                        \
        auto cbnpu_args = std::make_tuple(__VA_ARGS__);                                                 \
        int cbnpu_status = std::apply(                                                                  \
            [&](auto&... a) {                                                                           \
                return aclnn_api##GetWorkspaceSize(::cotbuilder_bind::convert(a)..., &cbnpu_ws_size,   \
                                                   &cbnpu_executor);                                    \
            },                                                                                          \
            cbnpu_args);                                                                                \
        if (cbnpu_status != 0) ::cotbuilder_bind::fail(#aclnn_api "GetWorkspaceSize", cbnpu_status);   \
        void* cbnpu_ws = cbnpu_ws_size ? cbemu::gm_alloc(cbnpu_ws_size) : nullptr;                      \
        cbnpu_status = aclnn_api(cbnpu_ws, cbnpu_ws_size, cbnpu_executor, nullptr);                     \
        if (cbnpu_ws) cbemu::gm_free(cbnpu_ws);                                                         \
        if (cbnpu_status != 0) ::cotbuilder_bind::fail(#aclnn_api, cbnpu_status);                      \
    } while (0)
