// Basic data-layout APIs (docs: 基础API/Memory矢量计算/数据排布转换): Transpose (16x16 and the NCHW<->NHWC
// enhanced form) and TransDataTo5HD for 8- and 16-bit types. Written from the public API docs.
// TransposeType is the high-level library's enum (impl/adv_api/transpose.h); this header is included after it.
#pragma once
#include <vector>

#include "../adv_api/transpose.h"
#include "../emu/vec_core.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransposeParamsExt {
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

struct TransDataTo5HDParams {
    TransDataTo5HDParams() {}
    TransDataTo5HDParams(bool dstHigh, bool srcHigh, uint8_t repeat, uint16_t dstStride, uint16_t srcStride)
        : dstHighHalf(dstHigh), srcHighHalf(srcHigh), repeatTimes(repeat), dstRepStride(dstStride),
          srcRepStride(srcStride) {}
    bool dstHighHalf = false;  // 8-bit types: write the high (true) or low 16 bytes of each dst block
    bool srcHighHalf = false;  // 8-bit types: read positions 16..31 (true) or 0..15 of each src block
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;  // in 32-byte blocks, between repeats
    uint16_t srcRepStride = 0;
};

// The plain form: one 16x16 matrix of a 2-byte type, dst[i][j] = src[j][i].
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, CBEMU_LOC) {
    static_assert(sizeof(T) == 2, "Transpose (16x16) takes 2-byte types");
    if (!cbemu::check_count(dst, 256, loc, "Transpose") | !cbemu::check_count(src, 256, loc, "Transpose")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Transpose");
    cbemu::rd(op, src, 256), cbemu::wr(op, dst, 256);
    std::vector<T> in(src.addr_, src.addr_ + 256);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) dst.addr_[i * 16 + j] = in[j * 16 + i];
}

// The enhanced form: NCHW <-> NHWC over nSize images (the temporary buffer is not needed by the emulator).
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
               const TransposeParamsExt& p, CBEMU_LOC) {
    (void)sharedTmpBuffer;
    const int64_t n = p.nSize, c = p.cSize, hw = (int64_t)p.hSize * p.wSize, total = n * c * hw;
    if (p.transposeType != TransposeType::TRANSPOSE_NCHW2NHWC && p.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW) {
        cbemu::report("unsupported_api", cbemu::Sev::fatal, loc,
                      "Transpose with TransposeParamsExt: only TRANSPOSE_NCHW2NHWC / TRANSPOSE_NHWC2NCHW are emulated");
        return;
    }
    if (!cbemu::check_count(dst, total, loc, "Transpose") | !cbemu::check_count(src, total, loc, "Transpose")) return;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "Transpose");
    cbemu::rd(op, src, total), cbemu::wr(op, dst, total);
    std::vector<T> in(src.addr_, src.addr_ + total);
    bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    for (int64_t b = 0; b < n; ++b)
        for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t s = 0; s < hw; ++s) {
                int64_t nchw = (b * c + ch) * hw + s, nhwc = (b * hw + s) * c + ch;
                if (to_nhwc) dst.addr_[nhwc] = in[nchw];
                else dst.addr_[nchw] = in[nhwc];
            }
}

}  // namespace AscendC

namespace cbemu {

// One TransDataTo5HD over 16 src and 16 dst block addresses (UB pointers). Per repeat r, with the addresses moved by
// r * RepStride blocks: 16-bit types: dst block i element j = src block j element i (a 16x16 transpose);
// 8-bit types: dst block i, half (dstHighHalf), element j = src block j element i (+16 with srcHighHalf);
// 32-bit types: element i of the 16 src blocks (8 each) makes two dst blocks, 2i (src blocks 0-7) and 2i+1 (8-15)
// (TransDataTo5HD.md: "组成2个新的DataBlock", and its int32_t example: 16x8 in, 8x16 out).
template <typename T>
void trans_5hd(T* const dst[16], T* const src[16], const AscendC::TransDataTo5HDParams& p, const SrcLoc& loc) {
    static_assert(sizeof(T) <= 4, "cotbuilder emulator: TransDataTo5HD is emulated for 8-, 16- and 32-bit types only");
    constexpr int block = 32 / (int)sizeof(T);
    uint8_t* ub = ctx().ub;
    size_t cap = kUbBacking;
    for (int r = 0; r < p.repeatTimes; ++r) {
        T* s[16];
        T* d[16];
        for (int i = 0; i < 16; ++i) {
            s[i] = src[i] + (size_t)r * p.srcRepStride * block;
            d[i] = dst[i] + (size_t)r * p.dstRepStride * block;
            for (T* q : {s[i], d[i]}) {
                if ((uint8_t*)q < ub || (uint8_t*)q + 32 > ub + cap) {
                    report("ub_out_of_bounds", Sev::error, loc, "TransDataTo5HD: a block address lies outside UB");
                    return;
                }
            }
        }
        T m[16][32];
        for (int j = 0; j < 16; ++j)
            for (int e = 0; e < block; ++e) m[j][e] = s[j][e];
        if (sizeof(T) == 4) {
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j) d[2 * i][j] = m[j][i], d[2 * i + 1][j] = m[8 + j][i];
            continue;
        }
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) {
                if (sizeof(T) == 2) d[i][j] = m[j][i];
                else d[i][j + (p.dstHighHalf ? 16 : 0)] = m[j][i + (p.srcHighHalf ? 16 : 0)];
            }
    }
}

}  // namespace cbemu

namespace AscendC {

template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p,
                    CBEMU_LOC) {
    T* d[16];
    T* s[16];
    for (int i = 0; i < 16; ++i) {
        d[i] = dstList[i].addr_;
        s[i] = srcList[i].addr_;
    }
    cbemu::trans_5hd(d, s, p, loc);
}

}  // namespace AscendC
namespace cbemu {
// An address-list entry: a LocalTensor::GetPhyAddr value (a real address) or a byte offset into UB.
template <typename T>
inline T* ub_address(uint64_t v) {
    return (T*)(v < kUbBacking ? ctx().ub + v : (uint8_t*)(uintptr_t)v);
}
}  // namespace cbemu
namespace AscendC {

// Addresses as LocalTensor::GetPhyAddr values (or UB byte offsets).
template <typename T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& p, CBEMU_LOC) {
    T* d[16];
    T* s[16];
    for (int i = 0; i < 16; ++i) {
        d[i] = cbemu::ub_address<T>(dstList[i]);
        s[i] = cbemu::ub_address<T>(srcList[i]);
    }
    cbemu::trans_5hd(d, s, p, loc);
}

// The toolkit's implementation layer under TransDataTo5HD, which some kernels call directly with lists of raw UB
// pointers (`__ubuf__ T* list[16]`) or address values: undocumented, the same transform as the documented forms.
template <typename T>
void TransDataTo5HDImpl(T* dstList[NCHW_CONV_ADDR_LIST_SIZE], T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                        const TransDataTo5HDParams& p, CBEMU_LOC) {
    cbemu::trans_5hd(dstList, srcList, p, loc);
}
template <typename T>
void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                        const TransDataTo5HDParams& p, CBEMU_LOC) {
    TransDataTo5HD<T>(dstList, srcList, p, loc);
}

// The address lists stored in two uint64_t tensors.
template <typename T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src, const TransDataTo5HDParams& p,
                    CBEMU_LOC) {
    if (!cbemu::check_count(dst, 16, loc, "TransDataTo5HD") | !cbemu::check_count(src, 16, loc, "TransDataTo5HD"))
        return;
    uint64_t d[16], s[16];
    for (int i = 0; i < 16; ++i) {
        d[i] = dst.addr_[i];
        s[i] = src.addr_[i];
    }
    TransDataTo5HD<T>(d, s, p, loc);
}

}  // namespace AscendC
