// Kernels that break one hardware rule each. Usage: diag_cases CASE
// The line that must be reported carries a `// @<case>` marker that pytest looks up.
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;
constexpr uint32_t N = 256;

// 208 KB of buffers on a 192 KB UB: the second q2 buffer ends past the UB, and the Duplicate touches it.
extern "C" __global__ __aicore__ void ub_overflow(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q1;
    TQue<TPosition::VECOUT, 2> q2;
    pipe.InitBuffer(q1, 2, 64 * 1024);
    pipe.InitBuffer(q2, 2, 40 * 1024);
    LocalTensor<float> a = q2.AllocTensor<float>(), b = q2.AllocTensor<float>();
    Duplicate(b, 1.0f, 10 * 1024);  // @ub_overflow
    q2.FreeTensor(a);
    q2.FreeTensor(b);
}
// The same buffers, none touched: nothing on the chip checks where InitBuffer places them (a warning).
extern "C" __global__ __aicore__ void ub_overflow_untouched(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q1;
    TQue<TPosition::VECOUT, 2> q2;
    pipe.InitBuffer(q1, 2, 64 * 1024);
    pipe.InitBuffer(q2, 2, 40 * 1024);  // @ub_overflow_untouched
}

extern "C" __global__ __aicore__ void misaligned_ub(GM_ADDR) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * N * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 2 * N);
    Add(t[2 * N + 3], t, t[N], 64);  // @misaligned_ub
}

extern "C" __global__ __aicore__ void datacopy_rounddown(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(float));
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, N);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 5.0f, 16);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g, t, 10);  // @datacopy_rounddown
}

extern "C" __global__ __aicore__ void gm_out_of_bounds(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(float));
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, N);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 5.0f, N);
    DataCopy(g[N / 2], t, N);  // @gm_out_of_bounds
}

extern "C" __global__ __aicore__ void deque_empty(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    LocalTensor<float> u = q.DeQue<float>();  // @deque_empty
    q.FreeTensor(t);
    q.FreeTensor(u);
}

extern "C" __global__ __aicore__ void alloc_exhausted(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, N * sizeof(float));
    for (int i = 0; i < 3; ++i) {
        LocalTensor<float> t = q.AllocTensor<float>();  // @alloc_exhausted
        q.EnQue(t);
    }
}

extern "C" __global__ __aicore__ void double_free(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    t = q.DeQue<float>();
    q.FreeTensor(t);
    q.FreeTensor(t);  // @double_free
}

extern "C" __global__ __aicore__ void tensor_leak(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    LocalTensor<float> t = q.AllocTensor<float>();  // @tensor_leak
    q.EnQue(t);
    t = q.DeQue<float>();
}

extern "C" __global__ __aicore__ void enque_deque_mismatch(GM_ADDR) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qa;
    TQue<TPosition::VECOUT, 1> qb;
    pipe.InitBuffer(qa, 1, N * sizeof(float));
    pipe.InitBuffer(qb, 1, N * sizeof(float));
    LocalTensor<float> t = qa.AllocTensor<float>();
    qb.EnQue(t);  // @enque_deque_mismatch
    qa.FreeTensor(t);
}

extern "C" __global__ __aicore__ void clean(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float));
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)x, N);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, g, N);
    q.EnQue(t);
    t = q.DeQue<float>();
    Muls(t, t, 2.0f, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g, t, N);
    q.FreeTensor(t);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    std::string c = argv[1];
    // the GM buffer sits between two canaries that must survive any out-of-bounds write
    uint8_t* before = (uint8_t*)GmAlloc(4096);
    uint8_t* x = (uint8_t*)GmAlloc(N * sizeof(float));
    uint8_t* after = (uint8_t*)GmAlloc(4096);
    std::memset(before, 0x5A, 4096);
    std::memset(after, 0x5A, 4096);
    for (uint32_t i = 0; i < N; ++i) ((float*)x)[i] = (float)i;
#define CASE(k) if (c == #k) ICPU_RUN_KF(k, 1, x);
    CASE(ub_overflow) CASE(misaligned_ub) CASE(datacopy_rounddown) CASE(gm_out_of_bounds) CASE(deque_empty)
    CASE(alloc_exhausted) CASE(double_free) CASE(tensor_leak) CASE(enque_deque_mismatch) CASE(clean)
    CASE(ub_overflow_untouched)
    for (int i = 0; i < 4096; ++i)
        if (before[i] != 0x5A || after[i] != 0x5A) { std::printf("canary corrupted\n"); return 4; }
    std::printf("x[0..9]=");
    for (int i = 0; i < 10; ++i) std::printf("%g ", ((float*)x)[i]);
    std::printf("\n");
    return 0;
}
