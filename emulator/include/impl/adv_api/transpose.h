// Transpose / ConfusionTranspose (docs: SIMD-API/高阶API/张量变换/Transpose): the emulated scenarios are
// NZ2ND_0213 (src NZ [B, N, H/N/16, S/16, 16, 16] of origin [B, N, S, H/N] -> ND [B, S, N, H/N]) and ND2ND_ONLY
// (2-D [H, W] -> [W, H]); the shape comes from GetTransposeTilingInfo. Other scenarios report `unsupported_api`.
#pragma once
#include <vector>

#include "core.h"

namespace AscendC {

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE, TRANSPOSE_NZ2ND_0213, TRANSPOSE_NZ2NZ_0213, TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N, TRANSPOSE_NZ2ND_012_WITHOUT_N, TRANSPOSE_NZ2NZ_012_WITHOUT_N, TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM, TRANSPOSE_GRAD_ND_UB_GM, TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC, TRANSPOSE_NHWC2NCHW
};

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType type, ConfusionTransposeTiling& t,
               CBEMU_LOC) {
    if (type == TransposeType::TRANSPOSE_NZ2ND_0213) {
        uint32_t B = t.param0, Nn = t.param1, S = t.param2, HN = t.param3;
        uint64_t n = (uint64_t)B * Nn * S * HN;
        if (S % 16 || HN % 16) {
            cbemu::report("assert_failed", cbemu::Sev::error, loc, "Transpose NZ2ND_0213: S and H/N must be multiples of 16");
            return;
        }
        if (!cbemu::check_count(src, (int64_t)n, loc, "Transpose") || !cbemu::check_count(dst, (int64_t)n, loc, "Transpose"))
            return;
        std::vector<T> in(src.addr_, src.addr_ + n);
        for (uint32_t b = 0; b < B; ++b)
            for (uint32_t nn = 0; nn < Nn; ++nn)
                for (uint32_t s = 0; s < S; ++s)
                    for (uint32_t h = 0; h < HN; ++h) {
                        // NZ: [b][nn][h / 16][s / 16][s % 16][h % 16]
                        uint64_t si = ((((uint64_t)b * Nn + nn) * (HN / 16) + h / 16) * (S / 16) + s / 16) * 256 +
                                      (s % 16) * 16 + h % 16;
                        dst.addr_[(((uint64_t)b * S + s) * Nn + nn) * HN + h] = in[si];
                    }
        return;
    }
    if (type == TransposeType::TRANSPOSE_ND2ND_ONLY) {
        uint32_t H = t.param0, W = t.param1;
        uint64_t n = (uint64_t)H * W;
        if (!cbemu::check_count(src, (int64_t)n, loc, "Transpose") || !cbemu::check_count(dst, (int64_t)n, loc, "Transpose"))
            return;
        std::vector<T> in(src.addr_, src.addr_ + n);
        for (uint32_t i = 0; i < H; ++i)
            for (uint32_t j = 0; j < W; ++j) dst.addr_[(uint64_t)j * H + i] = in[(uint64_t)i * W + j];
        return;
    }
    cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "Transpose: TransposeType %d is not emulated", (int)type);
}
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
               TransposeType type, ConfusionTransposeTiling& t, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Transpose");
    Transpose(dst, src, type, t, loc);
}
template <typename T>
void ConfusionTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType type,
                        ConfusionTransposeTiling& t, CBEMU_LOC) {
    Transpose(dst, src, type, t, loc);
}
template <typename T>
void ConfusionTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                        TransposeType type, ConfusionTransposeTiling& t, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "ConfusionTranspose");
    Transpose(dst, src, type, t, loc);
}

}  // namespace AscendC
