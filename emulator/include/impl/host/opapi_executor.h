// The op-api framework's executor (opdev/op_executor.h, make_op_executor.h, op_dfx.h): what a hand-written aclnn
// layer builds in phase 1 (aclnn<Op>GetWorkspaceSize) and runs in phase 2 (CommonOpExecutorRun).
//
// Phase 1 records a plan: tensors the executor allocates (device memory it owns until the run is over), l0 kernel
// launches (ADD_TO_LAUNCHER_LIST_AICORE: the op's TilingFunc runs now, through the same cbhost::OpCall the generated
// aclnn layer uses, and the kernel variant is chosen from the table the generated code registered for the op) and
// the framework's built-in ops (Cast, Contiguous, ViewCopy ...: host CPU tasks, opapi_l0.h). Phase 2 runs the tasks
// in order: each kernel on the emulator with its slice of the caller's workspace. Which device memory the kernels
// produced is tracked, and the guard (opapi_guard.h) sees any write nobody accounts for.
#pragma once
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "opapi_guard.h"
#include "opapi_types.h"

namespace cbhost {
namespace opapi {

struct Task {
    std::string what;
    std::unique_ptr<Prepared> kernel;  // an l0 AI Core launch
    uint64_t ws_offset = 0;
    std::function<void()> host;  // a built-in op on the host CPU
    std::vector<const aclTensor*> ins, outs;
};

struct Plan {
    std::string api;
    std::vector<Task> tasks;
    std::vector<std::unique_ptr<aclTensor>> tensors;
    std::vector<std::unique_ptr<aclIntArray>> int_arrays;
    std::vector<std::unique_ptr<aclFloatArray>> float_arrays;
    std::vector<std::unique_ptr<aclBoolArray>> bool_arrays;
    std::vector<std::unique_ptr<aclScalar>> scalars;
    std::vector<std::unique_ptr<aclTensorList>> lists;
    std::vector<void*> gm;  // device memory the executor owns
    // executor memory whose bytes are known in phase 1 (ConvertToTensor of host values, and what built-in ops made
    // of them): a TilingFunc reading such an input's values (a size tensor) sees them, as on the device
    std::set<const void*> known;
    uint64_t workspace = 0;
    ~Plan() {
        for (auto& l : lists) l->v.clear();  // the tensors belong to the caller or to `tensors`
        for (void* p : gm) cbemu::gm_free(p);
    }
};

// Executors handed to the caller (UniqueExecutor::ReleaseTo): a phase 1 that returns without one was rejected.
inline int& releases() {
    static int n = 0;
    return n;
}

// Executor memory comes from the device's workspace: not cleared (it holds the poison byte, as aclrtMalloc's does),
// so an output a kernel never writes is seen.
inline uint8_t* plan_gm(Plan& plan, size_t bytes) {
    auto* p = static_cast<uint8_t*>(cbemu::gm_alloc(bytes < 32 ? 32 : bytes, /*zeroed=*/false));
    plan.gm.push_back(p);
    accept_one(p);
    return p;
}
inline bool owned(const Plan& plan, const aclTensor* t) {
    for (const auto& o : plan.tensors)
        if (o.get() == t) return true;
    return false;
}
// A tensor the executor made gets its memory when its shape is known (AllocTensor(dtype, format, format) + INFER_SHAPE).
inline void ensure_data(Plan& plan, const aclTensor* t) {
    if (!t || t->data || !owned(plan, t)) return;
    auto* m = const_cast<aclTensor*>(t);
    m->data = plan_gm(plan, (size_t)std::max<int64_t>(m->numel(), 1) * aclDataTypeSize(m->dtype));
}
inline aclTensor* new_tensor(Plan& plan, const std::vector<int64_t>& dims, ge::DataType dt, ge::Format format,
                             bool allocate) {
    auto t = std::make_unique<aclTensor>();
    t->view_dims = dims;
    t->dtype = static_cast<aclDataType>(static_cast<int32_t>(dt));
    t->format = static_cast<aclFormat>(static_cast<int32_t>(format));
    t->from_workspace = true;
    aclTensor* raw = t.get();
    plan.tensors.push_back(std::move(t));
    if (allocate) ensure_data(plan, raw);
    return raw;
}
inline Plan& plan_of(aclOpExecutor* ex) { return *ex->plan; }

// Device memory a tensor lies in (0: not in device memory - a host buffer the layer made itself).
inline uintptr_t base_of(const aclTensor* t) {
    uintptr_t base = 0;
    size_t size = 0;
    if (!t || !t->first() || !cbemu::hz::gm_allocation(t->first(), base, size)) return 0;
    return base;
}
inline bool outside_device(const aclTensor* t, const char* op) {
    if (!t || !t->data || base_of(t)) return false;
    cbemu::report("opapi_bypass", cbemu::Sev::error, cbemu::SrcLoc("aclnn layer", 0),
                  "%s: a tensor's data (%p) is not device memory (not aclrtMalloc'ed nor made by the executor): "
                  "the aclnn layer feeds the op data it made on the host",
                  op, t->first());
    return true;
}

// ---- l0 launch arguments: OP_INPUT / OP_OUTPUT / OP_ATTR ----
enum GroupKind { kIn, kOut, kAttr, kWorkspace, kOutShape, kOption, kNone };
struct Group {
    GroupKind kind = kNone;
    std::vector<std::function<void(OpCall&)>> rec;
    std::vector<const aclTensor*> tensors;
    std::string wrong;  // an argument of a kind the group does not take
};

inline void put(Group& g, const aclTensor* t) {
    if (g.kind == kAttr) return void(g.wrong = "a tensor among the attributes");
    g.tensors.push_back(t);
    if (g.kind == kIn) g.rec.push_back([t](OpCall& c) { c.input(t); });
    if (g.kind == kOut) g.rec.push_back([t](OpCall& c) { c.output(t); });
}
inline void put(Group& g, aclTensor* t) { put(g, static_cast<const aclTensor*>(t)); }
inline void put(Group& g, std::nullptr_t) { put(g, static_cast<const aclTensor*>(nullptr)); }
inline void put(Group& g, const aclTensorList* l) {
    if (g.kind == kAttr) return void(g.wrong = "a tensor list among the attributes");
    if (l)
        for (auto* t : l->v) g.tensors.push_back(t);
    if (g.kind == kIn) g.rec.push_back([l](OpCall& c) { c.dynamic_input(l); });
    if (g.kind == kOut) g.rec.push_back([l](OpCall& c) { c.dynamic_output(l); });
}
inline void put(Group& g, aclTensorList* l) { put(g, static_cast<const aclTensorList*>(l)); }
inline void attr(Group& g, std::function<void(OpCall&)> f) {
    if (g.kind != kAttr) return void(g.wrong = "a value among the tensors");
    g.rec.push_back(std::move(f));
}
inline void put(Group& g, bool v) { attr(g, [v](OpCall& c) { c.attr_bool(v); }); }
template <typename T, typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value, int>::type = 0>
inline void put(Group& g, T v) {
    attr(g, [v](OpCall& c) { c.attr_int((int64_t)v); });
}
inline void put(Group& g, ge::DataType v) { attr(g, [v](OpCall& c) { c.attr_int((int64_t)v); }); }
inline void put(Group& g, float v) { attr(g, [v](OpCall& c) { c.attr_float(v); }); }
inline void put(Group& g, double v) { attr(g, [v](OpCall& c) { c.attr_float(v); }); }
inline void put(Group& g, const char* v) {
    std::string s = v ? v : "";
    attr(g, [s](OpCall& c) { c.attr_str(s.c_str()); });
}
inline void put(Group& g, const std::string& v) { put(g, v.c_str()); }
inline void put(Group& g, const aclIntArray* a) { attr(g, [a](OpCall& c) { c.attr_list_int(a); }); }
inline void put(Group& g, aclIntArray* a) { put(g, static_cast<const aclIntArray*>(a)); }
inline void put(Group& g, const aclFloatArray* a) { attr(g, [a](OpCall& c) { c.attr_list_float(a); }); }
inline void put(Group& g, aclFloatArray* a) { put(g, static_cast<const aclFloatArray*>(a)); }
inline void put(Group& g, const aclBoolArray* a) { attr(g, [a](OpCall& c) { c.attr_list_bool(a); }); }
inline void put(Group& g, aclBoolArray* a) { put(g, static_cast<const aclBoolArray*>(a)); }

template <typename... A>
inline Group make_group(GroupKind kind, const A&... args) {
    Group g;
    g.kind = kind;
    (put(g, args), ...);
    return g;
}

inline void gap(const char* what, const char* op) {
    cbemu::report("unsupported_api", cbemu::Sev::fatal, cbemu::SrcLoc("op-api framework", 0),
                  "op-api framework: %s (%s) is not emulated", what, op);
}

// OP_ATTR_NAMES: the attributes' names (a unit's own macro for an FVector<std::string>). The values are passed in
// the OpDef's order, so the names must follow it; they add nothing to the call.
inline const Group& as_group(const Group& g) { return g; }
inline const Group& as_group(const std::vector<std::string>&) {
    static const Group none;
    return none;
}
inline const std::vector<std::string>* names_in(const Group&) { return nullptr; }
inline const std::vector<std::string>* names_in(const std::vector<std::string>& names) { return &names; }
inline bool names_follow_op_def(const char* op, const std::vector<std::string>& names) {
    const ops::OpDef* def = op_def(op);
    for (size_t i = 0; def && i < names.size(); ++i)
        if (i >= def->attr_count() || def->attr(i).name() != names[i]) return false;
    return true;
}

// One OpCall from the groups: inputs, then outputs, then attributes (the IR order each group keeps).
template <typename... G>
inline bool record(OpCall& call, const char* op, const G&... groups) {
    const Group* all[] = {&as_group(groups)...};
    for (const Group* g : all) {
        if (!g->wrong.empty()) return gap(g->wrong.c_str(), op), false;
        if (g->kind == kWorkspace) return gap("OP_WORKSPACE (a workspace tensor the layer passes)", op), false;
        if (g->kind == kOutShape) return gap("OP_OUTSHAPE (an output shape the kernel writes)", op), false;
    }
    for (GroupKind kind : {kIn, kOut, kAttr})
        for (const Group* g : all)
            if (g->kind == kind)
                for (const auto& f : g->rec) f(call);
    return true;
}

template <typename... G>
inline aclnnStatus add_aicore(const char* op, aclOpExecutor* ex, const G&... groups) {
    if (!ex || !ex->plan) {
        report_failure(op, "an l0 launch outside an executor (no CREATE_EXECUTOR)");
        return ACLNN_ERR_INNER;
    }
    Plan& plan = plan_of(ex);
    auto table = kernel_tables().find(op);
    if (table == kernel_tables().end()) {
        gap("an AI Core launch of an op this unit has no kernel for (a CANN built-in op)", op);
        return ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
    }
    for (const std::vector<std::string>* names : {names_in(groups)...})
        if (names && !names_follow_op_def(op, *names))
            return gap("OP_ATTR_NAMES in another order than the OpDef's attributes", op), ACLNN_ERR_INNER;
    Task task;
    task.what = op;
    const Group* all[] = {&as_group(groups)...};
    for (const Group* g : all) {
        for (const aclTensor* t : g->tensors) {
            if (g->kind == kOut) ensure_data(plan, t);
            if (outside_device(t, op)) return ACLNN_ERR_PARAM_INVALID;
            if (g->kind == kIn) task.ins.push_back(t);
            if (g->kind == kOut) task.outs.push_back(t);
        }
    }
    OpCall call(op);
    if (!record(call, op, groups...)) return ACLNN_ERR_INNER;
    if (call.ir_count() + 2 != table->second.n_params) {
        gap(("a launch passing " + std::to_string(call.ir_count()) + " inputs and outputs to a kernel entry of " +
             std::to_string(table->second.n_params) + " parameters")
                .c_str(),
            op);
        return ACLNN_ERR_INNER;
    }
    aclOpExecutor* one = nullptr;
    uint64_t ws = 0;
    aclnnStatus st = call.prepare(&ws, &one, *table->second.variants);
    if (st == ACLNN_ERR_INNER_FIND_KERNEL_ERROR)  // the build compiles the variants of the example's input dtypes
        gap("a launch in dtypes no kernel variant built for the example's input dtypes serves (the layer casts)", op);
    if (st != ACLNN_SUCCESS) return st;
    task.kernel = std::move(one->prepared);
    delete one;
    task.ws_offset = plan.workspace;
    plan.workspace += (ws + 511) / 512 * 512;
    plan.tasks.push_back(std::move(task));
    return ACLNN_SUCCESS;
}

template <typename... G>
inline aclnnStatus infer_shape(const char* op, aclOpExecutor* ex, const G&... groups) {
    build_all_op_defs();
    auto impl = op_impls().find(op);
    if (impl == op_impls().end() || !impl->second.infer_shape) {  // a CANN built-in op's InferShape (PadV3 ...)
        gap("INFER_SHAPE of an op whose InferShape this unit does not register", op);
        return ACLNN_ERR_INNER_INFERSHAPE_ERROR;
    }
    OpCall call(op);
    if (!record(call, op, groups...)) return ACLNN_ERR_INNER;
    std::vector<gert::Shape> shapes;
    aclnnStatus st = call.infer_shape(shapes);
    if (st != ACLNN_SUCCESS) return st;
    size_t k = 0;
    const Group* all[] = {&as_group(groups)...};
    for (const Group* g : all) {
        if (g->kind != kOut) continue;
        for (const aclTensor* t : g->tensors) {
            if (!t || k >= shapes.size()) continue;
            auto* m = const_cast<aclTensor*>(t);
            std::vector<int64_t> dims = op::ToShapeVector(shapes[k++]);
            if (m->data && ex && ex->plan && owned(*ex->plan, m) && dims != m->view_dims) m->data = nullptr;
            m->view_dims = dims;
            m->storage_dims.clear();
            m->strides.clear();
            if (ex && ex->plan) ensure_data(*ex->plan, m);
        }
    }
    return ACLNN_SUCCESS;
}

// Phase 1's report when the layer returns without handing an executor over: its own check rejected the call.
struct Phase1 {
    std::string api;
    int released_before;
    explicit Phase1(const char* name) : api(name), released_before(releases()) { last_error().clear(); }
    ~Phase1() {
        if (releases() != released_before) return;
        report_failure(api, "aclnn layer: " + api + "GetWorkspaceSize rejected the call" +
                                (last_error().empty() ? std::string(" (no error logged)") : ": " + last_error()));
    }
};

// Phase 2: run the plan's tasks in order; then every write into the caller's memory must come from a kernel.
inline aclnnStatus run_plan(void* workspace, uint64_t workspace_size, aclOpExecutor* ex) {
    std::unique_ptr<Plan> plan(ex->plan);
    ex->plan = nullptr;
    delete ex;
    check_all(("when " + plan->api + "'s executor started running").c_str());
    if (plan->workspace > 0 && (!workspace || workspace_size < plan->workspace)) {
        report_failure(plan->api, "workspace of " + std::to_string(workspace_size) + " bytes given, " +
                                      std::to_string(plan->workspace) + " needed");
        return ACLNN_ERR_PARAM_INVALID;
    }
    std::set<uintptr_t> own;
    for (void* p : plan->gm) own.insert((uintptr_t)p);
    std::map<uintptr_t, bool> from_kernel;  // device allocation -> its bytes derive from a kernel's output
    std::vector<std::pair<std::string, uintptr_t>> caller_writes;
    for (Task& task : plan->tasks) {
        bool made = false;
        if (task.kernel) {
            aclnnStatus st = launch(*task.kernel, static_cast<uint8_t*>(workspace) + task.ws_offset,
                                    plan->workspace - task.ws_offset);
            if (st != ACLNN_SUCCESS) return st;
            ++guard().kernel_launches;
            made = true;
        } else {
            task.host();
            for (const aclTensor* t : task.ins) made = made || from_kernel[base_of(t)];
        }
        for (const aclTensor* t : task.outs) {
            uintptr_t b = base_of(t);
            from_kernel[b] = made;
            if (b && !own.count(b)) caller_writes.emplace_back(task.what, b);
        }
        accept_all();
    }
    for (const auto& [what, b] : caller_writes)
        if (!from_kernel[b])
            cbemu::report("opapi_bypass", cbemu::Sev::error, cbemu::SrcLoc("aclnn layer", 0),
                          "%s: the output at %#lx was written by the framework's %s from data no kernel of the op "
                          "produced: the aclnn layer bypassed the kernel",
                          plan->api.c_str(), (unsigned long)b, what.c_str());
    return ACLNN_SUCCESS;
}

}  // namespace opapi
}  // namespace cbhost

namespace op {

// CREATE_EXECUTOR()'s result: owns the executor until ReleaseTo hands it to the caller.
class UniqueExecutor {
public:
    explicit UniqueExecutor(const char* api) : e_(new aclOpExecutor()) {
        e_->plan = new cbhost::opapi::Plan();
        e_->plan->api = api;
        cbhost::opapi::check_all(("when " + std::string(api) + " created its executor").c_str());
    }
    UniqueExecutor(UniqueExecutor&& o) noexcept : e_(o.e_) { o.e_ = nullptr; }
    UniqueExecutor(const UniqueExecutor&) = delete;
    UniqueExecutor& operator=(const UniqueExecutor&) = delete;
    ~UniqueExecutor() {
        if (!e_) return;
        delete e_->plan;
        delete e_;
    }
    aclOpExecutor* get() const { return e_; }
    aclOpExecutor* operator->() const { return e_; }
    void ReleaseTo(aclOpExecutor** out) {
        if (!out) return;
        *out = e_;
        e_ = nullptr;
        ++cbhost::opapi::releases();
    }

private:
    aclOpExecutor* e_;
};

}  // namespace op

inline aclnnStatus CommonOpExecutorRun(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                                       aclrtStream stream) {
    if (!executor) {
        cbhost::report_failure("aclnn", "executor is null");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    if (!executor->plan) return cbhost::run(workspace, workspace_size, executor, stream);
    return cbhost::opapi::run_plan(workspace, workspace_size, executor);
}

// ---- aclOpExecutor's allocation API ----
inline aclTensor* aclOpExecutor::AllocTensor(const gert::Shape& shape, ge::DataType dt, ge::Format format) {
    return cbhost::opapi::new_tensor(*plan, op::ToShapeVector(shape), dt, format, true);
}
inline aclTensor* aclOpExecutor::AllocTensor(const gert::Shape& storage, const gert::Shape& origin, ge::DataType dt,
                                             ge::Format storage_format, ge::Format) {
    aclTensor* t = cbhost::opapi::new_tensor(*plan, op::ToShapeVector(origin), dt, storage_format, false);
    t->storage_dims = op::ToShapeVector(storage);
    int64_t n = 1;
    for (int64_t d : t->storage_dims) n *= d;
    t->data = cbhost::opapi::plan_gm(*plan, (size_t)std::max<int64_t>(n, t->numel()) * aclDataTypeSize(t->dtype));
    return t;
}
inline aclTensor* aclOpExecutor::AllocTensor(ge::DataType dt, ge::Format storage_format, ge::Format) {
    return cbhost::opapi::new_tensor(*plan, {}, dt, storage_format, false);
}
namespace cbhost {
namespace opapi {
// A host value the framework puts in device memory as a tensor of dt (values converted as C++ casts do).
template <typename T>
inline const aclTensor* values_tensor(aclOpExecutor* ex, const std::vector<T>& values, bool scalar, ge::DataType dt) {
    std::vector<int64_t> dims;
    if (!scalar) dims.push_back((int64_t)values.size());
    aclTensor* t = new_tensor(*ex->plan, dims, dt, ge::FORMAT_ND, true);
    auto* gm = static_cast<uint8_t*>(t->data);
    size_t width = aclDataTypeSize(t->dtype);
    for (size_t i = 0; i < values.size(); ++i) {
        aclScalar s;
        if (std::is_floating_point<T>::value) {
            double d = (double)values[i];
            s.dtype = ACL_DOUBLE;
            std::memcpy(s.bytes, &d, 8);
        } else {
            int64_t v = (int64_t)values[i];
            s.dtype = ACL_INT64;
            std::memcpy(s.bytes, &v, 8);
        }
        OpCall::write_scalar_public(gm + i * width, s, dt);
    }
    accept_one(gm);
    ex->plan->known.insert(gm);
    return t;
}
}  // namespace opapi
}  // namespace cbhost
inline const aclTensor* aclOpExecutor::ConvertToTensor(const aclScalar* s, ge::DataType dt) {
    if (!s) return nullptr;
    aclTensor* t = cbhost::opapi::new_tensor(*plan, {}, dt, ge::FORMAT_ND, true);
    cbhost::OpCall::write_scalar_public(static_cast<uint8_t*>(t->data), *s, dt);
    cbhost::opapi::accept_one(t->data);
    plan->known.insert(t->data);
    return t;
}
inline const aclTensor* aclOpExecutor::ConvertToTensor(const aclIntArray* a, ge::DataType dt) {
    return a ? cbhost::opapi::values_tensor(this, a->v, false, dt) : nullptr;
}
inline const aclTensor* aclOpExecutor::ConvertToTensor(const aclFloatArray* a, ge::DataType dt) {
    return a ? cbhost::opapi::values_tensor(this, a->v, false, dt) : nullptr;
}
inline const aclTensor* aclOpExecutor::ConvertToTensor(const aclBoolArray* a, ge::DataType dt) {
    if (!a) return nullptr;
    std::vector<int64_t> v(a->v.begin(), a->v.end());
    return cbhost::opapi::values_tensor(this, v, false, dt);
}
template <typename T>
inline const aclTensor* aclOpExecutor::ConvertToTensor(const T* values, uint64_t n, ge::DataType dt) {
    std::vector<T> v(values, values + (values ? n : 0));
    return cbhost::opapi::values_tensor(this, v, false, dt);
}
inline aclIntArray* aclOpExecutor::AllocIntArray(const int64_t* values, uint64_t n) {
    plan->int_arrays.emplace_back(aclCreateIntArray(values, n));
    return plan->int_arrays.back().get();
}
inline aclFloatArray* aclOpExecutor::AllocFloatArray(const float* values, uint64_t n) {
    plan->float_arrays.emplace_back(aclCreateFloatArray(values, n));
    return plan->float_arrays.back().get();
}
inline aclBoolArray* aclOpExecutor::AllocBoolArray(const bool* values, uint64_t n) {
    plan->bool_arrays.emplace_back(aclCreateBoolArray(values, n));
    return plan->bool_arrays.back().get();
}
inline aclTensorList* aclOpExecutor::AllocTensorList(const aclTensor* const* tensors, uint64_t n) {
    plan->lists.emplace_back(aclCreateTensorList(tensors, n));
    return plan->lists.back().get();
}
inline aclScalar* aclOpExecutor::AllocScalar(const void* value, ge::DataType dt) {
    plan->scalars.emplace_back(aclCreateScalar(const_cast<void*>(value), static_cast<aclDataType>((int32_t)dt)));
    return plan->scalars.back().get();
}
inline aclScalar* aclOpExecutor::AllocScalar(float v) { return AllocScalar(&v, ge::DT_FLOAT); }
inline aclScalar* aclOpExecutor::AllocScalar(double v) { return AllocScalar(&v, ge::DT_DOUBLE); }
inline aclScalar* aclOpExecutor::AllocScalar(int64_t v) { return AllocScalar(&v, ge::DT_INT64); }
inline aclScalar* aclOpExecutor::AllocScalar(int32_t v) { return AllocScalar(&v, ge::DT_INT32); }
inline aclTensor* aclOpExecutor::CreateView(const aclTensor* t, const gert::Shape& shape, int64_t offset) {
    if (!t) return nullptr;
    aclTensor* v = cbhost::opapi::new_tensor(*plan, op::ToShapeVector(shape), t->GetDataType(), t->GetViewFormat(), false);
    v->data = t->data;
    v->offset = offset;
    return v;
}
inline aclTensor* aclOpExecutor::CreateView(const aclTensor* t, const gert::Shape& shape,
                                            const std::vector<int64_t>& strides, int64_t offset) {
    aclTensor* v = CreateView(t, shape, offset);
    if (v) v->strides = strides;
    return v;
}
inline uint64_t aclOpExecutor::GetWorkspaceSize() const { return plan ? plan->workspace : 0; }

// ---- the macros a layer is written with ----
#define CREATE_EXECUTOR() ::op::UniqueExecutor(__func__)
#define OP_INPUT(...) ::cbhost::opapi::make_group(::cbhost::opapi::kIn, __VA_ARGS__)
#define OP_OUTPUT(...) ::cbhost::opapi::make_group(::cbhost::opapi::kOut, __VA_ARGS__)
#define OP_ATTR(...) ::cbhost::opapi::make_group(::cbhost::opapi::kAttr, __VA_ARGS__)
#define OP_WORKSPACE(...) ::cbhost::opapi::make_group(::cbhost::opapi::kWorkspace, __VA_ARGS__)
#define OP_OUTSHAPE(...) ::cbhost::opapi::make_group(::cbhost::opapi::kOutShape)
#define OP_OPTION(...) ::cbhost::opapi::make_group(::cbhost::opapi::kOption)
#define OP_EMPTY_ARG ::cbhost::opapi::make_group(::cbhost::opapi::kNone)
#define ADD_TO_LAUNCHER_LIST_AICORE(op, ...) ::cbhost::opapi::add_aicore(#op, executor, __VA_ARGS__)
#define ADD_TO_LAUNCHER_LIST_AICPU(op, ...) \
    (::cbhost::opapi::gap("an AI CPU launch (ADD_TO_LAUNCHER_LIST_AICPU)", #op), ACLNN_ERR_INNER)
#define ADD_TO_LAUNCHER_LIST_DSA(op, ...) \
    (::cbhost::opapi::gap("a DSA launch (ADD_TO_LAUNCHER_LIST_DSA)", #op), ACLNN_ERR_INNER)
#define INFER_SHAPE(op, ...) ::cbhost::opapi::infer_shape(#op, executor, __VA_ARGS__)
#define OP_TYPE_REGISTER(op) static_assert(sizeof(#op) > 1, "op type")
#define L2_DFX_PHASE_1(api, ...) ::cbhost::opapi::Phase1 cbhost_opapi_phase1_(#api)
#define L2_DFX_PHASE_2(api) \
    do {                    \
    } while (0)
#define L0_DFX(api, ...) \
    do {                 \
    } while (0)
#define DFX_IN(...) 0
#define DFX_OUT(...) 0
