// Checks of the 0.3.0 basic additions: the sort family (Sort32, MrgSort, RpSort16, MrgSort4, ProposalConcat /
// ProposalExtract, GetMrgSortResult), Transpose (16x16, NCHW<->NHWC), TransDataTo5HD, TBuf::AllocTensor/FreeTensor,
// PopStackBuffer, Set/GetShapeInfo, SetL2CacheHint, AscendCUtils::SetOverflow, GetDataBlockSizeInBytes, Sin/Cos.
// Usage: basic_more DIR  — reads DIR/<name>.bin, writes DIR/out_<name>.bin for pytest (numpy) to compare.
#include <cstdio>
#include <fstream>
#include <string>

#include "kernel_operator.h"
#include "tikicpulib.h"
#include "check_io.h"

using namespace AscendC;

template <typename T>
static void to_ub(const LocalTensor<T>& t, GM_ADDR src, uint32_t n) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)src, n);
    DataCopy(t, g, n);
    PipeBarrier<PIPE_ALL>();  // a TBuf has no queue to order the copy with the vector code
}
template <typename T>
static void to_gm(GM_ADDR dst, const LocalTensor<T>& t, uint32_t n) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)dst, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g, t, n);
    PipeBarrier<PIPE_ALL>();
}

// ---- sort: 128 float scores (idx 0..127) -> Sort32 x4 -> MrgSort of 4 queues of 32 -> 128 sorted pairs;
//      then MrgSort with suspension over queues of 8/32/32/32 records; 64 half scores through the proposal path.
extern "C" __global__ __aicore__ void k_sort(GM_ADDR scores, GM_ADDR hscores, GM_ADDR out, GM_ADDR hout,
                                             GM_ADDR counts) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 16384 + 4096);
    LocalTensor<float> s = b.Get<float>();
    LocalTensor<uint32_t> idx = b.GetWithOffset<uint32_t>(128, 512);
    LocalTensor<float> sorted32 = b.GetWithOffset<float>(256, 1024);
    LocalTensor<float> merged = b.GetWithOffset<float>(256, 2048);
    to_ub(s, scores, 128);
    for (uint32_t i = 0; i < 128; ++i) idx.SetValue(i, i);
    Sort32<float>(sorted32, s, idx, 4);
    MrgSort4Info info;
    for (int i = 0; i < 4; ++i) info.elementLengths[i] = 32;
    info.validBit = 15;
    info.repeatTimes = 1;
    MrgSortSrcList<float> list(sorted32[0], sorted32[64], sorted32[128], sorted32[192]);
    MrgSort<float>(merged, list, info);
    to_gm(out, merged, 256);
    to_gm(out + 1024, sorted32, 256);  // per-repeat sorted pairs
    // suspension: queue 1 has only 8 records; the merge stops when it runs out
    LocalTensor<float> partial = b.GetWithOffset<float>(256, 3072);
    Duplicate(partial, -1.0f, 256);
    MrgSort4Info sus;
    sus.elementLengths[0] = 8;
    for (int i = 1; i < 4; ++i) sus.elementLengths[i] = 32;
    sus.ifExhaustedSuspension = true;
    sus.validBit = 15;
    MrgSort<float>(partial, list, sus);
    uint16_t c[4];
    GetMrgSortResult(c[0], c[1], c[2], c[3]);
    GlobalTensor<uint32_t> cg;
    cg.SetGlobalBuffer((__gm__ uint32_t*)counts, 4);
    for (int i = 0; i < 4; ++i) cg.SetValue(i, c[i]);
    to_gm(out + 2048, partial, 256);
    // region proposals, half: 4 groups of 16 scores -> concat -> RpSort16 -> MrgSort4 -> extract
    LocalTensor<half> hs = b.GetWithOffset<half>(64, 4096);
    LocalTensor<half> work = b.GetWithOffset<half>(512, 4096 + 128);
    LocalTensor<half> mrg = b.GetWithOffset<half>(512, 4096 + 128 + 1024);
    LocalTensor<half> ext = b.GetWithOffset<half>(64, 4096 + 128 + 2048);
    to_ub(hs, hscores, 64);
    Duplicate(work, (half)0, 512);
    for (int g = 0; g < 4; ++g) {
        ProposalConcat(work[g * 128], hs[g * 16], 1, 4);
        RpSort16(work[g * 128], work[g * 128], 1);
    }
    uint16_t lens[4] = {16, 16, 16, 16};
    MrgSort4Info pinfo(lens, false, 15, 1);
    MrgSort4(mrg, MrgSortSrcList<half>(work[0], work[128], work[256], work[384]), pinfo);
    ProposalExtract(ext, mrg, 4, 4);
    to_gm(hout, ext, 64);
}

// ---- transpose: 16x16 halves; NCHW(2,3,4,4) -> NHWC and back; TransDataTo5HD on 16 blocks of 16 halves and
//      on 16 blocks of 32 int8 (low and high halves).
extern "C" __global__ __aicore__ void k_transpose(GM_ADDR x, GM_ADDR x8, GM_ADDR out, GM_ADDR out8) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 8192);
    LocalTensor<half> src = b.Get<half>(256);
    LocalTensor<half> dst = b.GetWithOffset<half>(256, 512);
    to_ub(src, x, 256);
    Transpose<half>(dst, src);
    to_gm(out, dst, 256);
    TransposeParamsExt p;
    p.nSize = 2;
    p.cSize = 3;
    p.hSize = 4;
    p.wSize = 4;  // 96 elements
    p.transposeType = TransposeType::TRANSPOSE_NCHW2NHWC;
    LocalTensor<half> nhwc = b.GetWithOffset<half>(96, 1024);
    LocalTensor<half> back = b.GetWithOffset<half>(96, 1280);
    LocalTensor<uint8_t> tmp = b.GetWithOffset<uint8_t>(256, 1536);
    Transpose(nhwc, src, tmp, p);
    p.transposeType = TransposeType::TRANSPOSE_NHWC2NCHW;
    Transpose(back, nhwc, tmp, p);
    to_gm(out + 512, nhwc, 96);
    to_gm(out + 512 + 192, back, 96);
    LocalTensor<half> d5 = b.GetWithOffset<half>(256, 2048);
    LocalTensor<half> dl[16], sl[16];
    for (int i = 0; i < 16; ++i) {
        dl[i] = d5[16 * i];
        sl[i] = src[16 * i];
    }
    TransDataTo5HDParams tp(false, false, 1, 0, 0);
    TransDataTo5HD<half>(dl, sl, tp);
    to_gm(out + 1024, d5, 256);
    LocalTensor<int8_t> s8 = b.GetWithOffset<int8_t>(512, 4096);
    LocalTensor<int8_t> d8 = b.GetWithOffset<int8_t>(512, 4608);
    to_ub(s8, x8, 512);
    Duplicate(d8.ReinterpretCast<int16_t>(), (int16_t)0, 256);
    uint64_t da[16], sa[16];
    for (int i = 0; i < 16; ++i) {
        da[i] = d8[32 * i].GetPhyAddr();
        sa[i] = s8[32 * i].GetPhyAddr();
    }
    TransDataTo5HD<int8_t>(da, sa, TransDataTo5HDParams(false, false, 1, 0, 0));
    TransDataTo5HD<int8_t>(da, sa, TransDataTo5HDParams(true, true, 1, 0, 0));
    to_gm(out8, d8, 512);
}

// ---- small resource / utility APIs; out floats: [0] shape dim 1 of a LocalTensor, [1] of a GlobalTensor,
//      [2] PopStackBuffer ok, [3] its bytes, [4] GetDataBlockSizeInBytes, [5] GetOverflow after SetOverflow(1),
//      [6] AllocTensor size of a 1024-byte TBuf of floats, [7] a value written through GetPhyAddr, [8..16) Sin, [16..24) Cos of the inputs.
extern "C" __global__ __aicore__ void k_misc(GM_ADDR x, GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b, m;
    pipe.InitBuffer(b, 1024);
    pipe.InitBuffer(m, 256);
    LocalTensor<float> t = b.AllocTensor<float>();
    uint32_t shape[2] = {4, 64};
    t.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
    LocalTensor<float> copy = t;
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)out, 24);
    uint32_t gshape[1] = {24};
    g.SetShapeInfo(ShapeInfo(1, gshape));
    g.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
    LocalTensor<uint8_t> stack;
    bool ok = PopStackBuffer<uint8_t, TPosition::LCM>(stack);
    AscendCUtils::SetOverflow(1);
    g.SetValue(0, (float)copy.GetShapeInfo().shape[1]);
    g.SetValue(1, (float)g.GetShapeInfo().shape[0]);
    g.SetValue(2, ok ? 1.0f : 0.0f);
    g.SetValue(3, (float)stack.GetSize());
    g.SetValue(4, (float)GetDataBlockSizeInBytes());
    g.SetValue(5, (float)AscendCUtils::GetOverflow());
    g.SetValue(6, (float)t.GetSize());
    AscendCUtils::SetOverflow(0);
    __ubuf__ float* raw = (__ubuf__ float*)t.GetPhyAddr();  // samples write UB through the address
    raw[3] = 5.5f;
    g.SetValue(7, t.GetValue(3));
    b.FreeTensor(t);
    LocalTensor<float> v = m.Get<float>(8);
    LocalTensor<float> r = m.GetWithOffset<float>(8, 64);
    to_ub(v, x, 8);
    Sin(r, v, 8);
    to_gm(out + 8 * 4, r, 8);
    Cos(r, v, 8);
    to_gm(out + 16 * 4, r, 8);
}

// ---- Cast half -> int4b_t: count form over 256 values (CAST_RINT), and the repeat form of the asc-devkit sample
//      (mask 128, 2 repeats, dst repeat stride 2 blocks = 128 nibbles, CAST_CEIL) over the same input.
extern "C" __global__ __aicore__ void k_int4(GM_ADDR x, GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 1024);
    LocalTensor<half> src = b.Get<half>(256);
    LocalTensor<int8_t> d0 = b.GetWithOffset<int8_t>(128, 512);
    LocalTensor<int8_t> d1 = b.GetWithOffset<int8_t>(128, 640);
    to_ub(src, x, 256);
    LocalTensor<int4b_t> q0 = d0.ReinterpretCast<int4b_t>();
    Cast<int4b_t, half>(q0, src, RoundMode::CAST_RINT, 256);
    LocalTensor<int4b_t> q1 = d1.ReinterpretCast<int4b_t>();
    Cast<int4b_t, half>(q1, src, RoundMode::CAST_CEIL, 128, 2, {1, 1, 2, 8});
    to_gm(out, d0, 128);
    to_gm(out + 128, d1, 128);
}

// ---- DataCopy with SliceInfo: rows 1 and 3 of a [4, 64] half tensor, columns [8, 24) and [32, 48), into a
//      dense [2, 32] UB tensor, then back out with the destination slicing on both sides.
extern "C" __global__ __aicore__ void k_slice(GM_ADDR x, GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 256);
    LocalTensor<half> t = b.Get<half>(64);
    GlobalTensor<half> src, dst;
    src.SetGlobalBuffer((__gm__ half*)x, 256);
    dst.SetGlobalBuffer((__gm__ half*)out, 64);
    SliceInfo from[] = {{8, 55, 8, 1, 64}, {1, 3, 1, 1, 4}};
    SliceInfo to[] = {{0, 31, 0, 1, 32}, {0, 1, 0, 1, 2}};
    DataCopy(t, src, to, from, 2);
    DataCopy(dst, t, to, to, 2);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    g_dir = argv[1];
    {
        uint8_t *s = load("scores"), *hs = load("hscores"), *z = (uint8_t*)GmAlloc(3 * 1024),
                *hz = (uint8_t*)GmAlloc(128), *c = (uint8_t*)GmAlloc(16);
        ICPU_RUN_KF(k_sort, 1, s, hs, z, hz, c);
        save("sort", z, 3 * 1024);
        save("sort_half", hz, 128);
        save("sort_counts", c, 16);
    }
    {
        uint8_t *x = load("th"), *x8 = load("t8"), *z = (uint8_t*)GmAlloc(1536), *z8 = (uint8_t*)GmAlloc(512);
        ICPU_RUN_KF(k_transpose, 1, x, x8, z, z8);
        save("transpose", z, 1536);
        save("transpose8", z8, 512);
    }
    {
        uint8_t *x = load("angles"), *z = (uint8_t*)GmAlloc(24 * 4);
        ICPU_RUN_KF(k_misc, 1, x, z);
        save("misc", z, 24 * 4);
    }
    {
        uint8_t *x = load("i4"), *z = (uint8_t*)GmAlloc(256);
        ICPU_RUN_KF(k_int4, 1, x, z);
        save("int4", z, 256);
    }
    {
        uint8_t *x = load("sl"), *z = (uint8_t*)GmAlloc(128);
        ICPU_RUN_KF(k_slice, 1, x, z);
        save("slice", z, 128);
    }
    return 0;
}
