// Toolkit forms kernels use that the emulator lacked (test_toolkit_forms.py), each with its hardware-wrong twin:
//   queue_user    : a TQueBind<VECIN, VECOUT> reused along GM -> UB -> GM with EnQue / DeQue<src, dst, T>
//                   (TQue/EnQue.md, DeQue.md): z = x + 1, no diagnostic.
//   queue_mismatch: the twin: DeQue<VECIN, VECOUT> of a tensor enqueued as <GM, VECIN> (its event never comes).
//   queue_nosync  : the twin: the V result copied out with no VECIN -> GM stage between (a race).
//   queue_through : copy in, EnQue / DeQue<VECIN, VECOUT>, copy out (cann-ops feeds_repeat): that stage's event is
//                   MTE2 -> MTE3 (UB to UB, as the real TQueBind derives it), so z = x with no race.
//   queue_config  : TQue<VECIN, 1, &conf> with a TQueConfig repeating InitBuffer's num and len (TQue简介.md);
//   config_twin   : the same queue initialised with 2 buffers against bufferNumber 1 (queue_config_mismatch).
//   trap          : Trap() (Trap.md) when x[0] == 0: the kernel stops there; with x[0] != 0 it runs on.
//   select_bytes  : SelectWithBytesMask, both forms: mask[2][32] bytes (values 0, 1, 2) over src[2][16] float.
#include <cstdio>
#include <cstring>
#include <string>

#include "check_io.h"

using namespace AscendC;

constexpr uint32_t N = 64;

template <int kind>  // 0 queue_user, 1 queue_mismatch, 2 queue_nosync, 3 queue_through
__global__ __aicore__ void queue_user(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, N * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, N), gz.SetGlobalBuffer((__gm__ float*)z, N);
    LocalTensor<float> t = que.AllocTensor<float>();
    DataCopy(t, gx, N);
    if constexpr (kind == 3) {
        que.EnQue<TPosition::VECIN, TPosition::VECOUT, float>(t);
        t = que.DeQue<TPosition::VECIN, TPosition::VECOUT, float>();
        DataCopy(gz, t, N);
        que.FreeTensor(t);
        return;
    }
    que.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
    if constexpr (kind == 1) t = que.DeQue<TPosition::VECIN, TPosition::VECOUT, float>();
    else t = que.DeQue<TPosition::GM, TPosition::VECIN, float>();
    Adds(t, t, 1.0f, N);
    if constexpr (kind != 2) {
        que.EnQue<TPosition::VECIN, TPosition::VECOUT, float>(t);
        t = que.DeQue<TPosition::VECIN, TPosition::VECOUT, float>();
        que.EnQue<TPosition::VECOUT, TPosition::GM, float>(t);
        t = que.DeQue<TPosition::VECOUT, TPosition::GM, float>();
    }
    DataCopy(gz, t, N);
    que.FreeTensor(t);
}

constexpr TQueConfig kConf = {false, false, false, N * sizeof(float), 1, 0, {}};

template <uint8_t num>
__global__ __aicore__ void queue_config(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1, &kConf> in;
    pipe.InitBuffer(in, num, N * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, N), gz.SetGlobalBuffer((__gm__ float*)z, N);
    LocalTensor<float> t = in.AllocTensor<float>();
    DataCopy(t, gx, N);
    in.EnQue(t);
    t = in.DeQue<float>();
    Muls(t, t, 2.0f, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, N);
    in.FreeTensor(t);
}

__global__ __aicore__ void trap_if_zero(GM_ADDR x, GM_ADDR z) {
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, N), gz.SetGlobalBuffer((__gm__ float*)z, N);
    if (gx.GetValue(0) == 0.0f) Trap();
    gz.SetValue(0, 7.0f);
}

__global__ __aicore__ void select_bytes(GM_ADDR x, GM_ADDR m, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bm, bo, bt;
    LocalTensor<float> src = ub_in<float>(pipe, bx, x, 32);
    LocalTensor<uint8_t> mask = ub_in<uint8_t>(pipe, bm, m, 64);
    pipe.InitBuffer(bo, 64 * sizeof(float)), pipe.InitBuffer(bt, 4096);
    LocalTensor<float> o = bo.Get<float>();
    LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = 2, info.srcLastAxis = 16, info.maskLastAxis = 32;
    SelectWithBytesMask(o, src, 9.5f, mask, tmp, info);      // mask 0: src, else 9.5
    SelectWithBytesMask(o[32], -1.0f, src, mask, tmp, info);  // mask 0: -1, else src
    ub_out(z, o, 64);
}

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    g_dir = argv[1];
    std::string c = argv[2];
    uint8_t *x = load("x"), *z = out(N * sizeof(float));
    std::memset(z, 0, N * sizeof(float));
    if (c == "queue_user") ICPU_RUN_KF(queue_user<0>, 1, x, z);
    else if (c == "queue_mismatch") ICPU_RUN_KF(queue_user<1>, 1, x, z);
    else if (c == "queue_nosync") ICPU_RUN_KF(queue_user<2>, 1, x, z);
    else if (c == "queue_through") ICPU_RUN_KF(queue_user<3>, 1, x, z);
    else if (c == "queue_config") ICPU_RUN_KF(queue_config<1>, 1, x, z);
    else if (c == "config_twin") ICPU_RUN_KF(queue_config<2>, 1, x, z);
    else if (c == "trap") ICPU_RUN_KF(trap_if_zero, 1, x, z);
    else if (c == "select_bytes") {
        uint8_t* m = load("m");
        ICPU_RUN_KF(select_bytes, 1, x, m, z);
    } else return 2;
    save(c, z, N * sizeof(float));
    return 0;
}
