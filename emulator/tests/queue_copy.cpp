// A TQue passed by value (the real TQueBind is copyable): the copy works on the same buffers as the original,
// so a buffer taken or freed through one is taken or freed for the other, and the queue rules still hold.
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t N = 64;

// Doubles x through a buffer of a copy of the queue, as helpers in benchmark answers do.
__aicore__ inline void double_through(TQue<TPosition::VECIN, 1> q, GlobalTensor<float>& g) {
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, g, N);
    q.EnQue(t);
    t = q.DeQue<float>();
    Muls(t, t, 2.0f, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g, t, N);
    PipeBarrier<PIPE_ALL>();
    q.FreeTensor(t);
}

__aicore__ inline LocalTensor<float> take(TQue<TPosition::VECIN, 1> q) { return q.AllocTensor<float>(); }

__aicore__ inline void release(TQue<TPosition::VECIN, 1> q, LocalTensor<float>& t) { q.FreeTensor(t); }

extern "C" __global__ __aicore__ void by_value_helper(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, N);
    double_through(q, g);
    double_through(q, g);  // the copy gave the buffer back: the original's only buffer is free again
    LocalTensor<float> t = q.AllocTensor<float>();
    q.FreeTensor(t);
}

extern "C" __global__ __aicore__ void alloc_in_copy_free_in_original(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    LocalTensor<float> t = take(q);
    q.FreeTensor(t);
    t = q.AllocTensor<float>();
    release(q, t);
}

extern "C" __global__ __aicore__ void copy_keeps_buffer(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    LocalTensor<float> kept = take(q);  // never freed: the original's one buffer stays taken
    LocalTensor<float> t = q.AllocTensor<float>();  // @alloc_exhausted
    q.FreeTensor(t);
}

extern "C" __global__ __aicore__ void copy_double_free(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    release(q, t);
    q.FreeTensor(t);  // @double_free
}

// The in-place forms (AllocTensor(t), DeQue(t)) and the untyped DeQue whose handle is dropped (the copy only
// waited for): x tripled through two queues, with no diagnostic.
extern "C" __global__ __aicore__ void in_place_and_untyped(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> a, b;
    pipe.InitBuffer(a, 1, N * sizeof(float));
    pipe.InitBuffer(b, 1, N * sizeof(float));
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, N);
    LocalTensor<float> t, u;
    a.AllocTensor(t);
    DataCopy(t, g, N);
    a.EnQue(t);
    a.DeQue(t);
    u = b.AllocTensor<float>();
    DataCopy(u, g, N);
    b.EnQue(u);
    TBufHandle h = b.DeQue();
    (void)h;
    Muls(u, u, 2.0f, N);
    PipeBarrier<PIPE_V>();
    Add(t, t, u, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g, t, N);
    PipeBarrier<PIPE_ALL>();
    a.FreeTensor(t);
    b.FreeTensor(u);
}

// The hardware-wrong twin: an untyped DeQue with nothing enqueued (the copy it waits for was never EnQue'd) hangs
// on hardware; the emulator stops it.
extern "C" __global__ __aicore__ void untyped_deque_empty(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    q.DeQue();  // @deque_empty
    q.FreeTensor(t);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    std::string c = argv[1];
    float* x = (float*)GmAlloc(N * sizeof(float));
    for (uint32_t i = 0; i < N; ++i) x[i] = (float)i;
#define CASE(k) if (c == #k) ICPU_RUN_KF(k, 1, (uint8_t*)x);
    CASE(by_value_helper) CASE(alloc_in_copy_free_in_original) CASE(copy_keeps_buffer) CASE(copy_double_free)
    CASE(in_place_and_untyped) CASE(untyped_deque_empty)
    std::printf("x[0..4]=");
    for (int i = 0; i < 5; ++i) std::printf("%g ", x[i]);
    std::printf("\n");
    return 0;
}
