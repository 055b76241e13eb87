// Gathering in UB: GatherMask (built-in and tensor patterns, normal and counter mode), Gather (per-element
// byte offsets) and Gatherb (per-DataBlock byte offsets). Written from the public API docs.
#pragma once
#include <vector>

#include "../emu/vec_core.h"

namespace AscendC {

struct GatherMaskParams {
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
};
struct GatherRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
    uint8_t blockNumber = 8;
    uint16_t src0BlkStride = 1;
    uint16_t src1BlkStride = 1;
    uint16_t src0RepStride = 8;
    uint16_t src1RepStride = 8;
};
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

namespace detail_gather {
// Elements of src0 selected by pattern(r, j) are packed densely into dst; returns how many.
template <typename T, typename Pat>
uint64_t gather_mask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, bool reduceMode, uint32_t mask,
                     const GatherMaskParams& p, Pat pattern, const cbemu::SrcLoc& loc) {
    constexpr uint32_t epr = 256 / sizeof(T);
    uint32_t per_rep = reduceMode ? mask : epr;  // counter mode: `mask` elements per repeat
    uint32_t blk = p.src0BlockStride;
    std::vector<T> picked;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "GatherMask");
    for (uint32_t r = 0; r < p.repeatTimes; ++r)
        for (uint32_t j = 0; j < per_rep; ++j) {
            if (!pattern(r, j)) continue;
            uint64_t at = cbemu::rep_index<T>(r, j, blk, p.src0RepeatStride);
            if (!cbemu::check_ub(src0, at * sizeof(T), (at + 1) * sizeof(T), loc, "GatherMask", false)) return 0;
            op.read(&src0.addr_[at], sizeof(T));
            picked.push_back(src0.addr_[at]);
        }
    if (!cbemu::check_ub(dst, 0, picked.size() * sizeof(T), loc, "GatherMask")) return 0;
    cbemu::wr(op, dst, picked.size());
    for (size_t i = 0; i < picked.size(); ++i) dst.addr_[i] = picked[i];
    return picked.size();
}
}  // namespace detail_gather

// Built-in patterns 1..7: even / odd elements, the 1st/2nd/3rd/4th of every 4, all.
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt, CBEMU_LOC) {
    if (src1Pattern < 1 || src1Pattern > 7) {
        cbemu::report("gathermask_bad_pattern", cbemu::Sev::error, loc, "GatherMask built-in pattern %u not in [1, 7]",
                      (unsigned)src1Pattern);
        rsvdCnt = 0;
        return;
    }
    auto pat = [&](uint32_t, uint32_t j) -> bool {
        switch (src1Pattern) {
            case 1: return j % 2 == 0;
            case 2: return j % 2 == 1;
            case 7: return true;
            default: return j % 4 == (uint32_t)(src1Pattern - 3);
        }
    };
    rsvdCnt = detail_gather::gather_mask(dst, src0, reduceMode, mask, gatherMaskParams, pat, loc);
}
// Tensor pattern: bit j (LSB first) of the pattern selects element j of a repeat; repeat r's bits start
// src1RepeatStride * 32 bytes after the previous repeat's.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                uint64_t& rsvdCnt, CBEMU_LOC) {
    const uint8_t* bits = (const uint8_t*)src1Pattern.addr_;
    bool bad = false;
    auto pat = [&](uint32_t r, uint32_t j) -> bool {
        uint64_t bit = (uint64_t)r * gatherMaskParams.src1RepeatStride * 256 + j;
        if (!cbemu::check_ub(src1Pattern, bit / 8, bit / 8 + 1, loc, "GatherMask", false)) { bad = true; return false; }
        return (bits[bit / 8] >> (bit % 8)) & 1;
    };
    rsvdCnt = detail_gather::gather_mask(dst, src0, reduceMode, mask, gatherMaskParams, pat, loc);
    if (bad) rsvdCnt = 0;
}

// dst[i] = the element at byte srcBaseAddr + srcOffset[i] of src.
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint32_t count, CBEMU_LOC) {
    CBEMU_LEGAL(Gather, T, T);
    if (!cbemu::check_count(dst, count, loc, "Gather") | !cbemu::check_count(srcOffset, count, loc, "Gather")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Gather");
    cbemu::rd(op, srcOffset, count);
    for (uint32_t i = 0; i < count; ++i) {
        uint64_t b = (uint64_t)srcBaseAddr + srcOffset.addr_[i];
        if (!cbemu::check_ub(src, b, b + sizeof(T), loc, "Gather", false)) return;
        op.read((const uint8_t*)src.addr_ + b, sizeof(T));
    }
    // gathered first, then written with its bytes (dst may be src: a write that keeps what a reader reads is no race)
    std::vector<T> out(count);
    for (uint32_t i = 0; i < count; ++i) {
        uint64_t b = (uint64_t)srcBaseAddr + srcOffset.addr_[i];
        std::memcpy(&out[i], (const uint8_t*)src.addr_ + b, sizeof(T));
    }
    op.write(dst.addr_, (uint64_t)count * sizeof(T), out.data());
    std::memcpy(dst.addr_, out.data(), (size_t)count * sizeof(T));
}
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride,
            CBEMU_LOC) {
    CBEMU_LEGAL(Gather, T, T);
    uint64_t m[2] = {mask >= 64 ? ~0ull : ((1ull << mask) - 1), mask >= 128 ? ~0ull : (mask > 64 ? ((1ull << (mask - 64)) - 1) : 0)};
    Gather(dst, src, srcOffset, srcBaseAddr, m, repeatTime, dstRepStride, loc);
}
// Repeat form: element j of repeat r (offset index r * (256 / sizeof(T)) + j) lands at
// dst[r * dstRepStride * (32 / sizeof(T)) + j] when lane j is in the mask.
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
            const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride,
            CBEMU_LOC) {
    CBEMU_LEGAL(Gather, T, T);
    constexpr uint32_t epr = 256 / sizeof(T), epb = 32 / sizeof(T);
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Gather");
    for (uint32_t r = 0; r < repeatTime; ++r)
        for (uint32_t j = 0; j < epr && j < 128; ++j) {
            bool on = j < 64 ? ((mask[0] >> j) & 1) : ((mask[1] >> (j - 64)) & 1);
            if (!on) continue;
            uint64_t oi = (uint64_t)r * epr + j, di = (uint64_t)r * dstRepStride * epb + j;
            if (!cbemu::check_ub(srcOffset, oi * 4, oi * 4 + 4, loc, "Gather", false) ||
                !cbemu::check_ub(dst, di * sizeof(T), (di + 1) * sizeof(T), loc, "Gather", false))
                return;
            uint64_t b = (uint64_t)srcBaseAddr + srcOffset.addr_[oi];
            if (!cbemu::check_ub(src, b, b + sizeof(T), loc, "Gather", false)) return;
            op.read(&srcOffset.addr_[oi], 4), op.read((const uint8_t*)src.addr_ + b, sizeof(T));
            op.write(&dst.addr_[di], sizeof(T));
            std::memcpy(&dst.addr_[di], (const uint8_t*)src.addr_ + b, sizeof(T));
        }
}

// Gatherb: 8 DataBlocks per repeat; block b of repeat r is the 32 bytes at byte offset[r * 8 + b] of src and
// lands at DataBlock r * dstRepStride + b * dstBlkStride of dst (dstBlkStride 0 counts as 1).
template <typename T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
             const uint8_t repeatTime, const GatherRepeatParams& repeatParams, CBEMU_LOC) {
    uint32_t blk = repeatParams.dstBlkStride ? repeatParams.dstBlkStride : 1;
    if (!cbemu::check_count(offset, (int64_t)repeatTime * 8, loc, "Gatherb")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Gatherb");
    cbemu::rd(op, offset, (uint64_t)repeatTime * 8);
    for (uint32_t r = 0; r < repeatTime; ++r)
        for (uint32_t b = 0; b < 8; ++b) {
            uint64_t so = offset.addr_[r * 8 + b];
            uint64_t dofs = ((uint64_t)r * repeatParams.dstRepStride + (uint64_t)b * blk) * 32;
            if (!cbemu::check_ub(src, so, so + 32, loc, "Gatherb", false) ||
                !cbemu::check_ub(dst, dofs, dofs + 32, loc, "Gatherb", false))
                return;
            op.read((const uint8_t*)src.addr_ + so, 32), op.write((uint8_t*)dst.addr_ + dofs, 32);
            std::memcpy((uint8_t*)dst.addr_ + dofs, (const uint8_t*)src.addr_ + so, 32);
        }
}

}  // namespace AscendC
