// Background code for decontamination, written for cotbuilder: the skeleton nearly every AscendC vector kernel and its
// host tiling repeat. It is compared in identifier-abstracted form (every name that is not an AscendC API, a keyword or
// a type becomes ID), so what it removes is the structure, whatever the names: Init with SetGlobalBuffer/InitBuffer,
// the Process loop with its tail, CopyIn/Compute/CopyOut through queues, the big-core/small-core split, the host's
// platform queries and SaveToBuffer. Two kernels that share only this share nothing a benchmark task could own.
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t BLOCK_SIZE = 32;

template <typename T>
class KernelSkeleton {
public:
    __aicore__ inline KernelSkeleton() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        ASSERT(GetBlockNum() != 0 && "block dim can not be zero!");
        this->blockLength = totalLength / GetBlockNum();
        this->tileNum = tileNum;
        this->tileLength = this->blockLength / tileNum / BUFFER_NUM;
        xGm.SetGlobalBuffer((__gm__ T *)x + this->blockLength * GetBlockIdx(), this->blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + this->blockLength * GetBlockIdx(), this->blockLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + this->blockLength * GetBlockIdx(), this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(tmpBuf, this->tileLength * sizeof(float));
    }
    __aicore__ inline void InitSplit(GM_ADDR x, GM_ADDR y, uint32_t bigCoreNum, uint32_t bigCoreLength,
                                     uint32_t smallCoreLength, uint32_t bigTileNum, uint32_t smallTileNum,
                                     uint32_t bigTailLength, uint32_t smallTailLength, uint32_t tileLength)
    {
        uint32_t coreIdx = GetBlockIdx();
        uint64_t offset = bigCoreLength * coreIdx;
        if (coreIdx < bigCoreNum) {
            this->coreLength = bigCoreLength;
            this->tileNum = bigTileNum;
            this->tailLength = bigTailLength;
        } else {
            this->coreLength = smallCoreLength;
            this->tileNum = smallTileNum;
            this->tailLength = smallTailLength;
            offset -= (bigCoreLength - smallCoreLength) * (coreIdx - bigCoreNum);
        }
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + offset, this->coreLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + offset, this->coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        int32_t loopCount = this->tileNum * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }
    __aicore__ inline void ProcessWithTail()
    {
        int32_t loopCount = this->tileNum;
        this->processLength = this->tileLength;
        for (int32_t i = 0; i < loopCount - 1; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
        this->processLength = this->tailLength;
        CopyIn(loopCount - 1);
        Compute(loopCount - 1);
        CopyOut(loopCount - 1);
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        DataCopy(xLocal, xGm[progress * this->tileLength], this->tileLength);
        DataCopy(yLocal, yGm[progress * this->tileLength], this->tileLength);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        Cast(tmp, xLocal, RoundMode::CAST_NONE, this->tileLength);
        Cast(zLocal, tmp, RoundMode::CAST_ROUND, this->tileLength);
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        DataCopy(zGm[progress * this->tileLength], zLocal, this->tileLength);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    GlobalTensor<T> zGm;
    uint32_t blockLength;
    uint32_t coreLength;
    uint32_t tileNum;
    uint32_t tileLength;
    uint32_t tailLength;
    uint32_t processLength;
};

extern "C" __global__ __aicore__ void skeleton(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSkeleton<DTYPE_X> op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void skeleton_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y, uint8_t *z,
                 uint8_t *workspace, uint8_t *tiling)
{
    skeleton<<<blockDim, l2ctrl, stream>>>(x, y, z, workspace, tiling);
}
#endif

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    SkeletonTilingData tiling;
    uint64_t ubSize;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    auto coreNum = ascendcPlatform.GetCoreNum();
    auto socVersion = ascendcPlatform.GetSocVersion();
    uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t typeLength = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeLength);
    auto dataType = context->GetInputDesc(0)->GetDataType();
    if (dataType == ge::DT_FLOAT16 || dataType == ge::DT_BF16) {
        typeLength = 2;
    } else if (dataType == ge::DT_FLOAT) {
        typeLength = 4;
    }
    uint32_t alignNum = BLOCK_BYTES / typeLength;
    uint32_t tileLength = ubSize / BLOCK_BYTES / BUFFER_NUM * alignNum;
    uint32_t totalLengthAligned = (totalLength + alignNum - 1) / alignNum * alignNum;
    coreNum = (coreNum < totalLengthAligned / alignNum) ? coreNum : totalLengthAligned / alignNum;
    coreNum = coreNum >= 1 ? coreNum : 1;
    uint32_t bigCoreNum = totalLengthAligned / alignNum % coreNum;
    tiling.set_totalLength(totalLength);
    tiling.set_tileNum(totalLengthAligned / tileLength);
    tiling.set_tileLength(tileLength);
    tiling.set_bigCoreNum(bigCoreNum);
    context->SetBlockDim(coreNum);
    context->SetTilingKey(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    const gert::Shape *xShape = context->GetInputShape(0);
    gert::Shape *yShape = context->GetOutputShape(0);
    *yShape = *xShape;
    return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    const auto inputDataType = context->GetInputDataType(0);
    context->SetOutputDataType(0, inputDataType);
    return ge::GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Skeleton : public OpDef {
public:
    explicit Skeleton(const char *name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(Skeleton);
}  // namespace ops
