// Logging and check macros of op host code (the ops-base `log/log.h` family): OP_LOGE/W/I/D with a context or a
// name first, OP_CHECK_IF / OP_TILING_CHECK / OP_CHECK_NULL_WITH_CONTEXT that log and return. Errors and warnings
// go to stderr (they explain a failed TilingFunc in the verification log); info/debug only with COTBUILDER_HOST_LOG=1.
// Each macro is defined only if the project's own headers have not defined it already.
#pragma once
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "ge_types.h"

namespace cbhost {

inline const char* log_name(const char* s) { return s ? s : ""; }
inline const char* log_name(char* s) { return s ? s : ""; }
inline const char* log_name(const std::string& s) { return s.c_str(); }
inline const char* log_name(std::nullptr_t) { return ""; }
inline const char* log_name(const ge::AscendString& s) { return s.GetString(); }
template <typename Ctx>
inline const char* log_name(const Ctx* ctx) {
    return ctx ? ctx->GetNodeName() : "";
}
template <typename Ctx>
inline const char* log_name(Ctx* ctx) {
    return ctx ? ctx->GetNodeName() : "";
}

inline bool verbose_log() {
    static const bool v = [] {
        const char* e = std::getenv("COTBUILDER_HOST_LOG");
        return e && *e && *e != '0';
    }();
    return v;
}

inline void log_line(const char* level, const char* who, const char* fmt, ...) {
    if ((level[0] == 'D' || level[0] == 'I') && !verbose_log()) return;
    std::fprintf(stderr, "[%s] %s: ", level, who);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        std::vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    std::fputc('\n', stderr);
}
inline void log_line(const char* level, const char* who) { log_line(level, who, nullptr); }

// The ops-base "invalid X" error macros take the op name and then strings or numbers (param, value, expected,
// reason): printed joined, whatever their count.
inline void log_detail_part(std::ostringstream&) {}
template <typename T, typename... Rest>
inline void log_detail_part(std::ostringstream& o, const T& v, const Rest&... rest) {
    o << "; " << v;
    log_detail_part(o, rest...);
}
template <typename... Args>
inline void log_detail(const char* what, const char* who, const Args&... args) {
    std::ostringstream o;
    o << what;
    log_detail_part(o, args...);
    log_line("ERROR", who, "%s", o.str().c_str());
}

}  // namespace cbhost

// The shims' own error log: a project may define OP_LOGE its own way (a printf of a name), so shim code never uses it.
#define CBHOST_LOGE(name, ...) ::cbhost::log_line("ERROR", ::cbhost::log_name(name), ##__VA_ARGS__)

#ifndef OP_LOGE
#define OP_LOGE(name, ...) ::cbhost::log_line("ERROR", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGW
#define OP_LOGW(name, ...) ::cbhost::log_line("WARN", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGI
#define OP_LOGI(name, ...) ::cbhost::log_line("INFO", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGD
#define OP_LOGD(name, ...) ::cbhost::log_line("DEBUG", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_EVENT
#define OP_EVENT(name, ...) ::cbhost::log_line("EVENT", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_IF
#define OP_LOGE_IF(cond, ret, name, ...)    \
    do {                                    \
        if (cond) {                         \
            OP_LOGE(name, ##__VA_ARGS__);   \
            return ret;                     \
        }                                   \
    } while (0)
#endif
#ifndef OPS_LOG_E
#define OPS_LOG_E(name, ...) OP_LOGE(name, ##__VA_ARGS__)
#endif
#ifndef OPS_LOG_W
#define OPS_LOG_W(name, ...) OP_LOGW(name, ##__VA_ARGS__)
#endif
#ifndef OPS_LOG_I
#define OPS_LOG_I(name, ...) OP_LOGI(name, ##__VA_ARGS__)
#endif
#ifndef OPS_LOG_D
#define OPS_LOG_D(name, ...) OP_LOGD(name, ##__VA_ARGS__)
#endif
#ifndef OP_CHECK_IF
#define OP_CHECK_IF(cond, log_func, expr) \
    do {                                  \
        if (cond) {                       \
            log_func;                     \
            expr;                         \
        }                                 \
    } while (0)
#endif
#ifndef OP_TILING_CHECK
#define OP_TILING_CHECK(cond, log_func, expr) OP_CHECK_IF(cond, log_func, expr)
#endif
#ifndef OP_CHECK_NULL_WITH_CONTEXT
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)                                           \
    do {                                                                                   \
        if ((ptr) == nullptr) {                                                            \
            OP_LOGE(context, "%s is nullptr", #ptr);                                       \
            return ge::GRAPH_FAILED;                                                       \
        }                                                                                  \
    } while (0)
#endif
#ifndef OPS_CHECK_NULL_WITH_CONTEXT
#define OPS_CHECK_NULL_WITH_CONTEXT(context, ptr) OP_CHECK_NULL_WITH_CONTEXT(context, ptr)
#endif
#ifndef OPS_CHECK_NULL_WITH_CONTEXT_RET
#define OPS_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, ret) \
    do {                                                   \
        if ((ptr) == nullptr) {                            \
            OP_LOGE(context, "%s is nullptr", #ptr);       \
            return ret;                                    \
        }                                                  \
    } while (0)
#endif
// A null pointer: log an error naming it, then run the caller's statement (`return ge::GRAPH_FAILED`, `break`).
#ifndef OPS_LOG_E_IF_NULL
#define OPS_LOG_E_IF_NULL(context, ptr, expr)             \
    do {                                                  \
        if ((ptr) == nullptr) {                           \
            OP_LOGE(context, "%s is nullptr", #ptr);      \
            expr;                                         \
        }                                                 \
    } while (0)
#endif
#ifndef OP_CHECK_NULL_WITH_CONTEXT_RET
#define OP_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, ret) OPS_CHECK_NULL_WITH_CONTEXT_RET(context, ptr, ret)
#endif
// The error-manager reports (`base/err_msg.h`: an error code such as "EZ9999", then a printf format): logged as errors
// under the code, so a failing TilingFunc's report reaches the verification log.
#ifndef REPORT_INNER_ERR_MSG
#define REPORT_INNER_ERR_MSG(code, ...) ::cbhost::log_line("ERROR", code, ##__VA_ARGS__)
#endif
#ifndef REPORT_INNER_ERROR
#define REPORT_INNER_ERROR(code, ...) ::cbhost::log_line("ERROR", code, ##__VA_ARGS__)
#endif
#ifndef REPORT_CALL_ERROR
#define REPORT_CALL_ERROR(code, ...) ::cbhost::log_line("ERROR", code, ##__VA_ARGS__)
#endif
#ifndef VECTOR_INNER_ERR_REPORT_TILIING
#define VECTOR_INNER_ERR_REPORT_TILIING(name, ...) OP_LOGE(name, ##__VA_ARGS__)
#endif
#ifndef VECTOR_INFER_SHAPE_INNER_ERR_REPORT
#define VECTOR_INFER_SHAPE_INNER_ERR_REPORT(name, ...) OP_LOGE(name, ##__VA_ARGS__)
#endif
#ifndef OPS_REPORT_VECTOR_INNER_ERR
#define OPS_REPORT_VECTOR_INNER_ERR(name, ...) OP_LOGE(name, ##__VA_ARGS__)
#endif
#ifndef CUBE_INNER_ERR_REPORT
#define CUBE_INNER_ERR_REPORT(name, ...) OP_LOGE(name, ##__VA_ARGS__)
#endif
#ifndef OPS_CHECK
#define OPS_CHECK(cond, log_func, expr) OP_CHECK_IF(cond, log_func, expr)
#endif
#ifndef OP_LOGE_FOR_INVALID_VALUE_WITH_REASON
#define OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(name, param, value, reason) \
    OP_LOGE(name, "invalid value of %s (%s): %s", param, value, reason)
#endif
#ifndef OP_LOGE_FOR_INVALID_DTYPE
#define OP_LOGE_FOR_INVALID_DTYPE(name, param, dtype, expected) \
    OP_LOGE(name, "invalid dtype of %s (%s), expected %s", param, dtype, expected)
#endif
#ifndef OP_LOGE_FOR_INVALID_LISTSIZE
#define OP_LOGE_FOR_INVALID_LISTSIZE(name, ...) ::cbhost::log_detail("invalid listsize", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_SHAPEDIM
#define OP_LOGE_FOR_INVALID_SHAPEDIM(name, ...) ::cbhost::log_detail("invalid shapedim", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_FORMAT
#define OP_LOGE_FOR_INVALID_FORMAT(name, ...) ::cbhost::log_detail("invalid format", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_SHAPESIZE
#define OP_LOGE_FOR_INVALID_SHAPESIZE(name, ...) ::cbhost::log_detail("invalid shapesize", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON
#define OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(name, ...) ::cbhost::log_detail("invalid shapesize_with_reason", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON
#define OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON(name, ...) ::cbhost::log_detail("invalid shapedim_with_reason", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON
#define OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON(name, ...) ::cbhost::log_detail("invalid dtype_with_reason", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON
#define OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON(name, ...) ::cbhost::log_detail("invalid dtypes_with_reason", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON
#define OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON(name, ...) ::cbhost::log_detail("invalid shapes_with_reason", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON
#define OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(name, ...) ::cbhost::log_detail("invalid shape_with_reason", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_VALUE
#define OP_LOGE_FOR_INVALID_VALUE(name, ...) ::cbhost::log_detail("invalid value", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_SHAPEDIMS_WITH_REASON
#define OP_LOGE_FOR_INVALID_SHAPEDIMS_WITH_REASON(name, ...) ::cbhost::log_detail("invalid shapedims_with_reason", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_VALUES_WITH_REASON
#define OP_LOGE_FOR_INVALID_VALUES_WITH_REASON(name, ...) ::cbhost::log_detail("invalid values_with_reason", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON
#define OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON(name, ...) ::cbhost::log_detail("invalid shapesizes_with_reason", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_STRIDE
#define OP_LOGE_FOR_INVALID_STRIDE(name, ...) ::cbhost::log_detail("invalid stride", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_TENSORNUM
#define OP_LOGE_FOR_INVALID_TENSORNUM(name, ...) ::cbhost::log_detail("invalid tensornum", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_FOR_INVALID_SHAPE
#define OP_LOGE_FOR_INVALID_SHAPE(name, ...) ::cbhost::log_detail("invalid shape", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_WITH_INVALID_INPUT_DTYPE
#define OP_LOGE_WITH_INVALID_INPUT_DTYPE(name, ...) ::cbhost::log_detail("invalid input dtype", ::cbhost::log_name(name), ##__VA_ARGS__)
#endif
#ifndef OP_LOGE_WITHOUT_REPORT
#define OP_LOGE_WITHOUT_REPORT(name, ...) OP_LOGE(name, ##__VA_ARGS__)
#endif
