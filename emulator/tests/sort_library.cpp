// The high-level sort helpers (高阶API/排序操作): GetSortLen / GetSortOffset in elements of T, and MrgSort with its
// queue lengths as arguments (MrgSort-93.md), with and without isExhaustedSuspension. Usage: sort_library DIR
// Writes DIR/out_<name>.bin for pytest (numpy) to compare.
#include "kernel_operator.h"
#include "tikicpulib.h"
#include "check_io.h"

using namespace AscendC;

// in: 64 float scores. Sort<float, true> of two halves (32 each) gives two sorted queues of 32 records; MrgSort
// merges them (16 of the first, 32 of the second, so the lengths differ) into out_merged (48 records = 96 floats),
// then again with isExhaustedSuspension (stops when the 16-record queue runs out). out_sizes (uint32):
// GetSortLen<float>(48), GetSortOffset<float>(5), GetSortLen<half>(48), GetSortOffset<half>(5), then sortedNum[0..4)
// of the full merge and of the suspended merge.
extern "C" __global__ __aicore__ void k_sort(GM_ADDR x, GM_ADDR merged, GM_ADDR merged_s, GM_ADDR sizes) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bidx, bq, bo, bos, btmp;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, 64);
    pipe.InitBuffer(bidx, 64 * 4);
    pipe.InitBuffer(bq, GetSortLen<float>(64) * 4);
    pipe.InitBuffer(bo, GetSortLen<float>(48) * 4);
    pipe.InitBuffer(bos, GetSortLen<float>(48) * 4);
    pipe.InitBuffer(btmp, GetSortLen<float>(64) * 4);
    LocalTensor<uint32_t> idx = bidx.Get<uint32_t>();
    for (int i = 0; i < 64; ++i) idx.SetValue(i, (uint32_t)i);
    LocalTensor<float> q = bq.Get<float>();
    LocalTensor<float> tmp = btmp.Get<float>();
    PipeBarrier<PIPE_ALL>();
    Sort<float, true>(q, a, idx, tmp, 1);
    Sort<float, true>(q[GetSortOffset<float>(32)], a[32], idx[32], tmp, 1);
    PipeBarrier<PIPE_V>();
    LocalTensor<float> o = bo.Get<float>();
    LocalTensor<float> os = bos.Get<float>();
    Duplicate(os, 0.0f, GetSortLen<float>(48));
    PipeBarrier<PIPE_V>();
    uint16_t lens[4] = {16, 32, 0, 0};
    uint32_t done[4] = {9, 9, 9, 9}, done_s[4] = {9, 9, 9, 9};
    MrgSortSrcList<float> list(q, q[GetSortOffset<float>(32)], q, q);
    MrgSort<float>(o, list, lens, done, 3, 1);
    PipeBarrier<PIPE_V>();
    MrgSort<float, true>(os, list, lens, done_s, 3, 1);
    ub_out(merged, o, GetSortLen<float>(48));
    ub_out(merged_s, os, GetSortLen<float>(48));
    GlobalTensor<uint32_t> s;
    s.SetGlobalBuffer((__gm__ uint32_t*)sizes, 12);
    uint32_t v[12] = {GetSortLen<float>(48), GetSortOffset<float>(5), GetSortLen<half>(48), GetSortOffset<half>(5),
                      done[0], done[1], done[2], done[3], done_s[0], done_s[1], done_s[2], done_s[3]};
    for (int i = 0; i < 12; ++i) s.SetValue(i, v[i]);
}

int main(int argc, char** argv) {
    g_dir = argv[1];
    uint8_t* x = load("scores");
    uint8_t* m = out(96 * 4);
    uint8_t* ms = out(96 * 4);
    uint8_t* sz = out(12 * 4);
    ICPU_RUN_KF(k_sort, 1, x, m, ms, sz);
    save("merged", m, 96 * 4);
    save("merged_s", ms, 96 * 4);
    save("sizes", sz, 12 * 4);
    return 0;
}
