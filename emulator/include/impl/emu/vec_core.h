// The vector unit model: the mask register (normal / counter mode), the repeat iteration
// (256-byte repeats of eight 32-byte blocks with block and repeat strides), and conversions.
#pragma once
#include <cmath>
#include <limits>
#include <type_traits>

#include "../basic_api/datacopy.h"

namespace cbemu {

template <typename T> struct is_small_float : std::false_type {};
template <> struct is_small_float<half> : std::true_type {};
template <> struct is_small_float<bfloat16_t> : std::true_type {};

template <typename T>
using calc_t = typename std::conditional<is_small_float<T>::value, float, T>::type;

// Saturation mode of half / bf16 results (SetCtrlSpr(ISASI).md, CTRL[48] = 0 by default on A2): an inf result is
// +-MAX, a NaN result is 0 -- for the vector unit's arithmetic and for conversions into half / bf16.
inline bool float_saturation() { return soc().float_saturation && !((ctx().ctrl >> 48) & 1); }
template <typename T>
inline T saturate(T r, bool sat) {
    if constexpr (is_small_float<T>::value) {
        if (!sat) return r;
        using Fmt = typename std::conditional<std::is_same<T, half>::value, HalfFmt, Bf16Fmt>::type;
        uint32_t b = r.bits_;
        if (((b >> 0) & ~Fmt::sign_bit) == Fmt::inf_bits) return T::from_bits((uint16_t)((b & Fmt::sign_bit) | (Fmt::inf_bits - 1)));
        if (Fmt::is_nan(b)) return T::from_bits(0);
        return r;
    } else {
        (void)sat;
        return r;
    }
}

// The mask a high-dimension call uses: either given to the call (and written to the mask
// register, as the hardware does) or read from the register (isSetMask == false).
struct Mask {
    uint64_t hi, lo;
};
inline Mask mask_from_count(uint64_t n) {
    if (ctx().counter_mode) return Mask{0, n};
    if (n >= 128) return Mask{~0ull, ~0ull};
    if (n >= 64) return Mask{n == 64 ? 0 : ((1ull << (n - 64)) - 1), ~0ull};
    return Mask{0, n == 0 ? 0 : ((1ull << n) - 1)};
}
inline Mask use_mask(bool set, uint64_t n) {
    if (set) {
        Mask m = mask_from_count(n);
        ctx().mask_hi = m.hi;
        ctx().mask_lo = m.lo;
    }
    return Mask{ctx().mask_hi, ctx().mask_lo};
}
inline Mask use_mask(bool set, const uint64_t* m) {
    if (set) {
        ctx().mask_lo = m[0];
        ctx().mask_hi = ctx().counter_mode ? 0 : m[1];
    }
    return Mask{ctx().mask_hi, ctx().mask_lo};
}

// Calls f(r, j) for every active element j of every repeat r. epr = elements per repeat.
template <typename F>
inline void for_each_active(const Mask& m, uint32_t repeat, uint32_t epr, F f) {
    if (ctx().counter_mode) {
        uint64_t left = m.lo;
        for (uint32_t r = 0; left > 0; ++r) {
            uint32_t n = left < epr ? (uint32_t)left : epr;
            for (uint32_t j = 0; j < n; ++j) f(r, j);
            left -= n;
        }
        return;
    }
    uint32_t lim = epr < 128 ? epr : 128;
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j = 0; j < lim; ++j) {
            bool on = j < 64 ? ((m.lo >> j) & 1) : ((m.hi >> (j - 64)) & 1);
            if (on) f(r, j);
        }
    }
}

// Element offset of logical element j of repeat r for an operand with the given strides (in blocks).
template <typename T>
inline uint64_t rep_index(uint32_t r, uint32_t j, uint32_t blk_stride, uint32_t rep_stride) {
    constexpr uint32_t epb = 32 / sizeof(T);
    return ((uint64_t)r * rep_stride + (uint64_t)(j / epb) * blk_stride) * epb + j % epb;
}

// Highest element touched (exclusive) per operand, to bounds-check before writing.
template <typename T>
inline uint64_t rep_extent(const Mask& m, uint32_t repeat, uint32_t epr, uint32_t blk, uint32_t rep) {
    uint64_t hi = 0;
    for_each_active(m, repeat, epr, [&](uint32_t r, uint32_t j) {
        uint64_t x = rep_index<T>(r, j, blk, rep) + 1;
        if (x > hi) hi = x;
    });
    return hi;
}

template <typename T>
inline bool check_count(const AscendC::LocalTensor<T>& t, int64_t count, const SrcLoc& loc, const char* api) {
    if (count <= 0) return false;
    return check_ub(t, 0, (uint64_t)count * sizeof(T), loc, api);
}

// ---- conversions with a rounding mode (Cast) ----
inline double round_int(double x, AscendC::RoundMode mode) {
    using AscendC::RoundMode;
    switch (mode) {
        case RoundMode::CAST_FLOOR: return std::floor(x);
        case RoundMode::CAST_CEIL: return std::ceil(x);
        case RoundMode::CAST_ROUND: return std::round(x);  // ties away from zero
        case RoundMode::CAST_TRUNC: return std::trunc(x);
        default: return std::nearbyint(x);                 // ties to even (default FE mode)
    }
}

// Round x to the small float format with the given mode, using its two neighbours.
template <typename Fmt>
inline uint32_t round_small(double x, AscendC::RoundMode mode) {
    using AscendC::RoundMode;
    uint32_t h = Fmt::from_double(x);
    if (std::isnan(x) || std::isinf(x)) return h;
    double v = Fmt::to_double(h);
    if (v == x || mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT) return h;
    uint32_t lo, hi;
    if (v < x) { lo = h; hi = Fmt::next_up(h); } else { hi = h; lo = Fmt::next_down(h); }
    double lv = Fmt::to_double(lo), hv = Fmt::to_double(hi);
    // past the largest finite value, measure the distance to where the next binade would start
    double maxf = Fmt::to_double(Fmt::inf_bits - 1);
    if (std::isinf(hv)) hv = maxf + (maxf - Fmt::to_double(Fmt::inf_bits - 2));
    if (std::isinf(lv)) lv = -(maxf + (maxf - Fmt::to_double(Fmt::inf_bits - 2)));
    switch (mode) {
        case RoundMode::CAST_FLOOR: return lo;
        case RoundMode::CAST_CEIL: return hi;
        case RoundMode::CAST_TRUNC: return x > 0 ? lo : hi;
        case RoundMode::CAST_ODD: return (lo & 1) ? lo : hi;
        case RoundMode::CAST_ROUND: {
            double dl = x - lv, dh = hv - x;
            if (dl < dh) return lo;
            if (dh < dl) return hi;
            return x > 0 ? hi : lo;
        }
        default: return h;
    }
}

inline float round_float(double x, AscendC::RoundMode mode) {
    using AscendC::RoundMode;
    float f = (float)x;
    if (std::isnan(x) || (double)f == x || mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT) return f;
    float lo, hi;
    if ((double)f < x) { lo = f; hi = std::nextafter(f, std::numeric_limits<float>::infinity()); }
    else { hi = f; lo = std::nextafter(f, -std::numeric_limits<float>::infinity()); }
    switch (mode) {
        case RoundMode::CAST_FLOOR: return lo;
        case RoundMode::CAST_CEIL: return hi;
        case RoundMode::CAST_TRUNC: return x > 0 ? lo : hi;
        case RoundMode::CAST_ODD: {
            uint32_t b; std::memcpy(&b, &lo, 4);
            return (b & 1) ? lo : hi;
        }
        case RoundMode::CAST_ROUND: {
            double dl = x - lo, dh = hi - x;
            if (dl < dh) return lo;
            if (dh < dl) return hi;
            return x > 0 ? hi : lo;
        }
        default: return f;
    }
}

template <typename D>
inline D convert(double x, AscendC::RoundMode mode) {
    if constexpr (std::is_same<D, half>::value) {
        return half::from_bits((uint16_t)round_small<HalfFmt>(x, mode));
    } else if constexpr (std::is_same<D, bfloat16_t>::value) {
        return bfloat16_t::from_bits((uint16_t)round_small<Bf16Fmt>(x, mode));
    } else if constexpr (std::is_same<D, float>::value) {
        return round_float(x, mode);
    } else if constexpr (std::is_floating_point<D>::value) {
        return (D)x;
    } else {
        // integers: round, then saturate; NaN becomes 0
        if (std::isnan(x)) return 0;
        double r = round_int(x, mode);
        if (r <= (double)std::numeric_limits<D>::min()) return std::numeric_limits<D>::min();
        if (r >= (double)std::numeric_limits<D>::max()) return std::numeric_limits<D>::max();
        return (D)r;
    }
}

template <typename T>
inline double to_double(const T& v) {
    if constexpr (is_small_float<T>::value) return (double)(float)v;
    else return (double)v;
}

}  // namespace cbemu
