// The device compiler's system-variable intrinsics, which every kernel sees without an include (the clang-based
// device compiler declares them; AscendC's GetBlockIdx / GetSubBlockIdx are written on top of them), and which some
// kernels call directly (`for (idx = get_block_idx(); ...; idx += GetBlockNum())`).
//
// They read the hardware's view, not AscendC's: in a mixed 1:2 launch get_block_idx() is the logical AI core (the
// AIC and both of its AIVs read the same value) and get_subblockid() tells the two AIVs apart, whereas GetBlockIdx()
// on an AIV counts 0 .. 2*numBlocks-1 (GetBlockIdx.md). get_block_num() is the launch's block count. Outside a mixed
// launch a core is its own logical core, sub-block 0 of 1. Global namespace, as on the device; no std / AscendC name
// has these spellings, so unlike the min / max builtins (device_builtins.h) they are always declared.
#pragma once
#include <cstdint>

#include "cores.h"
#include "qualifiers.h"
#include "runtime.h"

inline __aicore__ int64_t get_block_idx() { return cbemu::ctx().block < 0 ? 0 : cbemu::core_id().logical; }
inline __aicore__ int64_t get_block_num() { return cbemu::ctx().block_num; }
inline __aicore__ int64_t get_subblockid() {
    return cbemu::core_id().kind == cbemu::CoreKind::AIV ? cbemu::core_id().sub : 0;
}
inline __aicore__ int64_t get_subblockdim() {
    const cbemu::CoreId& id = cbemu::core_id();
    return id.kind == cbemu::CoreKind::AIV && id.aiv_per > 0 ? id.aiv_per : 1;
}
