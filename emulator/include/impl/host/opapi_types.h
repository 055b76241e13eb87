// The op-api framework's shared vocabulary (CANN's opdev/ headers, as the aclnn development guide and the op-api
// sources that use them describe it): op::DataType / Format / Shape, dtype promotion and cast rules, shape and
// broadcast helpers, the platform query, ToString for logs, and the log and check macros a hand-written aclnn layer
// returns through. Written from how the API is used; nothing here is CANN's code.
#pragma once
#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "../../aclnn/aclnn_base.h"
#include "../emu/diag.h"
#include "aclnn_runtime.h"
#include "log.h"
#include "platform.h"

// aclTensor's shape accessors (declared in aclnn/acl_meta.h, where gert::Shape is not yet complete).
inline gert::Shape aclTensor::GetViewShape() const { return gert::Shape(view_dims); }
inline gert::Shape aclTensor::GetStorageShape() const { return gert::Shape(storage_dims.empty() ? view_dims : storage_dims); }
inline gert::Shape aclTensor::GetOriginalShape() const { return GetViewShape(); }
inline void aclTensor::SetViewShape(const gert::Shape& s) {
    view_dims.clear();
    for (size_t i = 0; i < s.GetDimNum(); ++i) view_dims.push_back(s.GetDim(i));
    strides.clear();
}
inline void aclTensor::SetStorageShape(const gert::Shape& s) {
    storage_dims.clear();
    for (size_t i = 0; i < s.GetDimNum(); ++i) storage_dims.push_back(s.GetDim(i));
}
inline void aclTensor::SetOriginalShape(const gert::Shape&) {}
// Row-major strides of the view when the tensor has none of its own.
inline std::vector<int64_t> aclTensor::GetViewStrides() const {
    if (!strides.empty()) return strides;
    std::vector<int64_t> s(view_dims.size());
    int64_t step = 1;
    for (size_t i = view_dims.size(); i-- > 0;) {
        s[i] = step;
        step *= view_dims[i];
    }
    return s;
}

namespace op {

using DataType = ge::DataType;
using Format = ge::Format;
using Shape = gert::Shape;
using Strides = std::vector<int64_t>;
template <typename T, size_t N = 8>
using FVector = std::vector<T>;
using ShapeVector = std::vector<int64_t>;
constexpr size_t MAX_DIM_NUM = 8;

// The SoC families in the order the framework's enum lists them (op-api code compares ranges: >= ASCEND910B).
enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND910_93,
    ASCEND910_95,
    ASCEND910E,
    ASCEND310,
    ASCEND310P,
    ASCEND310B,
    ASCEND310C,
    ASCEND610LITE,
    RESERVED_VERSION = 99999
};

class PlatformInfo {
public:
    SocVersion GetSocVersion() const {
        std::string name = cbhost::current_soc().name;
        const char* env = std::getenv("COTBUILDER_SOC");
        if (env && std::string(env).rfind("ascend910_93", 0) == 0) return SocVersion::ASCEND910_93;
        if (name == "ascend310p") return SocVersion::ASCEND310P;
        if (name == "ascend310b") return SocVersion::ASCEND310B;
        return SocVersion::ASCEND910B;
    }
    int64_t GetCubeCoreNum() const { return cbhost::current_soc().aic; }
    int64_t GetVectorCoreNum() const { return cbhost::current_soc().aiv; }
    bool Valid() const { return true; }
    std::string GetSocLongVersion() const { return cbhost::current_soc().short_version; }
};
inline const PlatformInfo& GetCurrentPlatformInfo() {
    static PlatformInfo info;
    return info;
}

// ---- dtypes ----
inline bool IsComplexType(DataType dt) { return dt == ge::DT_COMPLEX64 || dt == ge::DT_COMPLEX128 || dt == ge::DT_COMPLEX32; }
inline bool IsFloatingType(DataType dt) {
    return dt == ge::DT_FLOAT || dt == ge::DT_FLOAT16 || dt == ge::DT_BF16 || dt == ge::DT_DOUBLE;
}
inline bool IsIntegralType(DataType dt) {
    switch (dt) {
        case ge::DT_INT8: case ge::DT_UINT8: case ge::DT_INT16: case ge::DT_UINT16: case ge::DT_INT32:
        case ge::DT_UINT32: case ge::DT_INT64: case ge::DT_UINT64: return true;
        default: return false;
    }
}
inline bool IsIntegralType(DataType dt, bool include_bool) { return IsIntegralType(dt) || (include_bool && dt == ge::DT_BOOL); }
inline bool IsBasicType(DataType dt) { return IsFloatingType(dt) || IsIntegralType(dt) || IsComplexType(dt) || dt == ge::DT_BOOL; }
inline size_t TypeSize(DataType dt) {
    int64_t n = ge::GetSizeByDataType(dt);
    return n > 0 ? (size_t)n : 0;
}
inline bool CheckType(DataType dt, std::initializer_list<DataType> allowed) {
    return std::find(allowed.begin(), allowed.end(), dt) != allowed.end();
}
inline bool CheckType(DataType dt, const std::vector<DataType>& allowed) {
    return std::find(allowed.begin(), allowed.end(), dt) != allowed.end();
}

// Type promotion as PyTorch defines it (the framework follows it): bool < integers < floating < complex; within
// integers the wider signed type, uint8 with int8 -> int16; float16 with bfloat16 -> float32.
inline int PromoteRank(DataType dt) {
    switch (dt) {
        case ge::DT_BOOL: return 0;
        case ge::DT_UINT8: return 1;
        case ge::DT_INT8: return 2;
        case ge::DT_INT16: return 3;
        case ge::DT_INT32: return 4;
        case ge::DT_INT64: return 5;
        case ge::DT_FLOAT16: return 6;
        case ge::DT_BF16: return 7;
        case ge::DT_FLOAT: return 8;
        case ge::DT_DOUBLE: return 9;
        case ge::DT_COMPLEX64: return 10;
        case ge::DT_COMPLEX128: return 11;
        default: return -1;
    }
}
inline DataType PromoteType(DataType a, DataType b) {
    if (a == b) return a;
    int ra = PromoteRank(a), rb = PromoteRank(b);
    if (ra < 0 || rb < 0) return ge::DT_UNDEFINED;
    if ((a == ge::DT_UINT8 && b == ge::DT_INT8) || (a == ge::DT_INT8 && b == ge::DT_UINT8)) return ge::DT_INT16;
    if ((a == ge::DT_FLOAT16 && b == ge::DT_BF16) || (a == ge::DT_BF16 && b == ge::DT_FLOAT16)) return ge::DT_FLOAT;
    if (IsComplexType(a) && b == ge::DT_DOUBLE) return ge::DT_COMPLEX128;
    if (IsComplexType(b) && a == ge::DT_DOUBLE) return ge::DT_COMPLEX128;
    return ra > rb ? a : b;
}
// Whether a result of `from` may be written to an output of `to` (PyTorch's can_cast): not floating to integral,
// not complex to real, nothing but bool to bool.
inline bool CanCast(DataType from, DataType to) {
    if (IsComplexType(from) && !IsComplexType(to)) return false;
    if (IsFloatingType(from) && (IsIntegralType(to) || to == ge::DT_BOOL)) return false;
    if (from != ge::DT_BOOL && to == ge::DT_BOOL) return false;
    return true;
}

// ---- formats ----
inline bool IsPrivateFormat(Format f) {
    switch ((int32_t)f) {
        case ge::FORMAT_ND: case ge::FORMAT_NCHW: case ge::FORMAT_NHWC: case ge::FORMAT_NCDHW: case ge::FORMAT_NDHWC:
        case ge::FORMAT_HWCN:
            return false;
        default:
            return (int32_t)f >= 0;
    }
}
inline Format GetPrimaryFormat(Format f) { return f; }

// ---- shapes ----
inline bool BroadcastInferShape(const Shape& a, const Shape& b, Shape& out) {
    size_t n = std::max(a.GetDimNum(), b.GetDimNum());
    Shape r;
    for (size_t i = 0; i < n; ++i) {
        int64_t da = i + a.GetDimNum() >= n ? a.GetDim(i + a.GetDimNum() - n) : 1;
        int64_t db = i + b.GetDimNum() >= n ? b.GetDim(i + b.GetDimNum() - n) : 1;
        if (da != db && da != 1 && db != 1) return false;
        r.AppendDim(da == 1 ? db : da);
    }
    out = r;
    return true;
}
inline bool CheckBroadcastShape(const Shape& a, const Shape& b) {
    Shape out;
    return BroadcastInferShape(a, b, out);
}
inline Shape ToShape(const int64_t* dims, uint64_t n) {
    Shape s;
    for (uint64_t i = 0; i < n; ++i) s.AppendDim(dims[i]);
    return s;
}
inline void ToShape(const int64_t* dims, uint64_t n, Shape& s) { s = ToShape(dims, n); }
inline Shape ToShape(const std::vector<int64_t>& dims) { return ToShape(dims.data(), dims.size()); }
inline std::vector<int64_t> ToShapeVector(const Shape& s) {
    std::vector<int64_t> v;
    for (size_t i = 0; i < s.GetDimNum(); ++i) v.push_back(s.GetDim(i));
    return v;
}
inline bool IsContiguous(const aclTensor* t) { return t == nullptr || t->contiguous(); }


// ---- ToString (for logs) ----
inline ge::AscendString ToString(DataType dt) { return ge::AscendString(ge::TypeUtils::DataTypeToSerialString(dt).c_str()); }
inline ge::AscendString ToString(const Shape& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.GetDimNum(); ++i) out += (i ? ", " : "") + std::to_string(s.GetDim(i));
    return ge::AscendString((out + "]").c_str());
}
inline ge::AscendString ToString(std::initializer_list<DataType> list) {
    std::string out = "[";
    for (DataType dt : list) out += (out.size() > 1 ? ", " : "") + ge::TypeUtils::DataTypeToSerialString(dt);
    return ge::AscendString((out + "]").c_str());
}
inline ge::AscendString ToString(const std::vector<DataType>& list) {
    std::string out = "[";
    for (DataType dt : list) out += (out.size() > 1 ? ", " : "") + ge::TypeUtils::DataTypeToSerialString(dt);
    return ge::AscendString((out + "]").c_str());
}
inline ge::AscendString ToString(const aclIntArray* a) {
    std::string out = "[";
    if (a)
        for (size_t i = 0; i < a->v.size(); ++i) out += (i ? ", " : "") + std::to_string(a->v[i]);
    return ge::AscendString((out + "]").c_str());
}
inline ge::AscendString ToString(const std::vector<int64_t>& v) { return ToString(ToShape(v)); }
inline ge::AscendString ToString(SocVersion v) { return ge::AscendString(std::to_string((int)v).c_str()); }
inline DataType ToOpDataType(aclDataType dt) { return static_cast<DataType>(static_cast<int32_t>(dt)); }
inline aclDataType ToAclDataType(DataType dt) { return static_cast<aclDataType>(static_cast<int32_t>(dt)); }
inline ge::AscendString ToString(Format f) { return ge::AscendString(std::to_string((int32_t)f).c_str()); }

}  // namespace op

namespace cbhost {
namespace opapi {

// The last error the layer logged in phase 1: quoted when the call is rejected.
inline std::string& last_error() {
    static std::string e;
    return e;
}
inline void log_error_v(const char* fmt, va_list ap) {
    char msg[1024];
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    last_error() = msg;
    std::fprintf(stderr, "[ERROR] aclnn: %s\n", msg);
}
inline void log_quiet_v(const char* fmt, va_list ap) {
    if (!cbhost::verbose_log()) return;
    char msg[1024];
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    std::fprintf(stderr, "[INFO] aclnn: %s\n", msg);
}
// OP_LOGE(code, fmt, ...); OP_LOGW / OP_LOGI / OP_LOGD(fmt, ...) - or with a code or a name first, as some code
// writes them: a first argument that is not a string is skipped.
template <typename Who, typename std::enable_if<!std::is_convertible<Who, const char*>::value, int>::type = 0>
inline void log_error(const Who&, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_error_v(fmt, ap);
    va_end(ap);
}
inline void log_error(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_error_v(fmt, ap);
    va_end(ap);
}
template <typename Who, typename std::enable_if<!std::is_convertible<Who, const char*>::value, int>::type = 0>
inline void log_warning(const Who&, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_quiet_v(fmt, ap);
    va_end(ap);
}
inline void log_warning(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_quiet_v(fmt, ap);
    va_end(ap);
}
inline std::string shape_text(const aclTensor* t) { return t ? op::ToString(t->GetViewShape()).GetString() : "null"; }
template <typename T>  // a tensor or a scalar
inline std::string dtype_text(const T* t) {
    return t ? ge::TypeUtils::DataTypeToSerialString(t->GetDataType()) : "null";
}

}  // namespace opapi
}  // namespace cbhost

// ---- log and check macros (op_log.h, aclnn_kernels/common/op_error_check.h) ----
#undef OP_LOGE
#undef OP_LOGW
#undef OP_LOGI
#undef OP_LOGD
#define OP_LOGE(...) ::cbhost::opapi::log_error(__VA_ARGS__)
#define OP_LOGW(...) ::cbhost::opapi::log_warning(__VA_ARGS__)
#define OP_LOGI(...) ::cbhost::opapi::log_warning(__VA_ARGS__)
#define OP_LOGD(...) ::cbhost::opapi::log_warning(__VA_ARGS__)
#undef CHECK_RET
#define CHECK_RET(cond, ret_value) \
    do {                           \
        if (!(cond)) {             \
            return ret_value;      \
        }                          \
    } while (0)
#define CHECK_COND(cond, ret_value, ...)                 \
    do {                                                 \
        if (!(cond)) {                                   \
            OP_LOGE(ret_value, __VA_ARGS__);             \
            return ret_value;                            \
        }                                                \
    } while (0)
#define OP_CHECK(cond, log_expr, ret_expr) \
    do {                                   \
        if (!(cond)) {                     \
            log_expr;                      \
            ret_expr;                      \
        }                                  \
    } while (0)
#define CBHOST_OPAPI_REJECT(cond, ret_expr, ...) \
    do {                                         \
        if (cond) {                              \
            OP_LOGE(0, __VA_ARGS__);             \
            ret_expr;                            \
        }                                        \
    } while (0)
#define OP_CHECK_NULL(p, ret_expr) CBHOST_OPAPI_REJECT((p) == nullptr, ret_expr, "%s must not be nullptr", #p)
#define OP_CHECK_DTYPE_NOT_SUPPORT(t, list, ret_expr)                                                         \
    CBHOST_OPAPI_REJECT(!::op::CheckType((t)->GetDataType(), list), ret_expr, "%s dtype %s is not supported", \
                        #t, ::cbhost::opapi::dtype_text(t).c_str())
#define OP_CHECK_DTYPE_NOT_MATCH(t, dt, ret_expr)                                                              \
    CBHOST_OPAPI_REJECT((t)->GetDataType() != (dt), ret_expr, "%s dtype %s must be %s", #t,                   \
                        ::cbhost::opapi::dtype_text(t).c_str(), ::op::ToString((::op::DataType)(dt)).GetString())
#define OP_CHECK_DTYPE_NOT_SAME(a, b, ret_expr)                                                              \
    CBHOST_OPAPI_REJECT((a)->GetDataType() != (b)->GetDataType(), ret_expr, "%s dtype %s and %s dtype %s differ", \
                        #a, ::cbhost::opapi::dtype_text(a).c_str(), #b, ::cbhost::opapi::dtype_text(b).c_str())
#define OP_CHECK_MAX_DIM(t, n, ret_expr) \
    CBHOST_OPAPI_REJECT((t)->GetViewShape().GetDimNum() > (size_t)(n), ret_expr, "%s has more than %d dims", #t, (int)(n))
#define OP_CHECK_MIN_DIM(t, n, ret_expr) \
    CBHOST_OPAPI_REJECT((t)->GetViewShape().GetDimNum() < (size_t)(n), ret_expr, "%s has fewer than %d dims", #t, (int)(n))
#define OP_CHECK_WRONG_DIMENSION(t, n, ret_expr) \
    CBHOST_OPAPI_REJECT((t)->GetViewShape().GetDimNum() != (size_t)(n), ret_expr, "%s must have %d dims", #t, (int)(n))
#define OP_CHECK_SHAPE_NOT_EQUAL(a, b, ret_expr)                                                         \
    CBHOST_OPAPI_REJECT(!((a)->GetViewShape() == (b)->GetViewShape()), ret_expr, "%s shape %s != %s shape %s", \
                        #a, ::cbhost::opapi::shape_text(a).c_str(), #b, ::cbhost::opapi::shape_text(b).c_str())
#define OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE(t, shape, ret_expr)                                      \
    CBHOST_OPAPI_REJECT(!((t)->GetViewShape() == (shape)), ret_expr, "%s shape %s, expected %s", #t,          \
                        ::cbhost::opapi::shape_text(t).c_str(), ::op::ToString(shape).GetString())
#define OP_CHECK_BROADCAST(a, b, ret_expr)                                                                 \
    CBHOST_OPAPI_REJECT(!::op::CheckBroadcastShape((a)->GetViewShape(), (b)->GetViewShape()), ret_expr,     \
                        "%s shape %s and %s shape %s cannot broadcast", #a, ::cbhost::opapi::shape_text(a).c_str(), \
                        #b, ::cbhost::opapi::shape_text(b).c_str())
#define OP_CHECK_BROADCAST_WITH_SHAPE(t, shape, ret_expr)                                                   \
    do {                                                                                                   \
        ::op::Shape cbhost_bc_;                                                                            \
        CBHOST_OPAPI_REJECT(!::op::BroadcastInferShape((t)->GetViewShape(), (shape), cbhost_bc_) ||         \
                                !(cbhost_bc_ == (shape)),                                                  \
                            ret_expr, "%s shape %s cannot broadcast to %s", #t,                            \
                            ::cbhost::opapi::shape_text(t).c_str(), ::op::ToString(shape).GetString());    \
    } while (0)
#define OP_CHECK_RESULT_DTYPE_CAST_FAILED(from, to, ret_expr)                                                  \
    CBHOST_OPAPI_REJECT(!::op::CanCast((from), (to)), ret_expr, "result dtype %s cannot be cast to %s",        \
                        ::op::ToString((::op::DataType)(from)).GetString(), ::op::ToString((::op::DataType)(to)).GetString())
#define OP_CHECK_COMM_INPUT(workspace_size, executor)                                     \
    CBHOST_OPAPI_REJECT((workspace_size) == nullptr || (executor) == nullptr, return ACLNN_ERR_PARAM_NULLPTR, \
                        "workspaceSize and executor must not be nullptr")
#define OP_CHECK_ADD_TO_LAUNCHER_LIST_AICORE(cond, ret_expr, ...) CBHOST_OPAPI_REJECT(cond, ret_expr, __VA_ARGS__)

namespace op {
// The shape a layer computed equals the caller's output's (logged when not).
inline bool CheckReduceOutShape(const aclTensor* got, const aclTensor* out) {
    if (got && out && got->GetViewShape() == out->GetViewShape()) return true;
    cbhost::opapi::log_error("the result's shape %s differs from the output's %s", cbhost::opapi::shape_text(got).c_str(),
                             cbhost::opapi::shape_text(out).c_str());
    return false;
}
// The batch (N) and channel (C) dims of an image op's input and output agree (C last in NHWC / NDHWC).
inline bool CheckNCDimValid(const aclTensor* in, const aclTensor* out) {
    if (!in || !out) return false;
    auto channel = [](const aclTensor* t) {
        size_t rank = t->view_dims.size();
        bool last = t->format == ACL_FORMAT_NHWC || t->format == ACL_FORMAT_NDHWC;
        return rank < 2 ? int64_t(-1) : t->view_dims[last ? rank - 1 : 1];
    };
    if (in->view_dims.size() >= 2 && out->view_dims.size() >= 2 && in->view_dims[0] == out->view_dims[0] &&
        channel(in) == channel(out))
        return true;
    cbhost::opapi::log_error("N and C of %s and %s differ", cbhost::opapi::shape_text(in).c_str(),
                             cbhost::opapi::shape_text(out).c_str());
    return false;
}
}  // namespace op
