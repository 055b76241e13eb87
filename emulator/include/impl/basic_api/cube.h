// The cube unit's compute path (docs: 矩阵计算（ISASI）): LoadData 2D (L1/GM -> L0A/L0B, per-fractal transpose),
// LoadDataWithTranspose, LoadData 3D v2 (img2col), Mmad, Fill / InitConstValue and the Mmad mode registers.
//
// Layouts (矩阵计算分形介绍/关键分形格式详解.md): L0A holds A [m, k] in Zz (fractals of 16 x C0 elements,
// C0 = 32 B / sizeof(T), row-major over fractals and inside them), L0B holds B [k, n] in Zn (fractals of C0 x 16,
// row-major over fractals, column-major inside: element (k, n) at n0 * C0 + k0), L0C holds C [m, n] in Nz (16 x 16
// fractals, column-major over fractals, row-major inside). LoadData moves 512-byte fractals and knows nothing of
// matrices; Mmad reads its operands with these layouts, so a kernel that lays a matrix out wrongly (a wrong Nz stride,
// a missing transpose) computes a wrong matrix here as on the chip.
//
// Numerics: Mmad sums the exact products of one call in double and rounds once to the L0C type (fp32 for
// half/bfloat16/float inputs, int32 for int8 -- exact, wrapping); accumulation across calls happens in L0C at
// that type. The chip's internal summation order is not documented; ours is exact then rounded once per call.
#pragma once
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cube_check.h"
#include "cube_types.h"

namespace AscendC {
enum class HF32Mode : uint8_t { DISABLE = 0, ENABLE = 1 };
enum class HF32TransMode : uint8_t { NEAREST_EVEN = 0, NEAREST_ZERO = 1 };
}  // namespace AscendC

namespace cbemu {

// The cube mode registers of one block (a new block is a new thread: each launch starts from the defaults).
struct CubeRegs {
    bool hf32 = false;
    bool hf32_zero = false;  // HF32TransMode::NEAREST_ZERO
    // FMATRIX (LoadData 3D): [left, right] l1H, l1W, padList; the padding value
    uint16_t fm_h[2] = {0, 0}, fm_w[2] = {0, 0};
    uint8_t fm_pad[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    uint64_t pad_bits = 0;
    // Fixpipe registers for the DataCopy form of L0C -> out (SetFixpipeNz2ndFlag / SetFixpipePreQuantFlag /
    // SetFixPipeConfig)
    uint16_t nd_num = 1, src_nd_stride = 0, dst_nd_stride = 0;
    uint64_t quant_pre = 0;
    const uint64_t* quant_vec = nullptr;  // FB address of per-channel quant params
    bool clip_relu_set = false;
    // UnitFlag (Mmad计算关键特性说明/UnitFlag.md): the last Mmad / Fixpipe of this core had unitFlag 2 or 3
    bool mmad_unit = false, fix_unit = false;
    uint64_t clip_relu = 0;
};
inline CubeRegs& cube_regs() {
    thread_local CubeRegs r;
    return r;
}

template <typename T>
constexpr uint32_t c0_of() { return 32u / (uint32_t)sizeof(T); }

// fp32 -> HF32 (1 sign, 8 exponent, 11 mantissa bits): the cube's fast fp32 path when SetHF32Mode is on.
inline float to_hf32(float x, bool toward_zero) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    if ((u & 0x7F800000u) == 0x7F800000u) return x;
    const uint32_t drop = 12, mask = (1u << drop) - 1;
    uint32_t rem = u & mask;
    u &= ~mask;
    if (!toward_zero) {
        uint32_t half = 1u << (drop - 1);
        if (rem > half || (rem == half && (u & (1u << drop)))) u += 1u << drop;
    }
    float y;
    std::memcpy(&y, &u, 4);
    return y;
}

template <typename T>
inline double cube_in(T v) {
    return (double)(float)v;
}
template <>
inline double cube_in<int8_t>(int8_t v) { return v; }
template <>
inline double cube_in<uint8_t>(uint8_t v) { return v; }

// The hot loop of Mmad, built optimised whatever -O the unit uses (a 1024^3 matmul must stay in seconds).
#pragma GCC push_options
#pragma GCC optimize("O3")
inline void gemm_f64(const float* a, const float* b, double* c, uint32_t m, uint32_t n, uint32_t k) {
    for (uint32_t i = 0; i < m; ++i) {
        double* ci = c + (size_t)i * n;
        for (uint32_t j = 0; j < n; ++j) ci[j] = 0.0;
        const float* ai = a + (size_t)i * k;
        for (uint32_t p = 0; p < k; ++p) {
            double av = ai[p];
            if (av == 0.0) continue;
            const float* bp = b + (size_t)p * n;
            for (uint32_t j = 0; j < n; ++j) ci[j] += av * (double)bp[j];
        }
    }
}
inline void gemm_i64(const int32_t* a, const int32_t* b, int64_t* c, uint32_t m, uint32_t n, uint32_t k) {
    for (uint32_t i = 0; i < m; ++i) {
        int64_t* ci = c + (size_t)i * n;
        for (uint32_t j = 0; j < n; ++j) ci[j] = 0;
        const int32_t* ai = a + (size_t)i * k;
        for (uint32_t p = 0; p < k; ++p) {
            int64_t av = ai[p];
            if (av == 0) continue;
            const int32_t* bp = b + (size_t)p * n;
            for (uint32_t j = 0; j < n; ++j) ci[j] += av * bp[j];
        }
    }
}
#pragma GCC pop_options

struct MmadScratch {
    std::vector<float> fa, fb;
    std::vector<int32_t> ia, ib;
    std::vector<double> fc;
    std::vector<int64_t> ic;
};
inline MmadScratch& mmad_scratch() {
    thread_local MmadScratch s;
    return s;
}

// UnitFlag (Mmad计算关键特性说明/UnitFlag.md, MmadParams / FixpipeParamsV220 unitFlag): with 2 or 3 on both, the
// hardware hands L0C between Mmad and Fixpipe fractal by fractal, with no SetFlag / WaitFlag between them: a Fixpipe
// reads what the unit-flagged Mmads before it wrote, and an Mmad writes what the unit-flagged Fixpipes before it have
// read. The hazard model orders them whole instructions at a time (coarser than the hardware's fractals, the same
// order for the values); set on one side only, nothing is ordered.
inline void unit_flag_sync(bool is_mmad, uint8_t unit_flag) {
    CubeRegs& r = cube_regs();
    const bool on = unit_flag >= 2;
    (is_mmad ? r.mmad_unit : r.fix_unit) = on;
    hz::Core* c = hz::core();
    if (!on || !c || !(is_mmad ? r.fix_unit : r.mmad_unit)) return;
    if (is_mmad) hz::acquire(c, hz::P_M, hz::release_clock(c, hz::P_FIX));
    else hz::acquire(c, hz::P_FIX, hz::release_clock(c, hz::P_M));
}

template <typename T>
struct is_int8_cube : std::integral_constant<bool, std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value> {};

// Mmad: C (L0C, Nz) = [bias row | C | 0] + A (L0A, Zz) x B (L0B, Zn).
template <typename C, typename A, typename B, typename BIAS>
inline void mmad(const AscendC::LocalTensor<C>& dst, const AscendC::LocalTensor<A>& fm,
                 const AscendC::LocalTensor<B>& filter, const AscendC::LocalTensor<BIAS>* bias,
                 const AscendC::MmadParams& p, const SrcLoc& loc) {
    const char* api = "Mmad";
    static_assert(!std::is_same<A, AscendC::int4b_t>::value && !std::is_same<B, AscendC::int4b_t>::value,
                  "cotbuilder emulator: int4b_t cube operands (Mmad, LoadData) are not modelled");
    constexpr bool int_path = is_int8_cube<A>::value;
    static_assert(int_path == is_int8_cube<B>::value,
                  "cotbuilder emulator: Mmad with one 8-bit and one floating-point operand");
    static_assert(sizeof(A) == sizeof(B), "cotbuilder emulator: Mmad operands of different widths");
    static_assert(!int_path || std::is_same<C, int32_t>::value || std::is_same<C, uint32_t>::value,
                  "cotbuilder emulator: an int8 Mmad accumulates into int32_t");
    static_assert(int_path || std::is_same<C, float>::value || std::is_same<C, half>::value,
                  "cotbuilder emulator: a floating-point Mmad accumulates into float (or half on Atlas inference)");
    uint32_t M = p.m, N = p.n, K = p.k;
    if (M == 0 || N == 0 || K == 0) return;  // documented NOP
    if (M > 4095 || N > 4095 || K > 4095) {
        cube_bad_params(loc, api, "m, n and k must each lie in [0, 4095]");
        return;
    }
    const uint32_t K0 = c0_of<A>();
    const bool gemv = M == 1;  // GEMV.md: with m == 1 the hardware reads L0A as a plain 1 x k row
    uint32_t kpad = (K + K0 - 1) / K0 * K0;
    if (std::is_same<A, float>::value && p.kDirectionAlign) kpad = (K + 15) / 16 * 16;
    const uint32_t K1 = kpad / K0, M1 = (M + 15) / 16, N1 = (N + 15) / 16;
    uint64_t a_bytes = gemv ? (uint64_t)K * sizeof(A) : (uint64_t)M1 * K1 * 512;
    uint64_t b_bytes = (uint64_t)K1 * N1 * 512;
    uint64_t c_bytes = (uint64_t)M1 * N1 * 256 * sizeof(C);
    bool ok = cube_operand(dst, mem_bit(Mem::L0C), 0, c_bytes, loc, api, "dst (C)") &
              cube_operand(fm, mem_bit(Mem::L0A), 0, a_bytes, loc, api, "fm (A)", 512) &
              cube_operand(filter, mem_bit(Mem::L0B), 0, b_bytes, loc, api, "filter (B)", 512);
    if (bias) {
        uint32_t bias_mem = coupled_arch() ? mem_bit(Mem::L0C) : mem_bit(Mem::BT);
        ok &= cube_operand(*bias, bias_mem, 0, (uint64_t)N * sizeof(BIAS), loc, api, "bias", 64);
    }
    if (!ok) return;
    bool accumulate = !bias && (p.isBias || (!p.cmatrixInitVal && !p.cmatrixSource));
    bool bt_init = !bias && !p.isBias && !p.cmatrixInitVal && p.cmatrixSource;
    // The pipe-hazard model: Mmad is one PIPE_M instruction. Two Mmads accumulating into one L0C are ordered by the
    // hardware only when (m / 16) * (n / 16) >= 10; below that PipeBarrier<PIPE_M> is needed (Mmad.md, 同步优化说明).
    if (hz::Core* hc = hz::core())
        if ((M / 16) * (N / 16) >= 10) hc->know[hz::P_M][hz::P_M] = hc->cnt[hz::P_M];
    unit_flag_sync(true, p.unitFlag);
    hz::Scope op(hz::P_M, loc, api);
    op.read(fm.addr_, a_bytes);
    op.read(filter.addr_, b_bytes);
    if (bias) op.read(bias->addr_, (uint64_t)N * sizeof(BIAS));
    if (bt_init) op.read(mem_base(coupled_arch() ? Mem::L0C : Mem::BT), (uint64_t)N * sizeof(BIAS));
    if (accumulate) op.read(dst.addr_, c_bytes);
    op.write(dst.addr_, c_bytes);
    const C* cur = dst.addr_;
    auto c_at = [&](uint32_t i, uint32_t j) -> size_t {
        return ((size_t)(j / 16) * M1 + i / 16) * 256 + (i % 16) * 16 + (j % 16);
    };
    auto a_at = [&](uint32_t i, uint32_t q) -> size_t {
        return gemv ? q : ((size_t)(i / 16) * K1 + q / K0) * (512 / sizeof(A)) + (i % 16) * K0 + q % K0;
    };
    auto b_at = [&](uint32_t q, uint32_t j) -> size_t {
        return ((size_t)(q / K0) * N1 + j / 16) * (512 / sizeof(B)) + (j % 16) * K0 + q % K0;
    };
    MmadScratch& s = mmad_scratch();
    const BIAS* bt = nullptr;
    if (bias) bt = bias->addr_;
    if (bt_init) bt = (const BIAS*)(const void*)mem_base(coupled_arch() ? Mem::L0C : Mem::BT);
    if constexpr (int_path) {
        s.ia.resize((size_t)M * K);
        s.ib.resize((size_t)K * N);
        s.ic.resize((size_t)M * N);
        for (uint32_t i = 0; i < M; ++i)
            for (uint32_t q = 0; q < K; ++q) s.ia[(size_t)i * K + q] = (int32_t)fm.addr_[a_at(i, q)];
        for (uint32_t q = 0; q < K; ++q)
            for (uint32_t j = 0; j < N; ++j) s.ib[(size_t)q * N + j] = (int32_t)filter.addr_[b_at(q, j)];
        gemm_i64(s.ia.data(), s.ib.data(), s.ic.data(), M, N, K);
        for (uint32_t i = 0; i < M; ++i)
            for (uint32_t j = 0; j < N; ++j) {
                int64_t v = s.ic[(size_t)i * N + j];
                if (accumulate) v += (int64_t)cur[c_at(i, j)];
                else if (bt) v += (int64_t)bt[j];
                dst.addr_[c_at(i, j)] = (C)(int32_t)(uint32_t)(uint64_t)v;  // two's-complement wrap
            }
    } else {
        bool hf = std::is_same<A, float>::value && cube_regs().hf32;
        bool zero = cube_regs().hf32_zero;
        s.fa.resize((size_t)M * K);
        s.fb.resize((size_t)K * N);
        s.fc.resize((size_t)M * N);
        for (uint32_t i = 0; i < M; ++i)
            for (uint32_t q = 0; q < K; ++q) {
                float v = (float)fm.addr_[a_at(i, q)];
                s.fa[(size_t)i * K + q] = hf ? to_hf32(v, zero) : v;
            }
        for (uint32_t q = 0; q < K; ++q)
            for (uint32_t j = 0; j < N; ++j) {
                float v = (float)filter.addr_[b_at(q, j)];
                s.fb[(size_t)q * N + j] = hf ? to_hf32(v, zero) : v;
            }
        gemm_f64(s.fa.data(), s.fb.data(), s.fc.data(), M, N, K);
        for (uint32_t i = 0; i < M; ++i)
            for (uint32_t j = 0; j < N; ++j) {
                double v = s.fc[(size_t)i * N + j];
                if (std::is_same<C, float>::value) {
                    // one rounding of this call's sum to fp32, then (when accumulating) one fp32 addition
                    float f = (float)v;
                    if (accumulate) f = (float)cur[c_at(i, j)] + f;
                    else if (bt) f = (float)bt[j] + f;
                    dst.addr_[c_at(i, j)] = (C)f;
                } else {
                    if (accumulate) v += (double)(float)cur[c_at(i, j)];
                    else if (bt) v += (double)(float)bt[j];
                    dst.addr_[c_at(i, j)] = (C)v;
                }
            }
    }
}

// One fractal (512 bytes) of 2-byte elements transposed (16 x 16).
inline void transpose_b16(uint8_t* dst, const uint8_t* src) {
    const uint16_t* s = (const uint16_t*)src;
    uint16_t* d = (uint16_t*)dst;
    uint16_t tmp[256];
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) tmp[c * 16 + r] = s[r * 16 + c];
    std::memcpy(d, tmp, 512);
}

}  // namespace cbemu

namespace AscendC {

// ---- Mmad ----
template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const MmadParams& mmadParams, CBEMU_LOC) {
    cbemu::mmad<T, U, S, T>(dst, fm, filter, nullptr, mmadParams, loc);
}
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const LocalTensor<V>& bias, const MmadParams& mmadParams, CBEMU_LOC) {
    cbemu::mmad<T, U, S, V>(dst, fm, filter, &bias, mmadParams, loc);
}

inline void SetHF32Mode(bool hf32Mode) { cbemu::cube_regs().hf32 = hf32Mode; }
inline void SetHF32Mode(HF32Mode mode) { cbemu::cube_regs().hf32 = mode == HF32Mode::ENABLE; }
inline void SetHF32TransMode(bool zero) { cbemu::cube_regs().hf32_zero = zero; }
inline void SetHF32TransMode(HF32TransMode mode) {
    cbemu::cube_regs().hf32_zero = mode == HF32TransMode::NEAREST_ZERO;
}
// SetMMRowMajor / SetMMColumnMajor choose the order the cube walks output fractals in: a performance setting that
// does not change values.
inline void SetMMRowMajor() {}
inline void SetMMColumnMajor() {}

// ---- LoadData 2D: repeatTimes fractals of 512 bytes, L1 or GM -> L0A / L0B ----
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p, CBEMU_LOC) {
    static_assert(!std::is_same<T, int4b_t>::value,
                  "cotbuilder emulator: int4b_t cube operands (Mmad, LoadData) are not modelled");
    const char* api = "LoadData";
    if (p.repeatTimes == 0) return;
    if (p.ifTranspose && sizeof(T) != 2) {
        cbemu::cube_bad_params(loc, api, "ifTranspose needs a 2-byte type (use LoadDataWithTranspose for 1/4 bytes)");
        return;
    }
    if (p.addrMode == 1 && (uint32_t)p.srcStride * (p.repeatTimes - 1) > p.startIndex) {
        cbemu::cube_bad_params(loc, api, "addrMode 1 walks below fractal 0");
        return;
    }
    uint64_t last_src = p.addrMode == 1 ? p.startIndex : p.startIndex + (uint64_t)p.srcStride * (p.repeatTimes - 1);
    uint64_t last_dst = (uint64_t)(p.repeatTimes - 1) * (1 + p.dstGap);
    using cbemu::Mem;
    if (!cbemu::cube_operand(dst, cbemu::mem_bit(Mem::L0A) | cbemu::mem_bit(Mem::L0B), 0, (last_dst + 1) * 512, loc,
                             api, "dst", 512) ||
        !cbemu::cube_operand(src, cbemu::mem_bit(Mem::L1), 0, (last_src + 1) * 512, loc, api, "src", 32))
        return;
    const uint8_t* s = (const uint8_t*)src.addr_;
    uint8_t* d = (uint8_t*)dst.addr_;
    cbemu::hz::Scope op(cbemu::hz::P_MTE1, loc, api);  // L1 -> L0A / L0B: PIPE_MTE1
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        uint64_t sf = p.addrMode == 1 ? p.startIndex - (uint64_t)p.srcStride * r
                                      : p.startIndex + (uint64_t)p.srcStride * r;
        uint64_t df = (uint64_t)r * (1 + p.dstGap);
        op.read(s + sf * 512, 512);
        op.write(d + df * 512, 512);
        if (p.ifTranspose) cbemu::transpose_b16(d + df * 512, s + sf * 512);
        else std::memmove(d + df * 512, s + sf * 512, 512);
    }
}
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p, CBEMU_LOC) {
    const char* api = "LoadData";
    if (p.repeatTimes == 0) return;
    if (p.ifTranspose) {
        cbemu::cube_bad_params(loc, api, "ifTranspose is only on the L1 -> L0A/L0B paths");
        return;
    }
    uint64_t last_dst = (uint64_t)(p.repeatTimes - 1) * (1 + p.dstGap);
    using cbemu::Mem;
    if (!cbemu::cube_operand(dst, cbemu::mem_bit(Mem::L0A) | cbemu::mem_bit(Mem::L0B), 0, (last_dst + 1) * 512, loc,
                             api, "dst", 512))
        return;
    uint8_t* d = (uint8_t*)dst.addr_;
    cbemu::hz::Scope op(cbemu::hz::P_MTE2, loc, api);  // GM -> L0A / L0B: PIPE_MTE2
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        op.write(d + (uint64_t)r * (1 + p.dstGap) * 512, 512);
        int64_t sf = p.addrMode == 1 ? (int64_t)p.startIndex - (int64_t)p.srcStride * r
                                     : (int64_t)p.startIndex + (int64_t)p.srcStride * r;
        const uint8_t* from = (const uint8_t*)src.addr_ + sf * 512;
        op.read(from, 512);
        cbemu::gm_read(d + (uint64_t)r * (1 + p.dstGap) * 512, src, from, 512, loc, api);
    }
}
// The dav-3510 parameter form: not on the modelled architectures.
template <typename T>
inline void LoadData(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData2DParamsV2&, CBEMU_LOC) {
    cbemu::report("unsupported_api", cbemu::Sev::fatal, loc,
                  "LoadData with LoadData2DParamsV2 (Ascend 950 / dav-3510 only; the emulator models dav-2201 and "
                  "dav-2002)");
}

// ---- LoadDataWithTranspose: square blocks (16x16 b16, 32x32 b8, 16x16 b32) transposed, L1 -> L0A / L0B ----
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const LoadData2dTransposeParams& p, CBEMU_LOC) {
    const char* api = "LoadDataWithTranspose";
    if (p.repeatTimes == 0) return;
    constexpr uint32_t sz = sizeof(T);
    static_assert(sz == 1 || sz == 2 || sz == 4, "LoadDataWithTranspose: 1-, 2- or 4-byte elements");
    const uint32_t frac_num = sz == 2 ? 1 : 2, square = 512 * frac_num;
    uint64_t last_src = (p.addrMode ? p.startIndex : p.startIndex + (uint64_t)p.srcStride * (p.repeatTimes - 1));
    if (p.addrMode && (uint32_t)p.srcStride * (p.repeatTimes - 1) > p.startIndex) {
        cbemu::cube_bad_params(loc, api, "addrMode walks below square 0");
        return;
    }
    uint64_t dst_end = (uint64_t)(p.repeatTimes - 1) * (1 + p.dstGap) * 512 + 512 +
                       (frac_num - 1) * (uint64_t)(1 + p.dstFracGap) * 512;
    using cbemu::Mem;
    if (!cbemu::cube_operand(dst, cbemu::mem_bit(Mem::L0A) | cbemu::mem_bit(Mem::L0B), 0, dst_end, loc, api, "dst",
                             512) ||
        !cbemu::cube_operand(src, cbemu::mem_bit(Mem::L1), 0, (last_src + 1) * square, loc, api, "src", 32))
        return;
    const uint8_t* s = (const uint8_t*)src.addr_;
    uint8_t* d = (uint8_t*)dst.addr_;
    std::vector<uint8_t> sq(square), out(square);
    cbemu::hz::Scope op(cbemu::hz::P_MTE1, loc, api);
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        uint64_t si = p.addrMode ? p.startIndex - (uint64_t)p.srcStride * r : p.startIndex + (uint64_t)p.srcStride * r;
        std::memcpy(sq.data(), s + si * square, square);
        uint8_t* first = d + (uint64_t)r * (1 + p.dstGap) * 512;
        op.read(s + si * square, square);
        op.write(first, 512);
        if (frac_num == 2) op.write(first + (uint64_t)(1 + p.dstFracGap) * 512, 512);
        if (sz == 2) {
            cbemu::transpose_b16(first, sq.data());
            continue;
        }
        if (sz == 1) {
            // two 16x32 fractals stacked into a 32x32 square; its transpose split by rows into two 16x32 fractals
            for (int rr = 0; rr < 32; ++rr)
                for (int cc = 0; cc < 32; ++cc) out[cc * 32 + rr] = sq[rr * 32 + cc];
            std::memcpy(first, out.data(), 512);
            std::memcpy(first + (uint64_t)(1 + p.dstFracGap) * 512, out.data() + 512, 512);
        } else {
            // two 16x8 fractals side by side make a 16x16 square; its transpose split by columns into two 16x8
            const uint32_t* a = (const uint32_t*)sq.data();
            const uint32_t* b = a + 128;
            uint32_t f0[128], f1[128];
            for (int x = 0; x < 16; ++x)
                for (int t = 0; t < 8; ++t) {
                    // T[x][t] = S[t][x], S[r][c] = c < 8 ? A[r][c] : B[r][c - 8]
                    f0[x * 8 + t] = x < 8 ? a[t * 8 + x] : b[t * 8 + (x - 8)];
                    f1[x * 8 + t] = x < 8 ? a[(8 + t) * 8 + x] : b[(8 + t) * 8 + (x - 8)];
                }
            std::memcpy(first, f0, 512);
            std::memcpy(first + (uint64_t)(1 + p.dstFracGap) * 512, f1, 512);
        }
    }
}
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData2dTransposeParamsV2&,
                                  CBEMU_LOC) {
    cbemu::report("unsupported_api", cbemu::Sev::fatal, loc,
                  "LoadDataWithTranspose with LoadData2dTransposeParamsV2 (Ascend 950 / dav-3510 only)");
}

// ---- LoadData 3D v2 (img2col): L1 feature map [C1][H][W][C0] -> the (output position x (C1, kh, kw, C0)) matrix
// in L0A (Zz) or, transposed, L0B (Zn) ----
template <typename T>
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode) {
    int i = fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0;
    cbemu::cube_regs().fm_h[i] = l1H;
    cbemu::cube_regs().fm_w[i] = l1W;
    for (int k = 0; k < 4; ++k) cbemu::cube_regs().fm_pad[i][k] = padList[k];
}
template <typename T>
inline void SetLoadDataPaddingValue(const T padValue) {
    uint64_t bits = 0;
    std::memcpy(&bits, &padValue, sizeof(T) < 8 ? sizeof(T) : 8);
    cbemu::cube_regs().pad_bits = bits;
}
// Repeat / boundary registers of LoadData 3D: only their defaults (one repeat, no boundary) are modelled.
inline void SetLoadDataRepeat(const LoadDataRepeatParam& p, CBEMU_LOC) {
    if (p.repeatTime > 1)
        cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "SetLoadDataRepeat with repeatTime > 1");
}
inline void SetLoadDataBoundary(uint32_t boundaryValue, CBEMU_LOC) {
    if (boundaryValue)
        cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "SetLoadDataBoundary with a non-zero boundary");
}

template <typename T, typename U = T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p,
                     CBEMU_LOC) {
    const char* api = "LoadData (3D v2)";
    using cbemu::Mem;
    constexpr uint32_t C0 = cbemu::c0_of<T>();
    if (p.kExtension == 0 || p.mExtension == 0) return;
    if (p.kExtension % C0 || p.kStartPt % C0) {
        cbemu::cube_bad_params(loc, api, "kExtension and kStartPt must be multiples of C0 (32 bytes of elements)");
        return;
    }
    if (p.channelSize % C0) {
        cbemu::cube_bad_params(loc, api, "channelSize must be a multiple of C0");
        return;
    }
    const uint32_t fh = p.filterH + (p.filterSizeH ? 256 : 0), fw = p.filterW + (p.filterSizeW ? 256 : 0);
    const uint32_t H = p.l1H, W = p.l1W, C1 = p.channelSize / C0;
    const uint8_t pl = p.padList[0], pr = p.padList[1], pt = p.padList[2], pb = p.padList[3];
    const uint32_t kh_d = (fh - 1) * p.dilationFilterH + 1, kw_d = (fw - 1) * p.dilationFilterW + 1;
    if (H + pt + pb < kh_d || W + pl + pr < kw_d || p.strideH == 0 || p.strideW == 0) {
        cbemu::cube_bad_params(loc, api, "the filter does not fit the padded feature map (or a zero stride)");
        return;
    }
    const uint32_t wout = (W + pl + pr - kw_d) / p.strideW + 1;
    const uint32_t M1 = (p.mExtension + 15) / 16, K1 = p.kExtension / C0, Kext = p.kExtension;
    const uint32_t Kp = (Kext + 15) / 16 * 16;  // b32 layouts pad K to 16
    Mem dm = cbemu::mem_of_tensor(dst);
    const bool to_b = dm == Mem::L0B, trans = p.enTranspose && !to_b;
    if (sizeof(T) == 1 && (to_b || trans)) {
        cbemu::report("unsupported_api", cbemu::Sev::fatal, loc,
                      "LoadData 3D v2 of 1-byte data into L0B or transposed (not documented)");
        return;
    }
    uint64_t dst_bytes = sizeof(T) == 4 && (to_b || trans) ? (uint64_t)M1 * 16 * Kp * 4 : (uint64_t)M1 * K1 * 512;
    if (!cbemu::cube_operand(dst, cbemu::mem_bit(Mem::L0A) | cbemu::mem_bit(Mem::L0B), 0, dst_bytes, loc, api, "dst",
                             512) ||
        !cbemu::cube_operand(src, cbemu::mem_bit(Mem::L1), 0, (uint64_t)C1 * H * W * C0 * sizeof(T), loc, api, "src",
                             32))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_MTE1, loc, api);
    op.read(src.addr_, (uint64_t)C1 * H * W * C0 * sizeof(T));
    op.write(dst.addr_, dst_bytes);
    T pad;
    std::memset(&pad, 0, sizeof(T));
    std::memcpy(&pad, &p.padValue, sizeof(T) < sizeof(U) ? sizeof(T) : sizeof(U));
    // Where element (m, kk) of the loaded matrix goes (load3d layouts of the docs' reference script): L0A Zz;
    // transposed into L0A: fractals along K first, each stored K-major; L0B: fractals along K, each K-major; 4-byte
    // data in L0B / transposed in 8-row halves.
    auto place = [&](uint32_t m, uint32_t kk) -> size_t {
        if (!to_b && !trans) return ((size_t)(m / 16) * K1 + kk / C0) * (512 / sizeof(T)) + (m % 16) * C0 + kk % C0;
        if (sizeof(T) == 2) {
            if (to_b) return ((size_t)(m / 16) * K1 + kk / 16) * 256 + (kk % 16) * 16 + (m % 16);
            return ((size_t)(kk / 16) * M1 + m / 16) * 256 + (kk % 16) * 16 + (m % 16);
        }
        if (to_b) return (((size_t)(m / 16) * 2 + (m % 16) / 8) * Kp + kk) * 8 + m % 8;
        return ((((size_t)(kk / 16) * M1 + m / 16) * 2 + (m % 16) / 8) * 16 + kk % 16) * 8 + m % 8;
    };
    for (uint32_t mi = 0; mi < M1 * 16; ++mi) {
        uint32_t m = p.mStartPt + mi;
        uint32_t oh = m / wout, ow = m % wout;
        for (uint32_t kb = 0; kb < K1; ++kb) {
            uint32_t kkb = p.kStartPt / C0 + kb;  // index along (C1, kh, kw)
            uint32_t c1 = kkb / (fh * fw), rem = kkb % (fh * fw), kh = rem / fw, kw = rem % fw;
            int64_t y = (int64_t)oh * p.strideH + (int64_t)kh * p.dilationFilterH - pt;
            int64_t x = (int64_t)ow * p.strideW + (int64_t)kw * p.dilationFilterW - pl;
            bool in = mi < p.mExtension && c1 < C1 && y >= 0 && y < (int64_t)H && x >= 0 && x < (int64_t)W;
            for (uint32_t c0 = 0; c0 < C0; ++c0)
                dst.addr_[place(mi, kb * C0 + c0)] = in ? src.addr_[(((size_t)c1 * H + y) * W + x) * C0 + c0] : pad;
        }
    }
}

// LoadDataWithStride and its repeat register: the Ascend 950 (dav-3510) form of LoadData 3D.
struct LoadDataRepeatParamWithStride {
    LoadDataRepeatParamWithStride() {}
    LoadDataRepeatParamWithStride(uint16_t repeatStrideIn, uint8_t repeatTimeIn, uint8_t repeatModeIn,
                                  uint16_t dstStrideIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn), dstStride(dstStrideIn) {}
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint16_t dstStride = 0;
};
inline void SetLoadDataRepeatWithStride(const LoadDataRepeatParamWithStride&, CBEMU_LOC) {
    cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "SetLoadDataRepeatWithStride (Ascend 950 / dav-3510 only)");
}
template <typename T, typename U>
inline void LoadDataWithStride(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData3DParamsV2<U>&, CBEMU_LOC) {
    cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "LoadDataWithStride (Ascend 950 / dav-3510 only)");
}

// ---- Fill (InitConstValue): blocks of 32 B in L1, of 512 B in L0A / L0B, set to one value ----
template <typename T, typename U>
inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, CBEMU_LOC) {
    const char* api = "Fill";
    using cbemu::Mem;
    if (p.repeatTimes == 0 || p.blockNum == 0) return;
    Mem m = cbemu::mem_of_tensor(dst);
    uint32_t blk = m == Mem::L1 ? 32 : 512;
    uint64_t end = ((uint64_t)(p.repeatTimes - 1) * (p.blockNum + p.dstGap) + p.blockNum) * blk;
    if (!cbemu::cube_operand(dst, cbemu::mem_bit(Mem::L1) | cbemu::mem_bit(Mem::L0A) | cbemu::mem_bit(Mem::L0B), 0,
                             end, loc, api, "dst"))
        return;
    T v = (T)p.initValue;
    // Fill.md, 约束说明: into L0A / L0B the instruction runs on PIPE_MTE1, into L1 on PIPE_MTE2
    cbemu::hz::Scope op(m == Mem::L1 ? cbemu::hz::P_MTE2 : cbemu::hz::P_MTE1, loc, api);
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        uint64_t start = (uint64_t)r * (p.blockNum + p.dstGap) * blk;
        T* d = (T*)((uint8_t*)dst.addr_ + start);
        op.write(d, (uint64_t)p.blockNum * blk);
        for (uint64_t i = 0; i < (uint64_t)p.blockNum * blk / sizeof(T); ++i) d[i] = v;
    }
}
template <typename T, typename U>
inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, CBEMU_LOC) {
    Fill(dst, p, loc);
}

}  // namespace AscendC
