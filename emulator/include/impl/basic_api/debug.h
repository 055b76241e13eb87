// Debug macros of the kernel API: ascendc_assert (utils/debug/asc_assert.h) and the
// ASCENDC_ASSERT / KERNEL_LOG / KERNEL_ERROR spelling that samples use for argument checks.
#pragma once
#include <cstdio>
#include <utility>

#include "misc.h"

namespace cbemu {
inline void asc_assert_fail(const char* file, int line, const char* text, const char* api = "ascendc_assert") {
    report("assert_failed", Sev::fatal, SrcLoc{file, line}, "%s(%s) failed", api, text);
}
inline void asc_assert_check(const char* file, int line, const char* text, bool cond) {
    if (!cond) asc_assert_fail(file, line, text);
}
// The form with a message: print it (like printf) before failing.
template <typename... Args>
inline void asc_assert_named(const char* api, const char* file, int line, const char* text, bool cond,
                             const char* fmt, Args&&... args) {
    if (cond) return;
    {
        std::lock_guard<std::mutex> g(diag_mutex());
        std::fprintf(stderr, fmt, AscendC::detail_print::arg(args)...);
        std::fprintf(stderr, "\n");
    }
    asc_assert_fail(file, line, text, api);
}
template <typename... Args>
inline void asc_assert_check(const char* file, int line, const char* text, bool cond, const char* fmt,
                             Args&&... args) {
    asc_assert_named("ascendc_assert", file, line, text, cond, fmt, std::forward<Args>(args)...);
}
inline void asc_assert_named(const char* api, const char* file, int line, const char* text, bool cond) {
    if (!cond) asc_assert_fail(file, line, text, api);
}
}  // namespace cbemu

#ifndef ascendc_assert
#define ascendc_assert(...) ::cbemu::asc_assert_check(__FILE__, __LINE__, #__VA_ARGS__, __VA_ARGS__)
#endif

// assert(expr) and assert(expr, fmt, args...) (调试接口/异常检测/assert.md, utils/debug/asc_assert.h): the kernel
// API replaces the C library's one-argument macro; off under NDEBUG ("cmake release 模式下 ... assert打印信息失效").
// A later #include <cassert> / <assert.h> puts the C library's macro back, as with the toolkit.
// As the C library's, a holding assertion is `void(0)` in a conditional, so it may sit in a constexpr function.
#undef assert
#ifdef NDEBUG
#define assert(...) ((void)0)
#else
#define assert(...) CBEMU_ASSERT_WITH("assert", __VA_ARGS__)
#endif
#define CBEMU_ASSERT_WITH(api, cond, ...)                                                                         \
    (static_cast<bool>(cond) ? void(0)                                                                          \
                             : ::cbemu::asc_assert_named(api, __FILE__, __LINE__, #cond, false, ##__VA_ARGS__))

// ASSERT_MSG(expr, fmt, args...): the toolkit's kernel-log assertion with a message (impl/basic_api/kernel_log.h,
// the spelling CANN 8 kernels use): print the message, then stop like ASSERT.
#ifndef ASSERT_MSG
#define ASSERT_MSG(expr, fmt, ...) CBEMU_ASSERT_WITH("ASSERT_MSG", expr, fmt, ##__VA_ARGS__)
#endif

// KERNEL_LOG(level, fmt, args...): one line on stderr tagged with the level name.
#ifndef KERNEL_LOG
#define KERNEL_DEBUG "DEBUG"
#define KERNEL_INFO "INFO"
#define KERNEL_WARN "WARN"
#define KERNEL_ERROR "ERROR"
#define KERNEL_LOG(level, fmt, ...)                                                                        \
    do {                                                                                                   \
        std::lock_guard<std::mutex> cbemu_log_guard(::cbemu::diag_mutex());                                \
        std::fprintf(stderr, "[%s] %s:%d " fmt "\n", level, __FILE__, __LINE__, ##__VA_ARGS__);             \
    } while (0)
#endif

// ASCENDC_ASSERT(cond, { on-failure statements }): run the statements, then stop like ASSERT.
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)                                                                     \
    do {                                                                                                   \
        if (!(cond)) {                                                                                     \
            behavior;                                                                                      \
            ::cbemu::report("assert_failed", ::cbemu::Sev::fatal, ::cbemu::SrcLoc{__FILE__, __LINE__},     \
                            "ASCENDC_ASSERT(%s) failed", #cond);                                           \
        }                                                                                                  \
    } while (0)
#endif

namespace AscendC {
// docs: 调试接口/异常检测/Trap.md: stops the AI Core on the NPU, is an assert in CPU mode: the kernel ends here with
// the fatal assert_failed at the caller's line.
inline void Trap(CBEMU_LOC) { cbemu::asc_assert_fail(loc.file, loc.line, "Trap()", "Trap"); }
}  // namespace AscendC
