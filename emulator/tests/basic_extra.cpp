// Checks of the basic APIs added in basic_*.h. Usage: basic_extra DIR [MODE]
// MODE "" runs every check and writes DIR/out_<name>.bin for pytest (numpy) to compare;
// MODE "deadlock" / "assert" / "assert_msg" run one kernel that must stop with a fatal diagnostic.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "kernel_operator.h"
#include "tikicpulib.h"
#include "utils/debug/asc_assert.h"
#include "utils/debug/asc_printf.h"
#include "check_io.h"

using namespace AscendC;


// ---- ReduceRepeat / ReduceDataBlock / ReducePairElem on 1024 floats (16 repeats) and 1024 halves (8) ----
// out floats: [0,16) RR sum, [16,48) RR max (value,index), [48,64) RR min only-value with mask 40,
// [64,192) RDB sum, [192,320) RDB max, [320,832) RPE sum, [832,1344) RPE with mask 48 (rest 0);
// out halves (second region, 1024 B): [0,8) RR sum of half, [8,72) RDB sum of half.
extern "C" __global__ __aicore__ void k_reduce(GM_ADDR x, GM_ADDR xh, GM_ADDR z, GM_ADDR zh) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bxh, bo, boh;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, 1024);
    LocalTensor<half> ah = ub_in<half>(pipe, bxh, xh, 1024);
    pipe.InitBuffer(bo, 1344 * 4);
    pipe.InitBuffer(boh, 512 * 2);
    LocalTensor<float> o = bo.Get<float>();
    LocalTensor<half> oh = boh.Get<half>();
    Duplicate(o, 0.0f, 1344);
    Duplicate(oh, (half)0, 512);
    ReduceRepeat<ReduceType::SUM, float, float>(o, a, 64, 16, 1, 1, 8);
    ReduceRepeat<ReduceType::MAX, float, float>(o[16], a, 64, 16, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX);
    uint64_t m40[2] = {(1ull << 40) - 1, 0};
    ReduceRepeat<ReduceType::MIN, float, float>(o[48], a, m40, 16, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    ReduceDataBlock<ReduceType::SUM, float, float>(o[64], a, 64, 16, 1, 1, 8);
    ReduceDataBlock<ReduceType::MAX, float, float>(o[192], a, 64, 16, 1, 1, 8);
    ReducePairElem<ReduceType::SUM, float, float>(o[320], a, 64, 16, 1, 1, 8);
    ReducePairElem<ReduceType::SUM, float, float>(o[832], a, 48, 16, 1, 1, 8);
    ReduceRepeat<ReduceType::SUM, half, half>(oh, ah, 128, 8, 1, 1, 8);
    ReduceDataBlock<ReduceType::SUM, half, half>(oh[8], ah, 128, 8, 1, 1, 8);
    ub_out(z, o, 1344);
    ub_out(zh, oh, 512);
}

// ---- GatherMask (pattern 2, tensor pattern 0x9 per nibble in counter mode), Gather, Gatherb on 256 floats;
// out floats: [0,128) GatherMask odd, [128,256) user pattern (counter mode, mask 32 x 4 repeats),
// [256,512) Gather reversed, [512,768) Gatherb with blocks in reverse order; then the two rsvdCnt values ----
extern "C" __global__ __aicore__ void k_gather(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bo, bp, boff, bboff;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, 256);
    pipe.InitBuffer(bo, 776 * 4);
    pipe.InitBuffer(bp, 32);
    pipe.InitBuffer(boff, 256 * 4);
    pipe.InitBuffer(bboff, 32 * 4);
    LocalTensor<float> o = bo.Get<float>();
    Duplicate(o, 0.0f, 776);
    uint64_t c1 = 0, c2 = 0;
    GatherMask(o, a, (uint8_t)2, false, 0, {1, 4, 8, 0}, c1);
    LocalTensor<uint32_t> pat = bp.Get<uint32_t>();
    Duplicate(pat, (uint32_t)0x99999999u, 8);
    GatherMask(o[128], a, pat, true, 32, {1, 4, 8, 0}, c2);
    LocalTensor<uint32_t> off = boff.Get<uint32_t>();
    for (uint32_t i = 0; i < 256; ++i) off.SetValue(i, (255 - i) * 4);
    Gather(o[256], a, off, (uint32_t)0, 256);
    LocalTensor<uint32_t> boffs = bboff.Get<uint32_t>();
    for (uint32_t i = 0; i < 32; ++i) boffs.SetValue(i, (31 - i) * 32);
    Gatherb(o[512], a, boffs, 4, GatherRepeatParams{1, 8});
    o.SetValue(768, (float)c1);
    o.SetValue(769, (float)c2);
    ub_out(z, o, 776);
}

// ---- Interleave / DeInterleave (two sources and one source) on 256 floats each ----
extern "C" __global__ __aicore__ void k_interleave(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bo;
    LocalTensor<float> a = ub_in<float>(pipe, bx, x, 256), b = ub_in<float>(pipe, by, y, 256);
    pipe.InitBuffer(bo, 6 * 256 * 4);
    LocalTensor<float> o = bo.Get<float>();
    Interleave(o, o[256], a, b, 256);
    DeInterleave(o[512], o[768], a, b, 256);
    DeInterleave(o[1024], o[1152], a, 256);
    DeInterleave(o[1280], o[1408], b, 256);
    ub_out(z, o, 6 * 256);
}

// ---- cross-block sync: each block appends its index to a GM log inside the synchronised section;
// block 0 sleeps first so that without a real wait the others would log before it ----
static void log_block(int32_t* log) {
    int32_t pos = (int32_t)AtomicAdd((__gm__ int32_t*)log, (int32_t)1);
    WriteGmByPassDCache((__gm__ int32_t*)(log + 1 + pos), (int32_t)GetBlockIdx());
}
static void slow_start() {
    if (GetBlockIdx() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(30));
}

extern "C" __global__ __aicore__ void k_ibset(GM_ADDR ws, GM_ADDR log) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 32);
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)ws, 8 * 8 * 2 + 8);
    LocalTensor<int32_t> u = q.AllocTensor<int32_t>();
    int32_t b = (int32_t)GetBlockIdx();
    slow_start();
    if (b > 0) IBWait(g, u, b - 1, 1);  // eventID 1: slots [8, 16)
    log_block((int32_t*)log);
    IBSet(g, u, b, 1);
    q.FreeTensor(u);
}

extern "C" __global__ __aicore__ void k_sequential(GM_ADDR ws, GM_ADDR log) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bu;
    pipe.InitBuffer(bu, 8 * 32 + 32);
    LocalTensor<int32_t> u = bu.Get<int32_t>();
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)ws, 8 * 8);
    InitDetermineComputeWorkspace(g, u);
    for (int round = 0; round < 3; ++round) {
        if (round == 0) slow_start();
        WaitPreBlock(g, u);
        log_block((int32_t*)log);
        NotifyNextBlock(g, u);
    }
}

// 2 arrivers add 10 each (late), 6 waiters read the sum after Wait: every waiter must see 20.
extern "C" __global__ __aicore__ void k_group_barrier(GM_ADDR ws, GM_ADDR sum, GM_ADDR seen) {
    GroupBarrier<PipeMode::MTE3_MODE> bar(ws, 2, 6);
    int32_t b = (int32_t)GetBlockIdx();
    if (b < 2) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        AtomicAdd((__gm__ int32_t*)sum, (int32_t)10);
        bar.Arrive(b);
    } else {
        bar.Wait(b - 2);
        ((int32_t*)seen)[b - 2] = ReadGmByPassDCache((__gm__ int32_t*)sum);
    }
}

// AtomicAdd from 8 blocks x 1000; AtomicCas(0 -> b+1) wins exactly once; returned old values.
extern "C" __global__ __aicore__ void k_atomics(GM_ADDR acc, GM_ADDR fl, GM_ADDR wins, GM_ADDR facc) {
    for (int i = 0; i < 1000; ++i) {
        AtomicAdd((__gm__ uint32_t*)acc, (uint32_t)1);
        AtomicAdd((__gm__ float*)facc, 0.5f);
    }
    uint32_t old = AtomicCas((__gm__ uint32_t*)fl, (uint32_t)0, (uint32_t)(GetBlockIdx() + 1));
    if (old == 0) AtomicAdd((__gm__ uint32_t*)wins, (uint32_t)1);
}

// Registers and system values; InitOutput. out int64: [ctr48 after set, ctr60 after set, ctr48 after reset,
// ctr60 after reset, ctr[8:6] after set 5, mutex id0, id1, id after release(id0), DivCeil(10,4), DivCeil(8,4),
// UB bytes, runtime UB bytes, cycle delta > 0]
extern "C" __global__ __aicore__ void k_misc(GM_ADDR z, GM_ADDR fill) {
    int64_t* o = (int64_t*)z;
    SetCtrlSpr<60, 60>(0);
    SetCtrlSpr<48, 48>(1);
    o[0] = GetCtrlSpr<48, 48>();
    o[1] = GetCtrlSpr<60, 60>();
    ResetCtrlSpr<48, 48>();
    ResetCtrlSpr<60, 60>();
    o[2] = GetCtrlSpr<48, 48>();
    o[3] = GetCtrlSpr<60, 60>();
    SetCtrlSpr<6, 8>(5);
    o[4] = GetCtrlSpr<6, 8>();
    MutexID a = AllocMutexID(), b = AllocMutexID();
    Mutex::Lock<PIPE_V>(a);
    Mutex::Unlock<PIPE_V>(a);
    ReleaseMutexID(a);
    o[5] = a;
    o[6] = b;
    o[7] = AllocMutexID();
    o[8] = DivCeil(10, 4);
    o[9] = DivCeil(8u, 4u);
    o[10] = GetUBSizeInBytes();
    o[11] = GetRuntimeUBSize();
    int64_t t0 = GetSystemCycle();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    o[12] = GetSystemCycle() - t0;
    DataSyncBarrier<MemDsbT::ALL>();
    GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half*)fill, 40);
    DataCacheCleanAndInvalid<half, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);
    InitOutput<half>(g, 40, (half)1.5f);
    using C1 = Conditional<true, float, half>::type;
    using C2 = Conditional<false, float, half>::type;
    static_assert(std::is_same<C1, float>::value && std::is_same<C2, half>::value, "Conditional");
    ascendc_assert(o[8] == 3);
    ascendc_assert(o[9] == 2, "DivCeil(8, 4) = %d", (int)o[9]);
}

// Names kernels still call from older docs or the toolkit's utilities. out float: [ToFloat of 4 bf16 values,
// ToBfloat16 bits of 4 floats (as float), AlignUp(33, 32), AlignUp(64, 32), BroadCast [4,1] -> [4,8] (32 values)]
extern "C" __global__ __aicore__ void k_old_names(GM_ADDR z) {
    float* o = (float*)z;
    const float fs[4] = {1.0f, -2.5f, 3.14159274f, 65504.0f};
    for (int i = 0; i < 4; ++i) o[i] = ToFloat(bfloat16_t::from_bits((uint16_t)(0x3F80 + 0x40 * i)));
    for (int i = 0; i < 4; ++i) o[4 + i] = (float)ToBfloat16(fs[i]).bits_;
    o[8] = (float)AlignUp(33, 32);
    o[9] = (float)AlignUp(64, 32);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bd;
    pipe.InitBuffer(bs, 32), pipe.InitBuffer(bd, 4 * 8 * 4);
    LocalTensor<float> src = bs.Get<float>(), dst = bd.Get<float>();
    for (int r = 0; r < 4; ++r) src.SetValue(r, 10.0f * (float)(r + 1));
    const uint32_t dstShape[2] = {4, 8}, srcShape[2] = {4, 1};
    BroadCast<float, 2, 1>(dst, src, dstShape, srcShape);
    for (int i = 0; i < 32; ++i) o[10 + i] = dst.GetValue(i);
}

// FusedMulAdd (dst = a * dst + b, 100 floats) and AscendCUtils::SetMask: a repeat-form Adds with isSetMask = false
// under SetMask<float>(40) changes only the first 40 of 64 elements. out float: [d after FusedMulAdd on its first 100
// of 128, masked (64)]
extern "C" __global__ __aicore__ void k_fma_mask(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bd, bm;
    pipe.InitBuffer(ba, 512), pipe.InitBuffer(bb, 512), pipe.InitBuffer(bd, 512), pipe.InitBuffer(bm, 256);
    LocalTensor<float> a = ba.Get<float>(), b = bb.Get<float>(), d = bd.Get<float>(), m = bm.Get<float>();
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, 256), gy.SetGlobalBuffer((__gm__ float*)y, 256);
    gz.SetGlobalBuffer((__gm__ float*)z, 192);
    DataCopy(a, gx, 128), DataCopy(b, gy, 128), DataCopy(d, gx[128], 128);
    DataCopy(m, gy[128], 64);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    FusedMulAdd(d, a, b, 100);
    AscendCUtils::SetMask<float>(40);
    Adds<float, false>(m, m, 1000.0f, (uint64_t)64, 1, {1, 1, 8, 8});  // the mask argument is ignored
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(gz, d, 128);
    DataCopy(gz[128], m, 64);
}

// ---- fatal modes ----
extern "C" __global__ __aicore__ void k_deadlock(GM_ADDR ws) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bu;
    pipe.InitBuffer(bu, 32);
    LocalTensor<int32_t> u = bu.Get<int32_t>();
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)ws, 64);
    if (GetBlockIdx() == 1) IBWait(g, u, 0, 0);  // block 0 never sets it
}
extern "C" __global__ __aicore__ void k_assert(GM_ADDR) {
    int n = 0;
    ascendc_assert(n != 0);  // @assert
}
extern "C" __global__ __aicore__ void k_assert_msg(GM_ADDR) {
    int n = 7;
    ascendc_assert(n < 5, "n is %d", n);  // @assert_msg
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    g_dir = argv[1];
    std::string mode = argc > 2 ? argv[2] : "";
    if (mode == "deadlock") {
        uint8_t* ws = (uint8_t*)GmAlloc(256);
        ICPU_RUN_KF(k_deadlock, 2, ws);
        return 0;
    }
    if (mode == "assert") { ICPU_RUN_KF(k_assert, 1, nullptr); return 0; }
    if (mode == "assert_msg") { ICPU_RUN_KF(k_assert_msg, 1, nullptr); return 0; }
    {
        uint8_t *x = load("rx"), *xh = load("rxh"), *z = (uint8_t*)GmAlloc(1344 * 4), *zh = (uint8_t*)GmAlloc(1024);
        ICPU_RUN_KF(k_reduce, 1, x, xh, z, zh);
        save("reduce", z, 1344 * 4);
        save("reduce_half", zh, 1024);
    }
    {
        uint8_t *x = load("a"), *z = (uint8_t*)GmAlloc(776 * 4);
        ICPU_RUN_KF(k_gather, 1, x, z);
        save("gather", z, 776 * 4);
    }
    {
        uint8_t *x = load("a"), *y = load("b"), *z = (uint8_t*)GmAlloc(6 * 256 * 4);
        ICPU_RUN_KF(k_interleave, 1, x, y, z);
        save("interleave", z, 6 * 256 * 4);
    }
    {
        uint8_t *ws = (uint8_t*)GmAlloc(1024), *log = (uint8_t*)GmAlloc(4 * 32);
        ICPU_RUN_KF(k_ibset, 8, ws, log);
        save("ibset_log", log, 4 * 32);
    }
    {
        uint8_t *ws = (uint8_t*)GmAlloc(256), *log = (uint8_t*)GmAlloc(4 * 32);
        std::memset(ws, 0x5A, 256);  // InitDetermineComputeWorkspace must not rely on a zeroed workspace
        ICPU_RUN_KF(k_sequential, 8, ws, log);
        save("sequential_log", log, 4 * 32);
    }
    {
        uint8_t *ws = (uint8_t*)GmAlloc(6 * 512), *sum = (uint8_t*)GmAlloc(4), *seen = (uint8_t*)GmAlloc(6 * 4);
        ICPU_RUN_KF(k_group_barrier, 8, ws, sum, seen);
        save("group_seen", seen, 6 * 4);
    }
    {
        uint8_t *acc = (uint8_t*)GmAlloc(4), *fl = (uint8_t*)GmAlloc(4), *wins = (uint8_t*)GmAlloc(4),
                *facc = (uint8_t*)GmAlloc(4);
        ICPU_RUN_KF(k_atomics, 8, acc, fl, wins, facc);
        uint32_t r[3] = {*(uint32_t*)acc, *(uint32_t*)fl, *(uint32_t*)wins};
        float f = *(float*)facc;
        save("atomics", r, sizeof r);
        save("atomics_f32", &f, 4);
    }
    {
        uint8_t *z = (uint8_t*)GmAlloc(13 * 8), *fill = (uint8_t*)GmAlloc(48 * 2);
        ICPU_RUN_KF(k_misc, 1, z, fill);
        save("misc", z, 13 * 8);
        save("init_output", fill, 48 * 2);
    }
    {
        uint8_t* z = (uint8_t*)GmAlloc(42 * 4);
        ICPU_RUN_KF(k_old_names, 1, z);
        save("old_names", z, 42 * 4);
    }
    {
        uint8_t *x = load("a"), *y = load("b"), *z = (uint8_t*)GmAlloc(192 * 4);
        ICPU_RUN_KF(k_fma_mask, 1, x, y, z);
        save("fma_mask", z, 192 * 4);
    }
    {
        // host side: aclFloat16 conversions
        aclFloat16 h[4] = {0x3C00, 0xC000, 0x7C00, aclFloatToFloat16(0.1f)};
        float f[4];
        for (int i = 0; i < 4; ++i) f[i] = aclFloat16ToFloat(h[i]);
        save("acl_f16", f, sizeof f);
        save("acl_f16_bits", h, sizeof h);
    }
    return 0;
}
