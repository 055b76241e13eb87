// Host shim (hand-written): the device log's level check (AlogCheckDebugLevel(module, level)) and its level and
// module names, as op host code asks "is debug logging on?" before dumping tiling data. On with
// COTBUILDER_HOST_LOG=1 (as the shims' OP_LOGD), never an error.
#pragma once
#include <cstdint>

#include "../impl/host/log.h"

#ifndef DLOG_DEBUG
#define DLOG_DEBUG 0
#endif
#ifndef DLOG_INFO
#define DLOG_INFO 1
#endif
#ifndef DLOG_WARN
#define DLOG_WARN 2
#endif
#ifndef DLOG_ERROR
#define DLOG_ERROR 3
#endif

// The module an op host logs under (the log's module list has one per component; op code names only this one).
enum CbhostLogModule : int32_t { OP = 1 };

// 1 when messages of `level` from `module` are printed: debug and info only with COTBUILDER_HOST_LOG=1.
inline int32_t AlogCheckDebugLevel(int32_t /*module*/, int32_t level) {
    return level >= DLOG_WARN || ::cbhost::verbose_log() ? 1 : 0;
}
