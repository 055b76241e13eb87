// The emulated aclnn framework: what a generated aclnn<Op>GetWorkspaceSize / aclnn<Op> pair calls.
//
// Phase 1 (GetWorkspaceSize): build the op's node from the aclTensors / scalars / lists and attribute values in
// OpDef order, run TilingParse (when the op registered a compile-info type) and TilingFunc, check what they produced,
// pick the kernel variant compiled for the inputs' dtypes, and report the host result on stderr as one line
// `COTBUILDER_HOST {json}` (block dim, tiling key, workspace sizes, tiling bytes) for the verifier to record.
// Phase 2 (aclnn<Op>): copy the tiling bytes to GM, set the tiling key, launch the kernel entry with
// (inputs..., outputs..., workspace, tiling) on the emulator.
// `COTBUILDER_STAGE {"stage": ...}` lines say which half is running, so a crash is charged to the host or the kernel.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../../aclnn/aclnn_base.h"
#include "../emu/diag.h"
#include "../emu/rt.h"
#include "../emu/runtime.h"
#include "op_def.h"
#include "platform.h"
#include "tiling_buffer_scope.h"

namespace cbhost {

// A kernel entry compiled for one dtype column of the OpDef: the dtypes of the first instance of every IR input
// then every IR output (empty: the kernel does not depend on dtype macros and serves every call).
using LaunchFn = void (*)(uint32_t block_dim, void** args);
struct KernelVariant {
    std::vector<int32_t> dtypes;
    LaunchFn launch;
};

constexpr size_t kTilingCapacity = 64 * 1024;  // bytes a TilingFunc may write (larger: host failure)
constexpr size_t kWorkspaceSlots = 64;

inline void stage(const char* name) {
    std::fprintf(stderr, "COTBUILDER_STAGE {\"stage\":\"%s\"}\n", name);
    std::fflush(stderr);
}

CBEMU_HOST_RT std::string json_escape(const std::string& s);

struct Prepared {
    std::string op;
    std::unique_ptr<Node> node;
    std::unique_ptr<uint8_t[]> tiling_holder, workspace_holder;
    void* compile_info = nullptr;
    void (*free_compile_info)(void*) = nullptr;
    std::vector<void*> kernel_args;  // one per IR input then IR output
    std::vector<void*> gm_owned;     // list descriptors and scalar tensors made here
    uint64_t workspace_bytes = 0;
    bool asked_sys_workspace = false;  // its TilingParse or TilingFunc asked GetLibApiWorkSpaceSize
    LaunchFn launch = nullptr;
    // Outputs the framework fills before the kernel runs (OpDef InitValue + SetNeedAtomic): bytes, one element's pattern
    struct Fill {
        uint8_t* gm;
        size_t bytes;
        std::vector<uint8_t> element;
    };
    std::vector<Fill> fills;
    ~Prepared();
};

// A harness may replace tiling fields after TilingFunc ran (a verify_spec.toml `[tiling]` override, reported).
inline std::function<void(void*, size_t)>& tiling_override() {
    static std::function<void(void*, size_t)> f;
    return f;
}

inline ge::DataType ge_dtype(aclDataType dt) { return (ge::DataType)(int32_t)dt; }
inline ge::Format ge_format(aclFormat f) { return f == ACL_FORMAT_UNDEFINED ? ge::FORMAT_ND : (ge::Format)(int32_t)f; }

CBEMU_HOST_RT void report_failure(const std::string& op, const std::string& why);

class OpCall {
public:
    explicit OpCall(const char* op_type);
    ~OpCall();

    void input(const aclTensor* t) { add_tensor(t, true); }
    void optional_input(const aclTensor* t) { add_tensor(t, true); }
    void dynamic_input(const aclTensorList* l) { add_list(l, true); }
    // A scalar input reaches the kernel as a one-element tensor of `to` (DT_UNDEFINED: the scalar's own dtype).
    void scalar_input(const aclScalar* s, ge::DataType to);
    void scalar_list_input(const aclScalarList* l, ge::DataType to);
    void output(const aclTensor* t) { add_tensor(t, false); }
    // A value-depend input of DT_INT64 / DT_FLOAT / DT_BOOL is an array in the aclnn API (msOpGen's rule); the kernel
    // and TilingFunc see a 1-D tensor of those values in GM, as the framework hands it to the device.
    void array_input(const aclIntArray* a) { array_tensor(a ? &a->v : nullptr, ge::DT_INT64); }
    void array_input(const aclFloatArray* a) { array_tensor(a ? &a->v : nullptr, ge::DT_FLOAT); }
    void array_input(const aclBoolArray* a) {
        if (!a) return array_tensor<uint8_t>(nullptr, ge::DT_BOOL);
        std::vector<uint8_t> bytes(a->v.begin(), a->v.end());
        array_tensor(&bytes, ge::DT_BOOL);
    }
    void dynamic_output(const aclTensorList* l) { add_list(l, false); }

    void attr_bool(bool v) { attrs_.push_back(gert::AttrValue::of_bool(v)); }
    void attr_int(int64_t v) { attrs_.push_back(gert::AttrValue::of_int(v)); }
    void attr_float(double v) { attrs_.push_back(gert::AttrValue::of_float((float)v)); }
    void attr_str(const char* v) { attrs_.push_back(gert::AttrValue::of_str(v ? v : "")); }
    void attr_list_int(const aclIntArray* a) {
        attrs_.push_back(gert::AttrValue::of_list<int64_t>(gert::AttrValue::kListInt, a ? a->v : std::vector<int64_t>{}));
    }
    void attr_list_float(const aclFloatArray* a) {
        attrs_.push_back(gert::AttrValue::of_list<float>(gert::AttrValue::kListFloat, a ? a->v : std::vector<float>{}));
    }
    void attr_list_bool(const aclBoolArray* a) {
        attrs_.push_back(gert::AttrValue::of_list_bool(a ? a->v : std::vector<bool>{}));
    }
    void attr_list_list_int(const std::vector<std::vector<int64_t>>& v) {
        attrs_.push_back(gert::AttrValue::of_list_list_int(v));
    }

    aclnnStatus prepare(uint64_t* workspace_size, aclOpExecutor** executor, const std::vector<KernelVariant>& variants);
    // The op-api framework's INFER_SHAPE: the op's own InferShape on this call's node (attributes the call did
    // not pass take the OpDef default); `shapes` gets each output instance's shape.
    aclnnStatus infer_shape(std::vector<gert::Shape>& shapes);
    static void write_scalar_public(uint8_t* gm, const aclScalar& s, ge::DataType dt) { write_scalar(gm, s, dt); }
    size_t ir_count() const { return node_->ir_inputs.size() + node_->ir_outputs.size(); }

private:
    std::string op_;
    std::unique_ptr<Node> node_;
    std::vector<gert::AttrValue> attrs_;
    std::vector<void*> args_;
    std::vector<void*> gm_owned_;
    std::vector<std::unique_ptr<aclTensor>> owned_tensors_;
    std::vector<int32_t> column_;  // dtype of the first instance per IR param (-1: absent)
    std::string error_;
    // a scalar list whose OpDef names no To() dtype: its scalars keep the dtype the binding gave them (an integer
    // at::Scalar is int64), where the real framework converts host scalars for the kernel - not emulated
    bool scalar_list_unconverted_ = false;

    static TensorSlot slot_of(const aclTensor* t);
    std::vector<TensorSlot>& slots(bool in) { return in ? node_->inputs : node_->outputs; }
    std::vector<gert::AnchorInstanceInfo>& ir(bool in) { return in ? node_->ir_inputs : node_->ir_outputs; }

    std::vector<const aclTensor*> out_tensors_;  // per IR output: the tensor (nullptr: absent or a list)
    void add_tensor(const aclTensor* t, bool in);
    void init_fills(const ops::OpDef& def, Prepared& p) const;
    // A tensor list reaches the kernel as one GM block in the documented ListTensorDesc layout: a uint64 byte offset
    // to the pointer table, per tensor a uint64 (rank | index << 32) followed by its dims, then the data pointers.
    void add_list(const aclTensorList* l, bool in);
    // GM the call owns until its launch is over, at least 32 bytes
    uint8_t* owned_gm(size_t bytes) {
        auto* gm = static_cast<uint8_t*>(cbemu::gm_alloc(bytes < 32 ? 32 : bytes));
        gm_owned_.push_back(gm);
        return gm;
    }
    // the next input: a tensor of dt over gm, owned by the call - 0-D (a scalar, n < 0) or 1-D of n elements
    void add_owned_input(uint8_t* gm, int64_t n, ge::DataType dt) {
        int64_t dims[1] = {n};
        int64_t rank = n < 0 ? 0 : 1;
        auto* t = aclCreateTensor(rank ? dims : nullptr, rank, (aclDataType)dt, nullptr, 0, ACL_FORMAT_ND,
                                  rank ? dims : nullptr, rank, gm);
        owned_tensors_.emplace_back(t);
        add_tensor(t, true);
    }
    static size_t scalar_width(ge::DataType dt) {
        return (size_t)(ge::GetSizeByDataType(dt) > 0 ? ge::GetSizeByDataType(dt) : 8);
    }
    static void write_scalar(uint8_t* gm, const aclScalar& s, ge::DataType dt);
    template <typename T>
    void array_tensor(const std::vector<T>* values, ge::DataType dt) {
        if (!values) return add_tensor(nullptr, true);
        size_t bytes = values->size() * sizeof(T);
        uint8_t* gm = owned_gm(bytes);
        if (bytes) std::memcpy(gm, values->data(), bytes);
        add_owned_input(gm, (int64_t)values->size(), dt);
    }
};

CBEMU_HOST_RT std::string hex(const void* p, size_t n);

}  // namespace cbhost

namespace cbhost {
namespace opapi {
struct Plan;
}
// The kernel variants of each op the program holds, by op type: the generated aclnn layer registers them, so a
// hand-written op-api layer's l0 launch (ADD_TO_LAUNCHER_LIST_AICORE) finds the same launchers.
struct KernelTable {
    size_t n_params = 0;  // the entry's GM_ADDR parameters (IR inputs + IR outputs + workspace + tiling)
    const std::vector<KernelVariant>* variants = nullptr;
};
inline std::map<std::string, KernelTable>& kernel_tables() {
    static std::map<std::string, KernelTable> tables;
    return tables;
}
inline bool register_kernels(const char* op, size_t n_params, const std::vector<KernelVariant>& variants) {
    kernel_tables()[op] = KernelTable{n_params, &variants};
    return true;
}
}  // namespace cbhost

// One executor: the generated layer's one prepared launch, or a hand-written op-api layer's plan of tasks (l0
// kernel launches and the framework's built-in host ops; impl/host/opapi_*.h defines its member functions).
struct aclOpExecutor {
    std::unique_ptr<cbhost::Prepared> prepared;
    cbhost::opapi::Plan* plan = nullptr;

    aclTensor* AllocTensor(const gert::Shape& shape, ge::DataType dt, ge::Format format = ge::FORMAT_ND);
    aclTensor* AllocTensor(const gert::Shape& storage, const gert::Shape& origin, ge::DataType dt,
                           ge::Format storage_format, ge::Format origin_format);
    aclTensor* AllocTensor(ge::DataType dt, ge::Format storage_format, ge::Format origin_format);
    const aclTensor* ConvertToTensor(const aclScalar* s, ge::DataType dt);
    const aclTensor* ConvertToTensor(const aclIntArray* a, ge::DataType dt);
    const aclTensor* ConvertToTensor(const aclFloatArray* a, ge::DataType dt);
    const aclTensor* ConvertToTensor(const aclBoolArray* a, ge::DataType dt);
    // a host array of n values (int64_t, int32_t, float, double, bool, ...) as a 1-D tensor of dt
    template <typename T>
    const aclTensor* ConvertToTensor(const T* values, uint64_t n, ge::DataType dt);
    aclIntArray* AllocIntArray(const int64_t* values, uint64_t n);
    aclFloatArray* AllocFloatArray(const float* values, uint64_t n);
    aclBoolArray* AllocBoolArray(const bool* values, uint64_t n);
    aclTensorList* AllocTensorList(const aclTensor* const* tensors, uint64_t n);
    aclScalar* AllocScalar(float v);
    aclScalar* AllocScalar(double v);
    aclScalar* AllocScalar(int64_t v);
    aclScalar* AllocScalar(int32_t v);
    aclScalar* AllocScalar(const void* value, ge::DataType dt);
    aclTensor* CreateView(const aclTensor* t, const gert::Shape& shape, int64_t offset);
    aclTensor* CreateView(const aclTensor* t, const gert::Shape& shape, const std::vector<int64_t>& strides,
                          int64_t offset);
    uint64_t GetWorkspaceSize() const;
    void AbandonCache(bool = false) {}
};

namespace cbhost {

// What prepared executors keep alive until the process ends: the platform descriptions their tiling saw, and the
// tensors made from scalars.
inline std::vector<std::unique_ptr<fe::PlatFormInfos>>& live_platforms() {
    static std::vector<std::unique_ptr<fe::PlatFormInfos>> platforms;
    return platforms;
}
inline std::vector<std::unique_ptr<aclTensor>>& kept_tensors() {
    static std::vector<std::unique_ptr<aclTensor>> tensors;
    return tensors;
}

CBEMU_HOST_RT aclnnStatus run(void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream);
// Phase 2 of one prepared launch: tiling to GM, the output fills, the kernel on the emulator.
CBEMU_HOST_RT aclnnStatus launch(Prepared& p, void* workspace, uint64_t workspace_size);

}  // namespace cbhost

#if CBEMU_HOST_RT_BODY
namespace cbhost {

CBEMU_HOST_RT std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if ((unsigned char)c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", (unsigned)(unsigned char)c);
            o += b;
        } else {
            o += c;
        }
    }
    return o;
}

CBEMU_HOST_RT Prepared::~Prepared() {
    for (void* p : gm_owned) cbemu::gm_free(p);
    if (compile_info && free_compile_info) free_compile_info(compile_info);
}

CBEMU_HOST_RT void report_failure(const std::string& op, const std::string& why) {
    last_error() = op + ": " + why;
    std::fprintf(stderr, "COTBUILDER_HOST {\"op\":\"%s\",\"ok\":false,\"error\":\"%s\"}\n", json_escape(op).c_str(),
                 json_escape(why).c_str());
    std::fflush(stderr);
}

CBEMU_HOST_RT OpCall::OpCall(const char* op_type) : op_(op_type) {
    node_ = std::make_unique<Node>();
    node_->type = op_type;
    node_->name = op_type;
}

CBEMU_HOST_RT OpCall::~OpCall() = default;

CBEMU_HOST_RT void OpCall::scalar_input(const aclScalar* s, ge::DataType to) {
    if (!s) {
        add_tensor(nullptr, true);
        return;
    }
    ge::DataType dt = to == ge::DT_UNDEFINED ? ge_dtype(s->dtype) : to;
    uint8_t* gm = owned_gm(scalar_width(dt));
    write_scalar(gm, *s, dt);
    add_owned_input(gm, -1, dt);
}

// A ScalarList param is REQUIRED, not DYNAMIC (msOpGen's header says "scalars : required"): the framework converts
// the host list to ONE 1-D device tensor of n values in the param's dtype, and the kernel indexes it as an array.
CBEMU_HOST_RT void OpCall::scalar_list_input(const aclScalarList* l, ge::DataType to) {
    if (!l) {
        add_tensor(nullptr, true);
        return;
    }
    scalar_list_unconverted_ |= to == ge::DT_UNDEFINED && !l->v.empty();
    ge::DataType dt = to != ge::DT_UNDEFINED ? to : l->v.empty() ? ge::DT_FLOAT : ge_dtype(l->v[0]->dtype);
    size_t width = scalar_width(dt);
    uint8_t* gm = owned_gm(l->v.size() * width);
    for (size_t i = 0; i < l->v.size(); ++i) write_scalar(gm + i * width, *l->v[i], dt);
    add_owned_input(gm, (int64_t)l->v.size(), dt);
}

CBEMU_HOST_RT TensorSlot OpCall::slot_of(const aclTensor* t) {
    TensorSlot s;
    gert::Shape view(t->view_dims);
    gert::Shape storage(t->storage_dims.empty() ? t->view_dims : t->storage_dims);
    s.shape = gert::StorageShape(view, storage);
    s.desc = gert::CompileTimeTensorDesc(ge_dtype(t->dtype), gert::StorageFormat(ge_format(t->format), ge_format(t->format)));
    s.tensor = gert::Tensor(s.shape, s.desc.GetFormat(), gert::kOnDeviceHbm, ge_dtype(t->dtype), t->first());
    return s;
}

CBEMU_HOST_RT void OpCall::add_tensor(const aclTensor* t, bool in) {
    auto& sl = slots(in);
    if (t && !t->contiguous()) error_ = "non-contiguous aclTensor (strides) is not emulated";
    ir(in).emplace_back((uint32_t)sl.size(), t ? 1u : 0u);
    if (t) sl.push_back(slot_of(t));
    if (!in) out_tensors_.push_back(t);
    args_.push_back(t ? t->first() : nullptr);
    column_.push_back(t ? (int32_t)t->dtype : -1);
}

CBEMU_HOST_RT void OpCall::add_list(const aclTensorList* l, bool in) {
    auto& sl = slots(in);
    size_t n = l ? l->v.size() : 0;
    ir(in).emplace_back((uint32_t)sl.size(), (uint32_t)n);
    if (!in) out_tensors_.push_back(nullptr);
    if (!l) {
        args_.push_back(nullptr);
        column_.push_back(-1);
        return;
    }
    size_t words = 1;
    for (auto* t : l->v) words += 1 + (t ? t->view_dims.size() : 0);
    size_t ptr_at = words;
    words += n;
    auto* gm = static_cast<uint64_t*>(cbemu::gm_alloc(words * 8));
    gm_owned_.push_back(gm);
    gm[0] = ptr_at * 8;
    size_t w = 1;
    for (size_t i = 0; i < n; ++i) {
        const aclTensor* t = l->v[i];
        size_t rank = t ? t->view_dims.size() : 0;
        gm[w++] = (uint64_t)rank | ((uint64_t)i << 32);
        for (size_t d = 0; d < rank; ++d) gm[w++] = (uint64_t)t->view_dims[d];
        gm[ptr_at + i] = (uint64_t)(uintptr_t)(t ? t->first() : nullptr);
        if (t) {
            if (!t->contiguous()) error_ = "non-contiguous aclTensor (strides) is not emulated";
            sl.push_back(slot_of(t));
        }
    }
    args_.push_back(gm);
    column_.push_back(n && l->v[0] ? (int32_t)l->v[0]->dtype : -1);
}

CBEMU_HOST_RT void OpCall::write_scalar(uint8_t* gm, const aclScalar& s, ge::DataType dt) {
    double d = s.as_double();
    int64_t i = s.as_int();
    switch (dt) {
        case ge::DT_FLOAT: { float v = (float)d; std::memcpy(gm, &v, 4); break; }
        case ge::DT_DOUBLE: std::memcpy(gm, &d, 8); break;
        case ge::DT_FLOAT16: { uint16_t b = half((float)d).bits_; std::memcpy(gm, &b, 2); break; }
        case ge::DT_BF16: { bfloat16_t v((float)d); std::memcpy(gm, &v, 2); break; }
        case ge::DT_INT8: case ge::DT_UINT8: case ge::DT_BOOL: gm[0] = (uint8_t)i; break;
        case ge::DT_INT16: case ge::DT_UINT16: { int16_t v = (int16_t)i; std::memcpy(gm, &v, 2); break; }
        case ge::DT_INT32: case ge::DT_UINT32: { int32_t v = (int32_t)i; std::memcpy(gm, &v, 4); break; }
        default: std::memcpy(gm, &i, 8); break;
    }
}

// The element an InitValue fills with: its ScalarType's encoding, or the output's dtype for a bare number.
CBEMU_HOST_RT void OpCall::init_fills(const ops::OpDef& def, Prepared& p) const {
    static const ge::DataType of_type[] = {ge::DT_UINT64, ge::DT_INT64, ge::DT_UINT32, ge::DT_INT32, ge::DT_UINT16,
                                           ge::DT_INT16,  ge::DT_UINT8, ge::DT_INT8,   ge::DT_FLOAT, ge::DT_FLOAT16};
    for (size_t i = 0; i < out_tensors_.size() && i < def.outputs().size(); ++i) {
        const aclTensor* t = out_tensors_[i];
        if (!t || !t->first()) continue;
        const ops::ScalarVar* v = def.outputs()[i].init_value(ge_dtype(t->dtype));
        if (!v) continue;
        uint32_t k = static_cast<uint32_t>(v->scalar_type);
        ge::DataType dt = k < sizeof(of_type) / sizeof(of_type[0]) ? of_type[k] : ge_dtype(t->dtype);
        aclScalar value;
        if (v->kind == ops::ScalarVar::FLOAT) {
            value.dtype = ACL_FLOAT;
            std::memcpy(value.bytes, &v->f, 4);
        } else {
            value.dtype = ACL_INT64;
            std::memcpy(value.bytes, &v->i, 8);
        }
        Prepared::Fill f{static_cast<uint8_t*>(t->first()), (size_t)t->numel() * aclDataTypeSize(t->dtype),
                         std::vector<uint8_t>(scalar_width(dt))};
        write_scalar(f.element.data(), value, dt);
        p.fills.push_back(std::move(f));
    }
}

CBEMU_HOST_RT std::string hex(const void* p, size_t n) {
    static const char* d = "0123456789abcdef";
    std::string s;
    s.reserve(n * 2);
    for (size_t i = 0; i < n; ++i) {
        uint8_t b = static_cast<const uint8_t*>(p)[i];
        s += d[b >> 4];
        s += d[b & 15];
    }
    return s;
}

CBEMU_HOST_RT aclnnStatus OpCall::prepare(uint64_t* workspace_size, aclOpExecutor** executor,
                                     const std::vector<KernelVariant>& variants) {
    stage("host_tiling");
    if (!workspace_size || !executor) {
        report_failure(op_, "workspaceSize or executor is a null pointer");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    if (!error_.empty()) {
        report_failure(op_, error_);
        return ACLNN_ERR_PARAM_INVALID;
    }
    build_all_op_defs();
    ops::OpDef* def = op_def(op_);
    auto impl_it = op_impls().find(op_);
    if (impl_it == op_impls().end() || !impl_it->second.tiling) {
        report_failure(op_, "no TilingFunc registered for this op (OpDef SetTiling or IMPL_OP_OPTILING)");
        return ACLNN_ERR_INNER_TILING_ERROR;
    }
    const OpImpl& impl = impl_it->second;

    // Attributes the call did not pass (a shorter aclnn signature) take the OpDef default.
    if (def)
        for (size_t i = attrs_.size(); i < def->attr_count(); ++i) attrs_.push_back(def->attr(i).default_value());
    node_->attrs = gert::RuntimeAttrs(attrs_);

    auto p = std::make_unique<Prepared>();
    p->op = op_;
    fe::PlatFormInfos* platform = new fe::PlatFormInfos();
    live_platforms().emplace_back(platform);  // lives as long as the process
    node_->platform = platform;

    unsigned asks = sys_workspace_asks();  // asked in TilingParse (a compile info field) or TilingFunc
    if (impl.make_compile_info) {
        p->compile_info = impl.make_compile_info();
        p->free_compile_info = impl.free_compile_info;
        node_->compile_info = p->compile_info;
        node_->compile_info_mut = p->compile_info;
    }
    if (impl.tiling_parse) {
        gert::TilingParseContext pctx(node_.get());
        ge::graphStatus st = impl.tiling_parse(&pctx);
        if (st != ge::GRAPH_SUCCESS) {
            report_failure(op_, "TilingParse returned " + std::to_string(st));
            return ACLNN_ERR_INNER_TILING_ERROR;
        }
    }

    p->tiling_holder = gert::TilingData::CreateCap(kTilingCapacity);
    node_->tiling = reinterpret_cast<gert::TilingData*>(p->tiling_holder.get());
    p->workspace_holder = gert::ContinuousVector::Create<size_t>(kWorkspaceSlots);
    node_->workspace = reinterpret_cast<gert::ContinuousVector*>(p->workspace_holder.get());

    gert::TilingContext ctx(node_.get());
    cbemu::TilingBufferScope scope(node_->tiling->GetData(), node_->tiling->GetCapacity());
    ge::graphStatus st = impl.tiling(&ctx);
    p->asked_sys_workspace = sys_workspace_asks() != asks;
    if (st != ge::GRAPH_SUCCESS) {
        report_failure(op_, "TilingFunc returned " + std::to_string(st) + " (not GRAPH_SUCCESS)");
        return ACLNN_ERR_INNER_TILING_ERROR;
    }
    size_t tiling_size = std::max(node_->tiling->GetDataSize(), scope.wanted());
    if (tiling_override() && tiling_size <= node_->tiling->GetCapacity()) {
        tiling_override()(node_->tiling->GetData(), tiling_size);
        std::fprintf(stderr, "COTBUILDER_STAGE {\"stage\":\"tiling_overridden\"}\n");
    }
    if (tiling_size > node_->tiling->GetCapacity()) {
        report_failure(op_, "tiling data of " + std::to_string(tiling_size) + " bytes exceeds the " +
                                std::to_string(node_->tiling->GetCapacity()) + "-byte tiling buffer");
        return ACLNN_ERR_INNER_TILING_ERROR;
    }
    if (node_->block_dim == 0) {
        report_failure(op_, "TilingFunc did not set a block dim (SetBlockDim) or set 0");
        return ACLNN_ERR_INNER_TILING_ERROR;
    }
    uint64_t ws = 0;
    std::string ws_json;
    for (size_t i = 0; i < ctx.GetWorkspaceNum(); ++i) {
        size_t w = static_cast<const size_t*>(node_->workspace->GetData())[i];
        ws += w;
        ws_json += (i ? "," : "") + std::to_string(w);
    }

    const KernelVariant* chosen = nullptr;
    for (const auto& v : variants) {
        bool ok = v.dtypes.empty() || v.dtypes.size() == column_.size();
        for (size_t i = 0; ok && i < v.dtypes.size(); ++i)
            ok = column_[i] < 0 || v.dtypes[i] < 0 || v.dtypes[i] == column_[i];
        if (ok) {
            chosen = &v;
            break;
        }
    }
    if (!chosen) {
        std::string got;
        for (size_t i = 0; i < column_.size(); ++i)
            got += (i ? "," : "") + (column_[i] < 0 ? std::string("-") : ge::TypeUtils::DataTypeToSerialString((ge::DataType)column_[i]));
        if (scalar_list_unconverted_)  // maybe our dtype for the scalars, not the op's: the emulator's gap
            cbemu::report("unsupported_api", cbemu::Sev::fatal, cbemu::SrcLoc("aclnn layer", 0),
                          "%s: no kernel for the dtype combination (%s) with a scalar list in the binding's dtypes: "
                          "the framework's conversion of host scalars to the kernel's dtype (a ScalarList without "
                          "To()) is not emulated", op_.c_str(), got.c_str());
        report_failure(op_, "no kernel for the dtype combination (" + got + "): not declared in the OpDef");
        return ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
    }

    std::fprintf(stderr,
                 "COTBUILDER_HOST {\"op\":\"%s\",\"ok\":true,\"block_dim\":%u,\"tiling_key\":%llu,\"workspace\":[%s],"
                 "\"tiling_size\":%zu,\"schedule_mode\":%u,\"tiling\":\"%s\"}\n",
                 json_escape(op_).c_str(), node_->block_dim, (unsigned long long)node_->tiling_key, ws_json.c_str(),
                 tiling_size, node_->schedule_mode, hex(node_->tiling->GetData(), tiling_size).c_str());
    std::fflush(stderr);

    if (def && node_->need_atomic) init_fills(*def, *p);
    p->node = std::move(node_);
    p->kernel_args = args_;
    p->gm_owned = std::move(gm_owned_);
    p->workspace_bytes = ws;
    p->launch = chosen->launch;
    *workspace_size = ws;
    auto* ex = new aclOpExecutor();
    ex->prepared = std::move(p);
    // The executor keeps the tensors made from scalars alive until it runs.
    for (auto& t : owned_tensors_) kept_tensors().push_back(std::move(t));
    *executor = ex;
    return ACLNN_SUCCESS;
}

CBEMU_HOST_RT aclnnStatus OpCall::infer_shape(std::vector<gert::Shape>& shapes) {
    build_all_op_defs();
    auto it = op_impls().find(op_);
    if (it == op_impls().end() || !it->second.infer_shape) {
        report_failure(op_, "INFER_SHAPE: no InferShape registered for this op (IMPL_OP InferShape)");
        return ACLNN_ERR_INNER_INFERSHAPE_ERROR;
    }
    if (ops::OpDef* def = op_def(op_))
        for (size_t i = attrs_.size(); i < def->attr_count(); ++i) attrs_.push_back(def->attr(i).default_value());
    node_->attrs = gert::RuntimeAttrs(attrs_);
    gert::InferShapeContext ctx(node_.get());
    ge::graphStatus st = it->second.infer_shape(&ctx);
    if (st != ge::GRAPH_SUCCESS) {
        report_failure(op_, "INFER_SHAPE: InferShape returned " + std::to_string(st));
        return ACLNN_ERR_INNER_INFERSHAPE_ERROR;
    }
    shapes.clear();
    for (const auto& s : node_->outputs) shapes.push_back(s.shape.GetOriginShape());
    return ACLNN_SUCCESS;
}

CBEMU_HOST_RT aclnnStatus run(void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream) {
    if (!executor || !executor->prepared) {
        report_failure("aclnn", "executor is null or was already run");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    std::unique_ptr<Prepared> p = std::move(executor->prepared);
    delete executor;
    return launch(*p, workspace, workspace_size);
}

CBEMU_HOST_RT aclnnStatus launch(Prepared& prepared, void* workspace, uint64_t workspace_size) {
    Prepared* p = &prepared;
    if (p->workspace_bytes > 0 && (workspace == nullptr || workspace_size < p->workspace_bytes)) {
        report_failure(p->op, "workspace of " + std::to_string(workspace_size) + " bytes given, " +
                                  std::to_string(p->workspace_bytes) + " needed");
        return ACLNN_ERR_PARAM_INVALID;
    }
    // The whole tiling buffer is copied (zeros past the data size), so a kernel that reads a larger struct than the
    // host wrote reads zeros, as from a fresh device buffer.
    auto* tiling_gm = static_cast<uint8_t*>(cbemu::gm_alloc(kTilingCapacity));
    std::memcpy(tiling_gm, p->node->tiling->GetData(), p->node->tiling->GetDataSize());
    // A tiling that reserved the system workspace (GetLibApiWorkSpaceSize, 0 here) and none of its own: on a device
    // the workspace is that system area, never null (a kernel may return early on a null one)
    if (workspace == nullptr && p->workspace_bytes == 0 && p->asked_sys_workspace) workspace = cbemu::sys_workspace();
    std::vector<void*> args = p->kernel_args;
    args.push_back(workspace);
    args.push_back(tiling_gm);
    cbemu::tiling_key() = p->node->tiling_key;
    for (const auto& f : p->fills)
        for (size_t at = 0; at + f.element.size() <= f.bytes; at += f.element.size())
            std::memcpy(f.gm + at, f.element.data(), f.element.size());
    stage("kernel");
    p->launch(p->node->block_dim, args.data());
    stage("kernel_done");
    cbemu::gm_free(tiling_gm);
    return ACLNN_SUCCESS;
}

}  // namespace cbhost
#endif  // CBEMU_HOST_RT_BODY
