// The torch-extension surface a benchmark's binding file (`pybind.cpp`) uses, written for cotbuilder (clean room,
// from the PyTorch C++ API docs): at::Tensor (sizes, dtype, options, data), the factories (empty, empty_like, zeros
// ...), TensorOptions, Scalar, ArrayRef / IntArrayRef / TensorList, c10::optional, PYBIND11_MODULE and m.def.
//
// Why not libtorch: a binding compiled against the real headers takes half a minute and needs the torch wheel's
// development files; a binding only allocates outputs and forwards its tensors to the aclnn call, which needs this
// much. Tensor memory is the emulator's GM (bounds-checked), so the kernel reads and writes it directly.
// The binding's functions are registered by name; `cotbuilder_pybind_main.cpp` calls one with arguments read from
// files and writes what it returns, for the Python side (the benchmark's ModelNew) to read back.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "impl/emu/fp.h"
#include "impl/emu/runtime.h"

namespace c10 {

enum class ScalarType : int8_t {
    Byte = 0,
    Char,
    Short,
    Int,
    Long,
    Half,
    Float,
    Double,
    ComplexHalf,
    ComplexFloat,
    ComplexDouble,
    Bool,
    QInt8,
    QUInt8,
    QInt32,
    BFloat16,
    QUInt4x2,
    QUInt2x4,
    Bits1x8,
    Bits2x4,
    Bits4x2,
    Bits8,
    Bits16,
    Float8_e5m2,
    Float8_e4m3fn,
    Float8_e5m2fnuz,
    Float8_e4m3fnuz,
    UInt16,
    UInt32,
    UInt64,
    Undefined,
    NumOptions
};

inline size_t elementSize(ScalarType t) {
    switch (t) {
        case ScalarType::Byte: case ScalarType::Char: case ScalarType::Bool: case ScalarType::QInt8:
        case ScalarType::QUInt8: case ScalarType::Float8_e5m2: case ScalarType::Float8_e4m3fn: return 1;
        case ScalarType::Short: case ScalarType::Half: case ScalarType::BFloat16: case ScalarType::UInt16: return 2;
        case ScalarType::Int: case ScalarType::Float: case ScalarType::QInt32: case ScalarType::UInt32:
        case ScalarType::ComplexHalf: return 4;
        case ScalarType::Long: case ScalarType::Double: case ScalarType::ComplexFloat: case ScalarType::UInt64: return 8;
        case ScalarType::ComplexDouble: return 16;
        default: return 0;
    }
}

// The name cotbuilder's call files use for a dtype (numpy's, bfloat16 as "bfloat16").
inline const char* dtypeName(ScalarType t) {
    switch (t) {
        case ScalarType::Byte: return "uint8";
        case ScalarType::Char: return "int8";
        case ScalarType::Short: return "int16";
        case ScalarType::Int: return "int32";
        case ScalarType::Long: return "int64";
        case ScalarType::Half: return "float16";
        case ScalarType::Float: return "float32";
        case ScalarType::Double: return "float64";
        case ScalarType::Bool: return "bool";
        case ScalarType::BFloat16: return "bfloat16";
        case ScalarType::ComplexFloat: return "complex64";
        case ScalarType::UInt16: return "uint16";
        case ScalarType::UInt32: return "uint32";
        case ScalarType::UInt64: return "uint64";
        default: return "undefined";
    }
}
inline ScalarType dtypeFromName(const std::string& n) {
    for (int i = 0; i < (int)ScalarType::NumOptions; ++i)
        if (n == dtypeName((ScalarType)i)) return (ScalarType)i;
    return ScalarType::Undefined;
}
inline std::ostream& operator<<(std::ostream& o, ScalarType t) { return o << dtypeName(t); }

template <typename T>
using optional = std::optional<T>;
using std::nullopt;
using string_view = std::string_view;

template <typename T>
class ArrayRef {
public:
    ArrayRef() = default;
    ArrayRef(const T* data, size_t n) : data_(data), n_(n) {}
    ArrayRef(const T& one) : data_(&one), n_(1) {}
    ArrayRef(const std::vector<T>& v) : data_(v.data()), n_(v.size()) {}
    template <size_t N>
    ArrayRef(const std::array<T, N>& a) : data_(a.data()), n_(N) {}
    ArrayRef(std::initializer_list<T> l) : data_(l.begin()), n_(l.size()) {}
    const T* begin() const { return data_; }
    const T* end() const { return data_ + n_; }
    const T* data() const { return data_; }
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    const T& operator[](size_t i) const { return data_[i]; }
    const T& at(size_t i) const {
        if (i >= n_) throw std::out_of_range("ArrayRef index");
        return data_[i];
    }
    const T& front() const { return data_[0]; }
    const T& back() const { return data_[n_ - 1]; }
    std::vector<T> vec() const { return std::vector<T>(data_, data_ + n_); }
    bool equals(ArrayRef o) const { return n_ == o.n_ && std::equal(begin(), end(), o.begin()); }
    ArrayRef slice(size_t start, size_t len) const { return ArrayRef(data_ + start, len); }
    operator std::vector<T>() const { return vec(); }

private:
    const T* data_ = nullptr;
    size_t n_ = 0;
};
template <typename T>
inline bool operator==(ArrayRef<T> a, ArrayRef<T> b) {
    return a.equals(b);
}
template <typename T>
inline bool operator!=(ArrayRef<T> a, ArrayRef<T> b) {
    return !a.equals(b);
}
using IntArrayRef = ArrayRef<int64_t>;

enum class DeviceType : int8_t { CPU = 0, CUDA = 1, PrivateUse1 = 20 };
class Device {
public:
    Device(DeviceType t = DeviceType::CPU, int8_t index = -1) : type_(t), index_(index) {}
    Device(const std::string&) {}
    DeviceType type() const { return type_; }
    int8_t index() const { return index_; }
    bool is_cpu() const { return type_ == DeviceType::CPU; }
    bool operator==(const Device& o) const { return type_ == o.type_ && index_ == o.index_; }

private:
    DeviceType type_;
    int8_t index_;
};
inline std::ostream& operator<<(std::ostream& o, const Device&) { return o << "cpu"; }

class Scalar {
public:
    Scalar() = default;
    Scalar(double v) : t_(ScalarType::Double), d_(v), i_((int64_t)v) {}
    Scalar(float v) : Scalar((double)v) {}
    Scalar(bool v) : t_(ScalarType::Bool), d_(v), i_(v) {}
    template <typename I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
    Scalar(I v) : t_(ScalarType::Long), d_((double)v), i_((int64_t)v) {}
    ScalarType type() const { return t_; }
    double toDouble() const { return d_; }
    float toFloat() const { return (float)d_; }
    int64_t toLong() const { return i_; }
    int32_t toInt() const { return (int32_t)i_; }
    bool toBool() const { return t_ == ScalarType::Bool ? i_ != 0 : d_ != 0; }
    bool isFloatingPoint() const { return t_ == ScalarType::Double; }
    bool isIntegral(bool includeBool) const { return t_ == ScalarType::Long || (includeBool && t_ == ScalarType::Bool); }
    bool isBoolean() const { return t_ == ScalarType::Bool; }
    template <typename T>
    T to() const {
        if constexpr (std::is_floating_point_v<T>) return (T)d_;
        else if constexpr (std::is_same_v<T, bool>) return toBool();
        else return (T)i_;
    }

private:
    ScalarType t_ = ScalarType::Long;
    double d_ = 0;
    int64_t i_ = 0;
};

// What Tensor::dtype() returns: compares with ScalarType, as caffe2::TypeMeta does.
class TypeMeta {
public:
    TypeMeta(ScalarType t = ScalarType::Float) : t_(t) {}
    ScalarType toScalarType() const { return t_; }
    size_t itemsize() const { return elementSize(t_); }
    bool operator==(ScalarType t) const { return t_ == t; }
    bool operator!=(ScalarType t) const { return t_ != t; }
    bool operator==(const TypeMeta& o) const { return t_ == o.t_; }
    bool operator!=(const TypeMeta& o) const { return t_ != o.t_; }
    operator ScalarType() const { return t_; }

private:
    ScalarType t_;
};
inline std::ostream& operator<<(std::ostream& o, const TypeMeta& t) { return o << t.toScalarType(); }

}  // namespace c10

namespace caffe2 {
using TypeMeta = c10::TypeMeta;
}

namespace at {
using c10::ArrayRef;
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::Scalar;
using c10::ScalarType;
using c10::optional;

class TensorOptions {
public:
    TensorOptions() = default;
    TensorOptions(ScalarType t) : dtype_(t) {}
    TensorOptions(c10::TypeMeta t) : dtype_(t.toScalarType()) {}
    TensorOptions(Device d) : device_(d) {}
    TensorOptions dtype(ScalarType t) const {
        TensorOptions o = *this;
        o.dtype_ = t;
        return o;
    }
    TensorOptions dtype(c10::TypeMeta t) const { return dtype(t.toScalarType()); }
    TensorOptions dtype(c10::optional<ScalarType> t) const { return t ? dtype(*t) : *this; }
    TensorOptions device(Device d) const {
        TensorOptions o = *this;
        o.device_ = d;
        return o;
    }
    TensorOptions device(DeviceType t, int8_t i = -1) const { return device(Device(t, i)); }
    TensorOptions layout(int) const { return *this; }
    TensorOptions requires_grad(bool) const { return *this; }
    c10::TypeMeta dtype() const { return c10::TypeMeta(dtype_); }
    ScalarType scalar_type() const { return dtype_; }
    Device device() const { return device_; }

private:
    ScalarType dtype_ = ScalarType::Float;
    Device device_;
};
// The option factories (`torch::dtype(torch::kFloat32)`, `at::device(...)`): TensorOptions with that one field set.
inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
inline TensorOptions dtype(c10::TypeMeta t) { return TensorOptions().dtype(t); }
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions requires_grad(bool r = true) { return TensorOptions().requires_grad(r); }

// GM bytes shared by a tensor and its views (reshape / view), freed with the last of them.
struct Storage {
    uint8_t* data = nullptr;
    size_t nbytes = 0;
    ~Storage() {
        if (data) cbemu::gm_free(data);
    }
};
struct TensorImpl {
    std::vector<int64_t> sizes;
    ScalarType dtype = ScalarType::Float;
    std::shared_ptr<Storage> storage;
};

// What Tensor::accessor<T, N>() returns: indexing into a contiguous CPU tensor's elements (a binding reads a small
// tensor of scalars this way). It keeps its own copy of the sizes and strides, so a sub-accessor outlives nothing.
template <typename T, size_t N>
class TensorAccessor {
public:
    TensorAccessor(T* data, const int64_t* sizes, const int64_t* strides) : data_(data) {
        for (size_t i = 0; i < N; ++i) sizes_[i] = sizes[i], strides_[i] = strides[i];
    }
    decltype(auto) operator[](int64_t i) const {  // T& for the last dimension, else the sub-accessor
        if constexpr (N == 1) return (data_[strides_[0] * i]);
        else return TensorAccessor<T, N - 1>(data_ + strides_[0] * i, sizes_.data() + 1, strides_.data() + 1);
    }
    int64_t size(int64_t d) const { return sizes_.at(d); }
    int64_t stride(int64_t d) const { return strides_.at(d); }
    T* data() const { return data_; }

private:
    T* data_;
    std::array<int64_t, N> sizes_{}, strides_{};
};

class Tensor {
public:
    Tensor() = default;
    static Tensor make(std::vector<int64_t> sizes, ScalarType dtype) {
        Tensor t;
        t.impl_ = std::make_shared<TensorImpl>();
        t.impl_->sizes = std::move(sizes);
        t.impl_->dtype = dtype;
        t.impl_->storage = std::make_shared<Storage>();
        t.impl_->storage->nbytes = (size_t)std::max<int64_t>(t.numel(), 0) * c10::elementSize(dtype);
        // torch_npu's caching allocator hands out blocks in multiples of 512 bytes: a kernel that reads a whole
        // 32-byte block past a small tensor's end stays inside its block on the device, and so here
        size_t alloc = ((t.impl_->storage->nbytes + 511) / 512) * 512;
        t.impl_->storage->data = static_cast<uint8_t*>(cbemu::gm_alloc(alloc ? alloc : 32));
        return t;
    }
    bool defined() const { return impl_ != nullptr; }
    IntArrayRef sizes() const { return impl_ ? IntArrayRef(impl_->sizes) : IntArrayRef(); }
    int64_t size(int64_t d) const {
        int64_t n = dim();
        if (d < 0) d += n;
        if (d < 0 || d >= n) throw std::out_of_range("Tensor::size: dimension out of range");
        return impl_->sizes[d];
    }
    std::vector<int64_t> strides() const {
        std::vector<int64_t> s(dim(), 1);
        for (int64_t i = dim() - 2; i >= 0; --i) s[i] = s[i + 1] * impl_->sizes[i + 1];
        return s;
    }
    int64_t stride(int64_t d) const {
        auto s = strides();
        return s.at(d < 0 ? d + dim() : d);
    }
    int64_t dim() const { return impl_ ? (int64_t)impl_->sizes.size() : 0; }
    int64_t ndimension() const { return dim(); }
    int64_t numel() const {
        if (!impl_) return 0;
        int64_t n = 1;
        for (int64_t d : impl_->sizes) n *= d;
        return n;
    }
    ScalarType scalar_type() const { return impl_ ? impl_->dtype : ScalarType::Undefined; }
    c10::TypeMeta dtype() const { return c10::TypeMeta(scalar_type()); }
    TensorOptions options() const { return TensorOptions(scalar_type()); }
    Device device() const { return Device(); }
    bool is_cpu() const { return true; }
    bool is_contiguous() const { return true; }
    Tensor contiguous() const { return *this; }
    Tensor cpu() const { return *this; }
    Tensor to(Device) const { return *this; }
    Tensor to(ScalarType t) const;
    Tensor to(const TensorOptions& o) const { return to(o.scalar_type()); }
    // `y.to(x.dtype())`: a TypeMeta converts to both of the above; torch has this overload (NPUKernelBench IsFinite)
    Tensor to(c10::TypeMeta t) const { return to(t.toScalarType()); }
    Tensor clone() const;
    size_t element_size() const { return c10::elementSize(scalar_type()); }
    size_t itemsize() const { return element_size(); }
    size_t nbytes() const { return (size_t)std::max<int64_t>(numel(), 0) * element_size(); }
    void* data_ptr() const { return impl_ ? impl_->storage->data : nullptr; }
    template <typename T>
    T* data_ptr() const {
        return reinterpret_cast<T*>(data_ptr());
    }
    template <typename T>
    T* mutable_data_ptr() const {
        return data_ptr<T>();
    }
    const void* const_data_ptr() const { return data_ptr(); }
    Tensor& zero_() {
        if (impl_) std::memset(data_ptr(), 0, nbytes());
        return *this;
    }
    Tensor& fill_(const Scalar& v);
    Scalar item() const;  // the one element (torch: a tensor of one element only), as a Scalar or as T
    template <typename T>
    T item() const {
        return item().to<T>();
    }
    template <typename T, size_t N>
    TensorAccessor<T, N> accessor() const {
        if (dim() != (int64_t)N) throw std::runtime_error("TensorAccessor expected " + std::to_string(N) + " dims");
        if (element_size() != sizeof(T)) throw std::runtime_error("accessor: the element type is not the tensor's");
        std::vector<int64_t> s = strides();
        return TensorAccessor<T, N>(data_ptr<T>(), impl_->sizes.data(), s.data());
    }
    Tensor view(IntArrayRef shape) const { return reshape(shape); }
    Tensor reshape(IntArrayRef shape) const {
        Tensor t;
        t.impl_ = std::make_shared<TensorImpl>(*impl_);  // shares the storage
        std::vector<int64_t> s = shape.vec();
        int64_t known = 1, infer = -1;
        for (size_t i = 0; i < s.size(); ++i) {
            if (s[i] == -1) infer = (int64_t)i;
            else known *= s[i];
        }
        if (infer >= 0) s[infer] = known ? numel() / known : 0;
        t.impl_->sizes = s;
        return t;
    }

private:
    std::shared_ptr<TensorImpl> impl_;
};

using TensorList = ArrayRef<Tensor>;
using ITensorListRef = ArrayRef<Tensor>;

namespace detail {
inline double load(const uint8_t* p, ScalarType t) {
    switch (t) {
        case ScalarType::Float: { float v; std::memcpy(&v, p, 4); return v; }
        case ScalarType::Double: { double v; std::memcpy(&v, p, 8); return v; }
        case ScalarType::Half: { uint16_t b; std::memcpy(&b, p, 2); return (float)half::from_bits(b); }
        case ScalarType::BFloat16: { uint16_t b; std::memcpy(&b, p, 2); uint32_t u = (uint32_t)b << 16; float f; std::memcpy(&f, &u, 4); return f; }
        case ScalarType::Byte: return *p;
        case ScalarType::Char: return (int8_t)*p;
        case ScalarType::Bool: return *p != 0;
        case ScalarType::Short: { int16_t v; std::memcpy(&v, p, 2); return v; }
        case ScalarType::Int: { int32_t v; std::memcpy(&v, p, 4); return v; }
        case ScalarType::Long: { int64_t v; std::memcpy(&v, p, 8); return (double)v; }
        default: return 0;
    }
}
inline void store(uint8_t* p, ScalarType t, double v) {
    switch (t) {
        case ScalarType::Float: { float f = (float)v; std::memcpy(p, &f, 4); break; }
        case ScalarType::Double: std::memcpy(p, &v, 8); break;
        case ScalarType::Half: { uint16_t b = half((float)v).bits_; std::memcpy(p, &b, 2); break; }
        case ScalarType::BFloat16: { bfloat16_t b((float)v); std::memcpy(p, &b, 2); break; }
        case ScalarType::Byte: *p = (uint8_t)v; break;
        case ScalarType::Char: *p = (uint8_t)(int8_t)v; break;
        case ScalarType::Bool: *p = v != 0; break;
        case ScalarType::Short: { int16_t i = (int16_t)v; std::memcpy(p, &i, 2); break; }
        case ScalarType::Int: { int32_t i = (int32_t)v; std::memcpy(p, &i, 4); break; }
        case ScalarType::Long: { int64_t i = (int64_t)v; std::memcpy(p, &i, 8); break; }
        default: break;
    }
}
}  // namespace detail

inline Tensor empty(IntArrayRef shape, TensorOptions o = {}) { return Tensor::make(shape.vec(), o.scalar_type()); }
inline Tensor empty(IntArrayRef shape, ScalarType t) { return Tensor::make(shape.vec(), t); }
inline Tensor empty_like(const Tensor& t) { return Tensor::make(t.sizes().vec(), t.scalar_type()); }
inline Tensor empty_like(const Tensor& t, TensorOptions o) { return Tensor::make(t.sizes().vec(), o.scalar_type()); }
inline Tensor empty_like(const Tensor& t, ScalarType s) { return Tensor::make(t.sizes().vec(), s); }
inline Tensor zeros(IntArrayRef shape, TensorOptions o = {}) { return empty(shape, o).zero_(); }
inline Tensor zeros(IntArrayRef shape, ScalarType t) { return empty(shape, t).zero_(); }
inline Tensor zeros_like(const Tensor& t) { return empty_like(t).zero_(); }
inline Tensor zeros_like(const Tensor& t, TensorOptions o) { return empty_like(t, o).zero_(); }
inline Tensor ones_like(const Tensor& t) { return empty_like(t).fill_(Scalar(1.0)); }
inline Tensor ones(IntArrayRef shape, TensorOptions o = {}) { return empty(shape, o).fill_(Scalar(1.0)); }
inline Tensor full(IntArrayRef shape, const Scalar& v, TensorOptions o = {}) { return empty(shape, o).fill_(v); }

inline Tensor& Tensor::fill_(const Scalar& v) {
    size_t e = element_size();
    for (int64_t i = 0; e && i < numel(); ++i) detail::store(data_ptr<uint8_t>() + i * e, scalar_type(), v.toDouble());
    return *this;
}
inline Tensor Tensor::to(ScalarType t) const {
    if (t == scalar_type()) return *this;
    Tensor out = empty_like(*this, t);
    for (int64_t i = 0; i < numel(); ++i)
        detail::store(out.data_ptr<uint8_t>() + i * c10::elementSize(t), t,
                      detail::load(data_ptr<uint8_t>() + i * element_size(), scalar_type()));
    return out;
}
namespace detail {
// The element at p as torch's Scalar would hold it: floating types as double, bool as bool, integers as int64.
inline Scalar scalar_at(const uint8_t* p, ScalarType t) {
    double v = load(p, t);
    switch (t) {
        case ScalarType::Float: case ScalarType::Double: case ScalarType::Half: case ScalarType::BFloat16: return Scalar(v);
        case ScalarType::Bool: return Scalar(v != 0);
        case ScalarType::Long: { int64_t i; std::memcpy(&i, p, 8); return Scalar(i); }  // exact past 2^53
        default: return Scalar((int64_t)v);
    }
}
}  // namespace detail
inline Scalar Tensor::item() const {
    if (numel() != 1) throw std::runtime_error("a Tensor with " + std::to_string(numel()) + " elements cannot be converted to Scalar");
    return detail::scalar_at(data_ptr<uint8_t>(), scalar_type());
}
inline Tensor Tensor::clone() const {
    Tensor out = empty_like(*this);
    if (nbytes()) std::memcpy(out.data_ptr(), data_ptr(), nbytes());
    return out;
}

// Broadcast two shapes (numpy rules).
inline std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b) {
    size_t n = std::max(a.size(), b.size());
    std::vector<int64_t> out(n);
    for (size_t i = 0; i < n; ++i) {
        int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
        int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
        if (da != db && da != 1 && db != 1) throw std::invalid_argument("infer_size: shapes do not broadcast");
        out[i] = da == 1 ? db : da;
    }
    return out;
}

constexpr ScalarType kByte = ScalarType::Byte, kUInt8 = ScalarType::Byte, kChar = ScalarType::Char,
                     kInt8 = ScalarType::Char, kShort = ScalarType::Short, kInt16 = ScalarType::Short,
                     kInt = ScalarType::Int, kInt32 = ScalarType::Int, kLong = ScalarType::Long,
                     kInt64 = ScalarType::Long, kHalf = ScalarType::Half, kFloat16 = ScalarType::Half,
                     kFloat = ScalarType::Float, kFloat32 = ScalarType::Float, kDouble = ScalarType::Double,
                     kFloat64 = ScalarType::Double, kBool = ScalarType::Bool, kBFloat16 = ScalarType::BFloat16,
                     kUInt16 = ScalarType::UInt16, kUInt32 = ScalarType::UInt32, kUInt64 = ScalarType::UInt64,
                     kComplexFloat = ScalarType::ComplexFloat;
constexpr DeviceType kCPU = DeviceType::CPU;

}  // namespace at

namespace torch {
using namespace at;  // NOLINT: torch:: spells the same API
using Dtype = at::ScalarType;
}  // namespace torch

namespace c10 {
using at::Tensor;
}

// ---- the binding module (PYBIND11_MODULE / m.def) ----
namespace cotbuilder_bind {

// One argument or result crossing the process boundary: what the Python side passed / will read back.
struct Value {
    enum Kind { None, Tensor, TensorList, Int, Float, Bool, Str, IntList, FloatList, BoolList, Tuple } kind = None;
    at::Tensor tensor;
    std::vector<at::Tensor> tensors;
    int64_t i = 0;
    double f = 0;
    bool b = false;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<double> floats;
    std::vector<bool> bools;
    std::vector<Value> items;
};

template <typename T>
struct From;
template <>
struct From<at::Tensor> {
    static at::Tensor get(const Value& v) { return v.tensor; }
};
template <>
struct From<std::vector<at::Tensor>> {
    static std::vector<at::Tensor> get(const Value& v) { return v.tensors; }
};
template <>
struct From<at::TensorList> {
    // the list's storage lives in the Value kept by the caller for the whole call
    static at::TensorList get(const Value& v) { return at::TensorList(v.tensors); }
};
template <>
struct From<c10::optional<at::Tensor>> {
    static c10::optional<at::Tensor> get(const Value& v) {
        return v.kind == Value::None ? c10::optional<at::Tensor>() : c10::optional<at::Tensor>(v.tensor);
    }
};
template <>
struct From<at::Scalar> {
    static at::Scalar get(const Value& v) {
        if (v.kind == Value::Float) return at::Scalar(v.f);
        if (v.kind == Value::Bool) return at::Scalar(v.b);
        return at::Scalar(v.i);
    }
};
template <>
struct From<c10::optional<at::Scalar>> {
    static c10::optional<at::Scalar> get(const Value& v) {
        return v.kind == Value::None ? c10::optional<at::Scalar>() : From<at::Scalar>::get(v);
    }
};
template <>
struct From<std::string> {
    static std::string get(const Value& v) { return v.s; }
};
template <>
struct From<const char*> {
    static const char* get(const Value& v) { return v.s.c_str(); }
};
template <>
struct From<std::vector<int64_t>> {
    static std::vector<int64_t> get(const Value& v) { return v.ints; }
};
template <>
struct From<at::IntArrayRef> {
    static at::IntArrayRef get(const Value& v) { return at::IntArrayRef(v.ints); }
};
template <>
struct From<c10::optional<at::IntArrayRef>> {
    static c10::optional<at::IntArrayRef> get(const Value& v) {
        return v.kind == Value::None ? c10::optional<at::IntArrayRef>() : c10::optional<at::IntArrayRef>(at::IntArrayRef(v.ints));
    }
};
template <>
struct From<std::vector<double>> {
    static std::vector<double> get(const Value& v) { return v.floats; }
};
template <>
struct From<std::vector<float>> {
    static std::vector<float> get(const Value& v) { return std::vector<float>(v.floats.begin(), v.floats.end()); }
};
template <>
struct From<std::vector<bool>> {
    static std::vector<bool> get(const Value& v) { return v.bools; }
};
template <typename T>
struct FromNumber {
    static T get(const Value& v) {
        if (v.kind == Value::Float) return (T)v.f;
        if (v.kind == Value::Bool) return (T)v.b;
        // a one-element tensor where the binding takes a number: pybind11 converts it through the tensor's
        // __float__ / __index__ (a benchmark passing `alpha = torch.rand(1)` to a `double alpha` parameter)
        if (v.kind == Value::Tensor && v.tensor.numel() == 1)
            return (T)::at::detail::load((const uint8_t*)v.tensor.data_ptr(), v.tensor.scalar_type());
        return (T)v.i;
    }
};
template <> struct From<double> : FromNumber<double> {};
template <> struct From<float> : FromNumber<float> {};
template <> struct From<int64_t> : FromNumber<int64_t> {};
template <> struct From<int32_t> : FromNumber<int32_t> {};
template <> struct From<uint32_t> : FromNumber<uint32_t> {};
template <> struct From<uint64_t> : FromNumber<uint64_t> {};
template <> struct From<bool> : FromNumber<bool> {};
template <typename T>
struct From<c10::optional<T>> {
    static c10::optional<T> get(const Value& v) {
        return v.kind == Value::None ? c10::optional<T>() : c10::optional<T>(From<T>::get(v));
    }
};

inline Value to_value(const at::Tensor& t) {
    Value v;
    v.kind = Value::Tensor;
    v.tensor = t;
    return v;
}
inline Value to_value(const std::vector<at::Tensor>& ts) {
    Value v;
    v.kind = Value::TensorList;
    v.tensors = ts;
    return v;
}
template <typename... T>
inline Value to_value(const std::tuple<T...>& tup) {
    Value v;
    v.kind = Value::Tuple;
    std::apply([&](const auto&... x) { (v.items.push_back(to_value(x)), ...); }, tup);
    return v;
}
inline Value to_value(double d) {
    Value v;
    v.kind = Value::Float;
    v.f = d;
    return v;
}
inline Value to_value(int64_t i) {
    Value v;
    v.kind = Value::Int;
    v.i = i;
    return v;
}
inline Value to_value(bool b) {
    Value v;
    v.kind = Value::Bool;
    v.b = b;
    return v;
}

using Invoker = std::function<Value(const std::vector<Value>&)>;
inline std::map<std::string, Invoker>& functions() {
    static std::map<std::string, Invoker> m;
    return m;
}

template <typename R, typename... A, size_t... I>
Value call(R (*f)(A...), const std::vector<Value>& args, std::index_sequence<I...>) {
    if (args.size() != sizeof...(A))
        throw std::invalid_argument("binding called with " + std::to_string(args.size()) + " arguments, takes " +
                                    std::to_string(sizeof...(A)));
    std::tuple<std::decay_t<A>...> conv(From<std::decay_t<A>>::get(args[I])...);
    if constexpr (std::is_void_v<R>) {
        f(std::get<I>(conv)...);
        return Value();
    } else {
        return to_value(f(std::get<I>(conv)...));
    }
}

class module_ {
public:
    explicit module_(const char* name) : name_(name) {}
    template <typename R, typename... A, typename... Extra>
    module_& def(const char* name, R (*f)(A...), const Extra&...) {
        functions()[name] = [f](const std::vector<Value>& args) {
            return call(f, args, std::index_sequence_for<A...>{});
        };
        return *this;
    }
    template <typename F, typename... Extra, std::enable_if_t<!std::is_pointer_v<F>, int> = 0>
    module_& def(const char* name, F f, const Extra&... extra) {
        return def(name, +f, extra...);
    }
    std::string& doc() { return doc_; }  // `m.doc() = "..."`
    std::string doc_;
    const char* name_;
};

struct Registrar {
    Registrar(void (*init)(module_&), const char* name) {
        module_ m(name);
        init(m);
    }
};

}  // namespace cotbuilder_bind

namespace pybind11 {
using module = cotbuilder_bind::module_;
using module_ = cotbuilder_bind::module_;
struct arg {
    explicit arg(const char*) {}
    template <typename T>
    arg& operator=(const T&) {
        return *this;
    }
};
}  // namespace pybind11
namespace py = pybind11;

#define PYBIND11_MODULE(name, variable)                                                     \
    static void cotbuilder_pybind_init_##name(::cotbuilder_bind::module_& variable);        \
    static ::cotbuilder_bind::Registrar cotbuilder_pybind_registrar_##name(                 \
        &cotbuilder_pybind_init_##name, #name);                                             \
    static void cotbuilder_pybind_init_##name(::cotbuilder_bind::module_& variable)
#define TORCH_LIBRARY(ns, m) static void cotbuilder_torch_library_##ns(::cotbuilder_bind::module_& m)
#define TORCH_LIBRARY_IMPL(ns, k, m) static void cotbuilder_torch_library_impl_##ns##_##k(::cotbuilder_bind::module_& m)
#define TORCH_CHECK(cond, ...)                                                          \
    do {                                                                                \
        if (!(cond)) throw std::runtime_error(std::string("TORCH_CHECK failed: ") + #cond); \
    } while (0)
