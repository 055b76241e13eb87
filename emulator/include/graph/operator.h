// Host shim (written for cotbuilder): ge::Operator and ge::TensorDesc, the graph-mode view of an operator node that an
// OpDef's CheckSupport / OpSelectFormat callbacks receive. Graph mode (GE) never runs under the emulator - ops run
// through their aclnn API, where those callbacks are not called - so an Operator here is a node without a graph: the
// callback compiles and links, and were it called, every lookup would report failure instead of inventing an answer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../impl/host/ge_types.h"

namespace ge {

class TensorDesc {
public:
    TensorDesc() = default;
    explicit TensorDesc(const Shape& shape, Format format = FORMAT_ND, DataType dtype = DT_FLOAT)
        : shape_(shape), origin_shape_(shape), format_(format), origin_format_(format), dtype_(dtype) {}
    Shape GetShape() const { return shape_; }
    void SetShape(const Shape& shape) { shape_ = shape; }
    Shape GetOriginShape() const { return origin_shape_; }
    void SetOriginShape(const Shape& shape) { origin_shape_ = shape; }
    DataType GetDataType() const { return dtype_; }
    void SetDataType(DataType dtype) { dtype_ = dtype; }
    Format GetFormat() const { return format_; }
    void SetFormat(Format format) { format_ = format; }
    Format GetOriginFormat() const { return origin_format_; }
    void SetOriginFormat(Format format) { origin_format_ = format; }
    int64_t GetSize() const { return shape_.GetShapeSize() * GetSizeByDataType(dtype_); }

private:
    Shape shape_;
    Shape origin_shape_;
    Format format_ = FORMAT_ND;
    Format origin_format_ = FORMAT_ND;
    DataType dtype_ = DT_FLOAT;
};

class Operator {
public:
    Operator() = default;
    explicit Operator(const char* type) : type_(type == nullptr ? "" : type) {}
    explicit Operator(const std::string& type) : type_(type) {}
    virtual ~Operator() = default;

    graphStatus GetName(AscendString& name) const {
        name = AscendString(type_.c_str());
        return GRAPH_SUCCESS;
    }
    graphStatus GetOpType(AscendString& type) const {
        type = AscendString(type_.c_str());
        return GRAPH_SUCCESS;
    }
    // a node without a graph has no inputs, outputs or attributes
    TensorDesc GetInputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetOutputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetInputDesc(uint32_t) const { return TensorDesc(); }
    TensorDesc GetOutputDesc(uint32_t) const { return TensorDesc(); }
    graphStatus UpdateInputDesc(const char*, const TensorDesc&) { return GRAPH_FAILED; }
    graphStatus UpdateOutputDesc(const char*, const TensorDesc&) { return GRAPH_FAILED; }
    size_t GetInputsSize() const { return 0; }
    size_t GetOutputsSize() const { return 0; }
    template <typename T>
    graphStatus GetAttr(const char*, T&) const {
        return GRAPH_FAILED;
    }
    template <typename T>
    graphStatus GetAttr(const std::string&, T&) const {
        return GRAPH_FAILED;
    }
    template <typename T>
    Operator& SetAttr(const char*, const T&) {
        return *this;
    }

private:
    std::string type_;
};

}  // namespace ge
