// gert::OpInferShapeContextBuilder: the InferShape twin of OpTilingContextBuilder that an ops-* repo's UT helpers
// (infershape_context_faker.h) build on: the op's inputs as tensors, its outputs as descriptions whose shapes the
// op's InferShape fills in.
#pragma once
#include <memory>
#include <vector>

#include "context_builder.h"

namespace gert {

class OpInferShapeContextBuilder {
public:
    OpInferShapeContextBuilder& OpType(const char* t) {
        d_.node->type = t ? t : "";
        return *this;
    }
    OpInferShapeContextBuilder& OpName(const char* n) {
        d_.node->name = n ? n : "";
        return *this;
    }
    OpInferShapeContextBuilder& IONum(size_t in, size_t out) {
        d_.n_in = in;
        d_.n_out = out;
        return *this;
    }
    OpInferShapeContextBuilder& IOInstanceNum(const std::vector<uint32_t>& in, const std::vector<uint32_t>& out) {
        d_.in_instances = in;
        d_.out_instances = out;
        return *this;
    }
    OpInferShapeContextBuilder& InputTensors(const std::vector<Tensor*>& ts) {
        for (size_t i = 0; i < ts.size(); ++i) {
            cbhost::TensorSlot s;
            if (ts[i] != nullptr) {
                s.shape = ts[i]->GetShape();
                s.desc = CompileTimeTensorDesc(ts[i]->GetDataType(), ts[i]->GetFormat());
                s.tensor = *ts[i];
            }
            d_.inputs.emplace_back(static_cast<int32_t>(i), s);
        }
        return *this;
    }
    OpInferShapeContextBuilder& OutputTensorDesc(size_t index, ge::DataType dt, ge::Format origin,
                                                 ge::Format storage) {
        d_.outputs.emplace_back(static_cast<int32_t>(index),
                                cbhost::NodeDraft::slot(dt, origin, storage, StorageShape(), nullptr));
        return *this;
    }
    OpInferShapeContextBuilder& AppendAttr(bool v) { return attr(AttrValue::of_bool(v)); }
    OpInferShapeContextBuilder& AppendAttr(int64_t v) { return attr(AttrValue::of_int(v)); }
    OpInferShapeContextBuilder& AppendAttr(float v) { return attr(AttrValue::of_float(v)); }
    OpInferShapeContextBuilder& AppendAttr(const ge::AscendString& v) {
        return attr(AttrValue::of_str(v.GetString()));
    }
    OpInferShapeContextBuilder& AppendAttr(const std::vector<bool>& v) { return attr(AttrValue::of_list_bool(v)); }
    OpInferShapeContextBuilder& AppendAttr(const std::vector<int64_t>& v) {
        return attr(AttrValue::of_list<int64_t>(AttrValue::kListInt, v));
    }
    OpInferShapeContextBuilder& AppendAttr(const std::vector<float>& v) {
        return attr(AttrValue::of_list<float>(AttrValue::kListFloat, v));
    }
    OpInferShapeContextBuilder& AppendAttr(const std::vector<ge::AscendString>&) { return attr(AttrValue()); }
    OpInferShapeContextBuilder& AppendAttr(const std::vector<std::vector<int64_t>>& v) {
        return attr(AttrValue::of_list_list_int(v));
    }
    ContextHolder<InferShapeContext> Build() {
        size_t outs = d_.n_out;
        if (!d_.out_instances.empty()) {
            outs = 0;
            for (uint32_t k : d_.out_instances) outs += k;
        }
        auto node = d_.finish();
        if (node->outputs.size() < outs) node->outputs.resize(outs);  // every output has a shape to fill
        keep_tiling_ = std::move(d_.own_tiling);
        keep_ws_ = std::move(d_.own_workspace);
        keep_platform_ = std::move(d_.own_platform);
        auto ctx = std::make_unique<InferShapeContext>(node.get());
        d_ = cbhost::NodeDraft();
        return ContextHolder<InferShapeContext>(std::move(node), std::move(ctx));
    }

private:
    cbhost::NodeDraft d_;
    std::unique_ptr<uint8_t[]> keep_tiling_, keep_ws_;
    std::unique_ptr<fe::PlatFormInfos> keep_platform_;
    OpInferShapeContextBuilder& attr(AttrValue v) {
        d_.attrs.push_back(std::move(v));
        return *this;
    }
};

}  // namespace gert
