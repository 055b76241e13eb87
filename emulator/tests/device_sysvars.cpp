// The device compiler's system-variable intrinsics (impl/emu/device_sysvars.h), called undeclared as kernels do.
//   tiles: a vector kernel strides over 10 tiles with get_block_idx() / get_block_num() on 3 blocks; each tile
//          records which block wrote it (tile t belongs to block t % 3).
//   mixed: a __mix__(1, 2) kernel on 2 logical cores; every AIV writes (get_block_idx, get_subblockid,
//          get_subblockdim, GetBlockIdx) at slot get_block_idx() * get_subblockdim() + get_subblockid().
//   mixed_wrong: the hardware-wrong twin: it takes get_block_idx() for GetBlockIdx() and indexes by it alone, so
//          both AIVs of a core write one slot: a cross-core race the emulator reports.
//   plain / plain_vector: a kernel of no declared type writes (ASCEND_IS_AIV, g_coreType == AIV[, ASCEND_IS_NOT_AIC]):
//          built as it is, the plain launch is neither core for the macros; built as cotbuilder's op build builds a
//          kernel that uses no Cube API (the prelude's CBEMU_PLAIN_CORE, redefined below as it does), the AIV.
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t TILES = 10;

extern "C" __global__ __aicore__ void plain(GM_ADDR out) {
    int32_t* o = (int32_t*)out;
    o[0] = ASCEND_IS_AIV ? 1 : 0;  // (testing ASCEND_IS_AIC too would be the unmodelled inferred-mixed case)
    o[1] = g_coreType == AIV ? 1 : 0;
}
#undef CBEMU_PLAIN_CORE
#define CBEMU_PLAIN_CORE ::cbemu::CoreKind::AIV
extern "C" __global__ __aicore__ void plain_vector(GM_ADDR out) {
    int32_t* o = (int32_t*)out;
    if ASCEND_IS_AIV {
        o[0] = 1;
    }
    o[1] = g_coreType == AIV ? 1 : 0;
    o[2] = ASCEND_IS_NOT_AIC ? 1 : 0;
}

extern "C" __global__ __aicore__ void tiles(GM_ADDR out) {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)out, TILES);
    for (int64_t t = get_block_idx(); t < TILES; t += get_block_num()) g.SetValue(t, (int32_t)get_block_idx());
}

__global__ __mix__(1, 2) void mixed(GM_ADDR out, uint32_t wrong) {
    if ASCEND_IS_AIV {
        GlobalTensor<int32_t> g;
        g.SetGlobalBuffer((__gm__ int32_t*)out, 4 * 4);
        int64_t slot = wrong ? get_block_idx() : get_block_idx() * get_subblockdim() + get_subblockid();
        g.SetValue(slot * 4 + 0, (int32_t)get_block_idx());
        g.SetValue(slot * 4 + 1, (int32_t)get_subblockid());
        g.SetValue(slot * 4 + 2, (int32_t)get_subblockdim());
        g.SetValue(slot * 4 + 3, (int32_t)GetBlockIdx());
    }
}

int main(int argc, char** argv) {
    std::string c = argc > 1 ? argv[1] : "";
    int32_t* out = (int32_t*)GmAlloc(16 * sizeof(int32_t));
    std::memset(out, 0xFF, 16 * sizeof(int32_t));
    int n = 0;
    if (c == "plain" || c == "plain_vector") {
        if (c == "plain") ICPU_RUN_KF(plain, 1, (uint8_t*)out);
        else ICPU_RUN_KF(plain_vector, 1, (uint8_t*)out);
        n = c == "plain" ? 2 : 3;
    } else if (c == "tiles") {
        ICPU_RUN_KF(tiles, 3, (uint8_t*)out);
        n = TILES;
    } else {
        ICPU_RUN_KF(mixed, 2, (uint8_t*)out, (uint32_t)(c == "mixed_wrong"));
        n = 16;
    }
    for (int i = 0; i < n; ++i) std::printf("%d ", out[i]);
    std::printf("\n");
    GmFree(out);
    return 0;
}
