// The op-implementation registry (docs: Utils-API/原型注册与管理, IMPL_OP / IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE):
// per op type its tiling function, tiling-parse function and compile-info type, infer-shape and infer-dtype
// functions. OpDef::AICore().SetTiling and SetInferShape register into the same table, so both spellings an op
// project may use end up in one place the emulated framework reads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "contexts.h"
#include "using_std.h"

namespace gert {

class OpImplRegisterV2 {
public:
    using TilingKernelFunc = ge::graphStatus (*)(TilingContext*);
    using TilingParseFunc = ge::graphStatus (*)(TilingParseContext*);
    using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
    using InferShapeRangeKernelFunc = ge::graphStatus (*)(InferShapeRangeContext*);
    using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);
    using CompileInfoCreatorFunc = void* (*)();
    using CompileInfoDeleterFunc = void (*)(void*);
};

}  // namespace gert

namespace cbhost {

struct OpImpl {
    gert::OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
    gert::OpImplRegisterV2::TilingParseFunc tiling_parse = nullptr;
    gert::OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
    gert::OpImplRegisterV2::InferShapeRangeKernelFunc infer_shape_range = nullptr;
    gert::OpImplRegisterV2::InferDataTypeKernelFunc infer_dtype = nullptr;
    gert::OpImplRegisterV2::CompileInfoCreatorFunc make_compile_info = nullptr;
    gert::OpImplRegisterV2::CompileInfoDeleterFunc free_compile_info = nullptr;
    std::vector<size_t> value_depend;  // input indexes whose data tiling reads
    std::map<std::string, std::string> private_attrs;
};

inline std::map<std::string, OpImpl>& op_impls() {
    static std::map<std::string, OpImpl> m;
    return m;
}

}  // namespace cbhost

namespace gert {

// The builder IMPL_OP(...) returns: each call records one function for the op type.
class OpImplRegister {
public:
    explicit OpImplRegister(const char* type) : type_(type) { cbhost::op_impls()[type_]; }
    OpImplRegister& Tiling(OpImplRegisterV2::TilingKernelFunc f, size_t = 0) {
        impl().tiling = f;
        return *this;
    }
    template <typename T>
    OpImplRegister& TilingParse(OpImplRegisterV2::TilingParseFunc f) {
        impl().tiling_parse = f;
        impl().make_compile_info = [] { return (void*)new T(); };
        impl().free_compile_info = [](void* p) { delete static_cast<T*>(p); };
        return *this;
    }
    OpImplRegister& TilingParse(OpImplRegisterV2::TilingParseFunc f) {
        impl().tiling_parse = f;
        return *this;
    }
    OpImplRegister& InferShape(OpImplRegisterV2::InferShapeKernelFunc f) {
        impl().infer_shape = f;
        return *this;
    }
    OpImplRegister& InferShapeRange(OpImplRegisterV2::InferShapeRangeKernelFunc f) {
        impl().infer_shape_range = f;
        return *this;
    }
    OpImplRegister& InferDataType(OpImplRegisterV2::InferDataTypeKernelFunc f) {
        impl().infer_dtype = f;
        return *this;
    }
    OpImplRegister& InputsDataDependency(std::initializer_list<int32_t> idx) {
        for (int32_t i : idx) impl().value_depend.push_back((size_t)i);
        return *this;
    }
    OpImplRegister& TilingInputsDataDependency(std::initializer_list<int32_t> idx) { return InputsDataDependency(idx); }
    template <typename... Args>
    OpImplRegister& TilingInputsDataDependency(std::initializer_list<int32_t> idx, Args...) {
        return InputsDataDependency(idx);
    }
    OpImplRegister& PrivateAttr(const char* name, const char* v) {
        impl().private_attrs[name] = v;
        return *this;
    }
    OpImplRegister& PrivateAttr(const char* name, int64_t v) {
        impl().private_attrs[name] = std::to_string(v);
        return *this;
    }
    OpImplRegister& PrivateAttr(const char* name, bool v) {
        impl().private_attrs[name] = v ? "true" : "false";
        return *this;
    }
    OpImplRegister& PrivateAttr(const char* name, float v) {
        impl().private_attrs[name] = std::to_string(v);
        return *this;
    }
    OpImplRegister& OutputShapeDependOnCompute(std::initializer_list<int32_t>) { return *this; }
    OpImplRegister& HostInputs(std::initializer_list<int32_t>) { return *this; }
    OpImplRegister& GenSimplifiedKey(...) { return *this; }

private:
    std::string type_;
    cbhost::OpImpl& impl() { return cbhost::op_impls()[type_]; }
};

}  // namespace gert

#define CBHOST_CAT_(a, b) a##b
#define CBHOST_CAT(a, b) CBHOST_CAT_(a, b)
#define IMPL_OP(op_type) \
    static ::gert::OpImplRegister CBHOST_CAT(cotbuilder_op_impl_, __COUNTER__) = ::gert::OpImplRegister(#op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
#define IMPL_OP_CT(op_type) IMPL_OP(op_type)
