// Cube-side sync kernels written for the emulator's tests (driven by tests/emulator/test_cube_sync.py).
// Usage: cube_sync_checks DIR CASE
//
//   own_pipe    every block writes its slice of GM (MTE3), joins an all-core CrossCoreSetFlag<0, PIPE_MTE3> /
//               CrossCoreWaitFlag, then block 0 reads all slices back (MTE2), its own included, and writes their
//               sum: the set waited for this block's MTE3 work and the wait held every pipe, so the read is ordered;
//   wrong_pipe  the same with CrossCoreSetFlag<0, PIPE_MTE2>: nothing waits for block 0's own MTE3 write, a race;
//   fill_l1_synced / fill_l1_unsynced   Fill a 16 x 16 half block of L1 with 1 (PIPE_MTE2 into L1, Fill.md), load it
//               into L0A and L0B (MTE1), Mmad, Fixpipe: with and without the MTE2 -> MTE1 sync the Fill needs;
//   fill_l0_synced   Fill L0A and L0B directly (PIPE_MTE1 there), then MTE1 -> M as for a LoadData.
#include <string>

#include "check_io.h"

using namespace AscendC;

constexpr uint32_t SLICE = 64;  // floats per block
constexpr uint32_t BLOCKS = 2;

template <pipe_t SetPipe>
__global__ __aicore__ void all_core_sum(GM_ADDR x, GM_ADDR slices, GM_ADDR sum) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ab, tb;
    pipe.InitBuffer(xb, SLICE * sizeof(float));
    pipe.InitBuffer(ab, BLOCKS * SLICE * sizeof(float));
    pipe.InitBuffer(tb, SLICE * sizeof(float));
    LocalTensor<float> xl = xb.Get<float>(), all = ab.Get<float>(), total = tb.Get<float>();
    GlobalTensor<float> xg, sg, outg;
    const uint32_t b = (uint32_t)GetBlockIdx();
    xg.SetGlobalBuffer((__gm__ float*)x + b * SLICE, SLICE);
    sg.SetGlobalBuffer((__gm__ float*)slices, BLOCKS * SLICE);
    outg.SetGlobalBuffer((__gm__ float*)sum, SLICE);
    DataCopy(xl, xg, SLICE);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(xl, xl, float(b + 1), SLICE);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(sg[b * SLICE], xl, SLICE);
    CrossCoreSetFlag<0, SetPipe>(5);
    CrossCoreWaitFlag(5);
    if (b != 0) return;
    DataCopy(all, sg, BLOCKS * SLICE);  // @read_back
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Add(total, all, all[SLICE], SLICE);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outg, total, SLICE);
}

// C = ones(16 x 16) @ ones(16 x 16) = 16 everywhere, with the operands made by Fill.
__global__ __aicore__ void fill_ones_mm(GM_ADDR c, uint32_t variant) {
    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0A> l0a;
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalMemAllocator<Hardware::L0C> l0c;
    LocalTensor<half> aL1 = l1.Alloc<TPosition::A1, half>(256);
    LocalTensor<half> aL0 = l0a.Alloc<TPosition::A2, half>(256);
    LocalTensor<half> bL0 = l0b.Alloc<TPosition::B2, half>(256);
    LocalTensor<float> cL0 = l0c.Alloc<TPosition::CO1, float>(256);
    GlobalTensor<float> cG;
    cG.SetGlobalBuffer((__gm__ float*)c, 256);
    if (variant == 2) {
        Fill(aL0, InitConstValueParams<half>{1, 1, 0, half(1.0f)});  // one 512-byte block
        Fill(bL0, InitConstValueParams<half>{1, 1, 0, half(1.0f)});
    } else {
        Fill(aL1, InitConstValueParams<half>{1, 16, 0, half(1.0f)});  // sixteen 32-byte blocks
        if (variant == 0) {
            SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
            WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        }
        LoadData(aL0, aL1, LoadData2DParams{0, 1, 1, 0, 0, false, 0});  // @load_filled
        LoadData(bL0, aL1, LoadData2DParams{0, 1, 1, 0, 0, true, 0});
    }
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    Mmad(cL0, aL0, bL0, MmadParams{16, 16, 16, 0, false, true});
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe<float, float, CFG_ROW_MAJOR>(cG, cL0, FixpipeParamsV220{16, 16, 16, 16, false});
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    g_dir = argv[1];
    std::string c = argv[2];
    if (c.rfind("fill_", 0) == 0) {
        uint8_t* cbuf = out(256 * sizeof(float));
        uint32_t variant = c == "fill_l1_synced" ? 0 : c == "fill_l1_unsynced" ? 1 : c == "fill_l0_synced" ? 2 : 9;
        if (variant == 9) return 2;
        ICPU_RUN_KF(fill_ones_mm, 1, cbuf, variant);
        save("c", cbuf, 256 * sizeof(float));
        return 0;
    }
    uint8_t* x = load("x");
    uint8_t* slices = out(BLOCKS * SLICE * sizeof(float));
    uint8_t* sum = out(SLICE * sizeof(float));
    if (c == "own_pipe") ICPU_RUN_KF(all_core_sum<PIPE_MTE3>, BLOCKS, x, slices, sum);
    else if (c == "wrong_pipe") ICPU_RUN_KF(all_core_sum<PIPE_MTE2>, BLOCKS, x, slices, sum);
    else return 2;
    save("sum", sum, SLICE * sizeof(float));
    return 0;
}
