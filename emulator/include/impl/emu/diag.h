// Diagnostics protocol: one line per finding on stderr,
//   COTBUILDER_DIAG {"kind":..,"severity":"error|warning","message":..,"file":..,"line":N,"block":B}
// Errors set the process exit code to 3 at exit; fatal findings exit(3) at once.
#pragma once
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>

#include "rt.h"

namespace cbemu {

// Where an API was called from; filled by default arguments at the caller's line.
// (The builtins must sit in the constructor's default arguments: GCC then evaluates them at the
// outermost call, while inside a braced default argument they would name this header.)
// The Here tag keeps a user argument (say a literal 0) from ever converting into a SrcLoc.
struct SrcLoc {
    struct Here {};
    const char* file;
    int line;
    explicit SrcLoc(Here, const char* f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
    SrcLoc(const char* f, int l) : file(f), line(l) {}
};
#define CBEMU_LOC ::cbemu::SrcLoc loc = ::cbemu::SrcLoc(::cbemu::SrcLoc::Here())
// The address form of an API: `Add<half>` must convert to the toolkit's function type (kernels pass it as a template
// argument `void (*)(dst, src0, src1, const int32_t&)`), which the located overload, ending in a SrcLoc, cannot. The
// address form ends in an empty parameter pack instead: a call prefers the located overload (a template with a
// trailing pack is less specialised), an extra argument makes the address form non-viable (a wrong call is still "no
// matching function"), and a call through the pointer reports no line.
#define CBEMU_NOLOC_TPARAMS typename... cbemuNoLoc, typename = std::enable_if_t<sizeof...(cbemuNoLoc) == 0>
#define CBEMU_NOLOC cbemuNoLoc...
#define CBEMU_VIA_POINTER ::cbemu::SrcLoc("(an API called through a function pointer)", 0)

int current_block();  // defined in runtime.h (-1 outside a kernel)

inline std::atomic<int>& error_count() {
    static std::atomic<int> n{0};
    return n;
}
inline std::mutex& diag_mutex() {
    static std::mutex m;
    return m;
}

CBEMU_RT std::string json_escape(const std::string& s);

// The process exits with status 3 at exit when an error was reported (installed by the first report or launch).
CBEMU_RT void exit_hook();
inline std::once_flag& exit_hook_once() {
    static std::once_flag once;
    return once;
}
CBEMU_RT void install_exit_hook();

enum class Sev { warning, error, fatal };

// The findings already printed (kind|file|line|block): a warning in a loop is printed once.
inline std::set<std::string>& reported_findings() {
    static std::set<std::string> seen;
    return seen;
}

// Report one finding. A warning with the same kind+file+line is printed once per block.
CBEMU_RT void report(const char* kind, Sev sev, const SrcLoc& loc, const char* fmt, ...);

}  // namespace cbemu

#if CBEMU_RT_BODY
namespace cbemu {

CBEMU_RT std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\t': o += "\\t"; break;
            default:
                if ((unsigned char)c < 0x20) {
                    char b[8];
                    std::snprintf(b, sizeof b, "\\u%04x", (unsigned char)c);
                    o += b;
                } else {
                    o += c;
                }
        }
    }
    return o;
}

CBEMU_RT void exit_hook() {
    if (error_count().load() > 0) {
        std::fflush(nullptr);
        std::_Exit(3);
    }
}
CBEMU_RT void install_exit_hook() {
    std::call_once(exit_hook_once(), [] { std::atexit(exit_hook); });
}

CBEMU_RT void report(const char* kind, Sev sev, const SrcLoc& loc, const char* fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    install_exit_hook();
    {
        std::lock_guard<std::mutex> g(diag_mutex());
        // the same finding in a loop is reported once per (kind, file, line, block)
        std::set<std::string>& seen = reported_findings();
        std::string key = std::string(kind) + "|" + (loc.file ? loc.file : "") + "|" + std::to_string(loc.line) +
                          "|" + std::to_string(current_block());
        bool fresh = seen.insert(key).second;
        if (sev != Sev::warning) error_count()++;
        if (!fresh && sev != Sev::fatal) return;
        std::fprintf(stderr,
                     "COTBUILDER_DIAG {\"kind\":\"%s\",\"severity\":\"%s\",\"message\":\"%s\",\"file\":\"%s\","
                     "\"line\":%d,\"block\":%d}\n",
                     kind, sev == Sev::warning ? "warning" : "error", json_escape(msg).c_str(),
                     json_escape(loc.file ? loc.file : "").c_str(), loc.line, current_block());
        std::fflush(stderr);
    }
    if (sev == Sev::fatal) {
        std::fflush(nullptr);
        std::_Exit(3);
    }
}

}  // namespace cbemu
#endif  // CBEMU_RT_BODY
