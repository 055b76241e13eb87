// The framework's built-in l0 ops a hand-written aclnn layer calls around its own kernel (aclnn_kernels/cast.h,
// contiguous.h, reshape.h, transpose.h; the level-0 squeeze / unsqueeze): they are CANN's kernels, not the unit's,
// so here they are tasks on the host CPU that compute exactly what the op defines - a copy through strides, a dtype
// conversion rounding to nearest even (float to integer truncates toward zero, as a C++ cast), a permutation; a
// reshape / squeeze / unsqueeze of a contiguous tensor is a view and runs nothing. Each returns nullptr on a bad
// argument, as the l0 API does.
#pragma once
#include <cmath>
#include <vector>

#include "opapi_executor.h"

namespace cbhost {
namespace opapi {

inline bool integral_like(ge::DataType dt) { return op::IsIntegralType(dt) || dt == ge::DT_BOOL; }

// One element of dt at p as double (floating) or int64 (integral and bool).
inline double load_float(const uint8_t* p, ge::DataType dt) {
    switch (dt) {
        case ge::DT_FLOAT: { float v; std::memcpy(&v, p, 4); return v; }
        case ge::DT_DOUBLE: { double v; std::memcpy(&v, p, 8); return v; }
        case ge::DT_FLOAT16: { uint16_t b; std::memcpy(&b, p, 2); return (float)half::from_bits(b); }
        case ge::DT_BF16: { uint16_t b; std::memcpy(&b, p, 2); return (float)bfloat16_t::from_bits(b); }
        default: return 0;
    }
}
inline int64_t load_int(const uint8_t* p, ge::DataType dt) {
    switch (dt) {
        case ge::DT_BOOL: return p[0] != 0;
        case ge::DT_INT8: return (int8_t)p[0];
        case ge::DT_UINT8: return p[0];
        case ge::DT_INT16: { int16_t v; std::memcpy(&v, p, 2); return v; }
        case ge::DT_UINT16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
        case ge::DT_INT32: { int32_t v; std::memcpy(&v, p, 4); return v; }
        case ge::DT_UINT32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
        case ge::DT_INT64: case ge::DT_UINT64: { int64_t v; std::memcpy(&v, p, 8); return v; }
        default: return 0;
    }
}
inline void store_int(uint8_t* p, ge::DataType dt, int64_t v) {
    switch (dt) {
        case ge::DT_BOOL: p[0] = v != 0; break;
        case ge::DT_INT8: case ge::DT_UINT8: p[0] = (uint8_t)v; break;
        case ge::DT_INT16: case ge::DT_UINT16: { uint16_t w = (uint16_t)v; std::memcpy(p, &w, 2); break; }
        case ge::DT_INT32: case ge::DT_UINT32: { uint32_t w = (uint32_t)v; std::memcpy(p, &w, 4); break; }
        default: std::memcpy(p, &v, 8); break;
    }
}
inline void store_float(uint8_t* p, ge::DataType dt, double v) {
    switch (dt) {
        case ge::DT_FLOAT: { float f = (float)v; std::memcpy(p, &f, 4); break; }
        case ge::DT_DOUBLE: std::memcpy(p, &v, 8); break;
        case ge::DT_FLOAT16: { uint16_t b = half(v).bits_; std::memcpy(p, &b, 2); break; }
        case ge::DT_BF16: { uint16_t b = bfloat16_t(v).bits_; std::memcpy(p, &b, 2); break; }
        default: break;
    }
}
// Convert one element: exact between integers, rounded once from floating to floating, truncated toward zero from
// floating to integral (NaN to 0), any non-zero to true.
inline void convert(const uint8_t* src, ge::DataType from, uint8_t* dst, ge::DataType to) {
    if (from == to) return void(std::memcpy(dst, src, aclDataTypeSize((aclDataType)(int32_t)from)));
    if (integral_like(from)) {
        int64_t v = load_int(src, from);
        if (integral_like(to)) return store_int(dst, to, v);
        return store_float(dst, to, (double)v);
    }
    double v = load_float(src, from);
    if (to == ge::DT_BOOL) return store_int(dst, to, v != 0);
    if (integral_like(to)) return store_int(dst, to, std::isnan(v) ? 0 : (int64_t)std::trunc(v));
    store_float(dst, to, v);
}

// Element offset (in elements, from the view's first one) of the linear index i of t's view.
inline int64_t strided(const aclTensor* t, int64_t i) {
    if (t->strides.empty()) return i;
    int64_t off = 0;
    for (size_t d = t->view_dims.size(); d-- > 0;) {
        int64_t n = t->view_dims[d] ? t->view_dims[d] : 1;
        off += (i % n) * t->strides[d];
        i /= n;
    }
    return off;
}
// dst[i] = convert(src[i]) over the view, both through their strides.
inline void copy_view(const aclTensor* src, const aclTensor* dst) {
    auto* s = static_cast<const uint8_t*>(src->first());
    auto* d = static_cast<uint8_t*>(dst->first());
    size_t ws = aclDataTypeSize(src->dtype), wd = aclDataTypeSize(dst->dtype);
    for (int64_t i = 0, n = dst->numel(); i < n; ++i)
        convert(s + strided(src, i) * ws, src->GetDataType(), d + strided(dst, i) * wd, dst->GetDataType());
}
// A built-in op's work: done now when its input's bytes are known in phase 1 (Plan::known), else queued for phase 2.
inline void host_task(aclOpExecutor* ex, const char* what, const aclTensor* in, const aclTensor* out,
                      std::function<void()> body) {
    Plan& plan = *ex->plan;
    if (plan.known.count(in->data) && owned(plan, out)) {
        body();
        accept_one(out->data);
        plan.known.insert(out->data);
        return;
    }
    Task t;
    t.what = what;
    t.host = std::move(body);
    t.ins = {in};
    t.outs = {out};
    ex->plan->tasks.push_back(std::move(t));
}
inline bool usable(const aclTensor* t, aclOpExecutor* ex, const char* op) {
    if (!t || !ex || !ex->plan) return false;
    ensure_data(*ex->plan, t);
    return !outside_device(t, op);
}
inline aclTensor* view_of(aclOpExecutor* ex, const aclTensor* t, const std::vector<int64_t>& dims) {
    aclTensor* v = new_tensor(*ex->plan, dims, t->GetDataType(), t->GetViewFormat(), false);
    v->data = t->data;
    v->offset = t->offset;
    return v;
}

}  // namespace opapi
}  // namespace cbhost

namespace l0op {

inline const aclTensor* Contiguous(const aclTensor* x, aclOpExecutor* executor) {
    using namespace cbhost::opapi;
    if (!usable(x, executor, "Contiguous")) return nullptr;
    if (x->contiguous()) return x;
    aclTensor* out = new_tensor(*executor->plan, x->view_dims, x->GetDataType(), x->GetViewFormat(), true);
    host_task(executor, "Contiguous", x, out, [x, out] { copy_view(x, out); });
    return out;
}

inline const aclTensor* Cast(const aclTensor* x, op::DataType dst, aclOpExecutor* executor) {
    using namespace cbhost::opapi;
    if (!usable(x, executor, "Cast")) return nullptr;
    if (x->GetDataType() == dst) return x;
    aclTensor* out = new_tensor(*executor->plan, x->view_dims, dst, x->GetViewFormat(), true);
    host_task(executor, "Cast", x, out, [x, out] { copy_view(x, out); });
    return out;
}

// Copies src into dst's view (dst may be strided) and returns dst.
inline const aclTensor* ViewCopy(const aclTensor* src, const aclTensor* dst, aclOpExecutor* executor) {
    using namespace cbhost::opapi;
    if (!usable(src, executor, "ViewCopy") || !usable(dst, executor, "ViewCopy")) return nullptr;
    if (src->numel() != dst->numel()) {
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "ViewCopy: %lld elements into %lld", (long long)src->numel(),
                (long long)dst->numel());
        return nullptr;
    }
    if (src->first() == dst->first() && src->dtype == dst->dtype && src->contiguous() && dst->contiguous()) return dst;
    host_task(executor, "ViewCopy", src, dst, [src, dst] { copy_view(src, dst); });
    return dst;
}

inline const aclTensor* Reshape(const aclTensor* x, const op::Shape& shape, aclOpExecutor* executor) {
    using namespace cbhost::opapi;
    const aclTensor* c = Contiguous(x, executor);
    if (!c) return nullptr;
    std::vector<int64_t> dims = op::ToShapeVector(shape);
    int64_t known = 1, infer = -1;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == -1 && infer < 0) infer = (int64_t)i;
        else known *= dims[i];
    }
    if (infer >= 0 && known != 0) dims[infer] = c->numel() / known;
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    if (n != c->numel()) {
        OP_LOGE(ACLNN_ERR_PARAM_INVALID, "Reshape: %lld elements to a shape of %lld", (long long)c->numel(), (long long)n);
        return nullptr;
    }
    return view_of(executor, c, dims);
}
inline const aclTensor* Reshape(const aclTensor* x, const aclIntArray* shape, aclOpExecutor* executor) {
    return shape ? Reshape(x, op::ToShape(shape->v), executor) : nullptr;
}

// The same data with another format label (no executor: the tensor itself is relabelled).
inline const aclTensor* ReFormat(const aclTensor* x, const op::Format& format, aclOpExecutor* executor = nullptr) {
    using namespace cbhost::opapi;
    if (!x) return nullptr;
    if (!executor) {
        const_cast<aclTensor*>(x)->SetViewFormat(format);
        return x;
    }
    aclTensor* v = view_of(executor, x, x->view_dims);
    v->strides = x->strides;
    v->SetViewFormat(format);
    return v;
}

inline const aclTensor* Transpose(const aclTensor* x, const aclIntArray* perm, aclOpExecutor* executor) {
    using namespace cbhost::opapi;
    if (!perm || !usable(x, executor, "Transpose") || perm->v.size() != x->view_dims.size()) return nullptr;
    size_t rank = x->view_dims.size();
    std::vector<int64_t> p(perm->v), dims(rank), in_strides(rank), strides(rank);
    int64_t s = 1;
    for (size_t d = rank; d-- > 0;) {
        in_strides[d] = x->strides.empty() ? s : x->strides[d];
        s *= x->view_dims[d];
    }
    for (size_t d = 0; d < rank; ++d) {
        if (p[d] < 0) p[d] += (int64_t)rank;
        if (p[d] < 0 || p[d] >= (int64_t)rank) return nullptr;
        dims[d] = x->view_dims[p[d]];
        strides[d] = in_strides[p[d]];
    }
    // the permuted view of x, then a contiguous copy of it
    aclTensor* view = view_of(executor, x, dims);
    view->strides = strides;
    aclTensor* out = new_tensor(*executor->plan, dims, x->GetDataType(), x->GetViewFormat(), true);
    host_task(executor, "Transpose", x, out, [view, out] { copy_view(view, out); });
    return out;
}

// x broadcast to `shape` (right-aligned; a dim of 1 repeats), copied out contiguous.
inline const aclTensor* BroadcastTo(const aclTensor* x, const aclIntArray* shape, aclOpExecutor* executor) {
    using namespace cbhost::opapi;
    if (!shape || !usable(x, executor, "BroadcastTo") || shape->v.size() < x->view_dims.size()) return nullptr;
    std::vector<int64_t> in_strides = x->GetViewStrides(), strides(shape->v.size(), 0);
    size_t lead = shape->v.size() - x->view_dims.size();
    for (size_t d = 0; d < x->view_dims.size(); ++d) {
        int64_t have = x->view_dims[d], want = shape->v[lead + d];
        if (have != want && have != 1) {
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "BroadcastTo: dim %zu of %lld cannot broadcast to %lld", d,
                    (long long)have, (long long)want);
            return nullptr;
        }
        strides[lead + d] = have == 1 ? 0 : in_strides[d];
    }
    aclTensor* view = view_of(executor, x, shape->v);
    view->strides = strides;
    aclTensor* out = new_tensor(*executor->plan, shape->v, x->GetDataType(), x->GetViewFormat(), true);
    host_task(executor, "BroadcastTo", x, out, [view, out] { copy_view(view, out); });
    return out;
}

inline const aclTensor* UnsqueezeNd(const aclTensor* x, const aclIntArray* dims, aclOpExecutor* executor) {
    using namespace cbhost::opapi;
    const aclTensor* c = Contiguous(x, executor);
    if (!c || !dims) return nullptr;
    std::vector<int64_t> out(c->view_dims);
    int64_t rank = (int64_t)out.size() + (int64_t)dims->v.size();
    std::vector<int64_t> at(dims->v);
    for (auto& d : at) d = d < 0 ? d + rank : d;
    std::sort(at.begin(), at.end());
    for (int64_t d : at) {
        if (d < 0 || d > (int64_t)out.size()) return nullptr;
        out.insert(out.begin() + d, 1);
    }
    return view_of(executor, c, out);
}
inline const aclTensor* UnsqueezeNd(const aclTensor* x, int64_t dim, aclOpExecutor* executor) {
    aclIntArray a;
    a.v = {dim};
    return UnsqueezeNd(x, &a, executor);
}
inline const aclTensor* SqueezeNd(const aclTensor* x, const aclIntArray* dims, aclOpExecutor* executor) {
    using namespace cbhost::opapi;
    const aclTensor* c = Contiguous(x, executor);
    if (!c || !dims) return nullptr;
    int64_t rank = (int64_t)c->view_dims.size();
    std::vector<bool> drop(rank, false);
    for (int64_t d : dims->v) {
        d = d < 0 ? d + rank : d;
        if (d < 0 || d >= rank) return nullptr;
        drop[d] = c->view_dims[d] == 1;
    }
    std::vector<int64_t> out;
    for (int64_t d = 0; d < rank; ++d)
        if (!drop[d]) out.push_back(c->view_dims[d]);
    return view_of(executor, c, out);
}
inline const aclTensor* SqueezeNd(const aclTensor* x, int64_t dim, aclOpExecutor* executor) {
    aclIntArray a;
    a.v = {dim};
    return SqueezeNd(x, &a, executor);
}

}  // namespace l0op
