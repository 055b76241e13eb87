// The cube unit's data movement (docs: 矩阵计算（ISASI）/矩阵计算的搬入, 矩阵计算的搬出, 矩阵搬出关键特性说明):
//   in:  DataCopy GM / UB -> L1 with ND2NZ (Nd2NzParams), L1 -> BiasTable, L1 -> Fixpipe buffer;
//   out: Fixpipe L0C -> GM / L1 (FixpipeParamsV220: NZ2ND or NZ2NZ, quantisation, ReLU, channel split / int8
//        channel merge, several ND matrices), the DataCopy form of the same with DataCopyCO12DstParams and the
//        SetFixpipe* registers, and DataCopy L0C -> UB with DataCopyEnhancedParams (Atlas inference).
#pragma once
#include <cmath>
#include <cstring>
#include <vector>
#include <limits>
#include <type_traits>

#include "cube.h"
#include "datacopy.h"

namespace cbemu {

// The pipe-hazard model sees an element-wise out-path as runs of contiguous bytes (one access per run, not per
// element: a 1024 x 1024 Fixpipe is 1024 row accesses in ND).
struct WriteRuns {
    hz::Scope& op;
    const uint8_t* lo = nullptr;
    const uint8_t* hi = nullptr;
    explicit WriteRuns(hz::Scope& o) : op(o) {}
    ~WriteRuns() { flush(); }
    void add(const void* p, size_t n) {
        if (!op.active()) return;
        if ((const uint8_t*)p == hi) {
            hi += n;
            return;
        }
        flush();
        lo = (const uint8_t*)p;
        hi = lo + n;
    }
    void flush() {
        if (lo) op.write(lo, (uint64_t)(hi - lo));
        lo = hi = nullptr;
    }
};

// ---- ND -> NZ (GM or UB -> L1) ----
template <typename T, typename ReadRow>
inline void nd2nz(const AscendC::LocalTensor<T>& dst, const AscendC::Nd2NzParams& p, const SrcLoc& loc,
                  const char* api, int pipe, ReadRow read_row) {
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;  // documented NOP
    constexpr uint32_t C0 = c0_of<T>();
    if (p.dstNzC0Stride == 0 || p.dstNzNStride == 0) {
        cube_bad_params(loc, api, "dstNzC0Stride and dstNzNStride must be at least 1");
        return;
    }
    const uint32_t d1 = (p.dValue + C0 - 1) / C0;  // column blocks of C0 elements
    // column block c1 occupies rows [0, nValue) at dstNzNStride apart: a block holds (nValue - 1) * NStride + 1 rows
    // of C0; the next block starts dstNzC0Stride rows later. Less than that writes one block over the other
    // ("搬运至L1 Buffer的数据不能重叠").
    uint64_t rows_used = (uint64_t)(p.nValue - 1) * p.dstNzNStride + 1;
    if (d1 > 1 && p.dstNzC0Stride < rows_used) {
        report("nd2nz_overlap", Sev::error, loc,
               "%s: dstNzC0Stride %u (in 32-byte rows) is below the %llu rows each column block of %u rows x "
               "dstNzNStride %u needs: the NZ column blocks overlap in L1 (usually dstNzC0Stride must be the row "
               "count aligned to 16)",
               api, p.dstNzC0Stride, (unsigned long long)rows_used, p.nValue, p.dstNzNStride);
    }
    uint64_t end = 0;
    for (uint32_t i = 0; i < p.ndNum; ++i) {
        uint64_t last = (uint64_t)i * p.dstNzMatrixStride + ((uint64_t)(d1 - 1) * p.dstNzC0Stride + rows_used) * C0;
        if (last > end) end = last;
    }
    if (!cube_operand(dst, mem_bit(Mem::L1), 0, end * sizeof(T), loc, api, "dst", 32)) return;
    std::vector<T> row(p.dValue);
    hz::Scope op(pipe, loc, api);  // read_row's accesses join it
    for (uint32_t i = 0; i < p.ndNum; ++i) {
        T* base = dst.addr_ + (uint64_t)i * p.dstNzMatrixStride;
        for (uint32_t r = 0; r < p.nValue; ++r) {
            read_row(row.data(), (uint64_t)i * p.srcNdMatrixStride + (uint64_t)r * p.srcDValue, p.dValue);
            for (uint32_t c1 = 0; c1 < d1; ++c1)
                op.write(base + ((uint64_t)c1 * p.dstNzC0Stride + (uint64_t)r * p.dstNzNStride) * C0, C0 * sizeof(T));
            for (uint32_t c = 0; c < d1 * C0; ++c) {
                T v;
                if (c < p.dValue) v = row[c];
                else std::memset(&v, 0, sizeof(T));  // the row is zero-padded to whole 32-byte blocks
                base[((uint64_t)(c / C0) * p.dstNzC0Stride + (uint64_t)r * p.dstNzNStride) * C0 + c % C0] = v;
            }
        }
    }
}

// ---- the out-path element conversion: quantisation, ReLU, cast (随路量化与随路ReLU场景组合.md) ----
inline float quant_scale(uint64_t q) {  // bits [31:13] of the low word: a (1, 8, 10) float
    uint32_t u = (uint32_t)q & 0xFFFFE000u;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
template <typename T>
inline T saturate_round(double v) {
    double r = std::nearbyint(v);  // ties to even, as the docs' reference does
    double lo = (double)std::numeric_limits<T>::lowest(), hi = (double)std::numeric_limits<T>::max();
    return (T)(r < lo ? lo : r > hi ? hi : r);
}

struct OutConv {
    QuantMode_t mode = QuantMode_t::NoQuant;
    uint64_t scalar = 0;
    const uint64_t* vec = nullptr;  // per-channel quant params (n-indexed)
    bool relu = false;
    uint32_t chan0 = 0;  // channel index of column 0 (for vector quant)
};

template <typename D, typename S>
inline D convert_out(S v, uint32_t n, const OutConv& c) {
    using M = QuantMode_t;
    uint64_t q = (c.mode == M::VDEQF16 || c.mode == M::VQF322B8_PRE || c.mode == M::VREQ8) && c.vec
                     ? c.vec[c.chan0 + n]
                     : c.scalar;
    switch (c.mode) {
        case M::NoQuant:
        case M::F322F16:
        case M::F322BF16: {
            double x = (double)v;
            if (c.relu && x < 0) x = 0;
            return (D)x;  // half / bfloat16_t round to nearest even once; float / int32 unchanged
        }
        case M::DEQF16:
        case M::VDEQF16:
        case M::REQ8:
        case M::VREQ8:
        case M::QF322B8_PRE:
        case M::VQF322B8_PRE: {
            double x;
            bool from_int = c.mode != M::QF322B8_PRE && c.mode != M::VQF322B8_PRE;
            if (from_int && ((q >> 36) & 1)) {  // MCB: shift right by N (1..16) and saturate to int16 first
                int64_t shift = (int64_t)((q >> 32) & 0xF) + 1;
                int64_t iv = (int64_t)v >> shift;
                x = (double)(iv < -32768 ? -32768 : iv > 32767 ? 32767 : iv);
            } else {
                x = (double)(float)v;
            }
            float m1 = quant_scale(q), m2 = c.relu ? 0.0f : m1;
            double y = (double)(float)(x * (x >= 0 ? m1 : m2));
            if (c.mode == M::DEQF16 || c.mode == M::VDEQF16) return (D)y;
            int64_t offset = (int64_t)((q >> 37) & 0x1FF);
            if (offset & 0x100) offset -= 0x200;  // 9-bit two's complement
            double s = (double)saturate_round<int16_t>(y < -256 ? -256 : y > 255 ? 255 : y) + (double)offset;
            return saturate_round<D>(s);
        }
        default:
            return (D)(double)v;
    }
}

template <typename D, typename S>
inline bool out_types_ok(QuantMode_t mode, const SrcLoc& loc, const char* api) {
    using M = QuantMode_t;
    bool ok = true;
    bool s_f = std::is_same<S, float>::value, s_i = std::is_same<S, int32_t>::value;
    switch (mode) {
        case M::NoQuant: ok = std::is_same<D, S>::value || (s_f && std::is_same<D, float>::value); break;
        case M::F322F16: ok = s_f && std::is_same<D, half>::value; break;
        case M::F322BF16: ok = s_f && std::is_same<D, bfloat16_t>::value; break;
        case M::DEQF16: case M::VDEQF16: ok = s_i && std::is_same<D, half>::value; break;
        case M::REQ8: case M::VREQ8: ok = s_i && sizeof(D) == 1; break;
        case M::QF322B8_PRE: case M::VQF322B8_PRE: ok = s_f && sizeof(D) == 1; break;
        default: ok = false;
    }
    if (!ok)
        report("cube_bad_params", Sev::error, loc,
               "%s: quantPre mode %d does not convert this L0C type (%zu-byte %s) into this destination type "
               "(%zu-byte); F322F16 / F322BF16 cast float to half / bfloat16, DEQF16 int32 to half, REQ8 int32 to "
               "int8, QF322B8_PRE float to int8, NoQuant keeps the type",
               api, (int)mode, sizeof(S), s_f ? "float" : s_i ? "int32" : "?", sizeof(D));
    return ok;
}

// The matrix out-path shared by Fixpipe and DataCopy(CO1 -> out): L0C (Nz, 16 x 16 fractals) -> ND rows or NZ
// blocks. `write(offset_in_elements, value)` stores one destination element.
struct OutShape {
    uint32_t m = 0, n = 0;       // mSize, nSize
    uint32_t src_stride = 0;     // elements between Z columns of the source (srcStride * 16)
    bool nd = true;              // NZ2ND, else NZ out
    uint64_t dst_stride = 0;     // ND: elements per destination row; NZ: bytes between destination Z columns
    uint32_t nd_num = 1;
    uint64_t src_nd = 0;         // elements between source matrices
    uint64_t dst_nd = 0;         // elements between destination matrices
    bool channel_split = false;  // float NZ out in 16 x 8 fractals
};

template <typename D, typename S, typename W>
inline void fixpipe_core(const S* src, const OutShape& sh, const OutConv& conv, W write) {
    for (uint32_t i = 0; i < sh.nd_num; ++i) {
        const S* s = src + i * sh.src_nd;
        for (uint32_t mm = 0; mm < sh.m; ++mm)
            for (uint32_t nn = 0; nn < sh.n; ++nn) {
                S v = s[(size_t)(nn / 16) * sh.src_stride + (size_t)mm * 16 + nn % 16];
                D out = convert_out<D, S>(v, nn, conv);
                uint64_t at;
                if (sh.nd) {
                    at = i * sh.dst_nd + (uint64_t)mm * sh.dst_stride + nn;
                } else {
                    // destination Z columns: 16 wide; 8 for float channel split; 32 for int8 channel merge, where
                    // an odd count of 16-channel groups leaves the last group 16 wide
                    uint32_t w = sh.channel_split ? 8 : 16, blk, lo, width = w;
                    if (sizeof(D) == 1) {
                        uint32_t merged = ((sh.n + 15) / 16) / 2 * 32;
                        blk = nn < merged ? nn / 32 : merged / 32;
                        lo = blk * 32;
                        width = nn < merged ? 32 : 16;
                    } else {
                        blk = nn / w;
                        lo = blk * w;
                    }
                    at = i * sh.dst_nd + (blk * sh.dst_stride) / sizeof(D) + (uint64_t)mm * width + (nn - lo);
                }
                write(at, out);
            }
    }
}

// Bytes [0, end) of the destination the out-path writes (elements of D).
inline uint64_t out_extent(const OutShape& sh, size_t dsize) {
    uint64_t last = 0;
    if (sh.nd) {
        last = (sh.nd_num - 1) * sh.dst_nd + (uint64_t)(sh.m - 1) * sh.dst_stride + sh.n;
    } else {
        uint32_t w = sh.channel_split ? 8 : dsize == 1 ? 32 : 16;
        uint32_t blocks = (sh.n + w - 1) / w;
        last = (sh.nd_num - 1) * sh.dst_nd + ((blocks - 1) * sh.dst_stride) / dsize + (uint64_t)sh.m * w;
    }
    return last * dsize;
}

// Bytes [0, end) of L0C the out-path reads.
inline uint64_t out_src_bytes(const OutShape& sh, size_t ssize) {
    return ((sh.nd_num - 1) * sh.src_nd + (uint64_t)((sh.n + 15) / 16 - 1) * sh.src_stride + (uint64_t)sh.m * 16) *
           ssize;
}

template <typename D, typename S>
inline bool out_src_ok(const AscendC::LocalTensor<S>& src, const OutShape& sh, const SrcLoc& loc, const char* api) {
    if (sh.m == 0 || sh.n == 0 || sh.nd_num == 0) return false;  // documented NOP
    if (sh.src_stride < (sh.m + 15) / 16 * 16) {
        report("cube_bad_params", Sev::error, loc,
               "%s: srcStride %u (in 16-element rows) is below mSize %u rounded up to 16: Z columns of the L0C "
               "matrix would overlap", api, sh.src_stride / 16, sh.m);
        return false;
    }
    if (!sh.nd && !sh.channel_split && sh.n % 16) {
        report("fractal_shape", Sev::error, loc, "%s: nSize %u must be a multiple of 16 for an NZ destination", api,
               sh.n);
        return false;
    }
    if (sh.channel_split && sh.n % 8) {
        report("fractal_shape", Sev::error, loc, "%s: nSize %u must be a multiple of 8 with channel split", api, sh.n);
        return false;
    }
    uint64_t src_end = ((sh.nd_num - 1) * sh.src_nd + (uint64_t)((sh.n + 15) / 16 - 1) * sh.src_stride +
                        (uint64_t)sh.m * 16) * sizeof(S);
    return cube_operand(src, mem_bit(Mem::L0C), 0, src_end, loc, api, "src (L0C)", 64);
}

template <typename D, typename S>
inline void fixpipe_to_gm(const AscendC::GlobalTensor<D>& dst, const AscendC::LocalTensor<S>& src, const OutShape& sh,
                          const OutConv& conv, const SrcLoc& loc, const char* api) {
    if (!out_types_ok<D, S>(conv.mode, loc, api) || !out_src_ok<D, S>(src, sh, loc, api)) return;
    uint64_t bytes = out_extent(sh, sizeof(D));
    uint64_t valid = dst.check_span(dst.addr_, bytes, loc, api);
    int mode = ctx().atomic;
    hz::Scope op(hz::P_FIX, loc, api, mode ? hz::F_ATOMIC : 0);  // L0C -> GM: PIPE_FIX
    op.read(src.addr_, out_src_bytes(sh, sizeof(S)));
    WriteRuns runs(op);
    bool warned = false;  // atomic_onto_poison: one finding per call is enough (a report formats and locks)
    fixpipe_core<D, S>(src.addr_, sh, conv, [&](uint64_t at, D v) {
        if ((at + 1) * sizeof(D) > valid) return;
        D* p = dst.addr_ + at;
        runs.add(p, sizeof(D));
        if (mode == 0) {
            *p = v;
        } else {
            warned = warned || warn_atomic_onto_poison((const uint8_t*)p, sizeof(D), sizeof(D), loc, api);
            std::lock_guard<std::mutex> g(atomic_mutex());
            if (mode == 1) *p = (D)((double)*p + (double)v);
            else if (mode == 2) *p = (double)v > (double)*p ? v : *p;
            else *p = (double)v < (double)*p ? v : *p;
        }
    });
}

template <typename D, typename S>
inline void fixpipe_to_local(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
                             const OutShape& sh, const OutConv& conv, const SrcLoc& loc, const char* api) {
    if (!out_types_ok<D, S>(conv.mode, loc, api) || !out_src_ok<D, S>(src, sh, loc, api)) return;
    uint32_t allowed = mem_bit(Mem::L1) | mem_bit(Mem::UB);
    if (!cube_operand(dst, allowed, 0, out_extent(sh, sizeof(D)), loc, api, "dst", 32)) return;
    hz::Scope op(hz::P_FIX, loc, api);  // L0C -> L1 / UB: PIPE_FIX
    op.read(src.addr_, out_src_bytes(sh, sizeof(S)));
    WriteRuns runs(op);
    bool warned = false;  // atomic_onto_poison: one finding per call is enough (a report formats and locks)
    fixpipe_core<D, S>(src.addr_, sh, conv, [&](uint64_t at, D v) {
        runs.add(dst.addr_ + at, sizeof(D));
        dst.addr_[at] = v;
    });
}

inline OutShape shape_v220(const AscendC::FixpipeParamsV220& p, bool nd, size_t dsize) {
    OutShape sh;
    sh.m = p.mSize;
    sh.n = p.nSize;
    sh.src_stride = (uint32_t)p.srcStride * 16;
    sh.nd = nd;
    sh.dst_stride = nd ? p.dstStride : (uint64_t)p.dstStride * 32;
    sh.nd_num = nd ? p.ndNum : 1;
    sh.src_nd = (uint64_t)p.srcNdStride * 256;  // V220: in fractals (16 x C0_Size)
    sh.dst_nd = p.dstNdStride;
    sh.channel_split = !nd && p.isChannelSplit && dsize == 4;
    return sh;
}

// The per-channel quant params of the vector modes: the cbufWorkspace (L1) of Fixpipe, else the FB address set by
// SetFixPipeConfig.
template <typename Q>
inline const uint64_t* quant_vector(const AscendC::LocalTensor<Q>* ws, QuantMode_t mode, uint32_t n,
                                    const SrcLoc& loc, const char* api) {
    bool vec = mode == QuantMode_t::VDEQF16 || mode == QuantMode_t::VQF322B8_PRE || mode == QuantMode_t::VREQ8;
    if (!vec) return nullptr;
    if (ws) {
        if (!cube_operand(*ws, mem_bit(Mem::L1), 0, (uint64_t)n * 8, loc, api, "cbufWorkspace (quant params)", 32))
            return nullptr;
        return (const uint64_t*)(const void*)ws->addr_;
    }
    if (!cube_regs().quant_vec)
        report("cube_bad_params", Sev::error, loc,
               "%s: a vector quant mode without quant params (pass cbufWorkspace, or SetFixPipeConfig first)", api);
    return cube_regs().quant_vec;
}

}  // namespace cbemu

namespace AscendC {

// ---- GM / UB -> L1 with ND2NZ ----
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p, CBEMU_LOC) {
    cbemu::nd2nz(dst, p, loc, "DataCopy (ND2NZ)", cbemu::hz::P_MTE2, [&](T* row, uint64_t off, uint32_t n) {
        std::memset((void*)row, 0, n * sizeof(T));
        cbemu::hz::Scope in(cbemu::hz::P_MTE2, loc, "DataCopy (ND2NZ)");
        in.read(src.addr_ + off, (uint64_t)n * sizeof(T));
        cbemu::gm_read((uint8_t*)row, src, (const uint8_t*)(src.addr_ + off), (uint64_t)n * sizeof(T), loc,
                       "DataCopy (ND2NZ)");
    });
}
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Nd2NzParams& p, CBEMU_LOC) {
    const char* api = "DataCopy (ND2NZ)";
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    uint64_t src_end = ((uint64_t)(p.ndNum - 1) * p.srcNdMatrixStride + (uint64_t)(p.nValue - 1) * p.srcDValue +
                        p.dValue) * sizeof(T);
    if (!cbemu::cube_operand(src, cbemu::mem_bit(cbemu::Mem::UB), 0, src_end, loc, api, "src", 32)) return;
    cbemu::nd2nz(dst, p, loc, api, cbemu::hz::P_MTE3, [&](T* row, uint64_t off, uint32_t n) {
        cbemu::hz::Scope in(cbemu::hz::P_MTE3, loc, api);  // UB -> L1: PIPE_MTE3
        in.read(src.addr_ + off, (uint64_t)n * sizeof(T));
        std::memcpy((void*)row, (const void*)(src.addr_ + off), n * sizeof(T));
    });
}

// ---- Fixpipe: L0C -> GM / L1 ----
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p, CBEMU_LOC) {
    bool nd = config.format == CO2Layout::ROW_MAJOR;
    if (config.format == CO2Layout::COLUMN_MAJOR) {
        cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "Fixpipe CFG_COLUMN_MAJOR (NZ2DN: Ascend 950 only)");
        return;
    }
    cbemu::OutConv conv;
    conv.mode = p.quantPre;
    conv.scalar = p.deqScalar;
    conv.relu = p.reluEn;
    conv.vec = cbemu::quant_vector<uint64_t>(nullptr, p.quantPre, p.nSize, loc, "Fixpipe");
    cbemu::unit_flag_sync(false, p.unitFlag);
    cbemu::fixpipe_to_gm<T, U>(dst, src, cbemu::shape_v220(p, nd, sizeof(T)), conv, loc, "Fixpipe");
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParamsV220& p, CBEMU_LOC) {
    bool nd = config.format == CO2Layout::ROW_MAJOR;
    cbemu::OutConv conv;
    conv.mode = p.quantPre;
    conv.scalar = p.deqScalar;
    conv.relu = p.reluEn;
    conv.vec = cbemu::quant_vector(&cbufWorkspace, p.quantPre, p.nSize, loc, "Fixpipe");
    cbemu::unit_flag_sync(false, p.unitFlag);
    cbemu::fixpipe_to_gm<T, U>(dst, src, cbemu::shape_v220(p, nd, sizeof(T)), conv, loc, "Fixpipe");
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p, CBEMU_LOC) {
    bool nd = config.format == CO2Layout::ROW_MAJOR;
    cbemu::OutConv conv;
    conv.mode = p.quantPre;
    conv.scalar = p.deqScalar;
    conv.relu = p.reluEn;
    conv.vec = cbemu::quant_vector<uint64_t>(nullptr, p.quantPre, p.nSize, loc, "Fixpipe");
    cbemu::unit_flag_sync(false, p.unitFlag);
    cbemu::fixpipe_to_local<T, U>(dst, src, cbemu::shape_v220(p, nd, sizeof(T)), conv, loc, "Fixpipe");
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParamsV220& p, CBEMU_LOC) {
    bool nd = config.format == CO2Layout::ROW_MAJOR;
    cbemu::OutConv conv;
    conv.mode = p.quantPre;
    conv.scalar = p.deqScalar;
    conv.relu = p.reluEn;
    conv.vec = cbemu::quant_vector(&cbufWorkspace, p.quantPre, p.nSize, loc, "Fixpipe");
    cbemu::unit_flag_sync(false, p.unitFlag);
    cbemu::fixpipe_to_local<T, U>(dst, src, cbemu::shape_v220(p, nd, sizeof(T)), conv, loc, "Fixpipe");
}
// The older FixpipeParams form: not modelled (its burst units differ per product and are not documented for A2).
template <typename T, typename U>
inline void Fixpipe(const GlobalTensor<T>&, const LocalTensor<U>&, const FixpipeParams<U>&, CBEMU_LOC) {
    cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "Fixpipe with the older FixpipeParams<T> form");
}

// ---- the registers of the DataCopy form of the out-path ----
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride) {
    cbemu::cube_regs().nd_num = ndNum;
    cbemu::cube_regs().src_nd_stride = srcNdStride;
    cbemu::cube_regs().dst_nd_stride = dstNdStride;
}
inline void SetFixpipePreQuantFlag(uint64_t config) { cbemu::cube_regs().quant_pre = config; }
inline void SetFixPipeClipRelu(uint64_t config) {
    cbemu::cube_regs().clip_relu_set = true;
    cbemu::cube_regs().clip_relu = config;
}
template <typename T, bool setRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false) {
    (void)reluPre;
    (void)isUnitFlag;
    cbemu::cube_regs().quant_vec = (const uint64_t*)(const void*)quantPre.addr_;
}
template <typename T, bool setRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false) {
    (void)isUnitFlag;
    if (cbemu::mem_of_tensor(preData) == cbemu::Mem::FB)
        cbemu::cube_regs().quant_vec = (const uint64_t*)(const void*)preData.addr_;
}

// ---- DataCopy L0C -> GM / L1 (DataCopyCO12DstParams + the registers above) ----
template <typename T, typename U>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p,
                     CBEMU_LOC) {
    cbemu::OutShape sh;
    sh.m = p.mSize;
    sh.n = p.nSize;
    sh.src_stride = (uint32_t)p.srcStride * 16;
    sh.nd = p.nz2ndEn;
    sh.dst_stride = p.nz2ndEn ? p.dstStride : (uint64_t)p.dstStride * 32;
    sh.nd_num = p.nz2ndEn ? cbemu::cube_regs().nd_num : 1;
    sh.src_nd = (uint64_t)cbemu::cube_regs().src_nd_stride * 256;
    sh.dst_nd = cbemu::cube_regs().dst_nd_stride;
    sh.channel_split = !p.nz2ndEn && p.channelSplit && sizeof(T) == 4;
    cbemu::OutConv conv;
    conv.mode = p.quantPre;
    conv.scalar = cbemu::cube_regs().quant_pre;
    conv.relu = p.reluPre != 0;
    conv.vec = cbemu::quant_vector<uint64_t>(nullptr, p.quantPre, p.nSize, loc, "DataCopy (L0C)");
    cbemu::fixpipe_to_gm<T, U>(dst, src, sh, conv, loc, "DataCopy (L0C)");
}
template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p,
                     CBEMU_LOC) {
    cbemu::OutShape sh;
    sh.m = p.mSize;
    sh.n = p.nSize;
    sh.src_stride = (uint32_t)p.srcStride * 16;
    sh.nd = p.nz2ndEn;
    sh.dst_stride = p.nz2ndEn ? p.dstStride : (uint64_t)p.dstStride * 32;
    sh.nd_num = p.nz2ndEn ? cbemu::cube_regs().nd_num : 1;
    sh.src_nd = (uint64_t)cbemu::cube_regs().src_nd_stride * 256;
    sh.dst_nd = cbemu::cube_regs().dst_nd_stride;
    sh.channel_split = !p.nz2ndEn && p.channelSplit && sizeof(T) == 4;
    cbemu::OutConv conv;
    conv.mode = p.quantPre;
    conv.scalar = cbemu::cube_regs().quant_pre;
    conv.relu = p.reluPre != 0;
    conv.vec = cbemu::quant_vector<uint64_t>(nullptr, p.quantPre, p.nSize, loc, "DataCopy (L0C)");
    cbemu::fixpipe_to_local<T, U>(dst, src, sh, conv, loc, "DataCopy (L0C)");
}

// ---- DataCopy L0C -> UB (Atlas inference: CO1 -> CO2), BLOCK_MODE_MATRIX / VECTOR, DEQ_NONE / DEQ ----
template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p,
                     const DataCopyEnhancedParams& e, CBEMU_LOC) {
    const char* api = "DataCopy (L0C -> UB)";
    using cbemu::Mem;
    if (p.blockCount == 0 || p.blockLen == 0) return;
    bool matrix = e.blockMode == BlockMode::BLOCK_MODE_MATRIX;
    if (!matrix && e.blockMode != BlockMode::BLOCK_MODE_VECTOR) {
        cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "%s with a block mode other than MATRIX / VECTOR",
                      api);
        return;
    }
    if (e.deqScale != DeqScale::DEQ_NONE && e.deqScale != DeqScale::DEQ) {
        cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "%s with deqScale other than DEQ_NONE / DEQ", api);
        return;
    }
    // src unit: a 16 x 16 fractal (MATRIX) or one 16-element row (VECTOR) of U; src stride in fractals; dst stride
    // in 32-byte blocks of the destination
    uint64_t unit = matrix ? 256 : 16;
    uint64_t sstep = (uint64_t)p.blockLen * unit + (uint64_t)p.srcStride * 256;  // elements of U
    uint64_t dstep = (uint64_t)p.blockLen * unit * sizeof(T) + (uint64_t)p.dstStride * 32;  // bytes
    uint64_t src_end = ((uint64_t)(p.blockCount - 1) * sstep + (uint64_t)p.blockLen * unit) * sizeof(U);
    uint64_t dst_end = (uint64_t)(p.blockCount - 1) * dstep + (uint64_t)p.blockLen * unit * sizeof(T);
    if (!cbemu::cube_operand(src, cbemu::mem_bit(Mem::L0C), 0, src_end, loc, api, "src", 64) ||
        !cbemu::cube_operand(dst, cbemu::mem_bit(Mem::UB), 0, dst_end, loc, api, "dst", 32))
        return;
    float scale = e.deqScale == DeqScale::DEQ ? cbemu::quant_scale(e.deqValue) : 1.0f;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, api);  // CO1 -> CO2 on the coupled 310P: the vector unit's move
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        const U* s = src.addr_ + (uint64_t)b * sstep;
        T* d = (T*)((uint8_t*)dst.addr_ + (uint64_t)b * dstep);
        op.read(s, (uint64_t)p.blockLen * unit * sizeof(U));
        op.write(d, (uint64_t)p.blockLen * unit * sizeof(T));
        for (uint64_t i = 0; i < (uint64_t)p.blockLen * unit; ++i) {
            double x = (double)(float)s[i];
            if (e.deqScale == DeqScale::DEQ) x = (double)(float)(x * scale);
            if (e.isRelu && x < 0) x = 0;
            d[i] = (T)x;
        }
    }
}

}  // namespace AscendC

namespace cbemu {
// Local -> local DataCopy with DataCopyParams where a cube memory makes the units differ (called first by
// datacopy.h's UB-to-UB form): L1 -> BiasTable (blocks of 64 B of the destination, converting half -> float),
// L1 -> Fixpipe buffer (blocks of 128 B, gaps head to head). Returns false when it is an ordinary 32-byte copy.
template <typename T, typename U>
inline bool cube_local_copy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                            const AscendC::DataCopyParams& p, const SrcLoc& loc) {
    Mem dm = mem_of_tensor(dst), sm = mem_of_tensor(src);
    if (dm == Mem::L0C && sm == Mem::UB) {
        report("unsupported_api", Sev::fatal, loc, "DataCopy UB -> L0C");
        return true;
    }
    if (sm == Mem::L0C) {
        report("cube_bad_params", Sev::error, loc,
               "DataCopy from L0C needs DataCopyEnhancedParams (-> UB) or DataCopyCO12DstParams (-> GM / L1)");
        return true;
    }
    if (dm != Mem::BT && dm != Mem::FB) return false;
    const char* api = dm == Mem::BT ? "DataCopy (L1 -> BiasTable)" : "DataCopy (L1 -> Fixpipe buffer)";
    if (p.blockCount == 0 || p.blockLen == 0) return true;
    uint64_t dunit = dm == Mem::BT ? 64 : 128;
    uint64_t dblk = p.blockLen * dunit;                     // destination bytes per block
    uint64_t sblk = dblk / sizeof(T) * sizeof(U);           // source bytes per block
    uint64_t sstep = dm == Mem::BT ? sblk + p.srcStride * 32 : p.srcStride * 32;  // FB: head to head
    uint64_t dstep = dm == Mem::BT ? dblk + p.dstStride * dunit : p.dstStride * dunit;
    if (dm == Mem::FB && p.blockCount > 1 && (sstep == 0 || dstep == 0)) sstep = sstep ? sstep : sblk;
    uint64_t s_end = (uint64_t)(p.blockCount - 1) * sstep + sblk, d_end = (uint64_t)(p.blockCount - 1) * dstep + dblk;
    if (!cube_operand(dst, mem_bit(dm), 0, d_end, loc, api, "dst") ||
        !cube_operand(src, mem_bit(Mem::L1), 0, s_end, loc, api, "src", 32))
        return true;
    hz::Scope op(hz::P_MTE1, loc, api);  // L1 -> bias table / fixpipe buffer (GetQueEvt: MTE1_M, MTE1_FIX)
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        const U* s = (const U*)((const uint8_t*)src.addr_ + b * sstep);
        T* d = (T*)((uint8_t*)dst.addr_ + b * dstep);
        op.read(s, sblk);
        // the converted block first, so the hazard model sees what the write stores (a bias copied again into the
        // table it is already in changes nothing, whatever the order)
        std::vector<T> block(dblk / sizeof(T));
        for (uint64_t i = 0; i < block.size(); ++i) block[i] = (T)(double)s[i];
        op.write(d, dblk, block.data());
        std::memcpy((void*)d, (const void*)block.data(), dblk);
    }
    return true;
}
}  // namespace cbemu

namespace AscendC {
// L1 (half) -> BiasTable (float): the mixed-type form of the bias copy.
template <typename T, typename U, typename std::enable_if<!std::is_same<T, U>::value, bool>::type = true>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p, CBEMU_LOC) {
    if (!cbemu::cube_local_copy(dst, src, p, loc))
        cbemu::report("cube_bad_params", cbemu::Sev::error, loc,
                      "DataCopy between different types is only the L1 -> BiasTable path");
}
}  // namespace AscendC
