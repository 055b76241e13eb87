// The host contexts an op's functions receive (docs: gert TilingContext / TilingParseContext / InferShapeContext /
// InferDataTypeContext): views over one cbhost::Node that the emulated framework (the aclnn layer, a UT's context
// builder) fills.
//
// Index rules, as in CANN: GetInputShape(i) / GetInputDesc(i) / GetInputTensor(i) count the inputs that are present
// (an absent optional input takes no slot, a dynamic input takes one slot per tensor); GetOptionalInput*(irIndex)
// and GetDynamicInput*(irIndex, k) count the op definition's inputs.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gert_types.h"
#include "platform.h"

namespace cbhost {

struct TensorSlot {
    gert::StorageShape shape;
    gert::CompileTimeTensorDesc desc;
    gert::Tensor tensor;  // holds the data pointer (value-dependent inputs) and repeats shape/desc
};

// Everything a node's contexts read or write.
struct Node {
    std::string name = "cotbuilder_node";
    std::string type;
    std::vector<TensorSlot> inputs, outputs;                  // present instances
    std::vector<gert::AnchorInstanceInfo> ir_inputs, ir_outputs;  // per op-definition input/output
    gert::RuntimeAttrs attrs;
    fe::PlatFormInfos* platform = nullptr;
    const void* compile_info = nullptr;
    void* compile_info_mut = nullptr;  // TilingParse writes here
    std::string compiled_json = "{}";
    gert::TilingData* tiling = nullptr;
    gert::ContinuousVector* workspace = nullptr;  // of size_t
    uint32_t block_dim = 0;
    uint64_t tiling_key = 0;
    bool block_dim_set = false, tiling_key_set = false;
    bool need_atomic = false;
    uint32_t schedule_mode = 0;
    int32_t deterministic = 0;
    uint64_t local_memory_size = 0;
    int64_t tiling_cond = 0;

    void update_ir_defaults() {
        if (ir_inputs.empty())
            for (uint32_t i = 0; i < inputs.size(); ++i) ir_inputs.emplace_back(i, 1);
        if (ir_outputs.empty())
            for (uint32_t i = 0; i < outputs.size(); ++i) ir_outputs.emplace_back(i, 1);
    }
    const TensorSlot* input(size_t i) const { return i < inputs.size() ? &inputs[i] : nullptr; }
    const TensorSlot* output(size_t i) const { return i < outputs.size() ? &outputs[i] : nullptr; }
    TensorSlot* output_mut(size_t i) { return i < outputs.size() ? &outputs[i] : nullptr; }
    const TensorSlot* ir_input(size_t ir, size_t k) const {
        if (ir >= ir_inputs.size() || k >= ir_inputs[ir].GetInstanceNum()) return nullptr;
        return input(ir_inputs[ir].GetInstanceStart() + k);
    }
    TensorSlot* ir_output_mut(size_t ir, size_t k) {
        if (ir >= ir_outputs.size() || k >= ir_outputs[ir].GetInstanceNum()) return nullptr;
        return output_mut(ir_outputs[ir].GetInstanceStart() + k);
    }
};

}  // namespace cbhost

namespace gert {

class ComputeNodeInfo {
public:
    explicit ComputeNodeInfo(const cbhost::Node* n) : n_(n) {}
    const char* GetNodeName() const { return n_->name.c_str(); }
    const char* GetNodeType() const { return n_->type.c_str(); }
    size_t GetIrInputsNum() const { return n_->ir_inputs.size(); }
    size_t GetIrOutputsNum() const { return n_->ir_outputs.size(); }
    size_t GetInputsNum() const { return n_->inputs.size(); }
    size_t GetOutputsNum() const { return n_->outputs.size(); }
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const {
        return ir < n_->ir_inputs.size() ? &n_->ir_inputs[ir] : nullptr;
    }
    const AnchorInstanceInfo* GetOutputInstanceInfo(size_t ir) const {
        return ir < n_->ir_outputs.size() ? &n_->ir_outputs[ir] : nullptr;
    }
    const CompileTimeTensorDesc* GetInputTdInfo(size_t i) const {
        auto* s = n_->input(i);
        return s ? &s->desc : nullptr;
    }
    const CompileTimeTensorDesc* GetOutputTdInfo(size_t i) const {
        auto* s = n_->output(i);
        return s ? &s->desc : nullptr;
    }
    const RuntimeAttrs* GetAttrs() const { return &n_->attrs; }

private:
    const cbhost::Node* n_;
};

// What every context of one node answers the same way.
class ExtendedKernelContext {
public:
    explicit ExtendedKernelContext(cbhost::Node* n) : n_(n), info_(n) {}
    const char* GetNodeName() const { return n_->name.c_str(); }
    const char* GetNodeType() const { return n_->type.c_str(); }
    const char* GetOpType() const { return n_->type.c_str(); }
    const ComputeNodeInfo* GetComputeNodeInfo() const { return &info_; }
    size_t GetComputeNodeInputNum() const { return n_->inputs.size(); }
    size_t GetComputeNodeOutputNum() const { return n_->outputs.size(); }
    const RuntimeAttrs* GetAttrs() const { return &n_->attrs; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const {
        auto* s = n_->input(i);
        return s ? &s->desc : nullptr;
    }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
        auto* s = n_->output(i);
        return s ? &s->desc : nullptr;
    }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const {
        auto* s = n_->ir_input(ir, 0);
        return s ? &s->desc : nullptr;
    }
    // A required input by its op-definition index (its first instance).
    const CompileTimeTensorDesc* GetRequiredInputDesc(size_t ir) const { return GetOptionalInputDesc(ir); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t k) const {
        auto* s = n_->ir_input(ir, k);
        return s ? &s->desc : nullptr;
    }
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const { return info_.GetInputInstanceInfo(ir); }
    const AnchorInstanceInfo* GetIrOutputInstanceInfo(size_t ir) const { return info_.GetOutputInstanceInfo(ir); }
    cbhost::Node* CotbuilderNode() const { return n_; }

protected:
    cbhost::Node* n_;
    ComputeNodeInfo info_;
};

class TilingContext : public ExtendedKernelContext {
public:
    explicit TilingContext(cbhost::Node* n) : ExtendedKernelContext(n) {}
    const StorageShape* GetInputShape(size_t i) const {
        auto* s = n_->input(i);
        return s ? &s->shape : nullptr;
    }
    const StorageShape* GetOptionalInputShape(size_t ir) const {
        auto* s = n_->ir_input(ir, 0);
        return s ? &s->shape : nullptr;
    }
    const StorageShape* GetRequiredInputShape(size_t ir) const { return GetOptionalInputShape(ir); }
    const Tensor* GetRequiredInputTensor(size_t ir) const {
        auto* s = n_->ir_input(ir, 0);
        return s ? &s->tensor : nullptr;
    }
    const StorageShape* GetDynamicInputShape(size_t ir, size_t k) const {
        auto* s = n_->ir_input(ir, k);
        return s ? &s->shape : nullptr;
    }
    const StorageShape* GetOutputShape(size_t i) const {
        auto* s = n_->output(i);
        return s ? &s->shape : nullptr;
    }
    const Tensor* GetInputTensor(size_t i) const {
        auto* s = n_->input(i);
        return s ? &s->tensor : nullptr;
    }
    const Tensor* GetOptionalInputTensor(size_t ir) const {
        auto* s = n_->ir_input(ir, 0);
        return s ? &s->tensor : nullptr;
    }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t k) const {
        auto* s = n_->ir_input(ir, k);
        return s ? &s->tensor : nullptr;
    }
    fe::PlatFormInfos* GetPlatformInfo() const { return n_->platform; }
    const void* GetCompileInfo() const { return n_->compile_info; }
    template <typename T>
    const T* GetCompileInfo() const {
        return static_cast<const T*>(n_->compile_info);
    }
    ge::graphStatus SetBlockDim(uint32_t n) {
        n_->block_dim = n;
        n_->block_dim_set = true;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetSimdNumBlocks(uint32_t n) { return SetBlockDim(n); }
    uint32_t GetBlockDim() const { return n_->block_dim; }
    ge::graphStatus SetTilingKey(uint64_t k) {
        n_->tiling_key = k;
        n_->tiling_key_set = true;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return n_->tiling_key; }
    ge::graphStatus SetNeedAtomic(bool v) {
        n_->need_atomic = v;
        return ge::GRAPH_SUCCESS;
    }
    bool NeedAtomic() const { return n_->need_atomic; }
    ge::graphStatus SetScheduleMode(uint32_t m) {
        n_->schedule_mode = m;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetScheduleMode() const { return n_->schedule_mode; }
    ge::graphStatus SetLocalMemorySize(uint32_t size) {
        n_->local_memory_size = size;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetTilingCond(int32_t c) {
        n_->tiling_cond = c;
        return ge::GRAPH_SUCCESS;
    }
    int32_t GetDeterministic() const { return n_->deterministic; }
    TilingData* GetRawTilingData() { return n_->tiling; }
    const TilingData* GetRawTilingData() const { return n_->tiling; }
    // The tiling struct placed at the start of the raw tiling buffer; the data size is set to its size.
    template <typename T>
    T* GetTilingData() {
        if (!n_->tiling || n_->tiling->GetCapacity() < sizeof(T)) return nullptr;
        n_->tiling->SetDataSize(sizeof(T));
        return static_cast<T*>(n_->tiling->GetData());
    }
    // A block of n workspace sizes (the framework allocates their sum); nullptr past the framework's capacity.
    size_t* GetWorkspaceSizes(size_t n) {
        if (!n_->workspace || n > n_->workspace->GetCapacity()) return nullptr;
        n_->workspace->SetSize(n);
        return static_cast<size_t*>(n_->workspace->MutableData());
    }
    size_t GetWorkspaceNum() const { return n_->workspace ? n_->workspace->GetSize() : 0; }
};

class TilingParseContext : public ExtendedKernelContext {
public:
    explicit TilingParseContext(cbhost::Node* n) : ExtendedKernelContext(n) {}
    template <typename T>
    T* GetCompiledInfo() {
        return static_cast<T*>(n_->compile_info_mut);
    }
    const char* GetCompiledJson() const { return n_->compiled_json.c_str(); }
    fe::PlatFormInfos* GetPlatformInfo() const { return n_->platform; }
};

class InferShapeContext : public ExtendedKernelContext {
public:
    explicit InferShapeContext(cbhost::Node* n) : ExtendedKernelContext(n) {}
    const Shape* GetInputShape(size_t i) const {
        auto* s = n_->input(i);
        return s ? &s->shape.GetOriginShape() : nullptr;
    }
    const Shape* GetOptionalInputShape(size_t ir) const {
        auto* s = n_->ir_input(ir, 0);
        return s ? &s->shape.GetOriginShape() : nullptr;
    }
    const Shape* GetRequiredInputShape(size_t ir) const { return GetOptionalInputShape(ir); }
    const Tensor* GetRequiredInputTensor(size_t ir) const {
        auto* s = n_->ir_input(ir, 0);
        return s ? &s->tensor : nullptr;
    }
    const Shape* GetDynamicInputShape(size_t ir, size_t k) const {
        auto* s = n_->ir_input(ir, k);
        return s ? &s->shape.GetOriginShape() : nullptr;
    }
    Shape* GetOutputShape(size_t i) {
        auto* s = n_->output_mut(i);
        return s ? &s->shape.MutableOriginShape() : nullptr;
    }
    const Tensor* GetInputTensor(size_t i) const {
        auto* s = n_->input(i);
        return s ? &s->tensor : nullptr;
    }
    const Tensor* GetOptionalInputTensor(size_t ir) const {
        auto* s = n_->ir_input(ir, 0);
        return s ? &s->tensor : nullptr;
    }
};

class InferDataTypeContext : public ExtendedKernelContext {
public:
    explicit InferDataTypeContext(cbhost::Node* n) : ExtendedKernelContext(n) {}
    ge::DataType GetInputDataType(size_t i) const {
        auto* s = n_->input(i);
        return s ? s->desc.GetDataType() : ge::DT_UNDEFINED;
    }
    ge::DataType GetOptionalInputDataType(size_t ir) const {
        auto* s = n_->ir_input(ir, 0);
        return s ? s->desc.GetDataType() : ge::DT_UNDEFINED;
    }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t k) const {
        auto* s = n_->ir_input(ir, k);
        return s ? s->desc.GetDataType() : ge::DT_UNDEFINED;
    }
    ge::DataType GetOutputDataType(size_t i) const {
        auto* s = n_->output(i);
        return s ? s->desc.GetDataType() : ge::DT_UNDEFINED;
    }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType dt) {
        auto* s = n_->output_mut(i);
        if (!s) return ge::GRAPH_FAILED;
        s->desc.SetDataType(dt);
        return ge::GRAPH_SUCCESS;
    }
};

// A shape range (the smallest and largest shape a dynamic dimension may take).
template <typename T>
class Range {
public:
    Range() = default;
    Range(T* min, T* max) : min_(min), max_(max) {}
    const T* GetMin() const { return min_; }
    const T* GetMax() const { return max_; }
    T* GetMin() { return min_; }
    T* GetMax() { return max_; }
    void SetMin(T* v) { min_ = v; }
    void SetMax(T* v) { max_ = v; }

private:
    T* min_ = nullptr;
    T* max_ = nullptr;
};

// InferShapeRange is graph-mode only: the emulated framework never calls it; the context exists so that code
// defining one compiles (every range it asks for is absent).
class InferShapeRangeContext : public ExtendedKernelContext {
public:
    explicit InferShapeRangeContext(cbhost::Node* n) : ExtendedKernelContext(n) {}
    const Range<Shape>* GetInputShapeRange(size_t) const { return nullptr; }
    const Range<Shape>* GetOptionalInputShapeRange(size_t) const { return nullptr; }
    Range<Shape>* GetOutputShapeRange(size_t) { return nullptr; }
};

// A context built by a UT's context builder, owning its node and buffers.
template <typename T>
class ContextHolder {
public:
    ContextHolder() = default;
    ContextHolder(std::unique_ptr<cbhost::Node> node, std::unique_ptr<T> ctx) : node_(std::move(node)), ctx_(std::move(ctx)) {}
    T* GetContext() { return ctx_.get(); }
    cbhost::Node* Node() { return node_.get(); }

private:
    std::unique_ptr<cbhost::Node> node_;
    std::unique_ptr<T> ctx_;
};

}  // namespace gert
