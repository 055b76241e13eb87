// Sorting ISASI APIs (docs: 基础API/Memory矢量计算/排序组合（ISASI）), written from the public API docs.
//
// Two record layouts:
//  - (score, index) pairs of 8 bytes (Sort32, MrgSort): the score in the low bytes (float: 4; half: 2, then 2
//    reserved bytes written as 0) and the uint32 index in the high 4 bytes;
//  - Region Proposals of 8 elements of T (RpSort16, MrgSort4, ProposalConcat/Extract):
//    [x1, y1, x2, y2, score, label, reserved, reserved].
// Every sort is descending by score; equal scores keep the earlier record (lower position / lower queue) first.
#pragma once
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "../emu/vec_core.h"

namespace AscendC {

struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t lengths[4], bool exhaustedSuspension, uint16_t valid, uint16_t repeat)
        : ifExhaustedSuspension(exhaustedSuspension), validBit(valid), repeatTimes(repeat) {
        for (int i = 0; i < 4; ++i) elementLengths[i] = lengths[i];
    }
    uint16_t elementLengths[4] = {0, 0, 0, 0};  // records per queue (8-byte pairs / region proposals)
    bool ifExhaustedSuspension = false;         // stop as soon as one queue runs out
    uint16_t validBit = 15;                     // 3, 7 or 15: the first 2, 3 or 4 queues take part
    uint16_t repeatTimes = 1;
};

template <typename T>
struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                   const LocalTensor<T>& src4In)
        : src1(src1In[0]), src2(src2In[0]), src3(src3In[0]), src4(src4In[0]) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

}  // namespace AscendC

namespace cbemu {

// Records consumed from each queue by the last MrgSort / MrgSort4 of this thread (for GetMrgSortResult).
inline uint16_t* mrgsort_consumed() {
    thread_local uint16_t n[4] = {0, 0, 0, 0};
    return n;
}

// Merge up to 4 sorted queues of `rec` elements of T each, ordered by the score at element `score_at`.
template <typename T>
void merge_queues(const AscendC::LocalTensor<T>& dst, const AscendC::MrgSortSrcList<T>& src,
                  const AscendC::MrgSort4Info& p, uint32_t rec, uint32_t score_at, const SrcLoc& loc,
                  const char* api) {
    const AscendC::LocalTensor<T>* q[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    int nq = p.validBit == 3 ? 2 : p.validBit == 7 ? 3 : p.validBit == 15 ? 4 : 0;
    if (!nq) {
        report("sort_bad_params", Sev::error, loc, "%s: validBit %u must be 3, 7 or 15", api, (unsigned)p.validBit);
        return;
    }
    uint32_t total = 0;
    for (int i = 0; i < nq; ++i) total += p.elementLengths[i];
    // repeatTimes only applies to 4 equal, contiguous queues without suspension (docs); otherwise one pass
    bool repeats = nq == 4 && !p.ifExhaustedSuspension && p.elementLengths[0] == p.elementLengths[1] &&
                   p.elementLengths[1] == p.elementLengths[2] && p.elementLengths[2] == p.elementLengths[3];
    uint32_t reps = repeats ? p.repeatTimes : (p.repeatTimes ? 1u : 0u);
    for (int i = 0; i < nq; ++i) {  // queue i is read at r * total records from its start, for every repeat r
        int64_t need = ((int64_t)(reps ? reps - 1 : 0) * total + p.elementLengths[i]) * rec;
        if (!check_count(*q[i], need, loc, api)) return;
    }
    if (!check_count(dst, (int64_t)reps * total * rec, loc, api)) return;
    {
        hz::Scope op(hz::P_V, loc, api);
        for (int i = 0; i < nq; ++i) rd(op, *q[i], ((uint64_t)(reps ? reps - 1 : 0) * total + p.elementLengths[i]) * rec);
        wr(op, dst, (uint64_t)reps * total * rec);
    }
    for (uint32_t r = 0; r < reps; ++r) {
        std::vector<T> out;
        out.reserve((size_t)total * rec);
        uint32_t pos[4] = {0, 0, 0, 0};
        const T* base[4];
        for (int i = 0; i < nq; ++i) base[i] = q[i]->addr_ + (size_t)r * total * rec;
        for (;;) {
            int best = -1;
            bool exhausted = false;
            for (int i = 0; i < nq; ++i) {
                if (pos[i] >= p.elementLengths[i]) {
                    exhausted = true;
                    continue;
                }
                float s = (float)base[i][(size_t)pos[i] * rec + score_at];
                if (best < 0 || s > (float)base[best][(size_t)pos[best] * rec + score_at]) best = i;
            }
            if (best < 0 || (exhausted && p.ifExhaustedSuspension)) break;
            const T* from = base[best] + (size_t)pos[best] * rec;
            out.insert(out.end(), from, from + rec);
            ++pos[best];
        }
        std::copy(out.begin(), out.end(), dst.addr_ + (size_t)r * total * rec);
        for (int i = 0; i < 4; ++i) mrgsort_consumed()[i] = i < nq ? (uint16_t)pos[i] : 0;
    }
}

}  // namespace cbemu

namespace AscendC {

// Each repeat sorts 32 scores (src0) with their uint32 indices (src1) into 32 (score, index) pairs of 8 bytes.
template <typename T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
            const int32_t repeatTime, CBEMU_LOC) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Sort32 sorts half or float scores");
    constexpr uint32_t rec = 8 / sizeof(T);
    if (repeatTime <= 0) return;
    if (!cbemu::check_count(dst, (int64_t)repeatTime * 32 * rec, loc, "Sort32") |
        !cbemu::check_count(src0, (int64_t)repeatTime * 32, loc, "Sort32") |
        !cbemu::check_count(src1, (int64_t)repeatTime * 32, loc, "Sort32"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Sort32");
    cbemu::rd(op, src0, (uint64_t)repeatTime * 32), cbemu::rd(op, src1, (uint64_t)repeatTime * 32);
    cbemu::wr(op, dst, (uint64_t)repeatTime * 32 * rec);
    for (int32_t r = 0; r < repeatTime; ++r) {
        const T* s = src0.addr_ + (size_t)r * 32;
        const uint32_t* idx = src1.addr_ + (size_t)r * 32;
        std::vector<int> order(32);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return (float)s[a] > (float)s[b]; });
        uint8_t* out = (uint8_t*)(dst.addr_ + (size_t)r * 32 * rec);
        for (int i = 0; i < 32; ++i) {
            uint8_t record[8] = {0};
            std::memcpy(record, &s[order[i]], sizeof(T));
            std::memcpy(record + 4, &idx[order[i]], 4);
            std::memcpy(out + 8 * i, record, 8);
        }
    }
}

// Merge up to 4 sorted queues of (score, index) pairs into one (see MrgSort4Info for the repeat rules).
template <typename T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params, CBEMU_LOC) {
    CBEMU_LEGAL(MrgSort, T, T);
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "MrgSort merges half or float pairs");
    cbemu::merge_queues(dst, src, params, 8 / sizeof(T), 0, loc, "MrgSort");
}

// The same merge over region proposals (score at element 4 of each 8-element proposal).
template <typename T>
void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params, CBEMU_LOC) {
    cbemu::merge_queues(dst, src, params, 8, 4, loc, "MrgSort4");
}

// How many records of each queue the last MrgSort / MrgSort4 consumed (meaningful with ifExhaustedSuspension).
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4) {
    const uint16_t* n = cbemu::mrgsort_consumed();
    mrgSortList1 = n[0];
    mrgSortList2 = n[1];
    mrgSortList3 = n[2];
    mrgSortList4 = n[3];
}

// Each repeat sorts 16 region proposals by score.
template <typename T>
void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, CBEMU_LOC) {
    if (repeatTime <= 0) return;
    if (!cbemu::check_count(dst, (int64_t)repeatTime * 128, loc, "RpSort16") |
        !cbemu::check_count(src, (int64_t)repeatTime * 128, loc, "RpSort16"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "RpSort16");
    cbemu::rd(op, src, (uint64_t)repeatTime * 128), cbemu::wr(op, dst, (uint64_t)repeatTime * 128);
    for (int32_t r = 0; r < repeatTime; ++r) {
        std::vector<T> in(src.addr_ + (size_t)r * 128, src.addr_ + (size_t)r * 128 + 128);
        std::vector<int> order(16);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return (float)in[a * 8 + 4] > (float)in[b * 8 + 4]; });
        for (int i = 0; i < 16; ++i)
            std::copy(in.begin() + order[i] * 8, in.begin() + order[i] * 8 + 8, dst.addr_ + (size_t)r * 128 + i * 8);
    }
}

// Each repeat writes 16 consecutive elements of src into field `modeNumber` (0 x1 .. 4 score, 5 label) of 16
// proposals; ProposalExtract reads them back out.
template <typename T>
void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                    const int32_t modeNumber, CBEMU_LOC) {
    if (repeatTime <= 0) return;
    if (modeNumber < 0 || modeNumber > 5) {
        cbemu::report("sort_bad_params", cbemu::Sev::error, loc, "ProposalConcat modeNumber %d is not in [0, 5]",
                      modeNumber);
        return;
    }
    if (!cbemu::check_count(dst, (int64_t)repeatTime * 128, loc, "ProposalConcat") |
        !cbemu::check_count(src, (int64_t)repeatTime * 16, loc, "ProposalConcat"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "ProposalConcat");
    cbemu::rd(op, src, (uint64_t)repeatTime * 16), cbemu::wr(op, dst, (uint64_t)repeatTime * 128);
    for (int32_t i = 0; i < repeatTime * 16; ++i) dst.addr_[(size_t)i * 8 + modeNumber] = src.addr_[i];
}

template <typename T>
void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                     const int32_t modeNumber, CBEMU_LOC) {
    if (repeatTime <= 0) return;
    if (modeNumber < 0 || modeNumber > 5) {
        cbemu::report("sort_bad_params", cbemu::Sev::error, loc, "ProposalExtract modeNumber %d is not in [0, 5]",
                      modeNumber);
        return;
    }
    if (!cbemu::check_count(dst, (int64_t)repeatTime * 16, loc, "ProposalExtract") |
        !cbemu::check_count(src, (int64_t)repeatTime * 128, loc, "ProposalExtract"))
        return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "ProposalExtract");
    cbemu::rd(op, src, (uint64_t)repeatTime * 128), cbemu::wr(op, dst, (uint64_t)repeatTime * 16);
    for (int32_t i = 0; i < repeatTime * 16; ++i) dst.addr_[i] = src.addr_[(size_t)i * 8 + modeNumber];
}

}  // namespace AscendC
