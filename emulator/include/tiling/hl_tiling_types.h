// Tiling structs of the high-level APIs, shared by host tiling code (namespace optiling, inside
// BEGIN_TILING_DATA_DEF via TILING_DATA_FIELD_DEF_STRUCT) and kernels (global namespace), as in CANN.
// The emulator's own tiling functions fill them; the kernel-side APIs read only the fields they need.
#pragma once
#include <cstdint>

namespace AscendC {
namespace tiling {
// SoftMax / SimpleSoftMax / SoftmaxFlash* / SoftmaxGrad tiling: the field list of the docs' SoftMaxTiling.
struct SoftMaxTiling {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t srcSize = 0;
    uint32_t outMaxM = 0;
    uint32_t outMaxK = 0;
    uint32_t outMaxSize = 0;
    uint32_t splitM = 0;
    uint32_t splitK = 0;
    uint32_t splitSize = 0;
    uint32_t reduceM = 0;
    uint32_t reduceK = 0;
    uint32_t reduceSize = 0;
    uint32_t rangeM = 0;
    uint32_t tailM = 0;
    uint32_t tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
};
struct LogSoftMaxTiling : SoftMaxTiling {};
}  // namespace tiling
using tiling::LogSoftMaxTiling;
using tiling::SoftMaxTiling;
}  // namespace AscendC

using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::SoftMaxTiling;
namespace optiling {
using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::SoftMaxTiling;
}  // namespace optiling

namespace AscendC {
// Reduce axis patterns of the host-side tiling queries and Normalize (A = kept axis, R = reduced axis).
enum class ReducePattern : uint32_t { AR = 0, RA, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, RAR, RARA, RARAR,
                                      RARARA, RARARAR, RARARARA };
}  // namespace AscendC

namespace AscendC {
namespace tiling {
// LayerNorm / DeepNorm ([B, S, H], normalised over H): field lists of the docs' tiling structs.
struct LayerNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0, inputXSize = 0, meanVarSize = 0,
             numberOfTmpBuf = 0, meanTmpTensorPos = 0, meanTmpTensorSize = 0, varianceTmpTensorPos = 0,
             varianceTmpTensorSize = 0, tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0, secondTmpStartPos = 0,
             thirdTmpStartPos = 0, loopRound = 0, inputRoundSize = 0, inputTailSize = 0, inputTailPos = 0,
             meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0, bshCurLength = 0, bsCurLength = 0;
    float lastDimValueBack = 0;
};
struct DeepNormTiling : LayerNormTiling {};
struct LayerNormGradTiling {
    uint32_t stackBufferSize = 0, bLength = 0, sLength = 0, hLength = 0, originalHLength = 0, oneCalSize = 0,
             nohCalSize = 0, loopNum = 0, tailSize = 0, nohTailSize = 0, tmpTensorBSHPos = 0, tmpTensorBSHSize = 0,
             pdVarTensorPos = 0, pdVarTensorSize = 0, pdMeanTensorPos = 0, pdMeanTensorSize = 0, tmpTensorPos = 0,
             tmpTensorSize = 0, lastDimValueBack = 0, lastDimValueBackMulTwo = 0;
};
struct LayerNormGradBetaTiling {
    uint32_t stackBufferSize = 0, bLength = 0, sLength = 0, hLength = 0, originalHLength = 0, bshLength = 0,
             bsLength = 0, oneCalSize = 0, numberOfTmpBuf = 0, loopRound = 0, inputTailSize = 0, inputTailPos = 0,
             bsTailSize = 0, bshCurLength = 0, bsCurLength = 0, gammaTempTensorPos = 0, betaTempTensorPos = 0,
             inputDyTmpTensorPos = 0, resForGammaTmpTensorPos = 0, reserved = 0;
};
}  // namespace tiling
using tiling::DeepNormTiling;
using tiling::LayerNormGradBetaTiling;
using tiling::LayerNormGradTiling;
using tiling::LayerNormTiling;
}  // namespace AscendC
using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormTiling;
namespace optiling {
using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormTiling;
}  // namespace optiling

namespace AscendC {
namespace tiling {
// Pad / UnPad of a [height, width] tensor along the last axis (our own field list).
struct PadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, srcOriWidth = 0, tmpBufSize = 0;
};
struct UnPadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, tmpBufSize = 0, reserved = 0;
};
}  // namespace tiling
using tiling::PadTiling;
using tiling::UnPadTiling;
}  // namespace AscendC
using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;
namespace optiling {
using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;
}  // namespace optiling

namespace AscendC {
namespace tiling {
// TopK over rows of `inner` elements (our own field list).
struct TopkTiling {
    uint32_t inner = 0, outter = 0, k = 0, kAlign = 0, tmpBufSize = 0, isLargest = 0, reserved0 = 0, reserved1 = 0;
};
}  // namespace tiling
using tiling::TopkTiling;
enum class TopKMode { TOPK_NORMAL = 0, TOPK_NSMALL };
}  // namespace AscendC
using AscendC::tiling::TopkTiling;
namespace optiling {
using AscendC::tiling::TopkTiling;
}  // namespace optiling

namespace AscendC {
namespace tiling {
// ConfusionTranspose / Transpose: 18 words as in CANN (samples size their tiling buffers by it); the emulator keeps
// the source shape in the first four.
struct ConfusionTransposeTiling {
    uint32_t param0 = 0, param1 = 0, param2 = 0, param3 = 0, param4 = 0, param5 = 0, param6 = 0, param7 = 0,
             param8 = 0, param9 = 0, param10 = 0, param11 = 0, param12 = 0, param13 = 0, param14 = 0, param15 = 0,
             param16 = 0, param17 = 0;
};
}  // namespace tiling
using tiling::ConfusionTransposeTiling;
}  // namespace AscendC
using AscendC::tiling::ConfusionTransposeTiling;
namespace optiling {
using AscendC::tiling::ConfusionTransposeTiling;
}  // namespace optiling

namespace AscendC {
enum class SortType { RADIX_SORT, MERGE_SORT };
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
};
}  // namespace AscendC

namespace AscendC {
namespace tiling {
// RmsNorm over [B, S, H] and the [A, R] LayerNorm: the docs' field lists.
struct RmsNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0;
    float reciprocalOfHLength = 0;
    uint32_t mainBshLength = 0, mainBsLength = 0, mainBsLengthAlign = 0, loopRound = 0, inputTailPos = 0,
             tailBshLength = 0, tailBsLength = 0;
};
struct LayerNormSeparateTiling {
    uint32_t aLength = 0, rLength = 0, halfAddRepeatTimes = 0, rHeadLength = 0;
    float k2Rec = 0, k2RRec = 0;
    uint32_t inputXSize = 0, meanVarSize = 0, numberOfTmpBuf = 0, varianceTmpTensorPos = 0,
             varianceTmpTensorSize = 0, tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0, secondTmpStartPos = 0,
             thirdTmpStartPos = 0, loopRound = 0, inputRoundSize = 0, inputTailSize = 0, inputTailPos = 0,
             meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0, arCurLength = 0, aCurLength = 0;
    float rValueBack = 0;
};
}  // namespace tiling
using tiling::LayerNormSeparateTiling;
using tiling::RmsNormTiling;
}  // namespace AscendC
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::RmsNormTiling;
namespace optiling {
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::RmsNormTiling;
}  // namespace optiling

namespace AscendC {
namespace tiling {
// BatchNorm ([B, S, H], statistics over B) and GroupNorm ([N, C, H*W], statistics per (n, group)).
struct BatchNormTiling {
    uint32_t originalBLength = 0, meanVarSize = 0, meanTmpTensorPos = 0, varianceTmpTensorPos = 0, tmpBufSize = 0,
             oneTmpSize = 0, firstTmpStartPos = 0, secondTmpStartPos = 0, thirdTmpStartPos = 0, loopRound = 0,
             inputTailSize = 0, inputTailPos = 0, meanVarTailSize = 0, meanVarTailPos = 0, bshCurLength = 0,
             shCurLength = 0;
    float firstDimValueBack = 0;
    uint32_t castHalfRepStride = 0, shCurLengthBlockNum = 0, castHalfOutRepStride = 0;
};
struct GroupNormTiling {
    uint32_t n = 0, c = 0, hw = 0, g = 0, d = 0, hwAlignSize = 0, dhwAlignSize = 0, inputXSize = 0, meanVarSize = 0,
             numberOfTmpBuf = 0, meanTmpTensorPos = 0, meanTmpTensorSize = 0, varianceTmpTensorPos = 0,
             varianceTmpTensorSize = 0, tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0, secondTmpStartPos = 0,
             thirdTmpStartPos = 0, loopRound = 0, inputRoundSize = 0, inputTailSize = 0, inputTailPos = 0,
             meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0, bshCurLength = 0, bsCurLength = 0;
    float factor = 0;
};
}  // namespace tiling
using tiling::BatchNormTiling;
using tiling::GroupNormTiling;
}  // namespace AscendC
using AscendC::tiling::BatchNormTiling;
using AscendC::tiling::GroupNormTiling;
namespace optiling {
using AscendC::tiling::BatchNormTiling;
using AscendC::tiling::GroupNormTiling;
}  // namespace optiling
