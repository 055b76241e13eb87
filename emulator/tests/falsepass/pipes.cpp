// False passes of the pipe-hazard class: every kernel here computed the right answer on the old sequential emulator,
// and each is a race (or a hang) on hardware per asc-devkit docs/zh/api/SIMD-API/基础API/同步控制/核内同步/
// (关键特性说明.md, PipeBarrier(ISASI).md, SetFlag-WaitFlag.md). FIX = the corrected twin.
#include "case.h"

using fp::N;

namespace {

template <typename T>
GlobalTensor<T> gm(GM_ADDR p, uint32_t n = N) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    return g;
}
// TBufs are static tensors: nothing but the code orders the pipes around them.
#define SYNC(EVT)                                 \
    do {                                          \
        SetFlag<HardEvent::EVT>(EVENT_ID0);       \
        WaitFlag<HardEvent::EVT>(EVENT_ID0);      \
    } while (0)

// z = x + y through three TBufs; FIX adds the MTE2 -> V sync (关键特性说明.md 反例1: static tensors get no MTE2_V).
template <bool FIX>
__global__ __aicore__ void tbuf_mte2_v(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, N * 4), pipe.InitBuffer(by, N * 4), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<float>(), b = by.Get<float>(), c = bz.Get<float>();
    DataCopy(a, gm<float>(x), N);
    DataCopy(b, gm<float>(y), N);
    if (FIX) SYNC(MTE2_V);
    Add(c, a, b, N);
    SYNC(V_MTE3);
    DataCopy(gm<float>(z), c, N);
}
// tbuf_mte2_v with the device compiler's own intrinsics: the set_flag/wait_flag pair names MTE3 -> V, which does not
// order the MTE2 copies before the Add; the twin names MTE2 -> V.
template <bool FIX>
__global__ __aicore__ void intrinsic_wrong_pipes(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, N * 4), pipe.InitBuffer(by, N * 4), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<float>(), b = by.Get<float>(), c = bz.Get<float>();
    DataCopy(a, gm<float>(x), N);
    DataCopy(b, gm<float>(y), N);
    set_flag(FIX ? PIPE_MTE2 : PIPE_MTE3, PIPE_V, EVENT_ID1);
    wait_flag(FIX ? PIPE_MTE2 : PIPE_MTE3, PIPE_V, EVENT_ID1);
    Add(c, a, b, N);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    DataCopy(gm<float>(z), c, N);
    pipe_barrier(PIPE_ALL);
}
// The same with the V -> MTE3 sync missing instead.
template <bool FIX>
__global__ __aicore__ void tbuf_v_mte3(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, N * 4), pipe.InitBuffer(by, N * 4), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<float>(), b = by.Get<float>(), c = bz.Get<float>();
    DataCopy(a, gm<float>(x), N);
    DataCopy(b, gm<float>(y), N);
    SYNC(MTE2_V);
    Add(c, a, b, N);
    if (FIX) SYNC(V_MTE3);
    DataCopy(gm<float>(z), c, N);
}
// 关键特性说明.md 反例2: x is enqueued but never dequeued, so the framework inserts no MTE2 -> V for it. (y is copied
// and enqueued first, so y's own event does not cover x's copy either.)
template <bool FIX>
__global__ __aicore__ void deque_missing(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 1, N * 4), pipe.InitBuffer(qy, 1, N * 4), pipe.InitBuffer(qz, 1, N * 4);
    LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
    DataCopy(b, gm<float>(y), N);
    qy.EnQue(b);
    DataCopy(a, gm<float>(x), N);
    qx.EnQue(a);
    if (FIX) a = qx.DeQue<float>();
    b = qy.DeQue<float>();
    LocalTensor<float> c = qz.AllocTensor<float>();
    Add(c, a, b, N);
    qz.EnQue(c);
    if (FIX) qx.FreeTensor(a);
    qy.FreeTensor(b);
    c = qz.DeQue<float>();
    DataCopy(gm<float>(z), c, N);
    qz.FreeTensor(c);
}
// A VECIN queue used to stage an output: its EnQue/DeQue order MTE2 -> V, not the V write before the MTE3 copy.
// FIX stages it through a VECOUT queue (TQue<VECOUT>: V -> MTE3).
template <bool FIX>
__global__ __aicore__ void vecin_as_output(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx;
    TQue<FIX ? TPosition::VECOUT : TPosition::VECIN, 1> qz;
    pipe.InitBuffer(qx, 1, N * 4), pipe.InitBuffer(qz, 1, N * 4);
    LocalTensor<float> a = qx.AllocTensor<float>();
    DataCopy(a, gm<float>(x), N);
    qx.EnQue(a);
    a = qx.DeQue<float>();
    LocalTensor<float> c = qz.template AllocTensor<float>();
    Muls(c, a, 3.0f, N);
    qz.EnQue(c);
    c = qz.template DeQue<float>();
    DataCopy(gm<float>(z), c, N);
    qz.FreeTensor(c);
    qx.FreeTensor(a);
}
// Two copies into overlapping UB: PipeBarrier(ISASI).md -- "搬运的目的地址UB存在重叠，两条搬运指令之间需要调用
// PipeBarrier<PIPE_MTE2>()". z = y * 2 (the second copy must win).
template <bool FIX>
__global__ __aicore__ void mte2_overlap(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bt, bz;
    pipe.InitBuffer(bt, N * 4), pipe.InitBuffer(bz, N * 4);
    auto t = bt.Get<float>(), c = bz.Get<float>();
    DataCopy(t, gm<float>(x), N);
    if (FIX) PipeBarrier<PIPE_MTE2>();
    DataCopy(t, gm<float>(y), N);
    SYNC(MTE2_V);
    Muls(c, t, 2.0f, N);
    SYNC(V_MTE3);
    DataCopy(gm<float>(z), c, N);
}
// Two copies to overlapping GM: "搬运的目的GM地址存在重叠，两条搬运指令之间需要通过调用PipeBarrier<PIPE_MTE3>()".
template <bool FIX>
__global__ __aicore__ void mte3_overlap(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    pipe.InitBuffer(ba, N * 4), pipe.InitBuffer(bb, N * 4);
    auto a = ba.Get<float>(), b = bb.Get<float>();
    DataCopy(a, gm<float>(x), N);
    DataCopy(b, gm<float>(y), N);
    SYNC(MTE2_MTE3);
    DataCopy(gm<float>(z), a, N);
    if (FIX) PipeBarrier<PIPE_MTE3>();
    DataCopy(gm<float>(z), b, N);  // z = y
}
// V -> V: z = (x + y) * y. The compiler inserts the PipeBarrier<PIPE_V> only with --cce-auto-sync=on (table 3); the
// case runs with COTBUILDER_CCE_AUTO_SYNC=0, as a unit built with --cce-auto-sync=off does.
template <bool FIX>
__global__ __aicore__ void v_v_autosync_off(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bt, bz;
    pipe.InitBuffer(bx, N * 4), pipe.InitBuffer(by, N * 4), pipe.InitBuffer(bt, N * 4), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<float>(), b = by.Get<float>(), t = bt.Get<float>(), c = bz.Get<float>();
    DataCopy(a, gm<float>(x), N);
    DataCopy(b, gm<float>(y), N);
    SYNC(MTE2_V);
    Add(t, a, b, N);
    if (FIX) PipeBarrier<PIPE_V>();
    Mul(c, t, b, N);
    SYNC(V_MTE3);
    DataCopy(gm<float>(z), c, N);
}
// S -> V with --cce-auto-sync=off: scalar SetValue writes, the vector unit reads. z = x + 1 (scalar-built ones).
template <bool FIX>
__global__ __aicore__ void s_v_autosync_off(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bo, bz;
    pipe.InitBuffer(bx, N * 4), pipe.InitBuffer(bo, N * 4), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<float>(), o = bo.Get<float>(), c = bz.Get<float>();
    DataCopy(a, gm<float>(x), N);
    for (uint32_t i = 0; i < N; ++i) o.SetValue(i, 1.0f);
    SYNC(MTE2_V);
    if (FIX) SYNC(S_V);
    Add(c, a, o, N);
    SYNC(V_MTE3);
    DataCopy(gm<float>(z), c, N);
}
// A GM workspace written by MTE3 and read back by MTE2 on the same core without an MTE3 -> MTE2 sync. z = x.
template <bool FIX>
__global__ __aicore__ void gm_workspace(GM_ADDR x, GM_ADDR ws, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb;
    pipe.InitBuffer(ba, N * 4), pipe.InitBuffer(bb, N * 4);
    auto a = ba.Get<float>(), b = bb.Get<float>();
    DataCopy(a, gm<float>(x), N);
    SYNC(MTE2_MTE3);
    DataCopy(gm<float>(ws), a, N);
    if (FIX) SYNC(MTE3_MTE2);
    DataCopy(b, gm<float>(ws), N);
    SYNC(MTE2_MTE3);
    DataCopy(gm<float>(z), b, N);
}
// Two tiles through one TBuf: the second load overwrites x while the vector unit may still read the first tile
// (write-after-read V -> MTE2). z = 2 * (x ++ y).
template <bool FIX>
__global__ __aicore__ void tbuf_reload(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bt, bz;
    pipe.InitBuffer(bt, N * 4), pipe.InitBuffer(bz, 2 * N * 4);
    auto t = bt.Get<float>(), c = bz.Get<float>();
    GM_ADDR src[2] = {x, y};
    for (int k = 0; k < 2; ++k) {
        if (k == 1 && FIX) SYNC(V_MTE2);
        DataCopy(t, gm<float>(src[k]), N);
        SYNC(MTE2_V);
        Muls(c[k * N], t, 2.0f, N);
    }
    SYNC(V_MTE3);
    DataCopy(gm<float>(z, 2 * N), c, 2 * N);
}
// SetFlag-WaitFlag.md: "SetFlag/WaitFlag必须成对出现". A SetFlag nobody waits for. z = x (otherwise synced by barriers).
template <bool FIX>
__global__ __aicore__ void setflag_unpaired(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba;
    pipe.InitBuffer(ba, N * 4);
    auto a = ba.Get<float>();
    DataCopy(a, gm<float>(x), N);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    if (FIX) WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z), a, N);
}
// A WaitFlag on the scalar pipe that no earlier SetFlag will ever satisfy: the scalar unit stops (hangs).
template <bool FIX>
__global__ __aicore__ void waitflag_unset(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba;
    pipe.InitBuffer(ba, N * 4);
    auto a = ba.Get<float>();
    DataCopy(a, gm<float>(x), N);
    if (FIX) SetFlag<HardEvent::MTE2_S>(EVENT_ID2);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID2);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<float>(z), a, N);
}
// Two copies each followed by SetFlag on one id (two FetchEventID calls give the same id), then one WaitFlag: the
// flag is one bit, so the Add may start once the first copy is done. The twin waits twice, as the AddRmsNorm
// reference answer does: a run that does not hang orders the second WaitFlag after the second SetFlag.
template <bool FIX>
__global__ __aicore__ void setflag_same_id_twice(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, N * 4), pipe.InitBuffer(by, N * 4), pipe.InitBuffer(bz, N * 4);
    auto a = bx.Get<float>(), b = by.Get<float>(), c = bz.Get<float>();
    event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    DataCopy(a, gm<float>(x), N);
    SetFlag<HardEvent::MTE2_V>(e1);
    event_t e2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    DataCopy(b, gm<float>(y), N);
    SetFlag<HardEvent::MTE2_V>(e2);
    WaitFlag<HardEvent::MTE2_V>(e1);
    if (FIX) WaitFlag<HardEvent::MTE2_V>(e2);
    Add(c, a, b, N);
    SYNC(V_MTE3);
    DataCopy(gm<float>(z), c, N);
}
// A DataCopyPad copies out the first element of each 32-byte block (blockLen 4) while a Gather, not ordered after
// it, rewrites the blocks: spreading each block's second element over it changes what the copy may read (a race);
// the twin spreads the first element, which leaves every byte the copy reads as it was (AddRmsNorm's rstd).
// z = x[0], x[8], x[16], ...
template <bool FIX>
__global__ __aicore__ void gather_over_copy_out(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bo;
    pipe.InitBuffer(ba, N * 4), pipe.InitBuffer(bo, N * 4);
    auto a = ba.Get<float>();
    auto off = bo.Get<uint32_t>();
    DataCopy(a, gm<float>(x), N);
    for (uint32_t b = 0; b < N / 8; ++b) Duplicate(off[b * 8], b * 32 + (FIX ? 0u : 4u), 8);
    SYNC(MTE2_MTE3);
    DataCopyPad(gm<float>(z, N / 8), a, DataCopyExtParams{N / 8, 4, 0, 0, 0});
    SYNC(MTE2_V);
    Gather(a, a, off, 0u, N);
    PipeBarrier<PIPE_ALL>();
}
// GlobalTensor::SetValue is not in table 3's scalar API set, so the compiler orders nothing after it: the MTE2 copy
// may read GM before the scalar store lands. SetFlag-WaitFlag.md's own example syncs S -> MTE3 after SetValue.
// z = x with z[0] = 5.
template <bool FIX>
__global__ __aicore__ void gm_setvalue_then_copy(GM_ADDR x, GM_ADDR ws, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba;
    pipe.InitBuffer(ba, N * 4);
    auto a = ba.Get<float>();
    GlobalTensor<float> w = gm<float>(ws);
    DataCopy(a, gm<float>(x), N);
    SYNC(MTE2_MTE3);
    DataCopy(w, a, N);
    PipeBarrier<PIPE_ALL>();
    w.SetValue(0, 5.0f);
    if (FIX) SYNC(S_MTE2);
    DataCopy(a, w, N);
    SYNC(MTE2_MTE3);
    DataCopy(gm<float>(z), a, N);
}

template <void (*K)(GM_ADDR, GM_ADDR, GM_ADDR), uint32_t OUT = N>
void run_xyz() {
    uint8_t *x = fp::input<float>(N, fp::xval), *y = fp::input<float>(N, fp::yval), *z = fp::output(OUT * 4);
    ICPU_RUN_KF(K, 1, x, y, z);
    fp::save(z, OUT * 4);
}
template <void (*K)(GM_ADDR, GM_ADDR, GM_ADDR)>
void run_x_ws_z() {
    uint8_t *x = fp::input<float>(N, fp::xval), *ws = fp::output(N * 4), *z = fp::output(N * 4);
    ICPU_RUN_KF(K, 1, x, ws, z);
    fp::save(z, N * 4);
}

}  // namespace

#define PAIR(NAME, RUN)                         \
    FP_CASE(NAME) { RUN<NAME<false>>(); }       \
    FP_CASE(NAME##__fixed) { RUN<NAME<true>>(); }

PAIR(tbuf_mte2_v, run_xyz)
PAIR(tbuf_v_mte3, run_xyz)
PAIR(intrinsic_wrong_pipes, run_xyz)
PAIR(deque_missing, run_xyz)
PAIR(vecin_as_output, run_xyz)
PAIR(mte2_overlap, run_xyz)
PAIR(mte3_overlap, run_xyz)
PAIR(v_v_autosync_off, run_xyz)
PAIR(s_v_autosync_off, run_xyz)
PAIR(gm_workspace, run_x_ws_z)
FP_CASE(tbuf_reload) { run_xyz<tbuf_reload<false>, 2 * N>(); }
FP_CASE(tbuf_reload__fixed) { run_xyz<tbuf_reload<true>, 2 * N>(); }
PAIR(setflag_unpaired, run_xyz)
PAIR(waitflag_unset, run_xyz)
PAIR(setflag_same_id_twice, run_xyz)
FP_CASE(gather_over_copy_out) { run_xyz<gather_over_copy_out<false>, N / 8>(); }
FP_CASE(gather_over_copy_out__fixed) { run_xyz<gather_over_copy_out<true>, N / 8>(); }
PAIR(gm_setvalue_then_copy, run_x_ws_z)

FP_MAIN
