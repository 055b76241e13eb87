// The high-level Matmul (docs: 高阶API/矩阵计算/Matmul-Kernel侧接口): Matmul<MatmulType<...>...>, REGIST_MATMUL_OBJ,
// Init, SetTensorA/B (ND / NZ / ND_ALIGN / VECTOR, transposed, GM or local, or a scalar A), SetBias, SetOrgShape,
// SetSingleShape / SetTail, Iterate + GetTensorC (sync and async, GM or local, sequential or in place), IterateAll,
// IterateBatch (NORMAL / BSNGD / SBNGD / BNGS1S2 layouts), quantised outputs (SetQuantScalar / SetQuantVector), End.
//
// What the library does on the chip -- stage A and B through L1 and L0, Mmad per baseK, Fixpipe the base blocks
// out -- is computed here directly from the operands, block by block as the tiling says: each baseM x baseN block
// of C is summed over K in steps of baseK (each step's exact sum rounded once to the L0C type, the steps
// accumulated at that type, as Mmad into L0C does), the bias added first, then the block is converted to C's type
// (cast / dequant / requant) and written where the iteration order puts it. The tiling the kernel passes is
// checked against the documented rules (matmul_tiling_rules.h); a tiling that breaks one is an error naming it.
//
// In a mixed kernel (no ASCENDC_CUBE_ONLY) the library's AIC core only serves its AIV clients: REGIST_MATMUL_OBJ
// makes the AIC core return and each AIV core computes its own calls (emu/cores.h).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "../../kernel_tiling/kernel_tiling.h"
#include "../basic_api/cube_datamove.h"
#include "../basic_api/pipe.h"
#include "../emu/mixed.h"
#include "matmul_tiling_rules.h"

// ---- configuration types (global names, as kernels spell them unqualified) ----
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
    ITERATE_MODE_NORMAL = 1, ITERATE_MODE_ALL = 2, ITERATE_MODE_BATCH = 4, ITERATE_MODE_N_BATCH = 8,
    ITERATE_MODE_DEFAULT = 255,
};
enum class DecompressionMode { DECOMP_NONE = 0 };
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

// MatmulConfig: the fields in the documented order (brace-initialised kernels rely on it). The emulator's result
// does not depend on the template choice; the fields are kept for kernels that read them.
struct MatmulConfig {
    bool doNorm;
    bool doBasicBlock;
    bool doMultiDataLoad;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
    bool intrinsicsCheck;
    bool isNBatch;
    bool enVecND2NZ;
    bool doSpecialBasicBlock;
    uint32_t doMTE2Preload;
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t stepM;
    uint32_t stepN;
    uint32_t baseMN;
    uint32_t singleCoreMN;
    bool enUnitFlag = true;
    bool isPerTensor;
    bool hasAntiQuantOffset;
    bool doIBShareNorm;
    bool doSpecialMDL;
    bool enableInit = true;
    BatchMode batchMode;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = ITERATE_MODE_DEFAULT;
    bool enableReuse = true;
    bool enableUBReuse;
    bool enableL1CacheUB;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder{IterateOrder::UNDEF};
    ScheduleType scheduleType;
    bool enableDoubleCache;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = 64 * 1024;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

struct MatmulShapeParams {
    uint32_t singleCoreM, singleCoreN, singleCoreK, basicM, basicN, basicK;
};
struct MatmulQuantParams {
    bool isPerTensor, hasAntiQuantOffset;
};
struct MatmulBatchParams {
    bool isNBatch;
    BatchMode batchMode;
    bool isBiasBatch = true;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
    bool intrinsicsCheck, enVecND2NZ, enableDoubleCache, enableL1CacheUB;
    uint32_t doMTE2Preload;
    IterateOrder iterateOrder;
    ScheduleType scheduleType;
    bool enableReuse = true;
    bool enableUBReuse;
    bool isPartialOutput = false, isA2B2Shared = false, isEnableChannelSplit = false, enableKdimReorderLoad = false;
    bool enableL1BankConflictOptimise = false, enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
struct MatmulBiasParams {
    bool enableSetBias = true;
};
struct MatrixOffset {
    int32_t offset, row, col, height, width;
};

constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                       const bool isVecND2NZ = false,
                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       const bool isMsgReuse = true, const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       const bool enUnitFlag = true, const bool enableMixDualMaster = false,
                                       const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
    MatmulConfig c{};
    c.doNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableReuse = isMsgReuse;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enUnitFlag = enUnitFlag;
    c.enableMixDualMaster = enableMixDualMaster;
    c.bmmOutMode = bmmOutMode;
    return c;
}
constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                    const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    const bool enUnitFlag = false, const bool isMsgReuse = true,
                                    const bool enableUBReuse = true, const bool enableL1CacheUB = false,
                                    const bool enableMixDualMaster = false, const bool enableKdimReorderLoad = false) {
    MatmulConfig c{};
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    c.enableMixDualMaster = enableMixDualMaster;
    c.enableKdimReorderLoad = enableKdimReorderLoad;
    return c;
}
constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                           const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                           bool isPerTensor = false, bool hasAntiQuantOffset = false) {
    MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor,
                                  hasAntiQuantOffset);
    c.doMultiDataLoad = false;
    c.doSpecialMDL = true;
    return c;
}
constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                      const bool intrinsicsLimit = false, const bool batchLoop = false,
                                      const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, false, bmmMode);
    c.doNorm = false;
    c.doBasicBlock = true;
    c.basicM = basicM;
    c.basicN = basicN;
    c.basicK = basicK;
    return c;
}
constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                            const bool isVecND2NZ = false,
                                            const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            const bool isDoubleCache = false, const bool enUnitFlag = true) {
    MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
    c.doNorm = false;
    c.doIBShareNorm = true;
    c.enableDoubleCache = isDoubleCache;
    c.enUnitFlag = enUnitFlag;
    return c;
}
namespace cbemu_mmcfg {
constexpr void apply(MatmulConfig& c, const MatmulShapeParams& p) {
    c.singleCoreM = p.singleCoreM, c.singleCoreN = p.singleCoreN, c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM, c.basicN = p.basicN, c.basicK = p.basicK;
}
constexpr void apply(MatmulConfig& c, const MatmulQuantParams& p) {
    c.isPerTensor = p.isPerTensor, c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void apply(MatmulConfig& c, const MatmulBatchParams& p) {
    c.isNBatch = p.isNBatch, c.batchMode = p.batchMode, c.isBiasBatch = p.isBiasBatch, c.bmmOutMode = p.bmmOutMode;
}
constexpr void apply(MatmulConfig& c, const MatmulFuncParams& p) {
    c.intrinsicsCheck = p.intrinsicsCheck, c.enVecND2NZ = p.enVecND2NZ, c.enableDoubleCache = p.enableDoubleCache;
    c.enableL1CacheUB = p.enableL1CacheUB, c.doMTE2Preload = p.doMTE2Preload, c.iterateOrder = p.iterateOrder;
    c.scheduleType = p.scheduleType, c.enableReuse = p.enableReuse, c.enableUBReuse = p.enableUBReuse;
    c.isPartialOutput = p.isPartialOutput, c.isA2B2Shared = p.isA2B2Shared;
    c.isEnableChannelSplit = p.isEnableChannelSplit, c.enableKdimReorderLoad = p.enableKdimReorderLoad;
    c.enableRelu = p.enableRelu;
}
constexpr void apply(MatmulConfig& c, const MatmulBiasParams& p) { c.enableSetBias = p.enableSetBias; }
}  // namespace cbemu_mmcfg
template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
    MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL          ? GetMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_IBSHARE    ? GetIBShareNormConfig()
                                                                         : GetNormalConfig();
    (cbemu_mmcfg::apply(c, args), ...);
    return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

// A tiling fixed at compile time (GetMatmulApiTiling): the same fields as TCubeTiling plus the config; a field
// left at -1 comes from the runtime tiling / SetOrgShape.
struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1, M = -1, N = -1, Ka = -1, Kb = -1, singleCoreM = -1, singleCoreN = -1,
            singleCoreK = -1, baseM = -1, baseN = -1, baseK = -1, depthA1 = -1, depthB1 = -1, stepM = -1,
            stepN = -1, isBias = -1, transLength = -1, iterateOrder = -1, shareMode = -1, shareL1Size = -1,
            shareL0CSize = -1, shareUbSize = -1, batchM = -1, batchN = -1, singleBatchM = -1, singleBatchN = -1,
            stepKa = -1, stepKb = -1, depthAL1CacheUB = -1, depthBL1CacheUB = -1, dbL0A = -1, dbL0B = -1,
            dbL0C = -1, ALayoutInfoB = -1, ALayoutInfoS = -1, ALayoutInfoN = -1, ALayoutInfoG = -1,
            ALayoutInfoD = -1, BLayoutInfoB = -1, BLayoutInfoS = -1, BLayoutInfoN = -1, BLayoutInfoG = -1,
            BLayoutInfoD = -1, CLayoutInfoB = -1, CLayoutInfoS1 = -1, CLayoutInfoN = -1, CLayoutInfoG = -1,
            CLayoutInfoS2 = -1, BatchNum = -1, mxTypePara = -1;
    MatmulConfig cfg{};
};

namespace AscendC {
using ::BatchMode;
using ::CubeFormat;
using ::GetBasicConfig;
using ::GetIBShareNormConfig;
using ::GetMDLConfig;
using ::GetMMConfig;
using ::GetNormalConfig;
using ::GetSpecialMDLConfig;
using ::IterateOrder;
using ::LayoutMode;
using ::MatmulApiStaticTiling;
using ::MatmulConfig;
using ::MatmulConfigMode;
using ::MatmulShapeParams;
using ::ScheduleType;
using ::CFG_IBSHARE_NORM;
using ::CFG_MDL;
using ::CFG_NORM;
using ::MM_CFG_BB;

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
    constexpr static TPosition srcPos = SRCPOS;
};

// The L0C type of a Matmul on inputs of type T (int32 for 8-bit inputs, float otherwise).
template <typename T>
struct GetMmDstType {
    using Type = typename std::conditional<std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value,
                                           int32_t, float>::type;
};

// The library's extension points (MatmulPolicy.md): a policy is named as the Matmul's last template argument. The
// emulated Matmul computes the same matrix under every data-movement policy; the triangular policies, which skip
// blocks, are not modelled and stop as unsupported.
namespace Impl {
constexpr int32_t QUEUE_DEPTH = 1;
namespace Detail {
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct MatmulPolicy {
    constexpr static bool skips_blocks = false;
    constexpr static int triangle = 0;  // MatmulPolicy.md: 1 keeps the upper triangle of base blocks, 2 the lower
};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct NBuffer33MatmulPolicy : MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianUpperMatmulPolicy : MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    constexpr static bool skips_blocks = true;
    constexpr static int triangle = 1;
};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianLowerMatmulPolicy : MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {
    constexpr static bool skips_blocks = true;
    constexpr static int triangle = 2;
};
}  // namespace Detail
}  // namespace Impl

// Custom copy-in / copy-out callbacks (MatmulCallBackFunc.md). CopyA1 / CopyB1 are called once per base block of A
// (baseM x baseK, at block row / K-step col) / B (baseK x baseN) to fill an L1 buffer, which the Matmul then reads in
// the Nz layout a GM->L1 ND2NZ copy gives; a custom DataCopyOut is not modelled (unsupported_api).
template <void (*DataCopyOut)(const __gm__ void*, const LocalTensor<int8_t>&, const void*, const uint64_t,
                              const uint64_t) = nullptr,
          void (*CopyA1)(const LocalTensor<int8_t>&, const __gm__ void*, int, int, int, int, const uint64_t,
                         const uint64_t) = nullptr,
          void (*CopyB1)(const LocalTensor<int8_t>&, const __gm__ void*, int, int, int, int, const uint64_t,
                         const uint64_t) = nullptr>
struct MatmulCallBackFunc {
    constexpr static bool custom = DataCopyOut != nullptr || CopyA1 != nullptr || CopyB1 != nullptr;
    constexpr static bool custom_out = DataCopyOut != nullptr;
    constexpr static auto copy_a1 = CopyA1;
    constexpr static auto copy_b1 = CopyB1;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = 512 * 1024) {
    (void)l1Size;
    MatmulApiStaticTiling t{};
    t.cfg = mmCFG;
    if (mmCFG.singleCoreM) t.singleCoreM = (int32_t)mmCFG.singleCoreM;
    if (mmCFG.singleCoreN) t.singleCoreN = (int32_t)mmCFG.singleCoreN;
    if (mmCFG.singleCoreK) t.singleCoreK = (int32_t)mmCFG.singleCoreK;
    if (mmCFG.basicM) t.baseM = (int32_t)mmCFG.basicM;
    if (mmCFG.basicN) t.baseN = (int32_t)mmCFG.basicN;
    if (mmCFG.basicK) t.baseK = (int32_t)mmCFG.basicK;
    if (t.baseM > 0 && t.baseN > 0 && t.baseK > 0) {
        int32_t kb = t.singleCoreK > 0 ? (t.singleCoreK + t.baseK - 1) / t.baseK : 1;
        t.stepM = t.stepN = 1;
        t.stepKa = t.stepKb = kb < 4 ? kb : 4;
        t.depthA1 = t.stepKa * 2;
        t.depthB1 = t.stepKb * 2;
        // double-buffered L0A / L0B where two base blocks fit (64 KB each on the modelled SoCs)
        constexpr int32_t kL0AB = 64 * 1024;
        t.dbL0A = t.baseM * t.baseK * (int32_t)sizeof(typename A_TYPE::T) * 2 <= kL0AB ? 2 : 1;
        t.dbL0B = t.baseN * t.baseK * (int32_t)sizeof(typename B_TYPE::T) * 2 <= kL0AB ? 2 : 1;
        t.dbL0C = 1;
        t.iterateOrder = 0;
    }
    return t;
}

}  // namespace AscendC

namespace cbemu {
namespace mm {

template <typename T>
struct is_static_tiling : std::is_same<typename std::decay<T>::type, MatmulApiStaticTiling> {};

// The tiling a Matmul runs with: the runtime one, with the compile-time fields of a static tiling on top.
template <const auto& CFG>
inline void overlay_static(AscendC::tiling::TCubeTiling& t) {
    if constexpr (is_static_tiling<decltype(CFG)>::value) {
#define CBEMU_OVERLAY(f) \
    if (CFG.f >= 0) t.f = CFG.f;
        CBEMU_OVERLAY(usedCoreNum) CBEMU_OVERLAY(M) CBEMU_OVERLAY(N) CBEMU_OVERLAY(Ka) CBEMU_OVERLAY(Kb)
        CBEMU_OVERLAY(singleCoreM) CBEMU_OVERLAY(singleCoreN) CBEMU_OVERLAY(singleCoreK) CBEMU_OVERLAY(baseM)
        CBEMU_OVERLAY(baseN) CBEMU_OVERLAY(baseK) CBEMU_OVERLAY(depthA1) CBEMU_OVERLAY(depthB1)
        CBEMU_OVERLAY(stepM) CBEMU_OVERLAY(stepN) CBEMU_OVERLAY(isBias) CBEMU_OVERLAY(iterateOrder)
        CBEMU_OVERLAY(stepKa) CBEMU_OVERLAY(stepKb) CBEMU_OVERLAY(dbL0A) CBEMU_OVERLAY(dbL0B) CBEMU_OVERLAY(dbL0C)
#undef CBEMU_OVERLAY
    } else {
        (void)t;
    }
}

// Where an operand lives: a GM tensor, a local tensor, or one scalar.
template <typename T>
struct Operand {
    const T* base = nullptr;      // element 0
    AscendC::GlobalTensor<T> gm;  // the GM operand, whose bounds every fetch checks (when global)
    bool global = false, local = false, scalar = false, set = false;
    T value{};

    static Operand of(const AscendC::GlobalTensor<T>& t) {
        Operand o;
        o.gm = t;
        o.base = t.addr_;
        o.global = o.set = true;
        return o;
    }
    static Operand of(const AscendC::LocalTensor<T>& t) {
        Operand o;
        o.base = t.addr_;
        o.local = o.set = true;
        return o;
    }
    static Operand of(T scalar_value) {
        Operand o;
        o.value = scalar_value;
        o.scalar = o.set = true;
        return o;
    }
};

template <typename T>
constexpr uint32_t c0_elems() { return 32 / sizeof(T); }

}  // namespace mm
}  // namespace cbemu

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto&, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
class Matmul {
    using Policy = MATMUL_POLICY<MM_CFG, void, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>;

public:
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using L0cT = typename std::conditional<cbemu::is_int8_cube<SrcAT>::value, int32_t, float>::type;
    static_assert(!std::is_same<SrcAT, int4b_t>::value,
                  "cotbuilder emulator: Matmul with int4b_t operands is not modelled");

    Matmul() = default;

    // ---- set-up ----
    void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr, CBEMU_LOC) {
        (void)tpipe;
        if (MM_CB::custom_out)
            cbemu::report("unsupported_api", cbemu::Sev::fatal, loc,
                          "Matmul with a custom MatmulCallBackFunc DataCopyOut (C from L0C to GM)");
        if ((MM_CB::copy_a1 != nullptr && A_TYPE::isTrans) || (MM_CB::copy_b1 != nullptr && B_TYPE::isTrans))
            cbemu::report("unsupported_api", cbemu::Sev::fatal, loc,
                          "Matmul with a custom MatmulCallBackFunc copy-in of a transposed operand");
        if (!cubeTiling && !cbemu::mm::is_static_tiling<decltype(MM_CFG)>::value) {
            cbemu::report("tiling_null", cbemu::Sev::fatal, loc, "Matmul Init with a null TCubeTiling");
            return;
        }
        if (cubeTiling) std::memcpy((void*)&t_, (const void*)cubeTiling, sizeof t_);
        cbemu::mm::overlay_static<MM_CFG>(t_);
        inited_ = true;
        std::string bad = cbemu::mm::check_tiling(t_, type_info());
        if (!bad.empty())
            cbemu::report("matmul_tiling", cbemu::Sev::error, loc, "Matmul tiling breaks a TCubeTiling rule: %s",
                          bad.c_str());
        orgM_ = t_.M, orgN_ = t_.N, orgKa_ = t_.Ka, orgKb_ = t_.Kb, orgKc_ = 0;
        sM_ = t_.singleCoreM, sN_ = t_.singleCoreN, sK_ = t_.singleCoreK;
        bias_on_ = false;
        reset_iteration();
    }
    void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        orgM_ = orgM, orgN_ = orgN, orgKa_ = orgKa, orgKb_ = orgKb, orgKc_ = orgKc;
        org_set_ = true;
    }
    void SetSingleShape(int singleM, int singleN, int singleK) { SetTail(singleM, singleN, singleK); }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM > 0) sM_ = tailM;
        if (tailN > 0) sN_ = tailN;
        if (tailK > 0) sK_ = tailK;
        reset_iteration();
    }
    void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) { set_a(gm, isTransposeA); }
    void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false) { set_a(leftMatrix, isTransposeA); }
    void SetTensorA(SrcAT aScalar) { set_a(aScalar, false); }
    void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) { set_b(gm, isTransposeB); }
    void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false) { set_b(rightMatrix, isTransposeB); }
    void SetTensorB(SrcBT bScalar) {  // a scalar B keeps the transpose flag it had
        b_ = cbemu::mm::Operand<SrcBT>::of(bScalar);
        reset_iteration();
    }
    void SetBias(const GlobalTensor<BiasT>& biasGlobal) { set_bias(biasGlobal); }
    void SetBias(const LocalTensor<BiasT>& inputBias) { set_bias(inputBias); }
    void DisableBias() { bias_on_ = false; }
    void ClearBias() { bias_on_ = false; }
    void SetQuantScalar(const uint64_t quantScalar) {
        quant_scalar_ = quantScalar;
        quant_vec_ = nullptr;
        quant_set_ = true;
    }
    void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
        quant_vec_ = quantTensor.addr_;
        quant_set_ = true;
    }
    // The library's scratch; IterateNBatch (sync) writes its C matrices here (IterateNBatch.md).
    template <typename T>
    void SetWorkspace(GlobalTensor<T>& ws) {
        ws_ = GlobalTensor<DstT>();
        ws_.addr_ = reinterpret_cast<DstT*>(ws.addr_);
        ws_.size_ = (uint64_t)ws.size_ * sizeof(T) / sizeof(DstT);
        ws_.lo_ = ws.lo_, ws_.hi_ = ws.hi_, ws_.decl_hi_ = ws.decl_hi_, ws_.checked_ = ws.checked_;
        ws_set_ = true;
    }
    template <typename T>
    void SetWorkspace(__gm__ const T* addr, int size) {
        ws_ = GlobalTensor<DstT>();
        ws_.SetGlobalBuffer((__gm__ DstT*)addr, (uint64_t)size / sizeof(DstT));
        ws_set_ = true;
    }
    void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
    void SetHF32(bool enableHF32 = false, int32_t transMode = 0) {
        hf32_ = enableHF32;
        hf32_zero_ = transMode == 1;
    }
    void SetSubBlockIdx(uint8_t subBlockIdx) { sub_block_ = subBlockIdx; }
    uint8_t GetSubBlockIdx() { return sub_block_; }
    // What the copy callbacks receive as dataPtr / tilingPtr.
    template <typename T>
    void SetSelfDefineData(const T dataPtr) {
        if constexpr (std::is_pointer<T>::value) self_data_ = (uint64_t)(uintptr_t)dataPtr;
        else self_data_ = (uint64_t)dataPtr;
    }
    void SetUserDefInfo(const uint64_t tilingPtr) { user_info_ = tilingPtr; }
    void SetBatchNum(int32_t batchA, int32_t batchB) {
        batchA_ = batchA;
        batchB_ = batchB;
    }
    void End() { reset_iteration(); }
    MatrixOffset GetOffsetC() {
        return MatrixOffset{0, (int32_t)(cur_m_ * t_.baseM), (int32_t)(cur_n_ * t_.baseN), (int32_t)cur_mb_,
                            (int32_t)cur_nb_};
    }

    // ---- compute ----
    template <bool sync = true>
    bool Iterate(bool enPartialSum = false, CBEMU_LOC) {
        if (!ready(loc)) return false;
        if (!sync && partial_output())
            cbemu::report("unsupported_api", cbemu::Sev::fatal, loc, "Matmul::Iterate<false> with isPartialOutput");
        if (!sync) {  // async: compute every block now, hand them out one per GetTensorC
            if (async_ready_) return false;
            async_blocks_.clear();
            for (size_t i = 0; i < order_.size(); ++i) {
                compute_block(order_[i].first, order_[i].second, false, loc);
                async_blocks_.push_back(Block{order_[i].first, order_[i].second, cur_mb_, cur_nb_, acc_});
            }
            async_ready_ = true;
            async_next_ = 0;
            return true;
        }
        if (next_ >= order_.size()) {
            reset_iteration();
            return false;
        }
        if (partial_output()) {  // MatmulConfig.isPartialOutput: one baseK slice of one block per Iterate
            if (bias_on_)
                cbemu::report("unsupported_api", cbemu::Sev::fatal, loc,
                              "Matmul with isPartialOutput and a bias (which slice gets the bias is not documented)");
            uint32_t k_steps = (uint32_t)((sK_ + t_.baseK - 1) / t_.baseK);
            compute_block(order_[next_].first, order_[next_].second, false, loc, (int32_t)k_next_);
            if (++k_next_ >= k_steps) k_next_ = 0, next_++;
            return true;
        }
        if (enPartialSum && (sM_ != t_.baseM || sN_ != t_.baseN))
            cbemu::report("cube_bad_params", cbemu::Sev::error, loc,
                          "Iterate(enPartialSum) accumulates in L0C only when singleCoreM == baseM and singleCoreN "
                          "== baseN");
        compute_block(order_[next_].first, order_[next_].second, enPartialSum, loc);
        next_++;
        return true;
    }
    // User-managed CO1: the block's L0C result goes into localCmatrix (Nz, baseM x baseN).
    template <bool sync = true, typename T>
    bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix, CBEMU_LOC) {
        bool more = Iterate<true>(enPartialSum, loc);
        if (!more) return false;
        uint32_t mb = cur_mb_, nb = cur_nb_, m1 = (mb + 15) / 16;
        if (!cbemu::cube_operand(localCmatrix, cbemu::mem_bit(cbemu::Mem::L0C), 0,
                                 (uint64_t)m1 * 16 * ((nb + 15) / 16) * 16 * sizeof(T), loc, "Iterate", "localCmatrix"))
            return true;
        for (uint32_t i = 0; i < mb; ++i)
            for (uint32_t j = 0; j < nb; ++j) {
                size_t at = ((size_t)(j / 16) * m1 + i / 16) * 256 + (i % 16) * 16 + j % 16;
                T prev = localCmatrix.addr_[at];
                localCmatrix.addr_[at] = enPartialSum ? (T)((double)prev + (double)acc_[(size_t)i * nb + j])
                                                      : (T)acc_[(size_t)i * nb + j];
            }
        return true;
    }

    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false, CBEMU_LOC) {
        if (!take_block(sync, loc)) return;
        write_block_gm(gm, enAtomic, enSequentialWrite, loc);
    }
    template <bool sync = true>
    void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    uint32_t height = 0, uint32_t width = 0, uint32_t srcGap = 0, uint32_t dstGap = 0, CBEMU_LOC) {
        (void)height, (void)width, (void)srcGap, (void)dstGap;
        if (!take_block(sync, loc)) return;
        write_block_local(co2Local, enAtomic, enSequentialWrite, loc);
    }
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                    bool enSequentialWrite = false, CBEMU_LOC) {
        if (!take_block(sync, loc)) return;
        write_block_gm(gm, enAtomic, enSequentialWrite, loc);
        write_block_local(co2Local, enAtomic, enSequentialWrite, loc);
    }
    template <bool sync = true>
    GlobalTensor<DstT> GetTensorC(uint8_t enAtomic = 0, bool enSequentialWrite = false, CBEMU_LOC) {
        (void)enAtomic, (void)enSequentialWrite;
        cbemu::report("unsupported_api", cbemu::Sev::fatal, loc,
                      "Matmul::GetTensorC() returning the C block in the library's workspace");
        return GlobalTensor<DstT>();
    }

    template <bool sync = true>
    void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false, CBEMU_LOC) {
        (void)waitIterateAll;
        if (fakeMsg) return;  // IBShare pairing call: no computation
        if (!ready(loc)) return;
        for (size_t i = 0; i < order_.size(); ++i) {
            compute_block(order_[i].first, order_[i].second, false, loc);
            write_block_gm(gm, enAtomic, enSequentialWrite, loc);
        }
        reset_iteration();
    }
    template <bool sync = true>
    void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0, CBEMU_LOC) {
        if (!ready(loc)) return;
        for (size_t i = 0; i < order_.size(); ++i) {
            compute_block(order_[i].first, order_[i].second, false, loc);
            write_block_local(ubCmatrix, enAtomic, false, loc);
        }
        reset_iteration();
    }
    void WaitIterateAll() {}
    void WaitGetTensorC() {}
    template <bool sync = true>
    void WaitIterateBatch() {}

    // ---- batched: batchA x batchB matrices of the single shape, laid out as A_TYPE / B_TYPE / C_TYPE say ----
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0,
                      CBEMU_LOC) {
        batch_gm(gm, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum,
                 enAtomic, loc);
    }
    // (the cube-only form: the second argument is a real bool, which keeps it apart from the batch counts)
    template <bool sync = true, bool waitIterateBatch = false, typename PS,
              typename std::enable_if<std::is_same<PS, bool>::value, int>::type = 0>
    void IterateBatch(const GlobalTensor<DstT>& gm, PS enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, CBEMU_LOC) {
        batch_gm(gm, batchA_, batchB_, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum,
                 enAtomic, loc);
    }
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                       const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                       const uint32_t matrixStrideC = 0, CBEMU_LOC) {
        // IterateNBatch.md: batchLoop IterateBatch calls, the l-th on A batches [l * batchA, (l + 1) * batchA), B
        // batches [l * batchB, ...), C batches [l * max(batchA, batchB), ...), the C matrices going to the
        // SetWorkspace buffer. Ours: C batch b sits where the C layout puts batch b (as IterateBatch writes it).
        if (!sync)
            cbemu::report("unsupported_api", cbemu::Sev::fatal, loc,
                          "Matmul::IterateNBatch<false> (asynchronous, read back with GetBatchTensorC)");
        if (!ws_set_) {
            cbemu::report("cube_bad_params", cbemu::Sev::error, loc,
                          "Matmul::IterateNBatch writes its C matrices to the SetWorkspace buffer: call SetWorkspace "
                          "first");
            return;
        }
        uint32_t nb = batchA > batchB ? batchA : batchB;
        for (uint32_t l = 0; l < batchLoop; ++l)
            batch_gm(ws_, batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC, false, 0,
                     loc, l * batchA, l * batchB, l * nb);
    }

private:
    template <typename Src>
    void set_a(const Src& src, bool transpose) {
        a_ = cbemu::mm::Operand<SrcAT>::of(src);
        transA_ = transpose;
        reset_iteration();
    }
    template <typename Src>
    void set_b(const Src& src, bool transpose) {
        b_ = cbemu::mm::Operand<SrcBT>::of(src);
        transB_ = transpose;
        reset_iteration();
    }
    template <typename Src>
    void set_bias(const Src& src) {
        bias_ = cbemu::mm::Operand<BiasT>::of(src);
        bias_on_ = true;
        reset_iteration();
    }
    struct Block {
        uint32_t mi, ni, mb, nb;
        std::vector<L0cT> acc;
    };
    static cbemu::mm::TypeInfo type_info() {
        cbemu::mm::TypeInfo ty;
        ty.sA = sizeof(SrcAT), ty.sB = sizeof(SrcBT), ty.sBias = sizeof(BiasT), ty.sL0C = sizeof(L0cT);
        ty.transA = A_TYPE::isTrans, ty.transB = B_TYPE::isTrans;
        ty.bias = false;  // the bias table rule is checked when a bias is set
        return ty;
    }
    void reset_iteration() {
        next_ = 0;
        k_next_ = 0;
        order_.clear();
        async_ready_ = false;
        async_blocks_.clear();
        async_next_ = 0;
    }
    bool ready(const cbemu::SrcLoc& loc) {
        if (!inited_) {
            cbemu::report("tiling_null", cbemu::Sev::fatal, loc,
                          "Matmul used before REGIST_MATMUL_OBJ / Init gave it a tiling");
            return false;
        }
        if (!a_.set || !b_.set) {
            cbemu::report("cube_bad_params", cbemu::Sev::error, loc, "Matmul: SetTensorA and SetTensorB come first");
            return false;
        }
        if (sM_ <= 0 || sN_ <= 0 || sK_ <= 0 || t_.baseM <= 0 || t_.baseN <= 0 || t_.baseK <= 0) {
            cbemu::report("matmul_tiling", cbemu::Sev::error, loc,
                          "Matmul: the single-core shape (%d, %d, %d) or base block (%d, %d, %d) is empty", sM_, sN_,
                          sK_, t_.baseM, t_.baseN, t_.baseK);
            return false;
        }
        if (bias_on_ && !coupled && (uint64_t)t_.baseN * sizeof(BiasT) > cbemu::mem_capacity(cbemu::Mem::BT)) {
            cbemu::report("matmul_tiling", cbemu::Sev::error, loc,
                          "Matmul tiling breaks a TCubeTiling rule: baseN * sizeof(bias) = %u bytes exceeds the bias "
                          "table (%zu)", (unsigned)(t_.baseN * sizeof(BiasT)), cbemu::mem_capacity(cbemu::Mem::BT));
        }
        if (order_.empty()) {
            uint32_t mt = (uint32_t)((sM_ + t_.baseM - 1) / t_.baseM), nt = (uint32_t)((sN_ + t_.baseN - 1) / t_.baseN);
            // MatmulPolicy.md: TrianUpper skips (neither computes nor writes) the base blocks below the diagonal of
            // the single-core C, TrianLower those above it
            auto kept = [](uint32_t m, uint32_t n) {
                return Policy::triangle == 1 ? m <= n : Policy::triangle == 2 ? m >= n : true;
            };
            if (t_.iterateOrder == 1) {
                for (uint32_t m = 0; m < mt; ++m)
                    for (uint32_t n = 0; n < nt; ++n)
                        if (kept(m, n)) order_.push_back({m, n});
            } else {
                for (uint32_t n = 0; n < nt; ++n)
                    for (uint32_t m = 0; m < mt; ++m)
                        if (kept(m, n)) order_.push_back({m, n});
            }
        }
        return true;
    }

    // Element (i, k) of A / (k, j) of B in the single-core problem, as the operand's format and transpose say.
    int64_t a_index(int64_t i, int64_t k) const {
        constexpr int64_t C0 = cbemu::mm::c0_elems<SrcAT>();
        bool nz = A_TYPE::format == CubeFormat::NZ;
        int64_t rowsM = a_.local && !org_set_ ? sM_ : orgM_, colsK = a_.local && !org_set_ ? sK_ : orgKa_;
        if (A_TYPE::format == CubeFormat::VECTOR) return k;
        if (!nz) return transA_ ? k * rowsM + i : i * colsK + k;
        if (!transA_) return (k / C0) * (cbemu::mm::align_up(rowsM, 16) * C0) + i * C0 + k % C0;
        return (i / C0) * (cbemu::mm::align_up(colsK, 16) * C0) + k * C0 + i % C0;
    }
    int64_t b_index(int64_t k, int64_t j) const {
        constexpr int64_t C0 = cbemu::mm::c0_elems<SrcBT>();
        bool nz = B_TYPE::format == CubeFormat::NZ;
        int64_t rowsK = b_.local && !org_set_ ? sK_ : orgKb_, colsN = b_.local && !org_set_ ? sN_ : orgN_;
        if (!nz) return transB_ ? j * rowsK + k : k * colsN + j;
        if (!transB_) return (j / C0) * (cbemu::mm::align_up(rowsK, 16) * C0) + k * C0 + j % C0;
        return (k / C0) * (cbemu::mm::align_up(colsN, 16) * C0) + j * C0 + k % C0;
    }
    template <typename T>
    T fetch(const cbemu::mm::Operand<T>& op, int64_t idx, const cbemu::SrcLoc& loc) const {
        if (op.scalar) return op.value;
        const T* p = op.base + idx;
        if (op.global && op.gm.check_span(p, sizeof(T), loc, "Matmul") < sizeof(T)) return T{};
        return *p;
    }

    // One baseM x baseN block of C (block (mi, ni) of the single-core problem) into acc_.
    // k_slice >= 0: only that baseK step (isPartialOutput).
    void compute_block(uint32_t mi, uint32_t ni, bool partial, const cbemu::SrcLoc& loc, int32_t k_slice = -1) {
        uint32_t m0 = mi * t_.baseM, n0 = ni * t_.baseN;
        uint32_t mb = (uint32_t)std::min<int64_t>(t_.baseM, sM_ - m0), nb = (uint32_t)std::min<int64_t>(t_.baseN, sN_ - n0);
        uint32_t K = (uint32_t)sK_, bk = (uint32_t)t_.baseK;
        cur_m_ = mi, cur_n_ = ni, cur_mb_ = mb, cur_nb_ = nb;
        std::vector<L0cT> prev;
        if (partial) prev = acc_;
        acc_.assign((size_t)mb * nb, L0cT(0));
        if (bias_on_)
            for (uint32_t i = 0; i < mb; ++i)
                for (uint32_t j = 0; j < nb; ++j)
                    acc_[(size_t)i * nb + j] = (L0cT)(double)fetch(bias_, n0 + j, loc);
        cbemu::MmadScratch& s = cbemu::mmad_scratch();
        bool hf = std::is_same<SrcAT, float>::value && (hf32_ || cbemu::cube_regs().hf32);
        for (uint32_t k0 = 0; k0 < K; k0 += bk) {
            if (k_slice >= 0 && k0 != (uint32_t)k_slice * bk) continue;
            uint32_t kb = std::min<uint32_t>(bk, K - k0);
            const SrcAT* a1 = nullptr;
            const SrcBT* b1 = nullptr;
            if constexpr (MM_CB::copy_a1 != nullptr) a1 = callback_a1(mi, k0 / bk, mb, kb, loc);
            if constexpr (MM_CB::copy_b1 != nullptr) b1 = callback_b1(k0 / bk, ni, kb, nb, loc);
            auto a_at = [&](uint32_t i, uint32_t k) -> SrcAT {
                constexpr uint32_t C0 = cbemu::mm::c0_elems<SrcAT>();
                if (a1) return a1[(size_t)(k / C0) * cbemu::mm::align_up(mb, 16) * C0 + i * C0 + k % C0];
                return fetch(a_, a_index(m0 + i, k0 + k), loc);
            };
            auto b_at = [&](uint32_t k, uint32_t j) -> SrcBT {
                constexpr uint32_t C0 = cbemu::mm::c0_elems<SrcBT>();
                if (b1) return b1[(size_t)(j / C0) * cbemu::mm::align_up(kb, 16) * C0 + k * C0 + j % C0];
                return fetch(b_, b_index(k0 + k, n0 + j), loc);
            };
            if constexpr (std::is_same<L0cT, int32_t>::value) {
                s.ia.resize((size_t)mb * kb);
                s.ib.resize((size_t)kb * nb);
                s.ic.resize((size_t)mb * nb);
                for (uint32_t i = 0; i < mb; ++i)
                    for (uint32_t k = 0; k < kb; ++k)
                        s.ia[(size_t)i * kb + k] = (int32_t)a_at(i, k);
                for (uint32_t k = 0; k < kb; ++k)
                    for (uint32_t j = 0; j < nb; ++j)
                        s.ib[(size_t)k * nb + j] = (int32_t)b_at(k, j);
                cbemu::gemm_i64(s.ia.data(), s.ib.data(), s.ic.data(), mb, nb, kb);
                for (size_t x = 0; x < acc_.size(); ++x)
                    acc_[x] = (int32_t)(uint32_t)((uint64_t)(int64_t)acc_[x] + (uint64_t)s.ic[x]);
            } else {
                s.fa.resize((size_t)mb * kb);
                s.fb.resize((size_t)kb * nb);
                s.fc.resize((size_t)mb * nb);
                for (uint32_t i = 0; i < mb; ++i)
                    for (uint32_t k = 0; k < kb; ++k) {
                        float v = (float)a_at(i, k);
                        s.fa[(size_t)i * kb + k] = hf ? cbemu::to_hf32(v, hf32_zero_) : v;
                    }
                for (uint32_t k = 0; k < kb; ++k)
                    for (uint32_t j = 0; j < nb; ++j) {
                        float v = (float)b_at(k, j);
                        s.fb[(size_t)k * nb + j] = hf ? cbemu::to_hf32(v, hf32_zero_) : v;
                    }
                cbemu::gemm_f64(s.fa.data(), s.fb.data(), s.fc.data(), mb, nb, kb);
                for (size_t x = 0; x < acc_.size(); ++x) acc_[x] = acc_[x] + (float)s.fc[x];
            }
        }
        if (partial && prev.size() == acc_.size())
            for (size_t x = 0; x < acc_.size(); ++x) acc_[x] = (L0cT)((double)acc_[x] + (double)prev[x]);
    }

    // A custom copy-in fills an L1 buffer at the top of L1 (away from the kernel's own L1 buffers, which TPipe places
    // from the bottom); the block is read back once the copy is done. The library orders its copies into the buffer
    // (it waits for each block's MTE1 loads before the next copy in): an MTE2 barrier after each call stands for that.
    template <typename T>
    LocalTensor<int8_t> callback_l1(TPosition pos, uint32_t rows, uint32_t cols, const cbemu::SrcLoc& loc) {
        uint64_t bytes = (uint64_t)cbemu::mm::align_up(rows, 16) * cbemu::mm::align_up(cols, cbemu::mm::c0_elems<T>()) *
                         sizeof(T);
        // A's block ends at the middle of L1, B's at its top: both are alive while the block is computed
        uint64_t cap = cbemu::mem_capacity(cbemu::Mem::L1) / (pos == TPosition::A1 ? 2 : 1);
        uint64_t at = bytes <= cap ? (cap - bytes) / 512 * 512 : 0;
        return LocalTensor<int8_t>(pos, (uint32_t)at, (uint32_t)bytes, loc);
    }
    const SrcAT* callback_a1(uint32_t row, uint32_t col, uint32_t useM, uint32_t useK, const cbemu::SrcLoc& loc) {
        LocalTensor<int8_t> l1 = callback_l1<SrcAT>(TPosition::A1, useM, useK, loc);
        MM_CB::copy_a1(l1, (const __gm__ void*)a_.base, (int)row, (int)col, (int)useM, (int)useK, user_info_,
                       self_data_);
        cbemu::hz::barrier(cbemu::hz::P_MTE2);
        return reinterpret_cast<const SrcAT*>(l1.addr_);
    }
    const SrcBT* callback_b1(uint32_t row, uint32_t col, uint32_t useK, uint32_t useN, const cbemu::SrcLoc& loc) {
        LocalTensor<int8_t> l1 = callback_l1<SrcBT>(TPosition::B1, useK, useN, loc);
        MM_CB::copy_b1(l1, (const __gm__ void*)b_.base, (int)row, (int)col, (int)useK, (int)useN, user_info_,
                       self_data_);
        cbemu::hz::barrier(cbemu::hz::P_MTE2);
        return reinterpret_cast<const SrcBT*>(l1.addr_);
    }

    bool take_block(bool sync, const cbemu::SrcLoc& loc) {
        if (sync) {
            if (acc_.empty()) {
                cbemu::report("cube_bad_params", cbemu::Sev::error, loc, "Matmul::GetTensorC before Iterate");
                return false;
            }
            return true;
        }
        if (!async_ready_ || async_next_ >= async_blocks_.size()) {
            cbemu::report("cube_bad_params", cbemu::Sev::error, loc,
                          "Matmul::GetTensorC<false> without a block left from Iterate<false>");
            return false;
        }
        Block& b = async_blocks_[async_next_++];
        cur_m_ = b.mi, cur_n_ = b.ni, cur_mb_ = b.mb, cur_nb_ = b.nb;
        acc_ = b.acc;
        if (async_next_ >= async_blocks_.size()) reset_iteration();
        return true;
    }

    cbemu::OutConv out_conv() const {
        cbemu::OutConv c;
        bool int_acc = std::is_same<L0cT, int32_t>::value;
        if (std::is_same<DstT, half>::value) c.mode = int_acc ? QuantMode_t::DEQF16 : QuantMode_t::F322F16;
        else if (std::is_same<DstT, bfloat16_t>::value) c.mode = QuantMode_t::F322BF16;
        else if (sizeof(DstT) == 1) c.mode = int_acc ? QuantMode_t::REQ8 : QuantMode_t::QF322B8_PRE;
        if (quant_vec_) {
            if (c.mode == QuantMode_t::DEQF16) c.mode = QuantMode_t::VDEQF16;
            else if (c.mode == QuantMode_t::REQ8) c.mode = QuantMode_t::VREQ8;
            else if (c.mode == QuantMode_t::QF322B8_PRE) c.mode = QuantMode_t::VQF322B8_PRE;
        }
        c.scalar = quant_scalar_;
        c.vec = quant_vec_;
        c.chan0 = cur_n_ * t_.baseN;
        c.relu = MM_CFG_relu();
        return c;
    }
    // MatmulConfig.md, isEnableChannelSplit: a float NZ C in GM is written in 16 x 8 fractals instead of 16 x 16
    static constexpr int64_t c_nz_cols() {
        if constexpr (std::is_same<typename std::decay<decltype(MM_CFG)>::type, MatmulConfig>::value)
            return MM_CFG.isEnableChannelSplit && std::is_same<DstT, float>::value ? 8 : 16;
        else
            return 16;
    }
    static constexpr bool partial_output() {
        if constexpr (std::is_same<typename std::decay<decltype(MM_CFG)>::type, MatmulConfig>::value)
            return MM_CFG.isPartialOutput;
        else
            return false;
    }
    static constexpr bool MM_CFG_relu() {
        if constexpr (std::is_same<typename std::decay<decltype(MM_CFG)>::type, MatmulConfig>::value)
            return MM_CFG.enableRelu;
        else
            return false;
    }
    DstT convert(L0cT v, uint32_t j, const cbemu::OutConv& c) const {
        if (c.mode == QuantMode_t::NoQuant) return (DstT)(c.relu && (double)v < 0 ? 0.0 : (double)v);
        return cbemu::convert_out<DstT, L0cT>(v, j, c);
    }
    bool quant_needed(const cbemu::SrcLoc& loc) const {
        bool needs = (std::is_same<L0cT, int32_t>::value && !std::is_same<DstT, int32_t>::value) ||
                     (sizeof(DstT) == 1 && std::is_same<L0cT, float>::value);
        if (needs && !quant_set_) {
            cbemu::report("cube_bad_params", cbemu::Sev::error, loc,
                          "Matmul: a quantised output needs SetQuantScalar or SetQuantVector first");
            return false;
        }
        return true;
    }
    // The element offset of C (i, j) of the single-core block in the destination.
    int64_t c_index(int64_t i, int64_t j, bool seq, bool local) const {
        int64_t ldc = orgKc_ > 0 ? orgKc_ : orgN_;
        if (local && !org_set_) ldc = cbemu::mm::align_up(sN_, 32 / sizeof(DstT));
        if (C_TYPE::format == CubeFormat::ND_ALIGN) ldc = cbemu::mm::align_up(ldc, 32 / sizeof(DstT));
        if (seq) {
            int64_t li = i - (int64_t)cur_m_ * t_.baseM, lj = j - (int64_t)cur_n_ * t_.baseN;
            constexpr int64_t w = c_nz_cols();
            if (C_TYPE::format == CubeFormat::NZ)
                return (lj / w) * (cbemu::mm::align_up(t_.baseM, 16) * w) + li * w + lj % w;
            return li * t_.baseN + lj;
        }
        if (C_TYPE::format == CubeFormat::NZ) {
            constexpr int64_t w = c_nz_cols();
            int64_t rows = local && !org_set_ ? sM_ : orgM_;
            return (j / w) * (cbemu::mm::align_up(rows, 16) * w) + i * w + j % w;
        }
        return i * ldc + j;
    }
    void write_block_gm(const GlobalTensor<DstT>& gm, uint8_t enAtomic, bool seq, const cbemu::SrcLoc& loc) {
        if (!quant_needed(loc)) return;
        cbemu::OutConv c = out_conv();
        uint32_t m0 = cur_m_ * t_.baseM, n0 = cur_n_ * t_.baseN;
        for (uint32_t i = 0; i < cur_mb_; ++i)
            for (uint32_t j = 0; j < cur_nb_; ++j) {
                DstT v = convert(acc_[(size_t)i * cur_nb_ + j], j, c);
                DstT* p = gm.addr_ + c_index(m0 + i, n0 + j, seq, false);
                if (gm.check_span(p, sizeof(DstT), loc, "Matmul (C)") < sizeof(DstT)) continue;
                if (enAtomic == 0) {
                    *p = v;
                } else {
                    std::lock_guard<std::mutex> g(cbemu::atomic_mutex());
                    if (enAtomic == 1) *p = (DstT)((double)*p + (double)v);
                    else if (enAtomic == 2) *p = (double)v > (double)*p ? v : *p;
                    else *p = (double)v < (double)*p ? v : *p;
                }
            }
        // ND_ALIGN (asc-devkit matmul_format_nd_align README: "按照N方向32字节对齐的补齐规则输出C矩阵"): the rows go
        // out whole to the 32-byte aligned width, the padding columns being the product with B's zero padding
        constexpr int64_t ALIGN = 32 / sizeof(DstT);
        if (C_TYPE::format == CubeFormat::ND_ALIGN && !seq && enAtomic == 0 && n0 + cur_nb_ == (uint32_t)sN_ &&
            sN_ % ALIGN != 0) {
            for (uint32_t i = 0; i < cur_mb_; ++i)
                for (int64_t j = sN_; j < cbemu::mm::align_up(sN_, ALIGN); ++j) {
                    DstT* p = gm.addr_ + c_index(m0 + i, j, false, false);
                    if (gm.check_span(p, sizeof(DstT), loc, "Matmul (C)") < sizeof(DstT)) break;
                    *p = DstT(0);
                }
        }
    }
    void write_block_local(const LocalTensor<DstT>& dst, uint8_t enAtomic, bool seq, const cbemu::SrcLoc& loc) {
        if (!quant_needed(loc)) return;
        cbemu::OutConv c = out_conv();
        uint32_t m0 = cur_m_ * t_.baseM, n0 = cur_n_ * t_.baseN;
        for (uint32_t i = 0; i < cur_mb_; ++i)
            for (uint32_t j = 0; j < cur_nb_; ++j) {
                DstT v = convert(acc_[(size_t)i * cur_nb_ + j], j, c);
                int64_t at = c_index(m0 + i, n0 + j, seq, true);
                const uint8_t* p = (const uint8_t*)(dst.addr_ + at);
                if (p < dst.buf_ || p + sizeof(DstT) > dst.buf_ + dst.buf_len_) {
                    cbemu::report("local_out_of_bounds", cbemu::Sev::error, loc,
                                  "Matmul: C element (%u, %u) falls outside the %u-byte local tensor", m0 + i, n0 + j,
                                  dst.buf_len_);
                    return;
                }
                DstT& d = dst.addr_[at];
                d = enAtomic == 1 ? (DstT)((double)d + (double)v) : v;
            }
    }

    // Batch offsets per layout (IterateBatch.md): NORMAL is [batch][M][K] / [batch][K][N] / [batch][M][N]; the
    // BSNGD / SBNGD / BNGS1S2 layouts give the row strides and batch offsets from the tiling's layout fields.
    void batch_gm(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB, bool seq, uint32_t strideA,
                  uint32_t strideB, uint32_t strideC, bool partial, uint8_t enAtomic, const cbemu::SrcLoc& loc,
                  uint32_t firstA = 0, uint32_t firstB = 0, uint32_t firstC = 0) {
        (void)partial;
        if (!ready(loc)) return;
        uint32_t nb = batchA > batchB ? batchA : batchB;
        if (batchA == 0 || batchB == 0) return;
        auto saveA = a_, saveB = b_;
        auto saveBias = bias_;
        int64_t so[5] = {orgM_, orgN_, orgKa_, orgKb_, orgKc_};
        bool save_set = org_set_;
        for (uint32_t b = 0; b < nb; ++b) {
            uint32_t ba = firstA + b % batchA, bb = firstB + b % batchB;
            int64_t offA = 0, offB = 0, offC = 0, offBias = 0;
            batch_offsets(ba, bb, firstC + b, strideA, strideB, strideC, offA, offB, offC, offBias);
            a_.base = saveA.base + offA;
            b_.base = saveB.base + offB;
            if (bias_on_ && bias_.set && MM_CFG_bias_batch()) bias_.base = saveBias.base + offBias;
            GlobalTensor<DstT> c = gm[offC];
            order_.clear();
            ready(loc);
            for (size_t i = 0; i < order_.size(); ++i) {
                compute_block(order_[i].first, order_[i].second, false, loc);
                write_block_gm(c, enAtomic, seq, loc);
            }
        }
        a_ = saveA, b_ = saveB, bias_ = saveBias;
        orgM_ = so[0], orgN_ = so[1], orgKa_ = so[2], orgKb_ = so[3], orgKc_ = so[4];
        org_set_ = save_set;
        reset_iteration();
    }
    static constexpr bool MM_CFG_bias_batch() {
        if constexpr (std::is_same<typename std::decay<decltype(MM_CFG)>::type, MatmulConfig>::value)
            return MM_CFG.isBiasBatch;
        else
            return true;
    }
    void batch_offsets(uint32_t ba, uint32_t bb, uint32_t b, uint32_t strideA, uint32_t strideB, uint32_t strideC,
                       int64_t& offA, int64_t& offB, int64_t& offC, int64_t& offBias) {
        const auto& t = t_;
        auto layout_off = [](LayoutMode lm, uint32_t idx, int64_t B, int64_t S, int64_t N, int64_t G, int64_t D,
                             int64_t& ld) -> int64_t {
            // idx walks the (B, N, G) batch axes in that order; returns the batch start and sets the row stride
            int64_t g = idx % G, n = (idx / G) % N, bi = idx / (G * N);
            if (lm == LayoutMode::BSNGD) {
                ld = N * G * D;
                return ((bi * S) * N + n) * G * D + g * D;
            }
            if (lm == LayoutMode::SBNGD) {
                ld = B * N * G * D;
                return ((bi * N + n) * G + g) * D;
            }
            ld = D;  // BNGS1S2: each batch a contiguous S x D matrix
            return idx * S * D;
        };
        constexpr LayoutMode la = A_TYPE::layout, lb = B_TYPE::layout, lc = C_TYPE::layout;
        if (la == LayoutMode::NONE || la == LayoutMode::NORMAL) {
            offA = (int64_t)ba * (strideA ? strideA : (int64_t)sM_ * sK_);
        } else {
            int64_t ld = 0;
            offA = layout_off(la, ba, t.ALayoutInfoB, t.ALayoutInfoS, t.ALayoutInfoN, t.ALayoutInfoG, t.ALayoutInfoD, ld);
            if (transA_) orgM_ = (int32_t)ld;
            else orgKa_ = (int32_t)ld;
            org_set_ = true;
        }
        if (lb == LayoutMode::NONE || lb == LayoutMode::NORMAL) {
            offB = (int64_t)bb * (strideB ? strideB : (int64_t)sK_ * sN_);
        } else {
            int64_t ld = 0;
            offB = layout_off(lb, bb, t.BLayoutInfoB, t.BLayoutInfoS, t.BLayoutInfoN, t.BLayoutInfoG, t.BLayoutInfoD, ld);
            if (transB_) orgKb_ = (int32_t)ld;
            else orgN_ = (int32_t)ld;
            org_set_ = true;
        }
        if (lc == LayoutMode::NONE || lc == LayoutMode::NORMAL) {
            offC = (int64_t)b * (strideC ? strideC : (int64_t)sM_ * sN_);
            offBias = (int64_t)b * sN_;
        } else {
            int64_t ld = 0;
            offC = layout_off(lc, b, t.CLayoutInfoB, t.CLayoutInfoS1, t.CLayoutInfoN, t.CLayoutInfoG, t.CLayoutInfoS2,
                              ld);
            orgN_ = (int32_t)ld;
            orgKc_ = 0;
            org_set_ = true;
            offBias = (int64_t)b * sN_;
        }
    }

    static constexpr bool coupled = false;
    TCubeTiling t_{};
    bool inited_ = false, org_set_ = false;
    int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, orgKc_ = 0;
    int32_t sM_ = 0, sN_ = 0, sK_ = 0;
    bool transA_ = false, transB_ = false, bias_on_ = false, hf32_ = false, hf32_zero_ = false;
    cbemu::mm::Operand<SrcAT> a_;
    cbemu::mm::Operand<SrcBT> b_;
    cbemu::mm::Operand<BiasT> bias_;
    uint64_t quant_scalar_ = 0;
    const uint64_t* quant_vec_ = nullptr;
    bool quant_set_ = false;
    uint8_t sub_block_ = 0;
    int32_t batchA_ = 1, batchB_ = 1;
    std::vector<std::pair<uint32_t, uint32_t>> order_;
    size_t next_ = 0;
    uint32_t k_next_ = 0;  // the baseK slice the next Iterate gives (isPartialOutput)
    GlobalTensor<DstT> ws_;
    bool ws_set_ = false;
    uint64_t user_info_ = 0, self_data_ = 0;  // SetUserDefInfo / SetSelfDefineData, for the copy callbacks
    std::vector<L0cT> acc_;
    uint32_t cur_m_ = 0, cur_n_ = 0, cur_mb_ = 0, cur_nb_ = 0;
    bool async_ready_ = false;
    std::vector<Block> async_blocks_;
    size_t async_next_ = 0;
};

}  // namespace AscendC

// The library's older namespace: matmul::Matmul, matmul::MatmulType, ...
namespace matmul {
using namespace AscendC;
}

namespace cbemu {
namespace mm {
// REGIST_MATMUL_OBJ(pipe, workspace, obj1, tiling1, obj2, tiling2, ...): Init each object with its tiling. Returns
// true on the AIC core of a mixed kernel, which only serves the AIV cores: the macro returns from the kernel there.
inline void register_pairs(AscendC::TPipe* pipe, const SrcLoc& loc) { (void)pipe, (void)loc; }
template <typename MM>
inline void register_pairs(AscendC::TPipe* pipe, const SrcLoc& loc, MM& obj) {
    (void)obj, (void)pipe, (void)loc;  // tiling given later through Init
}
template <typename MM, typename... Rest>
inline void register_pairs(AscendC::TPipe* pipe, const SrcLoc& loc, MM& obj, const TCubeTiling* tiling,
                           Rest&&... rest);
template <typename MM, typename... Rest>
inline void register_pairs(AscendC::TPipe* pipe, const SrcLoc& loc, MM& obj, const TCubeTiling& tiling,
                           Rest&&... rest) {
    register_pairs(pipe, loc, obj, &tiling, rest...);
}
template <typename MM, typename... Rest>
inline void register_pairs(AscendC::TPipe* pipe, const SrcLoc& loc, MM& obj, const TCubeTiling* tiling,
                           Rest&&... rest) {
    obj.Init(tiling, pipe, loc);
    register_pairs(pipe, loc, rest...);
}
template <typename MM, typename... Rest>
inline void register_pairs(AscendC::TPipe* pipe, const SrcLoc& loc, MM& obj, TCubeTiling* tiling, Rest&&... rest) {
    register_pairs(pipe, loc, obj, (const TCubeTiling*)tiling, rest...);
}
template <typename... Objs>
inline bool register_objs(bool cube_only, const SrcLoc& loc, AscendC::TPipe* pipe, void* workspace, Objs&&... objs) {
    (void)workspace;
    if (!cube_only) {
        become(1, 2, loc);
        if (core_id().kind == CoreKind::AIC) return true;
    }
    register_pairs(pipe, loc, objs...);
    return false;
}
}  // namespace mm
}  // namespace cbemu

// Whether ASCENDC_CUBE_ONLY is defined (empty or 1) where REGIST_MATMUL_OBJ is used: the kernel may define it after
// kernel_operator.h was included, so this is decided at the macro's expansion.
#define CBEMU_PROBE_ 0,
#define CBEMU_PROBE_1 0,
#define CBEMU_SECOND(a, b, ...) b
#define CBEMU_IS_SET_2(arg) CBEMU_SECOND(arg 1, 0, 0)
#define CBEMU_IS_SET_1(val) CBEMU_IS_SET_2(CBEMU_PROBE_##val)
#define CBEMU_IS_SET(x) CBEMU_IS_SET_1(x)
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                                \
    if (::cbemu::mm::register_objs(CBEMU_IS_SET(ASCENDC_CUBE_ONLY), ::cbemu::SrcLoc(__FILE__, __LINE__), tpipe, \
                                   (void*)(workspace), __VA_ARGS__))                                           \
        return;                                                                                                 \
    else                                                                                                        \
        (void)0
