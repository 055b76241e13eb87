"""Small AscendC sources written for these tests (file records as the crawler hands them to the parser)."""

from __future__ import annotations

KERNEL = """\
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 8 * 2048;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr int32_t TILE_NUM = 8;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ half *)z + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < TILE_NUM * BUFFER_NUM; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::Muls(zLocal, xLocal, (half)2.0, TILE_LENGTH);
        AscendC::Relu(zLocal, zLocal, TILE_LENGTH);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        AscendC::LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        AscendC::DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> zGm;
};

extern "C" __global__ __aicore__ void scale_relu(GM_ADDR x, GM_ADDR z)
{
    KernelScale op;
    op.Init(x, z);
    op.Process();
}
"""

MAIN = """\
#include "data_utils.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_relu(GM_ADDR x, GM_ADDR z);
#else
#include "acl/acl.h"
extern void scale_relu_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *z);
#endif

int32_t main(int32_t argc, char *argv[])
{
    uint32_t blockDim = 8;
    size_t bytes = 8 * 2048 * sizeof(uint16_t);
#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(bytes);
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(bytes);
    ReadFile("./input/input_x.bin", bytes, x, bytes);
    ICPU_RUN_KF(scale_relu, blockDim, x, z);
    WriteFile("./output/output_z.bin", z, bytes);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)z);
#else
    scale_relu<<<blockDim, nullptr, stream>>>(xDevice, zDevice);
#endif
    return 0;
}
"""

DATA_UTILS = "#pragma once\n#include <cstdio>\nbool ReadFile(const char *p, size_t n, void *b, size_t cap);\n"
GEN = "import numpy as np\nnp.random.seed(0)\n"
VERIFY = "import sys\nprint('test pass')\n"
CMAKE = "cmake_minimum_required(VERSION 3.16)\nproject(scale_relu)\n"

TILING_H = """\
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(TilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 4, offsets);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleCustom, TilingData)
}
"""

OP_HOST = """\
#include "scale_custom_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    TilingData tiling;
    context->SetBlockDim(8);
    tiling.set_totalLength(16384);
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class ScaleCustom : public OpDef {
public:
    explicit ScaleCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(2.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleCustom);
}
"""

OP_KERNEL = """\
#include "kernel_operator.h"
constexpr int32_t BUFFER_NUM = 2;
class KernelScaleCustom {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        xGm.SetGlobalBuffer((__gm__ float *)x, totalLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, 256 * sizeof(float));
    }
    __aicore__ inline void Process() {}
private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::GlobalTensor<float> xGm;
};
extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelScaleCustom op;
    op.Init(x, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
"""

SPEC = 'kernel = "op_kernel/scale_custom.cpp"\nentry = "scale_custom"\nblock_dim = 8\n'

SINGLE_ASC = """\
#include "kernel_operator.h"
#include "data_utils.h"
__global__ __vector__ void {name}(__gm__ uint8_t *x, __gm__ uint8_t *z)
{{
    AscendC::GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    AscendC::Duplicate(xGm, 1.0f, 64);
}}

int32_t main(int32_t argc, char *argv[])
{{
    uint32_t numBlocks = 4;
    {name}<<<numBlocks, nullptr, stream>>>(x, z);
    return 0;
}}
"""


def record(path: str, text: str, license: str = "Apache-2.0") -> dict:
    lang = "python" if path.endswith(".py") else "cmake" if path.endswith("CMakeLists.txt") else "cpp"
    return {"path": path, "text": text, "file_id": "f" * 64, "license": license, "language": lang}


def kernel_launch_files(root: str = "samples/scale_relu") -> list[dict]:
    return [
        record(f"{root}/scale_relu.cpp", KERNEL),
        record(f"{root}/main.cpp", MAIN),
        record(f"{root}/data_utils.h", DATA_UTILS),
        record(f"{root}/scripts/gen_data.py", GEN),
        record(f"{root}/scripts/verify_result.py", VERIFY),
        record(f"{root}/CMakeLists.txt", CMAKE),
        record(f"{root}/run.sh", "#!/bin/bash\nbash build.sh\n"),
    ]


def op_project_files(root: str = "ops/ScaleCustom") -> list[dict]:
    return [
        record(f"{root}/op_host/scale_custom_tiling.h", TILING_H),
        record(f"{root}/op_host/scale_custom.cpp", OP_HOST),
        record(f"{root}/op_kernel/scale_custom.cpp", OP_KERNEL),
        record(f"{root}/scale_custom.json", '[{"op": "ScaleCustom"}]'),
        record(f"{root}/verify_spec.toml", SPEC),
        record(f"{root}/tests/ut/op_kernel/test_scale.cpp", "int helper() { return 1; }\n"),
    ]
