// Building a TilingContext by hand, as tiling unit tests do (docs: Utils-API/Tiling调测 — context_ascendc::
// ContextBuilder, KernelRunContextHolder, OpTilingRegistry), plus the builder and registry spellings an ops-*
// repo's own UT helpers use (gert::OpTilingContextBuilder / ContextHolder, DefaultOpImplSpaceRegistryV2): all of them
// fill one cbhost::Node and hand out views of it.
#pragma once
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "op_def.h"
#include "tiling_buffer_scope.h"

namespace gert {

// CANN's KernelContext is the base of every context; a TilingParse context's output 0 is the compile info.
class KernelContext : public ExtendedKernelContext {
public:
    explicit KernelContext(cbhost::Node* n) : ExtendedKernelContext(n) {}
    template <typename T>
    T* GetOutputPointer(size_t i) {
        return i == 0 ? reinterpret_cast<T*>(&n_->compile_info_mut) : nullptr;
    }
    void** GetOutputPointer(size_t i) { return GetOutputPointer<void*>(i); }
};

}  // namespace gert

namespace cbhost {

// What the builders collect before a context exists.
struct NodeDraft {
    std::unique_ptr<Node> node = std::make_unique<Node>();
    size_t n_in = 0, n_out = 0;
    std::vector<uint32_t> in_instances, out_instances;
    std::vector<std::pair<int32_t, TensorSlot>> inputs, outputs;  // by instance index
    std::vector<gert::AttrValue> attrs;
    std::vector<std::shared_ptr<std::vector<uint8_t>>> blobs;  // const data read from files
    std::unique_ptr<uint8_t[]> own_tiling, own_workspace;
    std::unique_ptr<fe::PlatFormInfos> own_platform;

    static TensorSlot slot(ge::DataType dt, ge::Format origin, ge::Format storage, const gert::StorageShape& shape,
                           void* data) {
        TensorSlot s;
        s.shape = shape;
        s.desc = gert::CompileTimeTensorDesc(dt, gert::StorageFormat(origin, storage));
        s.tensor = gert::Tensor(shape, s.desc.GetFormat(), gert::kOnHost, dt, data);
        return s;
    }

    std::unique_ptr<Node> finish() {
        auto& n = *node;
        auto place = [](std::vector<std::pair<int32_t, TensorSlot>>& from, std::vector<TensorSlot>& to) {
            for (auto& kv : from) {
                if (kv.first < 0) continue;
                if ((size_t)kv.first >= to.size()) to.resize((size_t)kv.first + 1);
                to[(size_t)kv.first] = kv.second;
            }
        };
        place(inputs, n.inputs);
        place(outputs, n.outputs);
        auto ir = [](const std::vector<uint32_t>& inst, size_t count, size_t have) {
            std::vector<gert::AnchorInstanceInfo> out;
            uint32_t at = 0;
            if (!inst.empty()) {
                for (uint32_t k : inst) {
                    out.emplace_back(at, k);
                    at += k;
                }
            } else {
                for (uint32_t i = 0; i < (count ? count : have); ++i) out.emplace_back(i, 1);
            }
            return out;
        };
        n.ir_inputs = ir(in_instances, n_in, n.inputs.size());
        n.ir_outputs = ir(out_instances, n_out, n.outputs.size());
        n.attrs = gert::RuntimeAttrs(attrs);
        if (!n.tiling) {
            own_tiling = gert::TilingData::CreateCap(4096);
            n.tiling = reinterpret_cast<gert::TilingData*>(own_tiling.get());
        }
        if (!n.workspace) {
            own_workspace = gert::ContinuousVector::Create<size_t>(64);
            n.workspace = reinterpret_cast<gert::ContinuousVector*>(own_workspace.get());
        }
        if (!n.platform) {
            own_platform = std::make_unique<fe::PlatFormInfos>();
            n.platform = own_platform.get();
        }
        return std::move(node);
    }
};

}  // namespace cbhost

namespace cbhost {

// The tiling function a test gets from a registry: the op's own, run through this trampoline so the host half is
// reported as for an aclnn call (COTBUILDER_STAGE / COTBUILDER_HOST lines), and a failing TilingFunc is charged to
// the host rather than to a kernel that then reads garbage.
inline ge::graphStatus reporting_tiling(gert::TilingContext* ctx) {
    const char* type = ctx ? ctx->GetNodeType() : "";
    auto it = op_impls().find(type);
    if (it == op_impls().end() || !it->second.tiling) return ge::GRAPH_FAILED;
    std::fprintf(stderr, "COTBUILDER_STAGE {\"stage\":\"host_tiling\"}\n");
    std::fflush(stderr);
    Node* n = ctx->CotbuilderNode();
    cbemu::TilingBufferScope scope(n->tiling ? n->tiling->GetData() : nullptr, n->tiling ? n->tiling->GetCapacity() : 0);
    ge::graphStatus st = it->second.tiling(ctx);
    size_t size = n->tiling ? std::max(n->tiling->GetDataSize(), scope.wanted()) : 0;
    std::string error;
    if (st != ge::GRAPH_SUCCESS)
        error = "TilingFunc returned " + std::to_string(st) + " (not GRAPH_SUCCESS)";
    else if (n->tiling && size > n->tiling->GetCapacity())
        error = "tiling data of " + std::to_string(size) + " bytes exceeds the " +
                std::to_string(n->tiling->GetCapacity()) + "-byte tiling buffer";
    else if (n->block_dim == 0)
        error = "TilingFunc did not set a block dim (SetBlockDim) or set 0";
    if (!error.empty()) {
        std::fprintf(stderr, "COTBUILDER_HOST {\"op\":\"%s\",\"ok\":false,\"error\":\"%s\"}\n", type, error.c_str());
    } else {
        std::string hexd;
        const uint8_t* d = n->tiling ? static_cast<const uint8_t*>(n->tiling->GetData()) : nullptr;
        for (size_t i = 0; d && i < n->tiling->GetDataSize(); ++i) {
            char b[3];
            std::snprintf(b, sizeof b, "%02x", d[i]);
            hexd += b;
        }
        std::fprintf(stderr,
                     "COTBUILDER_HOST {\"op\":\"%s\",\"ok\":true,\"block_dim\":%u,\"tiling_key\":%llu,\"workspace\":[],"
                     "\"tiling_size\":%zu,\"tiling\":\"%s\"}\n",
                     type, n->block_dim, (unsigned long long)n->tiling_key, n->tiling ? n->tiling->GetDataSize() : 0,
                     hexd.c_str());
    }
    std::fprintf(stderr, "COTBUILDER_STAGE {\"stage\":\"host_done\"}\n");
    std::fflush(stderr);
    return st;
}

}  // namespace cbhost

namespace context_ascendc {

struct KernelRunContextHolder {
    KernelRunContextHolder() = default;
    template <typename T>
    T* GetContext() const {
        if constexpr (std::is_same_v<T, gert::TilingContext>) return tiling.get();
        else if constexpr (std::is_same_v<T, gert::TilingParseContext>) return parse.get();
        else if constexpr (std::is_same_v<T, gert::InferShapeContext>) return infer.get();
        else return reinterpret_cast<T*>(kernel.get());
    }
    gert::ComputeNodeInfo* MutableComputeNodeInfo() { return info.get(); }

    std::unique_ptr<cbhost::Node> node;
    std::unique_ptr<uint8_t[]> tiling_holder, workspace_holder;
    std::unique_ptr<fe::PlatFormInfos> platform_holder;
    std::vector<std::shared_ptr<std::vector<uint8_t>>> blobs;
    std::unique_ptr<gert::TilingContext> tiling;
    std::unique_ptr<gert::TilingParseContext> parse;
    std::unique_ptr<gert::InferShapeContext> infer;
    std::unique_ptr<gert::KernelContext> kernel;
    std::unique_ptr<gert::ComputeNodeInfo> info;
};

class ContextBuilder {
public:
    ContextBuilder() = default;
    ContextBuilder& SetOpNameType(const std::string& name, const std::string& type) {
        d_.node->name = name;
        d_.node->type = type;
        return *this;
    }
    ContextBuilder& NodeIoNum(size_t in, size_t out) {
        d_.n_in = in;
        d_.n_out = out;
        return *this;
    }
    ContextBuilder& IrInstanceNum(std::vector<uint32_t> instances) {
        d_.in_instances = std::move(instances);
        return *this;
    }
    ContextBuilder& IrInstanceNum(std::vector<uint32_t> in, std::vector<uint32_t> out) {
        d_.in_instances = std::move(in);
        d_.out_instances = std::move(out);
        return *this;
    }
    ContextBuilder& AddInputTd(int32_t index, ge::DataType dt, ge::Format origin, ge::Format storage,
                               gert::StorageShape shape, void* constValues = nullptr) {
        d_.inputs.emplace_back(index, cbhost::NodeDraft::slot(dt, origin, storage, shape, constValues));
        return *this;
    }
    ContextBuilder& AddInputTd(int32_t index, ge::DataType dt, ge::Format origin, ge::Format storage,
                               gert::StorageShape shape, const std::string& filePath) {
        std::ifstream f(filePath, std::ios::binary);
        auto blob = std::make_shared<std::vector<uint8_t>>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        d_.blobs.push_back(blob);
        return AddInputTd(index, dt, origin, storage, shape, blob->empty() ? nullptr : (void*)blob->data());
    }
    ContextBuilder& AddOutputTd(int32_t index, ge::DataType dt, ge::Format origin, ge::Format storage,
                                gert::StorageShape shape) {
        d_.outputs.emplace_back(index, cbhost::NodeDraft::slot(dt, origin, storage, shape, nullptr));
        return *this;
    }
    ContextBuilder& AddAttr(const std::string&, int64_t v) { return attr(gert::AttrValue::of_int(v)); }
    ContextBuilder& AddAttr(const std::string&, int32_t v) { return attr(gert::AttrValue::of_int(v)); }
    ContextBuilder& AddAttr(const std::string&, bool v) { return attr(gert::AttrValue::of_bool(v)); }
    ContextBuilder& AddAttr(const std::string&, float v) { return attr(gert::AttrValue::of_float(v)); }
    ContextBuilder& AddAttr(const std::string&, const std::string& v) { return attr(gert::AttrValue::of_str(v)); }
    ContextBuilder& AddAttr(const std::string&, const char* v) { return attr(gert::AttrValue::of_str(v ? v : "")); }
    ContextBuilder& AddAttr(const std::string&, const std::vector<int64_t>& v) {
        return attr(gert::AttrValue::of_list<int64_t>(gert::AttrValue::kListInt, v));
    }
    ContextBuilder& AddAttr(const std::string&, const std::vector<float>& v) {
        return attr(gert::AttrValue::of_list<float>(gert::AttrValue::kListFloat, v));
    }
    ContextBuilder& AddAttr(const std::string&, const std::vector<bool>& v) {
        return attr(gert::AttrValue::of_list_bool(v));
    }
    ContextBuilder& AddAttr(const std::string&, const std::vector<std::vector<int64_t>>& v) {
        return attr(gert::AttrValue::of_list_list_int(v));
    }
    ContextBuilder& CompileInfo(void* ci) {
        d_.node->compile_info = ci;
        d_.node->compile_info_mut = ci;
        return *this;
    }
    ContextBuilder& PlatformInfo(void* p) {
        d_.node->platform = static_cast<fe::PlatFormInfos*>(p);
        return *this;
    }
    // The SoC's numbers (nullptr: the emulated SoC) written into the platform description, as the docs describe.
    ContextBuilder& AddPlatformInfo(const char* soc) {
        d_.own_platform = std::make_unique<fe::PlatFormInfos>();
        const auto& s = soc ? cbhost::soc_spec(soc) : cbhost::current_soc();
        std::map<std::string, std::string> socinfo = {{"ai_core_cnt", std::to_string(s.split ? s.aic : s.aiv)},
                                                      {"cube_core_cnt", std::to_string(s.aic)},
                                                      {"vector_core_cnt", std::to_string(s.aiv)}};
        std::map<std::string, std::string> spec = {{"ub_size", std::to_string(s.ub)}, {"l1_size", std::to_string(s.l1)}};
        std::map<std::string, std::string> version = {{"Short_SoC_version", s.short_version}};
        d_.own_platform->SetPlatformRes("SoCInfo", socinfo);
        d_.own_platform->SetPlatformRes("AICoreSpec", spec);
        d_.own_platform->SetPlatformRes("version", version);
        d_.node->platform = d_.own_platform.get();
        return *this;
    }
    ContextBuilder& TilingData(void* td) {
        d_.node->tiling = static_cast<gert::TilingData*>(td);
        return *this;
    }
    ContextBuilder& Workspace(gert::ContinuousVector* ws) {
        d_.node->workspace = ws;
        return *this;
    }
    ContextBuilder& Deterministic(int32_t v) {
        d_.node->deterministic = v;
        return *this;
    }

    std::shared_ptr<KernelRunContextHolder> BuildTilingContext() { return build(); }
    std::shared_ptr<KernelRunContextHolder> BuildKernelRunContext() { return build(); }

private:
    cbhost::NodeDraft d_;
    ContextBuilder& attr(gert::AttrValue v) {
        d_.attrs.push_back(std::move(v));
        return *this;
    }
    std::shared_ptr<KernelRunContextHolder> build() {
        auto h = std::make_shared<KernelRunContextHolder>();
        h->node = d_.finish();
        h->tiling_holder = std::move(d_.own_tiling);
        h->workspace_holder = std::move(d_.own_workspace);
        h->platform_holder = std::move(d_.own_platform);
        h->blobs = d_.blobs;
        h->tiling = std::make_unique<gert::TilingContext>(h->node.get());
        h->parse = std::make_unique<gert::TilingParseContext>(h->node.get());
        h->infer = std::make_unique<gert::InferShapeContext>(h->node.get());
        h->kernel = std::make_unique<gert::KernelContext>(h->node.get());
        h->info = std::make_unique<gert::ComputeNodeInfo>(h->node.get());
        d_ = cbhost::NodeDraft();
        return h;
    }
};

class OpTilingRegistry {
public:
    using TilingFunc = uint32_t (*)(gert::TilingContext*);
    OpTilingRegistry() = default;
    ~OpTilingRegistry() = default;
    // The tiling library is the op's host code linked into this program: nothing to load.
    bool LoadTilingLibrary(const char*) const { return true; }
    TilingFunc GetTilingFunc(const char* opType) const {
        cbhost::build_all_op_defs();
        auto it = cbhost::op_impls().find(opType ? opType : "");
        return it == cbhost::op_impls().end() || !it->second.tiling ? nullptr : &cbhost::reporting_tiling;
    }
};

}  // namespace context_ascendc

namespace gert {

// The builder of an ops-* repo's UT helpers (tiling_context_faker.h builds on it).
class OpTilingContextBuilder {
public:
    OpTilingContextBuilder& OpType(const char* t) {
        d_.node->type = t ? t : "";
        return *this;
    }
    OpTilingContextBuilder& OpName(const char* n) {
        d_.node->name = n ? n : "";
        return *this;
    }
    OpTilingContextBuilder& IONum(size_t in, size_t out) {
        d_.n_in = in;
        d_.n_out = out;
        return *this;
    }
    OpTilingContextBuilder& IOInstanceNum(const std::vector<uint32_t>& in, const std::vector<uint32_t>& out) {
        d_.in_instances = in;
        d_.out_instances = out;
        return *this;
    }
    OpTilingContextBuilder& InputTensors(const std::vector<Tensor*>& ts) {
        for (size_t i = 0; i < ts.size(); ++i) d_.inputs.emplace_back((int32_t)i, slot(ts[i]));
        return *this;
    }
    OpTilingContextBuilder& OutputTensors(const std::vector<Tensor*>& ts) {
        for (size_t i = 0; i < ts.size(); ++i) d_.outputs.emplace_back((int32_t)i, slot(ts[i]));
        return *this;
    }
    OpTilingContextBuilder& CompileInfo(const void* ci) {
        d_.node->compile_info = ci;
        d_.node->compile_info_mut = const_cast<void*>(ci);
        return *this;
    }
    OpTilingContextBuilder& PlatformInfo(const void* p) {
        d_.node->platform = static_cast<fe::PlatFormInfos*>(const_cast<void*>(p));
        return *this;
    }
    OpTilingContextBuilder& Deterministic(int32_t v) {
        d_.node->deterministic = v;
        return *this;
    }
    OpTilingContextBuilder& TilingData(const gert::TilingData* td) {
        d_.node->tiling = const_cast<gert::TilingData*>(td);
        return *this;
    }
    OpTilingContextBuilder& Workspace(const ContinuousVector* ws) {
        d_.node->workspace = const_cast<ContinuousVector*>(ws);
        return *this;
    }
    OpTilingContextBuilder& AppendAttr(bool v) { return attr(AttrValue::of_bool(v)); }
    OpTilingContextBuilder& AppendAttr(int64_t v) { return attr(AttrValue::of_int(v)); }
    OpTilingContextBuilder& AppendAttr(float v) { return attr(AttrValue::of_float(v)); }
    OpTilingContextBuilder& AppendAttr(const ge::AscendString& v) { return attr(AttrValue::of_str(v.GetString())); }
    OpTilingContextBuilder& AppendAttr(const std::vector<bool>& v) { return attr(AttrValue::of_list_bool(v)); }
    OpTilingContextBuilder& AppendAttr(const std::vector<int64_t>& v) {
        return attr(AttrValue::of_list<int64_t>(AttrValue::kListInt, v));
    }
    OpTilingContextBuilder& AppendAttr(const std::vector<float>& v) {
        return attr(AttrValue::of_list<float>(AttrValue::kListFloat, v));
    }
    OpTilingContextBuilder& AppendAttr(const std::vector<ge::AscendString>&) { return attr(AttrValue()); }
    OpTilingContextBuilder& AppendAttr(const std::vector<std::vector<int64_t>>& v) {
        return attr(AttrValue::of_list_list_int(v));
    }
    ContextHolder<TilingContext> Build() {
        auto node = d_.finish();
        keep_tiling_ = std::move(d_.own_tiling);
        keep_ws_ = std::move(d_.own_workspace);
        keep_platform_ = std::move(d_.own_platform);
        auto ctx = std::make_unique<TilingContext>(node.get());
        d_ = cbhost::NodeDraft();
        return ContextHolder<TilingContext>(std::move(node), std::move(ctx));
    }

private:
    cbhost::NodeDraft d_;
    std::unique_ptr<uint8_t[]> keep_tiling_, keep_ws_;
    std::unique_ptr<fe::PlatFormInfos> keep_platform_;
    OpTilingContextBuilder& attr(AttrValue v) {
        d_.attrs.push_back(std::move(v));
        return *this;
    }
    static cbhost::TensorSlot slot(const Tensor* t) {
        cbhost::TensorSlot s;
        if (!t) return s;
        s.shape = t->GetShape();
        s.desc = CompileTimeTensorDesc(t->GetDataType(), t->GetFormat());
        s.tensor = *t;
        return s;
    }
};

// What CANN's space registry hands a UT for an op type: its functions.
struct OpImplFunctionsV2 {
    OpImplRegisterV2::TilingKernelFunc tiling = nullptr;
    OpImplRegisterV2::TilingParseFunc tiling_parse = nullptr;
    OpImplRegisterV2::InferShapeKernelFunc infer_shape = nullptr;
    OpImplRegisterV2::InferDataTypeKernelFunc infer_datatype = nullptr;
};
class OpImplSpaceRegistryV2 {
public:
    const OpImplFunctionsV2* GetOpImpl(const char* type) {
        cbhost::build_all_op_defs();
        auto it = cbhost::op_impls().find(type ? type : "");
        if (it == cbhost::op_impls().end()) return nullptr;
        auto& f = funcs_[it->first];
        f.tiling = it->second.tiling ? &cbhost::reporting_tiling : nullptr;
        f.tiling_parse = it->second.tiling_parse;
        f.infer_shape = it->second.infer_shape;
        f.infer_datatype = it->second.infer_dtype;
        return &f;
    }

private:
    std::map<std::string, OpImplFunctionsV2> funcs_;
};
class DefaultOpImplSpaceRegistryV2 {
public:
    static DefaultOpImplSpaceRegistryV2& GetInstance() {
        static DefaultOpImplSpaceRegistryV2 inst;
        return inst;
    }
    std::shared_ptr<OpImplSpaceRegistryV2> GetSpaceRegistry() { return space_; }

private:
    std::shared_ptr<OpImplSpaceRegistryV2> space_ = std::make_shared<OpImplSpaceRegistryV2>();
};

}  // namespace gert
