// half / bfloat16_t storage types with IEEE round-to-nearest-even on every store, and the
// directed rounding used by Cast (floor, ceil, ties-away, trunc, odd). Written from the
// IEEE 754 binary16 / bfloat16 definitions; no vendor code.
#pragma once
#include <cstdint>
#include <cstring>
#include <cmath>
#include <limits>
#include <type_traits>

namespace cbemu {

// A small binary float format: F fraction bits, E exponent bits (half: 10/5, bf16: 7/8).
template <int F, int E>
struct SmallFloat {
    static constexpr int bias = (1 << (E - 1)) - 1;
    static constexpr int emin = 1 - bias;
    static constexpr uint32_t exp_mask = (1u << E) - 1;
    static constexpr uint32_t inf_bits = exp_mask << F;
    static constexpr uint32_t sign_bit = 1u << (F + E);

    // Correctly rounded (nearest, ties to even) conversion from a double.
    // constexpr (a bit cast, not memcpy): kernels write `constexpr half ONE = 1.0f;`
    static constexpr uint32_t from_double(double x) {
        uint64_t u = __builtin_bit_cast(uint64_t, x);
        uint32_t sign = (uint32_t)(u >> 63) ? sign_bit : 0u;
        uint64_t a = u & 0x7fffffffffffffffull;
        int bexp = (int)(a >> 52);
        uint64_t m = a & 0xfffffffffffffull;
        if (bexp == 0x7ff) {  // inf / nan (keep nan quiet)
            return sign | inf_bits | (m ? (1u << (F - 1)) : 0u);
        }
        if (a == 0) return sign;
        int e = 0;
        if (bexp == 0) {
            e = -1022;
        } else {
            e = bexp - 1023;
            m |= (1ull << 52);
        }
        // value = m * 2^(e-52); the target quantum is 2^(max(e,emin)-F)
        int ec = e < emin ? emin : e;
        int shift = (ec - F) - (e - 52);  // >= 1 for any double
        uint64_t n = 0, rem = 0, halfway = 0;
        bool sticky_only = false;
        if (shift >= 64) {
            n = 0; rem = m; halfway = 0; sticky_only = true;
        } else {
            n = m >> shift;
            rem = m & ((1ull << shift) - 1);
            halfway = 1ull << (shift - 1);
        }
        if (!sticky_only) {
            if (rem > halfway || (rem == halfway && (n & 1))) n++;
        }
        // ec >= emin so the exponent field below is >= 0; a carry out of n bumps the exponent
        uint64_t bits = ((uint64_t)(ec + bias - 1) << F) + n;
        if (bits >= inf_bits) return sign | inf_bits;
        return sign | (uint32_t)bits;
    }

    static double to_double(uint32_t b) {
        uint32_t sign = b & sign_bit;
        uint32_t ex = (b >> F) & exp_mask;
        uint32_t fr = b & ((1u << F) - 1);
        double v;
        if (ex == exp_mask) {
            v = fr ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
        } else if (ex == 0) {
            v = std::ldexp((double)fr, emin - F);
        } else {
            v = std::ldexp((double)(fr | (1u << F)), (int)ex - bias - F);
        }
        return sign ? -v : v;
    }
    static bool is_nan(uint32_t b) { return ((b >> F) & exp_mask) == exp_mask && (b & ((1u << F) - 1)); }
    // Neighbouring representable values (towards +inf / -inf).
    static uint32_t next_up(uint32_t b) {
        if (b & sign_bit) return b == sign_bit ? 1u : b - 1;
        return b == inf_bits ? b : b + 1;
    }
    static uint32_t next_down(uint32_t b) {
        if (!(b & sign_bit)) return b == 0 ? (sign_bit | 1u) : b - 1;
        return b == (sign_bit | inf_bits) ? b : b + 1;
    }
};

using HalfFmt = SmallFloat<10, 5>;
using Bf16Fmt = SmallFloat<7, 8>;

}  // namespace cbemu

struct bfloat16_t;

// IEEE binary16. Stores round to nearest even; arithmetic goes through float, which is exact
// enough that + - * / sqrt of two halves rounded once back to half is correctly rounded.
struct half {
    uint16_t bits_;
    half() = default;
    template <typename U, typename std::enable_if<std::is_arithmetic<U>::value, int>::type = 0>
    constexpr half(U v) : bits_((uint16_t)cbemu::HalfFmt::from_double((double)v)) {}
    inline half(const bfloat16_t& v);
    static half from_bits(uint16_t b) { half h; h.bits_ = b; return h; }
    operator float() const { return (float)cbemu::HalfFmt::to_double(bits_); }
    template <typename U> half& operator+=(const U& o) { *this = half((float)*this + (float)o); return *this; }
    template <typename U> half& operator-=(const U& o) { *this = half((float)*this - (float)o); return *this; }
    template <typename U> half& operator*=(const U& o) { *this = half((float)*this * (float)o); return *this; }
    template <typename U> half& operator/=(const U& o) { *this = half((float)*this / (float)o); return *this; }
};

struct bfloat16_t {
    uint16_t bits_;
    bfloat16_t() = default;
    template <typename U, typename std::enable_if<std::is_arithmetic<U>::value, int>::type = 0>
    constexpr bfloat16_t(U v) : bits_((uint16_t)cbemu::Bf16Fmt::from_double((double)v)) {}
    bfloat16_t(const half& h) : bits_((uint16_t)cbemu::Bf16Fmt::from_double((double)(float)h)) {}
    static bfloat16_t from_bits(uint16_t b) { bfloat16_t h; h.bits_ = b; return h; }
    operator float() const { return (float)cbemu::Bf16Fmt::to_double(bits_); }
    template <typename U> bfloat16_t& operator+=(const U& o) { *this = bfloat16_t((float)*this + (float)o); return *this; }
    template <typename U> bfloat16_t& operator-=(const U& o) { *this = bfloat16_t((float)*this - (float)o); return *this; }
    template <typename U> bfloat16_t& operator*=(const U& o) { *this = bfloat16_t((float)*this * (float)o); return *this; }
    template <typename U> bfloat16_t& operator/=(const U& o) { *this = bfloat16_t((float)*this / (float)o); return *this; }
};
inline half::half(const bfloat16_t& v) : bits_((uint16_t)cbemu::HalfFmt::from_double((double)(float)v)) {}

// The device compiler's name for the half type (kernels spell `float16_t`, as they spell `float32_t`).
using float16_t = half;
