// The runtime value types a TilingContext hands out (docs: the gert Shape / StorageShape / Tensor / RuntimeAttrs /
// ContinuousVector / TilingData pages): plain host data, owned by the context that built them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "ge_types.h"

namespace gert {

// Dims stored inline (the documented maximum rank is 25), so a Shape can be copied into a tiling struct's neighbour.
class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    static constexpr int64_t kInvalidDimValue = INT64_MIN;

    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) {
        for (int64_t d : dims) AppendDim(d);
    }
    explicit Shape(const std::vector<int64_t>& dims) {
        for (int64_t d : dims) AppendDim(d);
    }
    size_t GetDimNum() const { return dim_num_; }
    void SetDimNum(size_t n) { dim_num_ = n > kMaxDimNum ? kMaxDimNum : n; }
    int64_t GetDim(size_t i) const { return i < dim_num_ ? dims_[i] : kInvalidDimValue; }
    ge::graphStatus SetDim(size_t i, int64_t v) {
        if (i >= dim_num_) return ge::GRAPH_FAILED;
        dims_[i] = v;
        return ge::GRAPH_SUCCESS;
    }
    Shape& AppendDim(int64_t v) {
        if (dim_num_ < kMaxDimNum) dims_[dim_num_++] = v;
        return *this;
    }
    int64_t GetShapeSize() const {
        int64_t n = 1;  // a scalar (rank 0) holds one element
        for (size_t i = 0; i < dim_num_; ++i) {
            if (dims_[i] < 0) return -1;
            n *= dims_[i];
        }
        return n;
    }
    bool IsScalar() const { return dim_num_ == 0; }
    void SetScalar() { dim_num_ = 0; }
    const int64_t& operator[](size_t i) const { return dims_[i]; }
    int64_t& operator[](size_t i) { return dims_[i]; }
    bool operator==(const Shape& o) const {
        if (dim_num_ != o.dim_num_) return false;
        for (size_t i = 0; i < dim_num_; ++i)
            if (dims_[i] != o.dims_[i]) return false;
        return true;
    }
    bool operator!=(const Shape& o) const { return !(*this == o); }
    std::vector<int64_t> ToVector() const { return std::vector<int64_t>(dims_, dims_ + dim_num_); }

private:
    size_t dim_num_ = 0;
    int64_t dims_[kMaxDimNum] = {};
};

class StorageShape {
public:
    StorageShape() = default;
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_(origin), storage_(storage) {}
    StorageShape(const Shape& origin, const Shape& storage) : origin_(origin), storage_(storage) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }
    bool operator!=(const StorageShape& o) const { return !(*this == o); }

private:
    Shape origin_;
    Shape storage_;
};

class ExpandDimsType {
public:
    ExpandDimsType() = default;
    explicit ExpandDimsType(int64_t v) : v_(v) {}
    explicit ExpandDimsType(const char*) {}

private:
    int64_t v_ = 0;
};

class StorageFormat {
public:
    StorageFormat() = default;
    StorageFormat(ge::Format origin, ge::Format storage, const ExpandDimsType& expand = ExpandDimsType())
        : origin_(origin), storage_(storage), expand_(expand) {}
    ge::Format GetOriginFormat() const { return origin_; }
    ge::Format GetStorageFormat() const { return storage_; }
    void SetOriginFormat(ge::Format f) { origin_ = f; }
    void SetStorageFormat(ge::Format f) { storage_ = f; }
    ExpandDimsType GetExpandDimsType() const { return expand_; }

private:
    ge::Format origin_ = ge::FORMAT_ND;
    ge::Format storage_ = ge::FORMAT_ND;
    ExpandDimsType expand_;
};

class CompileTimeTensorDesc {
public:
    CompileTimeTensorDesc() = default;
    CompileTimeTensorDesc(ge::DataType dt, const StorageFormat& fmt) : dtype_(dt), format_(fmt) {}
    ge::DataType GetDataType() const { return dtype_; }
    void SetDataType(ge::DataType dt) { dtype_ = dt; }
    ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
    ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
    const StorageFormat& GetFormat() const { return format_; }
    void SetOriginFormat(ge::Format f) { format_.SetOriginFormat(f); }
    void SetStorageFormat(ge::Format f) { format_.SetStorageFormat(f); }
    ExpandDimsType GetExpandDimsType() const { return format_.GetExpandDimsType(); }

private:
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    StorageFormat format_;
};

enum TensorPlacement { kOnDeviceHbm, kOnHost, kFollowing, kTensorPlacementEnd };

class Tensor {
public:
    Tensor() = default;
    Tensor(const StorageShape& shape, const StorageFormat& fmt, TensorPlacement placement, ge::DataType dt, void* addr)
        : shape_(shape), desc_(dt, fmt), placement_(placement), addr_(addr) {}
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    template <typename T>
    const T* GetData() const {
        return static_cast<const T*>(addr_);
    }
    template <typename T>
    T* GetData() {
        return static_cast<T*>(addr_);
    }
    const void* GetAddr() const { return addr_; }
    void* GetAddr() { return addr_; }
    void SetData(void* addr) { addr_ = addr; }
    ge::DataType GetDataType() const { return desc_.GetDataType(); }
    void SetDataType(ge::DataType dt) { desc_.SetDataType(dt); }
    const StorageShape& GetShape() const { return shape_; }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    Shape& MutableStorageShape() { return shape_.MutableStorageShape(); }
    Shape& MutableOriginShape() { return shape_.MutableOriginShape(); }
    const StorageFormat& GetFormat() const { return desc_.GetFormat(); }
    ge::Format GetStorageFormat() const { return desc_.GetStorageFormat(); }
    ge::Format GetOriginFormat() const { return desc_.GetOriginFormat(); }
    TensorPlacement GetPlacement() const { return placement_; }
    size_t GetSize() const {
        int64_t n = GetShapeSize();
        int b = ge::GetSizeByDataType(GetDataType());
        return (n > 0 && b > 0) ? (size_t)n * (size_t)b : 0;
    }

private:
    StorageShape shape_;
    CompileTimeTensorDesc desc_;
    TensorPlacement placement_ = kOnHost;
    void* addr_ = nullptr;
};

// A header (capacity, size) followed by the elements, in one allocation: lists in attrs and the workspace-size
// vector are laid out this way.
class ContinuousVector {
public:
    template <typename T>
    static std::unique_ptr<uint8_t[]> Create(size_t capacity) {
        size_t total = sizeof(ContinuousVector) + sizeof(T) * capacity;
        auto holder = std::unique_ptr<uint8_t[]>(new uint8_t[total]());
        auto* v = new (holder.get()) ContinuousVector();
        v->capacity_ = capacity;
        v->size_ = 0;
        return holder;
    }
    size_t GetSize() const { return size_; }
    ge::graphStatus SetSize(size_t size) {
        if (size > capacity_) return ge::GRAPH_FAILED;
        size_ = size;
        return ge::GRAPH_SUCCESS;
    }
    size_t GetCapacity() const { return capacity_; }
    const void* GetData() const { return data_; }
    void* MutableData() { return data_; }

protected:
    size_t capacity_ = 0;
    size_t size_ = 0;
    alignas(8) uint8_t data_[8] = {};
};

template <typename T>
class TypedContinuousVector : public ContinuousVector {
public:
    const T* GetData() const { return reinterpret_cast<const T*>(data_); }
    T* MutableData() { return reinterpret_cast<T*>(data_); }
};

// A list of lists (ListListInt attrs): a ContinuousVectorVector holds offsets to ContinuousVector blocks.
class ContinuousVectorVector {
public:
    size_t GetSize() const { return offsets_.size(); }
    const ContinuousVector* Get(size_t i) const {
        return i < offsets_.size() ? reinterpret_cast<const ContinuousVector*>(blob_.data() + offsets_[i]) : nullptr;
    }
    void Append(const std::vector<int64_t>& v) {
        size_t total = sizeof(ContinuousVector) + sizeof(int64_t) * (v.empty() ? 1 : v.size());
        size_t at = blob_.size();
        blob_.resize(at + ((total + 7) / 8) * 8);
        auto holder = ContinuousVector::Create<int64_t>(v.size());
        auto* cv = reinterpret_cast<ContinuousVector*>(holder.get());
        cv->SetSize(v.size());
        if (!v.empty()) std::memcpy(cv->MutableData(), v.data(), sizeof(int64_t) * v.size());
        std::memcpy(blob_.data() + at, holder.get(), sizeof(ContinuousVector) + sizeof(int64_t) * v.size());
        offsets_.push_back(at);
    }

private:
    std::vector<size_t> offsets_;
    std::vector<uint8_t> blob_;
};

// The raw tiling buffer a TilingFunc writes (GetRawTilingData): capacity fixed by the framework, size set by the op.
class TilingData {
public:
    static std::unique_ptr<uint8_t[]> CreateCap(size_t cap) {
        auto holder = std::unique_ptr<uint8_t[]>(new uint8_t[sizeof(TilingData) + cap]());
        auto* td = new (holder.get()) TilingData();
        td->capacity_ = cap;
        td->data_ = holder.get() + sizeof(TilingData);
        return holder;
    }
    size_t GetCapacity() const { return capacity_; }
    size_t GetDataSize() const { return size_; }
    void SetDataSize(size_t size) { size_ = size; }
    void* GetData() { return data_; }
    const void* GetData() const { return data_; }
    // Appends one value at the current size (CANN's TilingData::Append); fails when the buffer is full.
    template <typename T>
    ge::graphStatus Append(const T& v) {
        if (size_ + sizeof(T) > capacity_) return ge::GRAPH_FAILED;
        std::memcpy(data_ + size_, &v, sizeof(T));
        size_ += sizeof(T);
        return ge::GRAPH_SUCCESS;
    }
    template <typename T>
    ge::graphStatus Append(const T* v, size_t n) {
        if (size_ + sizeof(T) * n > capacity_) return ge::GRAPH_FAILED;
        std::memcpy(data_ + size_, v, sizeof(T) * n);
        size_ += sizeof(T) * n;
        return ge::GRAPH_SUCCESS;
    }

private:
    size_t capacity_ = 0;
    size_t size_ = 0;
    uint8_t* data_ = nullptr;
};

// One attribute value as stored in a RuntimeAttrs block.
struct AttrValue {
    enum Kind { kNone, kBool, kInt, kFloat, kStr, kListBool, kListInt, kListFloat, kListListInt, kListStr };
    Kind kind = kNone;
    std::vector<uint8_t> bytes;       // what GetAttrPointer returns a pointer into
    ContinuousVectorVector list_list;  // kListListInt

    static AttrValue of_bool(bool v) { return scalar(kBool, &v, sizeof(v)); }
    static AttrValue of_int(int64_t v) { return scalar(kInt, &v, sizeof(v)); }
    static AttrValue of_float(float v) { return scalar(kFloat, &v, sizeof(v)); }
    static AttrValue of_str(const std::string& s) {
        AttrValue a;
        a.kind = kStr;
        a.bytes.assign(s.begin(), s.end());
        a.bytes.push_back(0);
        return a;
    }
    template <typename T>
    static AttrValue of_list(Kind kind, const std::vector<T>& v) {
        AttrValue a;
        a.kind = kind;
        auto holder = ContinuousVector::Create<T>(v.size() ? v.size() : 1);
        auto* cv = reinterpret_cast<ContinuousVector*>(holder.get());
        cv->SetSize(v.size());
        for (size_t i = 0; i < v.size(); ++i) static_cast<T*>(cv->MutableData())[i] = v[i];
        size_t total = sizeof(ContinuousVector) + sizeof(T) * (v.size() ? v.size() : 1);
        a.bytes.assign(holder.get(), holder.get() + total);
        return a;
    }
    static AttrValue of_list_bool(const std::vector<bool>& v) {
        return of_list<bool>(kListBool, v);
    }
    static AttrValue of_list_list_int(const std::vector<std::vector<int64_t>>& v) {
        AttrValue a;
        a.kind = kListListInt;
        for (const auto& row : v) a.list_list.Append(row);
        return a;
    }

private:
    static AttrValue scalar(Kind k, const void* p, size_t n) {
        AttrValue a;
        a.kind = k;
        a.bytes.assign((const uint8_t*)p, (const uint8_t*)p + n);
        return a;
    }
};

class RuntimeAttrs {
public:
    RuntimeAttrs() = default;
    explicit RuntimeAttrs(std::vector<AttrValue> values) : values_(std::move(values)) {}
    template <typename T>
    const T* GetAttrPointer(size_t i) const {
        if (i >= values_.size() || values_[i].kind == AttrValue::kNone) return nullptr;
        if (values_[i].kind == AttrValue::kListListInt) return reinterpret_cast<const T*>(&values_[i].list_list);
        return reinterpret_cast<const T*>(values_[i].bytes.data());
    }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const {
        return GetAttrPointer<TypedContinuousVector<int64_t>>(i);
    }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const {
        return GetAttrPointer<TypedContinuousVector<float>>(i);
    }
    const TypedContinuousVector<bool>* GetListBool(size_t i) const {
        return GetAttrPointer<TypedContinuousVector<bool>>(i);
    }
    const ContinuousVectorVector* GetListListInt(size_t i) const { return GetAttrPointer<ContinuousVectorVector>(i); }
    size_t GetAttrNum() const { return values_.size(); }

private:
    std::vector<AttrValue> values_;
};

// Which instances an IR input/output expanded to (dynamic inputs: several; absent optional inputs: none).
class AnchorInstanceInfo {
public:
    AnchorInstanceInfo() = default;
    AnchorInstanceInfo(uint32_t start, uint32_t num) : start_(start), num_(num) {}
    size_t GetInstanceNum() const { return num_; }
    size_t GetInstanceStart() const { return start_; }

private:
    uint32_t start_ = 0;
    uint32_t num_ = 0;
};

}  // namespace gert
