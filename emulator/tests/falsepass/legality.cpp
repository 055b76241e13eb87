// False passes of the legality class: each broken kernel uses an element type (or a Cast pair) that the API's
// "supported data types" section does not list for the SoC (ascend910b), and so does not build for the NPU; the old
// emulator computed a value. A broken case is compiled alone with -DFP_BROKEN_<case>; the twins run.
#include "case.h"

using fp::N;

namespace {

template <typename T>
GlobalTensor<T> gm(GM_ADDR p, uint32_t n = N) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)p, n);
    return g;
}

enum class Op { ADD, DIV, ABS, EXP, DUP, RSUM };

// One vector op on T: z = op(x, y) element-wise (RSUM: z[0] = sum(x)).
template <typename T, Op OP>
__global__ __aicore__ void op_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, N * sizeof(T)), pipe.InitBuffer(by, N * sizeof(T)), pipe.InitBuffer(bz, N * sizeof(T));
    auto a = bx.Get<T>(), b = by.Get<T>(), c = bz.Get<T>();
    DataCopy(a, gm<T>(x), N);
    DataCopy(b, gm<T>(y), N);
    PipeBarrier<PIPE_ALL>();
    if constexpr (OP == Op::ADD) Add(c, a, b, N);
    if constexpr (OP == Op::DIV) Div(c, a, b, N);
    if constexpr (OP == Op::ABS) Abs(c, a, N);
    if constexpr (OP == Op::EXP) Exp(c, a, N);
    if constexpr (OP == Op::DUP) Duplicate(c, (T)3, N);
    if constexpr (OP == Op::RSUM) ReduceSum(c, a, b, (int32_t)N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<T>(z), c, N);
}

// Cast src -> dst in one step (the broken pairs) or through float / half (the documented two-step paths).
template <typename S, typename D, typename Via>
__global__ __aicore__ void cast_k(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bv, bd;
    pipe.InitBuffer(bs, N * sizeof(S)), pipe.InitBuffer(bv, N * 4), pipe.InitBuffer(bd, N * sizeof(D));
    auto s = bs.Get<S>();
    auto d = bd.Get<D>();
    DataCopy(s, gm<S>(x), N);
    PipeBarrier<PIPE_ALL>();
    if constexpr (std::is_same<Via, void>::value) {
        Cast(d, s, RoundMode::CAST_RINT, N);
    } else {
        auto v = bv.Get<Via>();
        Cast(v, s, std::is_same<Via, float>::value ? RoundMode::CAST_NONE : RoundMode::CAST_RINT, N);
        Cast(d, v, RoundMode::CAST_RINT, N);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm<D>(z), d, N);
}

template <typename In, typename Out, void (*K)(GM_ADDR, GM_ADDR, GM_ADDR)>
void run() {
    uint8_t *x = fp::input<In>(N, fp::xval), *y = fp::input<In>(N, fp::yval), *z = fp::output(N * sizeof(Out));
    ICPU_RUN_KF(K, 1, x, y, z);
    fp::save(z, N * sizeof(Out));
}

}  // namespace

// Add.md (A2): T is int16_t, half, int32_t or float.
#ifdef FP_BROKEN_add_bf16
FP_CASE(add_bf16) { run<bfloat16_t, bfloat16_t, op_k<bfloat16_t, Op::ADD>>(); }
#endif
FP_CASE(add_bf16__fixed) { run<float, float, op_k<float, Op::ADD>>(); }
#ifdef FP_BROKEN_add_int8
FP_CASE(add_int8) { run<int8_t, int8_t, op_k<int8_t, Op::ADD>>(); }
#endif
FP_CASE(add_int8__fixed) { run<int16_t, int16_t, op_k<int16_t, Op::ADD>>(); }
// Div.md, Abs.md, Exp.md (A2): half and float only.
#ifdef FP_BROKEN_div_int32
FP_CASE(div_int32) { run<int32_t, int32_t, op_k<int32_t, Op::DIV>>(); }
#endif
FP_CASE(div_int32__fixed) { run<float, float, op_k<float, Op::DIV>>(); }
#ifdef FP_BROKEN_abs_int32
FP_CASE(abs_int32) { run<int32_t, int32_t, op_k<int32_t, Op::ABS>>(); }
#endif
FP_CASE(abs_int32__fixed) { run<float, float, op_k<float, Op::ABS>>(); }
#ifdef FP_BROKEN_exp_int32
FP_CASE(exp_int32) { run<int32_t, int32_t, op_k<int32_t, Op::EXP>>(); }
#endif
FP_CASE(exp_int32__fixed) { run<float, float, op_k<float, Op::EXP>>(); }
// Duplicate.md (A2): 16- and 32-bit types only.
#ifdef FP_BROKEN_duplicate_uint8
FP_CASE(duplicate_uint8) { run<uint8_t, uint8_t, op_k<uint8_t, Op::DUP>>(); }
#endif
FP_CASE(duplicate_uint8__fixed) { run<uint16_t, uint16_t, op_k<uint16_t, Op::DUP>>(); }
// ReduceSum.md (A2): half and float.
#ifdef FP_BROKEN_reducesum_int32
FP_CASE(reducesum_int32) { run<int32_t, int32_t, op_k<int32_t, Op::RSUM>>(); }
#endif
FP_CASE(reducesum_int32__fixed) { run<float, float, op_k<float, Op::RSUM>>(); }
// Cast.md's table (A2) has no float -> int8_t and no half -> bfloat16_t: float -> half -> int8_t, half -> float ->
// bfloat16_t are the documented paths.
#ifdef FP_BROKEN_cast_float_to_int8
FP_CASE(cast_float_to_int8) { run<float, int8_t, cast_k<float, int8_t, void>>(); }
#endif
FP_CASE(cast_float_to_int8__fixed) { run<float, int8_t, cast_k<float, int8_t, half>>(); }
#ifdef FP_BROKEN_cast_half_to_bf16
FP_CASE(cast_half_to_bf16) { run<half, bfloat16_t, cast_k<half, bfloat16_t, void>>(); }
#endif
FP_CASE(cast_half_to_bf16__fixed) { run<half, bfloat16_t, cast_k<half, bfloat16_t, float>>(); }

FP_MAIN
