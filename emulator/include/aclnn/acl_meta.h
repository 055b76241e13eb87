// aclnn argument objects (docs: the aclCreateTensor / aclCreateScalar / aclCreateIntArray ... pages of the aclnn API
// reference): a tensor is a view (shape, strides, offset, dtype, format) on device memory; here device memory is the
// emulator's GM, so the data pointer is directly usable by the host tiling and by the kernel.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../acl/acl_base.h"

// The op-api framework (opdev/) reads these objects through member functions returning its own types (op::Shape is
// gert::Shape, op::DataType is ge::DataType): declared here, defined in impl/host/opapi_tensor.h.
namespace ge {
enum DataType : int32_t;
enum Format : int32_t;
}  // namespace ge
namespace gert {
class Shape;
}  // namespace gert

// The aclnn APIs' status code and executor handle: declared here, as by the toolkit's acl_meta.h (an op's own aclnn
// header may include only this one); the codes' values are in aclnn_base.h.
typedef int32_t aclnnStatus;
struct aclOpExecutor;

struct aclTensor {
    std::vector<int64_t> view_dims, strides, storage_dims;
    int64_t offset = 0;  // elements
    aclDataType dtype = ACL_DT_UNDEFINED;
    aclFormat format = ACL_FORMAT_ND;
    void* data = nullptr;
    bool from_workspace = false;  // made by an op executor (AllocTensor ...), not by the caller's aclCreateTensor

    int64_t numel() const {
        int64_t n = 1;
        for (int64_t d : view_dims) n *= d;
        return n;
    }
    // Row-major strides of the view shape: anything else needs a copy the emulated framework does not make.
    bool contiguous() const {
        if (strides.empty()) return true;
        int64_t expect = 1;
        for (size_t i = view_dims.size(); i-- > 0;) {
            if (view_dims[i] != 1 && strides[i] != expect) return false;
            expect *= view_dims[i];
        }
        return true;
    }
    // The address of the view's first element.
    void* first() const {
        return data ? static_cast<uint8_t*>(data) + offset * (int64_t)aclDataTypeSize(dtype) : nullptr;
    }

    // The op-api framework's view of a tensor (opdev's aclTensor accessors).
    ge::DataType GetDataType() const { return static_cast<ge::DataType>(static_cast<int32_t>(dtype)); }
    void SetDataType(ge::DataType dt) { dtype = static_cast<aclDataType>(static_cast<int32_t>(dt)); }
    ge::Format GetViewFormat() const { return static_cast<ge::Format>(format == ACL_FORMAT_UNDEFINED ? 2 : (int32_t)format); }
    ge::Format GetStorageFormat() const { return GetViewFormat(); }
    ge::Format GetOriginalFormat() const { return GetViewFormat(); }
    void SetViewFormat(ge::Format f) { format = static_cast<aclFormat>(static_cast<int32_t>(f)); }
    void SetStorageFormat(ge::Format f) { SetViewFormat(f); }
    void SetOriginalFormat(ge::Format f) { SetViewFormat(f); }
    gert::Shape GetViewShape() const;
    gert::Shape GetStorageShape() const;
    gert::Shape GetOriginalShape() const;
    void SetViewShape(const gert::Shape& s);
    void SetStorageShape(const gert::Shape& s);
    void SetOriginalShape(const gert::Shape& s);
    std::vector<int64_t> GetViewStrides() const;
    int64_t GetViewOffset() const { return offset; }
    int64_t GetStorageOffset() const { return offset; }
    int64_t Size() const { return numel(); }
    int64_t Numel() const { return numel(); }
    bool IsEmpty() const { return numel() == 0; }
    void* GetData() const { return first(); }
    void* GetStorageAddr() const { return data; }
    bool IsFromWorkspace() const { return from_workspace; }
};

struct aclScalar {
    aclDataType dtype = ACL_DT_UNDEFINED;
    uint8_t bytes[16] = {};
    double as_double() const {
        switch (dtype) {
            case ACL_FLOAT: { float v; std::memcpy(&v, bytes, 4); return v; }
            case ACL_DOUBLE: { double v; std::memcpy(&v, bytes, 8); return v; }
            case ACL_FLOAT16: { uint16_t b; std::memcpy(&b, bytes, 2); return (float)half::from_bits(b); }
            case ACL_BF16: { uint16_t b; std::memcpy(&b, bytes, 2); uint32_t u = (uint32_t)b << 16; float f; std::memcpy(&f, &u, 4); return f; }
            case ACL_INT8: return (int8_t)bytes[0];
            case ACL_UINT8: return bytes[0];
            case ACL_BOOL: return bytes[0] != 0;
            case ACL_INT16: { int16_t v; std::memcpy(&v, bytes, 2); return v; }
            case ACL_UINT16: { uint16_t v; std::memcpy(&v, bytes, 2); return v; }
            case ACL_INT32: { int32_t v; std::memcpy(&v, bytes, 4); return v; }
            case ACL_UINT32: { uint32_t v; std::memcpy(&v, bytes, 4); return v; }
            case ACL_INT64: { int64_t v; std::memcpy(&v, bytes, 8); return (double)v; }
            case ACL_UINT64: { uint64_t v; std::memcpy(&v, bytes, 8); return (double)v; }
            default: return 0;
        }
    }
    int64_t as_int() const {
        switch (dtype) {
            case ACL_INT64: { int64_t v; std::memcpy(&v, bytes, 8); return v; }
            case ACL_UINT64: { uint64_t v; std::memcpy(&v, bytes, 8); return (int64_t)v; }
            default: return (int64_t)as_double();
        }
    }
    // opdev's aclScalar accessors: the value converted as a C++ cast would.
    ge::DataType GetDataType() const { return static_cast<ge::DataType>(static_cast<int32_t>(dtype)); }
    float ToFloat() const { return (float)as_double(); }
    double ToDouble() const { return as_double(); }
    int64_t ToInt64() const { return as_int(); }
    int32_t ToInt32() const { return (int32_t)as_int(); }
    bool ToBool() const { return as_double() != 0; }
    template <typename T>
    T To() const {
        return static_cast<T>(std::is_integral<T>::value ? (double)as_int() : as_double());
    }
    const void* GetData() const { return bytes; }
};

// The arrays and lists as opdev reads them: Size(), operator[], GetData().
struct aclIntArray {
    std::vector<int64_t> v;
    uint64_t Size() const { return v.size(); }
    const int64_t& operator[](size_t i) const { return v[i]; }
    int64_t& operator[](size_t i) { return v[i]; }
    const int64_t* GetData() const { return v.data(); }
};
struct aclFloatArray {
    std::vector<float> v;
    uint64_t Size() const { return v.size(); }
    const float& operator[](size_t i) const { return v[i]; }
    const float* GetData() const { return v.data(); }
};
struct aclBoolArray {
    std::vector<bool> v;
    uint64_t Size() const { return v.size(); }
    bool operator[](size_t i) const { return v[i]; }
};
struct aclTensorList {
    std::vector<const aclTensor*> v;
    uint64_t Size() const { return v.size(); }
    aclTensor* operator[](size_t i) const { return const_cast<aclTensor*>(v[i]); }
};
struct aclScalarList {
    std::vector<const aclScalar*> v;
    uint64_t Size() const { return v.size(); }
    aclScalar* operator[](size_t i) const { return const_cast<aclScalar*>(v[i]); }
};

inline aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                  const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
                                  uint64_t storageDimsNum, void* tensorData) {
    auto* t = new aclTensor();
    if (viewDims) t->view_dims.assign(viewDims, viewDims + viewDimsNum);
    if (stride) t->strides.assign(stride, stride + viewDimsNum);
    if (storageDims) t->storage_dims.assign(storageDims, storageDims + storageDimsNum);
    t->offset = offset;
    t->dtype = dataType;
    t->format = format;
    t->data = tensorData;
    return t;
}
inline aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
    auto* s = new aclScalar();
    s->dtype = dataType;
    size_t n = aclDataTypeSize(dataType);
    if (value && n && n <= sizeof(s->bytes)) std::memcpy(s->bytes, value, n);
    return s;
}
inline aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
    auto* a = new aclIntArray();
    if (value) a->v.assign(value, value + size);
    return a;
}
inline aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
    auto* a = new aclFloatArray();
    if (value) a->v.assign(value, value + size);
    return a;
}
inline aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
    auto* a = new aclBoolArray();
    if (value) a->v.assign(value, value + size);
    return a;
}
inline aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
    auto* l = new aclTensorList();
    if (value) l->v.assign(value, value + size);
    return l;
}
inline aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
    auto* l = new aclScalarList();
    if (value) l->v.assign(value, value + size);
    return l;
}
inline aclError aclDestroyTensor(const aclTensor* t) { delete t; return ACL_SUCCESS; }
inline aclError aclDestroyScalar(const aclScalar* s) { delete s; return ACL_SUCCESS; }
inline aclError aclDestroyIntArray(const aclIntArray* a) { delete a; return ACL_SUCCESS; }
inline aclError aclDestroyFloatArray(const aclFloatArray* a) { delete a; return ACL_SUCCESS; }
inline aclError aclDestroyBoolArray(const aclBoolArray* a) { delete a; return ACL_SUCCESS; }
// Destroying a list destroys the tensors it holds, as documented.
inline aclError aclDestroyTensorList(const aclTensorList* l) {
    if (l)
        for (auto* t : l->v) delete t;
    delete l;
    return ACL_SUCCESS;
}
inline aclError aclDestroyScalarList(const aclScalarList* l) {
    if (l)
        for (auto* s : l->v) delete s;
    delete l;
    return ACL_SUCCESS;
}
inline aclError aclGetViewShape(const aclTensor* t, int64_t** dims, uint64_t* n) {
    if (!t || !dims || !n) return ACL_ERROR_INVALID_PARAM;
    *n = t->view_dims.size();
    *dims = new int64_t[t->view_dims.size() ? t->view_dims.size() : 1];
    for (size_t i = 0; i < t->view_dims.size(); ++i) (*dims)[i] = t->view_dims[i];
    return ACL_SUCCESS;
}
inline aclError aclGetStorageShape(const aclTensor* t, int64_t** dims, uint64_t* n) {
    if (!t || !dims || !n) return ACL_ERROR_INVALID_PARAM;
    const auto& src = t->storage_dims.empty() ? t->view_dims : t->storage_dims;
    *n = src.size();
    *dims = new int64_t[src.size() ? src.size() : 1];
    for (size_t i = 0; i < src.size(); ++i) (*dims)[i] = src[i];
    return ACL_SUCCESS;
}
inline aclError aclGetDataType(const aclTensor* t, aclDataType* dt) {
    if (!t || !dt) return ACL_ERROR_INVALID_PARAM;
    *dt = t->dtype;
    return ACL_SUCCESS;
}
inline aclError aclGetFormat(const aclTensor* t, aclFormat* f) {
    if (!t || !f) return ACL_ERROR_INVALID_PARAM;
    *f = t->format;
    return ACL_SUCCESS;
}
inline aclError aclGetViewOffset(const aclTensor* t, int64_t* offset) {
    if (!t || !offset) return ACL_ERROR_INVALID_PARAM;
    *offset = t->offset;
    return ACL_SUCCESS;
}
inline aclError aclGetIntArraySize(const aclIntArray* a, uint64_t* n) {
    if (!a || !n) return ACL_ERROR_INVALID_PARAM;
    *n = a->v.size();
    return ACL_SUCCESS;
}
inline aclError aclGetTensorListSize(const aclTensorList* l, uint64_t* n) {
    if (!l || !n) return ACL_ERROR_INVALID_PARAM;
    *n = l->v.size();
    return ACL_SUCCESS;
}
inline aclError aclSetAclTensorAddr(aclTensor* t, const uint64_t, void* addr) {
    if (!t) return ACL_ERROR_INVALID_PARAM;
    t->data = addr;
    return ACL_SUCCESS;
}
