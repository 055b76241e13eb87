// SoftMax family (docs: SIMD-API/高阶API/激活函数/SoftMax接口, LogSoftMax接口), ND format only.
// The input is viewed as [m, k] rows (k = srcK, the row stride); the first oriSrcK columns of each row take
// part. Per-row results (max, sum, expmax) are stored broadcast over one 32-byte block per row, i.e.
// [m, 32 / sizeof(U)], as the docs describe. Every row is read completely before it is written, so dst may
// alias src and the out max/sum may alias the in max/sum (as the samples do).
#pragma once
#include <vector>

#include "core.h"
#include "../basic_api/shapeinfo.h"

namespace AscendC {

struct SoftMaxShapeInfo {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
};
enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
inline constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {};

}  // namespace AscendC

namespace cbemu {

struct SmDims {
    uint32_t m, k, vk;
};
inline SmDims sm_dims(const AscendC::tiling::SoftMaxTiling& t, const AscendC::SoftMaxShapeInfo& s) {
    SmDims d;
    d.m = s.srcM ? s.srcM : t.srcM;
    d.k = s.srcK ? s.srcK : t.srcK;
    d.vk = s.oriSrcK ? s.oriSrcK : d.k;
    if (d.vk > d.k) d.vk = d.k;
    return d;
}
template <typename U>
constexpr uint32_t sm_blk() { return 32 / sizeof(U); }
template <typename U>
inline double sm_get(const AscendC::LocalTensor<U>& t, uint32_t row) { return to_double(t.addr_[row * sm_blk<U>()]); }
template <typename U>
inline void sm_put(const AscendC::LocalTensor<U>& t, uint32_t row, double v) {
    for (uint32_t j = 0; j < sm_blk<U>(); ++j) t.addr_[row * sm_blk<U>() + j] = U(v);
}
template <typename T>
inline bool sm_check_rows(const AscendC::LocalTensor<T>& t, const SmDims& d, const SrcLoc& loc, const char* api) {
    return check_count(t, (int64_t)d.m * d.k, loc, api);
}
template <typename U>
inline bool sm_check_red(const AscendC::LocalTensor<U>& t, const SmDims& d, const SrcLoc& loc, const char* api) {
    return check_count(t, (int64_t)d.m * sm_blk<U>(), loc, api);
}

// Row-wise softmax core: dst = exp(x - max) [/ sum] with optional running (flash) update.
// kind: 0 softmax, 1 log10-softmax, 2 flash (no division).
template <typename D, typename U>
inline void softmax_rows(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<U>* sum,
                         const AscendC::LocalTensor<U>* max, const AscendC::LocalTensor<D>& src, const SmDims& d,
                         int kind, const AscendC::LocalTensor<U>* in_sum, const AscendC::LocalTensor<U>* in_max,
                         const AscendC::LocalTensor<D>* exp_max, const SrcLoc& loc, const char* api) {
    bool ok = sm_check_rows(dst, d, loc, api) & sm_check_rows(src, d, loc, api);
    if (sum) ok &= sm_check_red(*sum, d, loc, api);
    if (max) ok &= sm_check_red(*max, d, loc, api);
    if (in_sum) ok &= sm_check_red(*in_sum, d, loc, api);
    if (in_max) ok &= sm_check_red(*in_max, d, loc, api);
    if (exp_max) ok &= sm_check_red(*exp_max, d, loc, api);
    if (!ok) return;
    std::vector<double> x(d.vk);
    for (uint32_t i = 0; i < d.m; ++i) {
        double mx = -INFINITY;
        for (uint32_t j = 0; j < d.vk; ++j) {
            x[j] = to_double(src.addr_[(uint64_t)i * d.k + j]);
            if (x[j] > mx) mx = x[j];
        }
        double old_max = in_max ? sm_get(*in_max, i) : 0.0, old_sum = in_sum ? sm_get(*in_sum, i) : 0.0;
        if (in_max && old_max > mx) mx = old_max;
        // the docs' step 2: max is broadcast into the output (rounded to U) before it is subtracted
        double mxr = to_double(U(mx));
        double s = 0;
        for (uint32_t j = 0; j < d.vk; ++j) {
            x[j] = std::exp(x[j] - mxr);
            s += x[j];
        }
        if (in_max) {
            double em = std::exp(old_max - mxr);
            s += em * old_sum;
            if (exp_max) sm_put(*exp_max, i, em);
        }
        for (uint32_t j = 0; j < d.vk; ++j) {
            double v = kind == 2 ? x[j] : x[j] / s;
            if (kind == 1) v = std::log10(v);
            dst.addr_[(uint64_t)i * d.k + j] = D(v);
        }
        if (max) sm_put(*max, i, mx);
        if (sum) sm_put(*sum, i, s);
    }
}

}  // namespace cbemu

namespace AscendC {

#define CBEMU_SM_T typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false, \
                   const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename D, typename U
#define CBEMU_NO_NZ static_assert(!isDataFormatNZ, "cotbuilder emulator: NZ-format softmax is not emulated")

template <CBEMU_SM_T>
void SoftMax(const LocalTensor<D>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max, const LocalTensor<D>& src,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape = {}, CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::softmax_rows<D, U>(dst, &sum, &max, src, cbemu::sm_dims(tiling, shape), 0, nullptr, nullptr, nullptr, loc,
                              "SoftMax");
}
template <CBEMU_SM_T>
void SoftMax(const LocalTensor<D>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max, const LocalTensor<D>& src,
             const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape = {},
             CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::hl_tmp(tmp, loc, "SoftMax");
    cbemu::softmax_rows<D, U>(dst, &sum, &max, src, cbemu::sm_dims(tiling, shape), 0, nullptr, nullptr, nullptr, loc,
                              "SoftMax");
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& shape = {}, CBEMU_LOC) {
    cbemu::softmax_rows<T, T>(dst, nullptr, nullptr, src, cbemu::sm_dims(tiling, shape), 0, nullptr, nullptr, nullptr,
                              loc, "SoftMax");
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape = {}, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "SoftMax");
    cbemu::softmax_rows<T, T>(dst, nullptr, nullptr, src, cbemu::sm_dims(tiling, shape), 0, nullptr, nullptr, nullptr,
                              loc, "SoftMax");
}

// LogSoftMax: the docs' reference takes log10 of the softmax.
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false, typename D, typename U>
void LogSoftMax(const LocalTensor<D>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max,
                const LocalTensor<D>& src, const LocalTensor<uint8_t>& tmp, const LogSoftMaxTiling& tiling,
                const SoftMaxShapeInfo& shape = {}, CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::hl_tmp(tmp, loc, "LogSoftMax");
    cbemu::softmax_rows<D, U>(dst, &sum, &max, src, cbemu::sm_dims(tiling, shape), 1, nullptr, nullptr, nullptr, loc,
                              "LogSoftMax");
}

// SimpleSoftMax: dst = exp(src - inMax) / inSum with precomputed row max / sum.
template <typename D, typename U>
inline void cbemu_simple_softmax(const LocalTensor<D>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max,
                                 const LocalTensor<D>& src, const cbemu::SmDims& d, const cbemu::SrcLoc& loc) {
    if (!(cbemu::sm_check_rows(dst, d, loc, "SimpleSoftMax") & cbemu::sm_check_rows(src, d, loc, "SimpleSoftMax") &
          cbemu::sm_check_red(sum, d, loc, "SimpleSoftMax") & cbemu::sm_check_red(max, d, loc, "SimpleSoftMax")))
        return;
    for (uint32_t i = 0; i < d.m; ++i) {
        double mx = cbemu::sm_get(max, i), s = cbemu::sm_get(sum, i);
        for (uint32_t j = 0; j < d.vk; ++j) {
            uint64_t p = (uint64_t)i * d.k + j;
            dst.addr_[p] = D(std::exp(cbemu::to_double(src.addr_[p]) - mx) / s);
        }
    }
}
template <CBEMU_SM_T>
void SimpleSoftMax(const LocalTensor<D>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max,
                   const LocalTensor<D>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape = {},
                   CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu_simple_softmax(dst, sum, max, src, cbemu::sm_dims(tiling, shape), loc);
}
template <CBEMU_SM_T>
void SimpleSoftMax(const LocalTensor<D>& dst, const LocalTensor<U>& sum, const LocalTensor<U>& max,
                   const LocalTensor<D>& src, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& shape = {}, CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::hl_tmp(tmp, loc, "SimpleSoftMax");
    cbemu_simple_softmax(dst, sum, max, src, cbemu::sm_dims(tiling, shape), loc);
}

// SoftmaxFlashV2: dst = exp(src - newMax); with isUpdate the running max / sum are folded in and
// expMax = exp(inMax - newMax).
#define CBEMU_FL_T typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, \
                   bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename D, typename U
template <CBEMU_FL_T>
void SoftmaxFlashV2(const LocalTensor<D>& dst, const LocalTensor<U>& expSum, const LocalTensor<U>& max,
                    const LocalTensor<D>& src, const LocalTensor<D>& expMax, const LocalTensor<U>& inExpSum,
                    const LocalTensor<U>& inMax, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape = {},
                    CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::softmax_rows<D, U>(dst, &expSum, &max, src, cbemu::sm_dims(tiling, shape), 2, isUpdate ? &inExpSum : nullptr,
                              isUpdate ? &inMax : nullptr, isUpdate ? &expMax : nullptr, loc, "SoftmaxFlashV2");
}
template <CBEMU_FL_T>
void SoftmaxFlashV2(const LocalTensor<D>& dst, const LocalTensor<U>& expSum, const LocalTensor<U>& max,
                    const LocalTensor<D>& src, const LocalTensor<D>& expMax, const LocalTensor<U>& inExpSum,
                    const LocalTensor<U>& inMax, const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& shape = {}, CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::hl_tmp(tmp, loc, "SoftmaxFlashV2");
    cbemu::softmax_rows<D, U>(dst, &expSum, &max, src, cbemu::sm_dims(tiling, shape), 2, isUpdate ? &inExpSum : nullptr,
                              isUpdate ? &inMax : nullptr, isUpdate ? &expMax : nullptr, loc, "SoftmaxFlashV2");
}
#undef CBEMU_FL_T

// SoftmaxGradFront: d = rowsum(grad * src), broadcast per row. SoftmaxGrad: dst = (grad - d) * src
// (or d itself when isFront).
template <typename T>
inline bool cbemu_grad_front(std::vector<double>& d, const LocalTensor<T>& grad, const LocalTensor<T>& src,
                             const cbemu::SmDims& dm, const cbemu::SrcLoc& loc, const char* api) {
    if (!(cbemu::sm_check_rows(grad, dm, loc, api) & cbemu::sm_check_rows(src, dm, loc, api))) return false;
    d.assign(dm.m, 0.0);
    for (uint32_t i = 0; i < dm.m; ++i)
        for (uint32_t j = 0; j < dm.vk; ++j) {
            uint64_t p = (uint64_t)i * dm.k + j;
            d[i] += cbemu::to_double(grad.addr_[p]) * cbemu::to_double(src.addr_[p]);
        }
    return true;
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dst, const LocalTensor<T>& grad, const LocalTensor<T>& src,
                      const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape = {},
                      CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::hl_tmp(tmp, loc, "SoftmaxGradFront");
    cbemu::SmDims dm = cbemu::sm_dims(tiling, shape);
    std::vector<double> d;
    if (!cbemu_grad_front(d, grad, src, dm, loc, "SoftmaxGradFront") ||
        !cbemu::sm_check_red(dst, dm, loc, "SoftmaxGradFront"))
        return;
    for (uint32_t i = 0; i < dm.m; ++i) cbemu::sm_put(dst, i, (double)T(d[i]));
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dst, const LocalTensor<T>& grad, const LocalTensor<T>& src,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape = {}, CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::SmDims dm = cbemu::sm_dims(tiling, shape);
    std::vector<double> d;
    if (!cbemu_grad_front(d, grad, src, dm, loc, "SoftmaxGradFront") ||
        !cbemu::sm_check_red(dst, dm, loc, "SoftmaxGradFront"))
        return;
    for (uint32_t i = 0; i < dm.m; ++i) cbemu::sm_put(dst, i, (double)T(d[i]));
}
template <typename T>
inline void cbemu_softmax_grad(const LocalTensor<T>& dst, const LocalTensor<T>& grad, const LocalTensor<T>& src,
                               bool isFront, const cbemu::SmDims& dm, const cbemu::SrcLoc& loc) {
    std::vector<double> d;
    if (!cbemu_grad_front(d, grad, src, dm, loc, "SoftmaxGrad")) return;
    if (isFront) {
        if (!cbemu::sm_check_red(dst, dm, loc, "SoftmaxGrad")) return;
        for (uint32_t i = 0; i < dm.m; ++i) cbemu::sm_put(dst, i, (double)T(d[i]));
        return;
    }
    if (!cbemu::sm_check_rows(dst, dm, loc, "SoftmaxGrad")) return;
    for (uint32_t i = 0; i < dm.m; ++i) {
        double di = (double)cbemu::calc_t<T>(T(d[i]));
        for (uint32_t j = 0; j < dm.vk; ++j) {
            uint64_t p = (uint64_t)i * dm.k + j;
            dst.addr_[p] = T((cbemu::to_double(grad.addr_[p]) - di) * cbemu::to_double(src.addr_[p]));
        }
    }
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dst, const LocalTensor<T>& grad, const LocalTensor<T>& src,
                 const LocalTensor<uint8_t>& tmp, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& shape = {}, CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::hl_tmp(tmp, loc, "SoftmaxGrad");
    cbemu_softmax_grad(dst, grad, src, isFront, cbemu::sm_dims(tiling, shape), loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dst, const LocalTensor<T>& grad, const LocalTensor<T>& src,
                 const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& shape = {}, CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu_softmax_grad(dst, grad, src, isFront, cbemu::sm_dims(tiling, shape), loc);
}

// AdjustSoftMaxRes: rows whose max (compared bit-for-bit with `from`) matches get every result set to `to`.
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
bool AdjustSoftMaxRes(const LocalTensor<T1>& res, const LocalTensor<T2>& max, const uint32_t from, const T1 to,
                      const SoftMaxShapeInfo& shape, CBEMU_LOC) {
    CBEMU_NO_NZ;
    cbemu::SmDims d{shape.srcM, shape.srcK, shape.oriSrcK ? shape.oriSrcK : shape.srcK};
    if (d.vk > d.k) d.vk = d.k;
    uint32_t step = stepSizeMode ? 1 : cbemu::sm_blk<T2>();
    if (!cbemu::sm_check_rows(res, d, loc, "AdjustSoftMaxRes") ||
        !cbemu::check_count(max, (int64_t)d.m * step, loc, "AdjustSoftMaxRes"))
        return false;
    bool any = false;
    for (uint32_t i = 0; i < d.m; ++i) {
        uint32_t bits = 0;
        std::memcpy(&bits, &max.addr_[i * step], sizeof(T2) < 4 ? sizeof(T2) : 4);
        if (bits != from) continue;
        any = true;
        for (uint32_t j = 0; j < d.vk; ++j) res.addr_[(uint64_t)i * d.k + j] = to;
    }
    return any;
}

#undef CBEMU_SM_T
#undef CBEMU_NO_NZ

}  // namespace AscendC
