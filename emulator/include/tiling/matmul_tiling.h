// Host side of the Matmul library's tiling (docs: 高阶API/矩阵计算/Matmul-Tiling类): MatmulApiTiling (one core),
// MultiCoreMatmulTiling, BatchMatmulTiling and their enums. GetTiling fills a TCubeTiling with the emulator's own
// tiling, or a random valid one under COTBUILDER_MATMUL_TILING=random:SEED (impl/adv_api/matmul_tiling_rules.h).
// Hand-written host shim; included by tiling/tiling_api.h.
#pragma once
#include <cstdint>
#include <iostream>  // the toolkit headers bring it: host code uses std::cout after including tiling_api.h

#include "../impl/adv_api/matmul_tiling_rules.h"
#include "../kernel_tiling/kernel_tiling.h"
#include "platform/platform_ascendc.h"

namespace matmul_tiling {

enum class DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
    DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31,
    DT_UINT2 = 32, DT_BFLOAT16 = 33, DT_HIFLOAT8 = 34, DT_FLOAT8_E4M3FN = 35, DT_FLOAT8_E5M2 = 36,
    DT_FLOAT4_E2M1 = 37, DT_FLOAT8_E8M0 = 38, DT_FLOAT4_E1M2 = 39, DT_MAX = 40,
};
enum class TPosition : int32_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX,
};
enum class TilingPolicy : int32_t { FIXED_B_TSCM = 0, FIXED_A_TSCM = 1, FIXED_A_B_TSCM = 2, NO_POLICY = 3 };
enum class CubeFormat : int32_t {
    ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8,
};
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

struct SysTilingTempBufSize {
    int32_t ubSize = 0;
    int32_t l1Size = 0;
    int32_t l0cSize = 0;
};
struct PlatformInfo {
    platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
    uint64_t l1Size = 0;
    uint64_t l0CSize = 0;
    uint64_t ubSize = 0;
    uint64_t l0ASize = 0;
    uint64_t l0BSize = 0;
};
struct MatmulConfigParams {
    int32_t mmConfigType;
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                       MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn),
          traverse(traverseIn), enVecND2NZ(enVecND2NZIn) {}
};

inline uint32_t dtype_bytes(DataType t) {
    switch (t) {
        case DataType::DT_FLOAT: case DataType::DT_INT32: case DataType::DT_UINT32: return 4;
        case DataType::DT_FLOAT16: case DataType::DT_BF16: case DataType::DT_BFLOAT16: case DataType::DT_INT16:
        case DataType::DT_UINT16: return 2;
        case DataType::DT_INT64: case DataType::DT_UINT64: case DataType::DT_DOUBLE: return 8;
        default: return 1;
    }
}

// Shared by the three tiling classes: the settings and GetTiling.
class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() = default;
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC&) {}
    explicit MatmulApiTilingBase(const PlatformInfo& p) {
        if (p.l1Size) spec_.l1 = (int64_t)p.l1Size;
        if (p.l0CSize) spec_.l0c = (int64_t)p.l0CSize;
        if (p.ubSize) spec_.ub = (int64_t)p.ubSize;
    }
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        aPos_ = pos, aFmt_ = type, aType_ = dataType;
        spec_.ty.sA = dtype_bytes(dataType);
        spec_.ty.transA = isTrans;
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        bPos_ = pos, bFmt_ = type, bType_ = dataType;
        spec_.ty.sB = dtype_bytes(dataType);
        spec_.ty.transB = isTrans;
        return 0;
    }
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
        cPos_ = pos, cFmt_ = type, cType_ = dataType;
        return 0;
    }
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
        (void)pos, (void)type;
        spec_.ty.sBias = dtype_bytes(dataType);
        return 0;
    }
    int32_t SetDequantType(DequantType) { return 0; }
    int32_t SetScaleAType(TPosition, CubeFormat, bool = false) { return 0; }
    int32_t SetScaleBType(TPosition, CubeFormat, bool = true) { return 0; }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        spec_.shapeM = m, spec_.shapeN = n, spec_.shapeK = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
        return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
        spec_.orgM = orgMIn, spec_.orgN = orgNIn, spec_.orgKa = orgKaIn, spec_.orgKb = orgKbIn;
        return 0;
    }
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
        spec_.fixBaseM = baseMIn, spec_.fixBaseN = baseNIn, spec_.fixBaseK = baseKIn;
        return 0;
    }
    int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1,
                          int32_t minBaseN = -1, int32_t minBaseK = -1) {
        spec_.maxBaseM = maxBaseM, spec_.maxBaseN = maxBaseN, spec_.maxBaseK = maxBaseK;
        spec_.minBaseM = minBaseM, spec_.minBaseN = minBaseN, spec_.minBaseK = minBaseK;
        return 0;
    }
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1) {
        spec_.l1 = l1Size, spec_.l0c = l0CSize, spec_.ub = ubSize, spec_.bt = btSize;
        return 0;
    }
    int32_t EnableBias(bool isBiasIn = false) {
        spec_.ty.bias = isBiasIn;
        return 0;
    }
    int32_t SetBias(bool isBiasIn = false) { return EnableBias(isBiasIn); }
    int32_t SetTraverse(MatrixTraverse traverse) {
        spec_.traverse = (int)traverse;
        return 0;
    }
    int32_t SetMadType(MatrixMadType) { return 0; }
    int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true) {
        (void)bias, (void)transND2NZ, (void)transNZ2ND;
        spec_.dbA = a, spec_.dbB = b, spec_.dbC = c;
        return 0;
    }
    int32_t SetSparse(bool = false) { return 0; }
    void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                               ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                               MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false) {
        (void)mmConfigTypeIn, (void)enableL1CacheUBIn, (void)scheduleTypeIn, (void)enVecND2NZIn;
        if (traverseIn != MatrixTraverse::NOSET) spec_.traverse = (int)traverseIn;
    }
    void SetMatmulConfigParams(const MatmulConfigParams& p) {
        SetMatmulConfigParams(p.mmConfigType, p.enableL1CacheUB, p.scheduleType, p.traverse, p.enVecND2NZ);
    }
    int32_t EnableL1BankConflictOptimise() { return 0; }

    // The layouts and batch count of a batched matmul are recorded in the tiling's layout fields for the kernel's
    // IterateBatch.
    virtual int64_t GetTiling(optiling::TCubeTiling& tiling) {
        int64_t r = cbemu::mm::build_tiling(spec_, tiling, cbemu::mm::tiling_seed());
        if (r != 0) return r;
        tiling.ALayoutInfoB = a_[0], tiling.ALayoutInfoS = a_[1], tiling.ALayoutInfoN = a_[2];
        tiling.ALayoutInfoG = a_[3], tiling.ALayoutInfoD = a_[4];
        tiling.BLayoutInfoB = b_[0], tiling.BLayoutInfoS = b_[1], tiling.BLayoutInfoN = b_[2];
        tiling.BLayoutInfoG = b_[3], tiling.BLayoutInfoD = b_[4];
        tiling.CLayoutInfoB = c_[0], tiling.CLayoutInfoS1 = c_[1], tiling.CLayoutInfoN = c_[2];
        tiling.CLayoutInfoG = c_[3], tiling.CLayoutInfoS2 = c_[4];
        tiling.BatchNum = batch_;
        tiling.batchM = batchA_ > 0 ? batchA_ : batch_;
        tiling.batchN = batchB_ > 0 ? batchB_ : batch_;
        tiling.singleBatchM = tiling.batchM;
        tiling.singleBatchN = tiling.batchN;
        last_ = tiling;
        return 0;
    }
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        a_[0] = b, a_[1] = s, a_[2] = n, a_[3] = g, a_[4] = d;
        return 0;
    }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        b_[0] = b, b_[1] = s, b_[2] = n, b_[3] = g, b_[4] = d;
        return 0;
    }
    int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        c_[0] = b, c_[1] = s, c_[2] = n, c_[3] = g, c_[4] = d;
        return 0;
    }
    int32_t SetBatchNum(int32_t batch) {
        batch_ = batch;
        return 0;
    }
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
        batch_ = batchA > batchB ? batchA : batchB;
        batchA_ = batchA, batchB_ = batchB;
        SetShape(m, n, k);
        if (spec_.orgM <= 0) SetOrgShape(m, n, k);
        return 0;
    }

    int32_t GetBaseM() const { return last_.baseM; }
    int32_t GetBaseN() const { return last_.baseN; }
    int32_t GetBaseK() const { return last_.baseK; }

protected:
    cbemu::mm::TilingSpec spec_;
    AscendC::tiling::TCubeTiling last_;
    TPosition aPos_ = TPosition::GM, bPos_ = TPosition::GM, cPos_ = TPosition::GM;
    CubeFormat aFmt_ = CubeFormat::ND, bFmt_ = CubeFormat::ND, cFmt_ = CubeFormat::ND;
    DataType aType_ = DataType::DT_FLOAT16, bType_ = DataType::DT_FLOAT16, cType_ = DataType::DT_FLOAT;
    int32_t a_[5] = {1, 1, 1, 1, 1}, b_[5] = {1, 1, 1, 1, 1}, c_[5] = {1, 1, 1, 1, 1};
    int32_t batch_ = 1, batchA_ = 0, batchB_ = 0;
};

// One core: the whole (single) shape on one core.
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    MatmulApiTiling() { spec_.multi_core = false; }
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) {
        spec_.multi_core = false;
    }
    explicit MatmulApiTiling(const PlatformInfo& p) : MatmulApiTilingBase(p) { spec_.multi_core = false; }
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    MultiCoreMatmulTiling() = default;
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) {}
    explicit MultiCoreMatmulTiling(const PlatformInfo& p) : MatmulApiTilingBase(p) {}
    int32_t SetDim(int32_t dim) {
        spec_.dim = dim;
        return 0;
    }
    int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
        spec_.singleM = singleMIn, spec_.singleN = singleNIn, spec_.singleK = singleKIn;
        return 0;
    }
    int32_t SetSingleRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) {
        return 0;
    }
    int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) const {
        shapeM = last_.singleCoreM, shapeN = last_.singleCoreN, shapeK = last_.singleCoreK;
        return 0;
    }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
        mDim = last_.singleCoreM ? (int32_t)cbemu::mm::ceil_div(spec_m(), last_.singleCoreM) : 0;
        nDim = last_.singleCoreN ? (int32_t)cbemu::mm::ceil_div(spec_n(), last_.singleCoreN) : 0;
        dim = mDim * nDim;
        return 0;
    }
    int32_t SetSplitK(bool = false) { return 0; }
    int32_t EnableMultiCoreSplitK(bool = false) { return 0; }
    int32_t SetAlignSplit(int32_t = -1, int32_t = -1, int32_t = -1) { return 0; }

protected:
    int32_t spec_m() const { return spec_.shapeM > 0 ? spec_.shapeM : spec_.orgM; }
    int32_t spec_n() const { return spec_.shapeN > 0 ? spec_.shapeN : spec_.orgN; }
};

// Batched matmul: the per-batch shape is the tiling's shape; the layouts and batch count are recorded in the
// TCubeTiling's layout fields for the kernel's IterateBatch.
class BatchMatmulTiling : public MultiCoreMatmulTiling {
public:
    BatchMatmulTiling() = default;
    explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& p) : MultiCoreMatmulTiling(p) {}
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim, int32_t& batchCoreM, int32_t& batchCoreN) const {
        MultiCoreMatmulTiling::GetCoreNum(dim, mDim, nDim);
        batchCoreM = batchCoreN = 1;
        return 0;
    }

};

// The library's temporary-buffer queries: the emulated Matmul needs no scratch.
inline int32_t MatmulGetTmpBufSize(optiling::TCubeTiling&, SysTilingTempBufSize& bufSize) {
    bufSize = SysTilingTempBufSize{};
    return 0;
}
inline int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& t, SysTilingTempBufSize& b) {
    return MatmulGetTmpBufSize(t, b);
}
inline int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& t, SysTilingTempBufSize& b) {
    return MatmulGetTmpBufSize(t, b);
}

}  // namespace matmul_tiling
