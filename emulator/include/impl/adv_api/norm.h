// Normalisation library APIs over [B, S, H] (docs: SIMD-API/高阶API/归一化操作): LayerNorm (mean / variance
// outputs), LayerNormGrad, LayerNormGradBeta, DeepNorm. Rows of H (stride hLength, originalHLength valid) are
// reduced in double; mean and variance are the population statistics.
#pragma once
#include <vector>

#include "core.h"

namespace cbemu {
struct NormDims {
    uint32_t rows, h, vh;
};
template <typename Tl>
inline NormDims norm_dims(const Tl& t) {
    NormDims d{t.bLength * t.sLength, t.hLength, t.originalHLength ? t.originalHLength : t.hLength};
    if (d.vh > d.h) d.vh = d.h;
    return d;
}
// y = gamma * (x' - mean) / sqrt(var + eps) + beta with x' = alpha * x (+ gx)
template <typename T>
inline void norm_rows(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& mean,
                      const AscendC::LocalTensor<T>& var, const AscendC::LocalTensor<T>& x,
                      const AscendC::LocalTensor<T>* gx, double alpha, const AscendC::LocalTensor<T>& gamma,
                      const AscendC::LocalTensor<T>& beta, double eps, const NormDims& d, const SrcLoc& loc,
                      const char* api) {
    int64_t n = (int64_t)d.rows * d.h;
    bool ok = check_count(y, n, loc, api) & check_count(x, n, loc, api) & check_count(mean, d.rows, loc, api) &
              check_count(var, d.rows, loc, api) & check_count(gamma, d.vh, loc, api) & check_count(beta, d.vh, loc, api);
    if (gx) ok &= check_count(*gx, n, loc, api);
    if (!ok) return;
    std::vector<double> v(d.vh);
    for (uint32_t r = 0; r < d.rows; ++r) {
        double m = 0, q = 0;
        for (uint32_t j = 0; j < d.vh; ++j) {
            uint64_t p = (uint64_t)r * d.h + j;
            v[j] = alpha * to_double(x.addr_[p]) + (gx ? to_double(gx->addr_[p]) : 0.0);
            m += v[j];
        }
        m /= d.vh;
        for (uint32_t j = 0; j < d.vh; ++j) q += (v[j] - m) * (v[j] - m);
        q /= d.vh;
        double rs = 1.0 / std::sqrt(q + eps);
        for (uint32_t j = 0; j < d.vh; ++j)
            y.addr_[(uint64_t)r * d.h + j] = T(to_double(gamma.addr_[j]) * (v[j] - m) * rs + to_double(beta.addr_[j]));
        mean.addr_[r] = T(m);
        var.addr_[r] = T(q);
    }
}
}  // namespace cbemu

namespace AscendC {

template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling, CBEMU_LOC) {
    cbemu::norm_rows(output, outputMean, outputVariance, inputX, (const LocalTensor<T>*)nullptr, 1.0, gamma, beta,
                     cbemu::to_double(epsilon), cbemu::norm_dims(tiling), loc, "LayerNorm");
    // LayerNorm.md: with isReuseSource (float) the API computes in inputX's memory
    if constexpr (isReuseSource && std::is_same<T, float>::value)
        cbemu::hl_clobber(inputX, output.addr_, inputX.GetSize(), loc, "LayerNorm");
}
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& tmp, const T epsilon, LayerNormTiling& tiling, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "LayerNorm");
    LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, epsilon, tiling, loc);
}

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dst, const LocalTensor<T>& mean, const LocalTensor<T>& rstd,
              const LocalTensor<T>& src, const LocalTensor<T>& gx, const LocalTensor<T>& beta,
              const LocalTensor<T>& gamma, const T alpha, const T epsilon, DeepNormTiling& tiling, CBEMU_LOC) {
    cbemu::norm_rows(dst, mean, rstd, src, &gx, cbemu::to_double(alpha), gamma, beta, cbemu::to_double(epsilon),
                     cbemu::norm_dims(tiling), loc, "DeepNorm");
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dst, const LocalTensor<T>& mean, const LocalTensor<T>& rstd,
              const LocalTensor<T>& src, const LocalTensor<T>& gx, const LocalTensor<T>& beta,
              const LocalTensor<T>& gamma, const LocalTensor<uint8_t>& tmp, const T alpha, const T epsilon,
              DeepNormTiling& tiling, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "DeepNorm");
    DeepNorm<T, isReuseSrc, isBasicBlock>(dst, mean, rstd, src, gx, beta, gamma, alpha, epsilon, tiling, loc);
}

// LayerNormGrad: with xm = x - mean, rs = (var + eps)^-1/2, pd_xl = dy * gamma:
//   pd_var = sum(-0.5 * pd_xl * xm * rs^3), pd_mean = sum(-pd_xl * rs) + pd_var / H * sum(-2 xm),
//   pd_x = pd_mean / H + 2 pd_var / H * xm + pd_xl * rs; resForGamma = xm * rs.
template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                   const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling, CBEMU_LOC) {
    cbemu::NormDims d = cbemu::norm_dims(tiling);
    int64_t n = (int64_t)d.rows * d.h;
    const char* api = "LayerNormGrad";
    if (!(cbemu::check_count(outputPdX, n, loc, api) & cbemu::check_count(resForGamma, n, loc, api) &
          cbemu::check_count(inputDy, n, loc, api) & cbemu::check_count(inputX, n, loc, api) &
          cbemu::check_count(inputVariance, d.rows, loc, api) & cbemu::check_count(inputMean, d.rows, loc, api) &
          cbemu::check_count(inputGamma, d.vh, loc, api)))
        return;
    double eps = cbemu::to_double(epsilon), H = d.vh;
    std::vector<double> xm(d.vh), pxl(d.vh);
    for (uint32_t r = 0; r < d.rows; ++r) {
        double mean = cbemu::to_double(inputMean.addr_[r]), var = cbemu::to_double(inputVariance.addr_[r]);
        double rs = 1.0 / std::sqrt(var + eps), pd_var = 0, s1 = 0, s2 = 0;
        for (uint32_t j = 0; j < d.vh; ++j) {
            uint64_t p = (uint64_t)r * d.h + j;
            xm[j] = cbemu::to_double(inputX.addr_[p]) - mean;
            pxl[j] = cbemu::to_double(inputDy.addr_[p]) * cbemu::to_double(inputGamma.addr_[j]);
            pd_var += -0.5 * pxl[j] * xm[j] * rs * rs * rs;
            s1 += -pxl[j] * rs;
            s2 += -2.0 * xm[j];
        }
        double pd_mean = s1 + pd_var / H * s2;
        for (uint32_t j = 0; j < d.vh; ++j) {
            uint64_t p = (uint64_t)r * d.h + j;
            outputPdX.addr_[p] = T(pd_mean / H + 2.0 * pd_var / H * xm[j] + pxl[j] * rs);
            resForGamma.addr_[p] = T(xm[j] * rs);
        }
    }
}
template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                   const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, const LocalTensor<uint8_t>& tmp, T epsilon,
                   LayerNormGradTiling& tiling, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "LayerNormGrad");
    LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                                    epsilon, tiling, loc);
}

// LayerNormGradBeta: pd_gamma[h] = sum over B, S of dy * resForGamma; pd_beta[h] = sum of dy.
template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       LayerNormGradBetaTiling& tiling, CBEMU_LOC) {
    cbemu::NormDims d = cbemu::norm_dims(tiling);
    int64_t n = (int64_t)d.rows * d.h;
    const char* api = "LayerNormGradBeta";
    if (!(cbemu::check_count(outputPdGamma, d.vh, loc, api) & cbemu::check_count(outputPdBeta, d.vh, loc, api) &
          cbemu::check_count(resForGamma, n, loc, api) & cbemu::check_count(inputDy, n, loc, api)))
        return;
    for (uint32_t j = 0; j < d.vh; ++j) {
        double g = 0, b = 0;
        for (uint32_t r = 0; r < d.rows; ++r) {
            uint64_t p = (uint64_t)r * d.h + j;
            double dy = cbemu::to_double(inputDy.addr_[p]);
            g += dy * cbemu::to_double(resForGamma.addr_[p]);
            b += dy;
        }
        outputPdGamma.addr_[j] = T(g);
        outputPdBeta.addr_[j] = T(b);
    }
}
template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       const LocalTensor<uint8_t>& tmp, LayerNormGradBetaTiling& tiling, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "LayerNormGradBeta");
    LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy, tiling, loc);
}

}  // namespace AscendC

// ---- Welford online mean / variance (docs: WelfordUpdate, WelfordFinalize) ----
namespace AscendC {
struct WelfordUpdateConfig {
    bool isInplace = false;
};
inline constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};
struct WelfordFinalizeConfig {
    bool isCorrection = false;
};
inline constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};
struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
    float rRecWithCorrection;
};

// Update, per row of [rnLength, abLength], for the first abComputeLength columns:
//   mean' = mean + (x - mean) * nRec;  M' = M + (x - mean) * (x - mean'). With isInplace the other columns keep
//   the input values (the outputs share the inputs' buffers on the hardware).
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outMean, const LocalTensor<U>& outVar, const LocalTensor<U>& inMean,
                   const LocalTensor<U>& inVar, const LocalTensor<T>& x, const WelfordUpdateParam& para, CBEMU_LOC) {
    int64_t n = (int64_t)para.rnLength * para.abLength;
    const char* api = "WelfordUpdate";
    if (!(cbemu::check_count(outMean, n, loc, api) & cbemu::check_count(outVar, n, loc, api) &
          cbemu::check_count(inMean, n, loc, api) & cbemu::check_count(inVar, n, loc, api) &
          cbemu::check_count(x, n, loc, api)))
        return;
    double r = para.nRec;
    for (uint32_t i = 0; i < para.rnLength; ++i)
        for (uint32_t j = 0; j < para.abLength; ++j) {
            uint64_t p = (uint64_t)i * para.abLength + j;
            double m = cbemu::to_double(inMean.addr_[p]), v = cbemu::to_double(inVar.addr_[p]);
            if (j < para.abComputeLength) {
                // one vector instruction per step, each result rounded to U
                auto u = [](double a) { return cbemu::to_double(U(a)); };
                double xv = cbemu::to_double(x.addr_[p]);
                double d = u(xv - m), m1 = u(m + u(d * r)), d2 = u(xv - m1);
                outVar.addr_[p] = U(v + u(d * d2));
                outMean.addr_[p] = U(m1);
            } else if (config.isInplace) {
                outMean.addr_[p] = U(m);
                outVar.addr_[p] = U(v);
            }
        }
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outMean, const LocalTensor<U>& outVar, const LocalTensor<U>& inMean,
                   const LocalTensor<U>& inVar, const LocalTensor<T>& x, const LocalTensor<uint8_t>& tmp,
                   const WelfordUpdateParam& para, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "WelfordUpdate");
    WelfordUpdate<T, U, isReuseSource, config>(outMean, outVar, inMean, inVar, x, para, loc);
}

// Finalize: combine rnLength * abLength partial (mean_i, M_i) with weights c_i (the counts tensor, or headCount
// for the first headCountLength entries and tailCount after):
//   mean = sum(c_i mean_i) / sum(c_i);  var = (sum(M_i) + sum(c_i (mean_i - mean)^2)) * rRec
// (rRecWithCorrection instead when config.isCorrection). One result each, in element 0.
namespace cbemu_hl {
template <bool isCorrection>
inline void welford_finalize(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                             const LocalTensor<float>& inMean, const LocalTensor<float>& inVar,
                             const LocalTensor<int32_t>* counts, const WelfordFinalizePara& para,
                             const cbemu::SrcLoc& loc) {
    int64_t n = (int64_t)para.rnLength * para.abLength;
    const char* api = "WelfordFinalize";
    bool ok = cbemu::check_count(outMean, 1, loc, api) & cbemu::check_count(outVar, 1, loc, api) &
              cbemu::check_count(inMean, n, loc, api) & cbemu::check_count(inVar, n, loc, api);
    if (counts) ok &= cbemu::check_count(*counts, n, loc, api);
    if (!ok) return;
    auto weight = [&](int64_t i) -> double {
        if (counts) return (double)counts->addr_[i];
        return (i % para.abLength) < para.headCountLength ? (double)para.headCount : (double)para.tailCount;
    };
    double sw = 0, sm = 0;
    for (int64_t i = 0; i < n; ++i) {
        sw += weight(i);
        sm += weight(i) * inMean.addr_[i];
    }
    double mean = sw != 0 ? sm / sw : 0.0, q = 0;
    for (int64_t i = 0; i < n; ++i) {
        double d = inMean.addr_[i] - mean;
        q += inVar.addr_[i] + weight(i) * d * d;
    }
    outMean.addr_[0] = (float)mean;
    outVar.addr_[0] = (float)(q * (isCorrection ? para.rRecWithCorrection : para.rRec));
}
}  // namespace cbemu_hl
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                     const LocalTensor<float>& inMean, const LocalTensor<float>& inVar,
                     const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& tmp, WelfordFinalizePara& para,
                     CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "WelfordFinalize");
    cbemu_hl::welford_finalize<config.isCorrection>(outMean, outVar, inMean, inVar, &counts, para, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                     const LocalTensor<float>& inMean, const LocalTensor<float>& inVar,
                     const LocalTensor<int32_t>& counts, WelfordFinalizePara& para, CBEMU_LOC) {
    cbemu_hl::welford_finalize<config.isCorrection>(outMean, outVar, inMean, inVar, &counts, para, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                     const LocalTensor<float>& inMean, const LocalTensor<float>& inVar,
                     const LocalTensor<uint8_t>& tmp, WelfordFinalizePara& para, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "WelfordFinalize");
    cbemu_hl::welford_finalize<config.isCorrection>(outMean, outVar, inMean, inVar, nullptr, para, loc);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                     const LocalTensor<float>& inMean, const LocalTensor<float>& inVar, WelfordFinalizePara& para,
                     CBEMU_LOC) {
    cbemu_hl::welford_finalize<config.isCorrection>(outMean, outVar, inMean, inVar, nullptr, para, loc);
}
}  // namespace AscendC

// ---- RmsNorm ([B, S, H]): y = x / sqrt(mean(x^2) + eps) * gamma ----
namespace AscendC {
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma, const T epsilon,
             const RmsNormTiling& tiling, CBEMU_LOC) {
    cbemu::NormDims d = cbemu::norm_dims(tiling);
    int64_t n = (int64_t)d.rows * d.h;
    if (!(cbemu::check_count(dst, n, loc, "RmsNorm") & cbemu::check_count(src, n, loc, "RmsNorm") &
          cbemu::check_count(gamma, d.vh, loc, "RmsNorm")))
        return;
    double eps = cbemu::to_double(epsilon);
    for (uint32_t r = 0; r < d.rows; ++r) {
        double q = 0;
        for (uint32_t j = 0; j < d.vh; ++j) {
            double v = cbemu::to_double(src.addr_[(uint64_t)r * d.h + j]);
            q += v * v;
        }
        double rs = 1.0 / std::sqrt(q / d.vh + eps);
        for (uint32_t j = 0; j < d.vh; ++j) {
            uint64_t p = (uint64_t)r * d.h + j;
            dst.addr_[p] = T(cbemu::to_double(src.addr_[p]) * rs * cbemu::to_double(gamma.addr_[j]));
        }
    }
}
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
             const LocalTensor<uint8_t>& tmp, const T epsilon, const RmsNormTiling& tiling, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "RmsNorm");
    RmsNorm<T, isBasicBlock>(dst, src, gamma, epsilon, tiling, loc);
}

// ---- [A, R] LayerNorm (mean and rstd outputs) and Normalize (given mean and variance) ----
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
inline constexpr LayerNormConfig LNCFG_NORM = {};
struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
inline constexpr NormalizeConfig NLCFG_NORM = {};
struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

namespace cbemu_hl {
// y = (x - mean) * rstd [* gamma] [+ beta] over rows of R (stride rp); mean / var given or computed.
template <typename U, typename T>
inline void ar_norm(const LocalTensor<T>& y, const LocalTensor<float>* outMean, const LocalTensor<float>* outStat,
                    bool statIsRstd, const LocalTensor<float>* inMean, const LocalTensor<float>* inVar,
                    const LocalTensor<T>& x, const LocalTensor<U>& gamma, const LocalTensor<U>& beta, bool noGamma,
                    bool noBeta, double eps, uint32_t A, uint32_t Rn, uint32_t rp, const cbemu::SrcLoc& loc,
                    const char* api) {
    int64_t n = (int64_t)(A ? A - 1 : 0) * rp + Rn;
    bool ok = cbemu::check_count(y, n, loc, api) & cbemu::check_count(x, n, loc, api);
    if (!noGamma) ok &= cbemu::check_count(gamma, Rn, loc, api);
    if (!noBeta) ok &= cbemu::check_count(beta, Rn, loc, api);
    for (auto* t : {outMean, outStat, inMean, inVar})
        if (t) ok &= cbemu::check_count(*t, A, loc, api);
    if (!ok) return;
    for (uint32_t a = 0; a < A; ++a) {
        double m = 0, v = 0;
        if (inMean) {
            m = inMean->addr_[a];
            v = inVar->addr_[a];
        } else {
            for (uint32_t j = 0; j < Rn; ++j) m += cbemu::to_double(x.addr_[(uint64_t)a * rp + j]);
            m /= Rn;
            for (uint32_t j = 0; j < Rn; ++j) {
                double dd = cbemu::to_double(x.addr_[(uint64_t)a * rp + j]) - m;
                v += dd * dd;
            }
            v /= Rn;
        }
        double rs = 1.0 / std::sqrt(v + eps);
        for (uint32_t j = 0; j < Rn; ++j) {
            uint64_t p = (uint64_t)a * rp + j;
            double o = (cbemu::to_double(x.addr_[p]) - m) * rs;
            if (!noGamma) o *= cbemu::to_double(gamma.addr_[j]);
            if (!noBeta) o += cbemu::to_double(beta.addr_[j]);
            y.addr_[p] = T(o);
        }
        if (outMean) outMean->addr_[a] = (float)m;
        if (outStat) outStat->addr_[a] = (float)(statIsRstd ? rs : v);
    }
}
}  // namespace cbemu_hl

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
               const float epsilon, const LayerNormPara& para, const LayerNormSeparateTiling& tiling, CBEMU_LOC) {
    (void)tiling;
    cbemu_hl::ar_norm<U, T>(output, config.isOnlyOutput ? nullptr : &outputMean,
                            config.isOnlyOutput ? nullptr : &outputRstd, config.isOutputRstd, nullptr, nullptr, inputX,
                            gamma, beta, config.isNoGamma, config.isNoBeta, epsilon, para.aLength, para.rLength,
                            para.rLengthWithPadding ? para.rLengthWithPadding : para.rLength, loc, "LayerNorm");
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
               const float epsilon, const LocalTensor<uint8_t>& tmp, const LayerNormPara& para,
               const LayerNormSeparateTiling& tiling, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "LayerNorm");
    LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, para, tiling,
                                           loc);
}

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
               const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para, CBEMU_LOC) {
    static_assert(config.reducePattern == ReducePattern::AR, "cotbuilder emulator: Normalize supports the AR pattern");
    cbemu_hl::ar_norm<U, T>(output, nullptr, config.isOnlyOutput ? nullptr : &outputRstd, true, &inputMean,
                            &inputVariance, inputX, gamma, beta, config.isNoGamma, config.isNoBeta, epsilon,
                            para.aLength, para.rLength, para.rLengthWithPadding ? para.rLengthWithPadding : para.rLength,
                            loc, "Normalize");
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
               const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const LocalTensor<uint8_t>& tmp, const float epsilon,
               const NormalizePara& para, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "Normalize");
    Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, epsilon,
                                           para, loc);
}
}  // namespace AscendC

// ---- BatchNorm: x [B, S, H]; mean / variance per (s, h) over B; y = gamma[b] * (x - mean) / sqrt(var + eps) + beta[b]
//      GroupNorm: x [N, C, HW] (each channel's HW padded to 32 bytes, hwAlignSize); statistics per (n, group of
//      C / g channels); y = gamma[c] * (x - mean) / sqrt(var + eps) + beta[c] ----
namespace AscendC {
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta, const T epsilon,
               BatchNormTiling& tiling, CBEMU_LOC) {
    uint32_t B = tiling.originalBLength, SH = tiling.meanVarSize;
    int64_t n = (int64_t)B * SH;
    const char* api = "BatchNorm";
    if (!(cbemu::check_count(output, n, loc, api) & cbemu::check_count(inputX, n, loc, api) &
          cbemu::check_count(outputMean, SH, loc, api) & cbemu::check_count(outputVariance, SH, loc, api) &
          cbemu::check_count(gamm, B, loc, api) & cbemu::check_count(beta, B, loc, api)))
        return;
    double eps = cbemu::to_double(epsilon);
    for (uint32_t f = 0; f < SH; ++f) {
        double m = 0, v = 0;
        for (uint32_t b = 0; b < B; ++b) m += cbemu::to_double(inputX.addr_[(uint64_t)b * SH + f]);
        m /= B;
        for (uint32_t b = 0; b < B; ++b) {
            double d = cbemu::to_double(inputX.addr_[(uint64_t)b * SH + f]) - m;
            v += d * d;
        }
        v /= B;
        double rs = 1.0 / std::sqrt(v + eps);
        for (uint32_t b = 0; b < B; ++b) {
            uint64_t p = (uint64_t)b * SH + f;
            output.addr_[p] = T(cbemu::to_double(gamm.addr_[b]) * (cbemu::to_double(inputX.addr_[p]) - m) * rs +
                                cbemu::to_double(beta.addr_[b]));
        }
        outputMean.addr_[f] = T(m);
        outputVariance.addr_[f] = T(v);
    }
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& tmp, const T epsilon, BatchNormTiling& tiling, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "BatchNorm");
    BatchNorm<T, isReuseSource, isBasicBlock>(output, outputMean, outputVariance, inputX, gamm, beta, epsilon, tiling,
                                              loc);
}

template <typename T, bool isReuseSource = false>
void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               GroupNormTiling& tiling, CBEMU_LOC) {
    uint32_t N = tiling.n, Cc = tiling.c, HW = tiling.hw, G = tiling.g;
    uint32_t hs = tiling.hwAlignSize ? tiling.hwAlignSize : HW, D = G ? Cc / G : 0;
    int64_t n = (int64_t)N * Cc * hs;
    const char* api = "GroupNorm";
    if (G == 0 || Cc % G) {
        cbemu::report("assert_failed", cbemu::Sev::error, loc, "GroupNorm: C=%u is not a multiple of groupNum=%u", Cc, G);
        return;
    }
    if (!(cbemu::check_count(output, n, loc, api) & cbemu::check_count(inputX, n, loc, api) &
          cbemu::check_count(outputMean, (int64_t)N * G, loc, api) &
          cbemu::check_count(outputVariance, (int64_t)N * G, loc, api) & cbemu::check_count(gamma, Cc, loc, api) &
          cbemu::check_count(beta, Cc, loc, api)))
        return;
    double eps = cbemu::to_double(epsilon), cnt = (double)D * HW;
    for (uint32_t i = 0; i < N; ++i)
        for (uint32_t g = 0; g < G; ++g) {
            double m = 0, v = 0;
            for (uint32_t c = g * D; c < (g + 1) * D; ++c)
                for (uint32_t j = 0; j < HW; ++j) m += cbemu::to_double(inputX.addr_[((uint64_t)i * Cc + c) * hs + j]);
            m /= cnt;
            for (uint32_t c = g * D; c < (g + 1) * D; ++c)
                for (uint32_t j = 0; j < HW; ++j) {
                    double d = cbemu::to_double(inputX.addr_[((uint64_t)i * Cc + c) * hs + j]) - m;
                    v += d * d;
                }
            v /= cnt;
            double rs = 1.0 / std::sqrt(v + eps);
            for (uint32_t c = g * D; c < (g + 1) * D; ++c)
                for (uint32_t j = 0; j < HW; ++j) {
                    uint64_t p = ((uint64_t)i * Cc + c) * hs + j;
                    output.addr_[p] = T(cbemu::to_double(gamma.addr_[c]) * (cbemu::to_double(inputX.addr_[p]) - m) * rs +
                                        cbemu::to_double(beta.addr_[c]));
                }
            outputMean.addr_[i * G + g] = T(m);
            outputVariance.addr_[i * G + g] = T(v);
        }
}
template <typename T, bool isReuseSource = false>
void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& tmp, const T epsilon, GroupNormTiling& tiling, CBEMU_LOC) {
    cbemu::hl_tmp(tmp, loc, "GroupNorm");
    GroupNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, epsilon, tiling, loc);
}
}  // namespace AscendC
