// PhiloxRandom (docs: SIMD-API/高阶API/随机函数/PhiloxRandom): the Philox4x32 counter-based generator
// (Salmon et al., SC'11): each 128-bit counter value gives four 32-bit outputs after `Rounds` rounds; the key is
// bumped by the Weyl constants between rounds. float outputs are uniform in [0, 1): the 23 low bits as mantissa.
#pragma once
#include <cstring>

#include "core.h"

namespace AscendC {

using PhiloxKey = uint32_t[2];
using PhiloxCounter = uint32_t[4];
struct PhiloxRandomParams {
    uint32_t stride;
    uint32_t row;
    uint32_t column;
};

namespace cbemu_hl {
inline void philox_block(const uint32_t ctr_in[4], const uint32_t key_in[2], uint16_t rounds, uint32_t out[4]) {
    const uint64_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;
    const uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
    uint32_t c[4] = {ctr_in[0], ctr_in[1], ctr_in[2], ctr_in[3]}, k[2] = {key_in[0], key_in[1]};
    for (uint16_t r = 0; r < rounds; ++r) {
        if (r) { k[0] += W0; k[1] += W1; }
        uint64_t p0 = M0 * c[0], p1 = M1 * c[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k[0], n1 = (uint32_t)p1;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k[1], n3 = (uint32_t)p0;
        c[0] = n0; c[1] = n1; c[2] = n2; c[3] = n3;
    }
    std::memcpy(out, c, sizeof(c));
}
inline void philox_inc(uint32_t c[4]) {
    for (int i = 0; i < 4; ++i)
        if (++c[i] != 0) return;
}
template <typename T>
inline T philox_value(uint32_t x) {
    if constexpr (std::is_same<T, float>::value) {
        uint32_t b = (127u << 23) | (x & 0x7FFFFFu);
        float f;
        std::memcpy(&f, &b, 4);
        return f - 1.0f;
    } else {
        T v;
        std::memcpy(&v, &x, sizeof(T) < 4 ? sizeof(T) : 4);
        return v;
    }
}
}  // namespace cbemu_hl

template <uint16_t Rounds = 7, typename T>
void PhiloxRandom(const LocalTensor<T>& dst, const PhiloxKey& key, const PhiloxCounter& counter,
                  const PhiloxRandomParams& params, CBEMU_LOC) {
    static_assert(sizeof(T) == 4, "PhiloxRandom: T must be uint32_t, int32_t or float");
    if (params.stride % 4 || params.column % 4 || params.column > params.stride)
        cbemu::report("assert_failed", cbemu::Sev::error, loc,
                      "PhiloxRandom: stride and column must be multiples of 4 and column <= stride");
    if (!cbemu::check_count(dst, (int64_t)params.row * params.column, loc, "PhiloxRandom")) return;
    uint32_t c[4] = {counter[0], counter[1], counter[2], counter[3]}, out[4];
    uint64_t p = 0;
    for (uint32_t r = 0; r < params.row; ++r) {
        for (uint32_t g = 0; g < params.column / 4; ++g) {
            cbemu_hl::philox_block(c, key, Rounds, out);
            for (int i = 0; i < 4; ++i) dst.addr_[p++] = cbemu_hl::philox_value<T>(out[i]);
            cbemu_hl::philox_inc(c);
        }
        for (uint32_t g = 0; g < (params.stride - params.column) / 4; ++g) cbemu_hl::philox_inc(c);
    }
}
template <uint16_t Rounds = 7, typename T>
void PhiloxRandom(const LocalTensor<T>& dst, const PhiloxKey& key, const PhiloxCounter& counter, uint16_t count,
                  CBEMU_LOC) {
    static_assert(sizeof(T) == 4, "PhiloxRandom: T must be uint32_t, int32_t or float");
    if (!cbemu::check_count(dst, count, loc, "PhiloxRandom")) return;
    uint32_t c[4] = {counter[0], counter[1], counter[2], counter[3]}, out[4];
    for (uint32_t p = 0; p < count; p += 4) {
        cbemu_hl::philox_block(c, key, Rounds, out);
        for (uint32_t i = 0; i < 4 && p + i < count; ++i) dst.addr_[p + i] = cbemu_hl::philox_value<T>(out[i]);
        cbemu_hl::philox_inc(c);
    }
}

}  // namespace AscendC
