"""Hand-made, realistic unit records (as the parse stage will write them), validated against schemas/unit.schema.json.

Used until crawl + parse land; the demo-corpus test in test_static_teacher.py covers the real thing after that.
"""

from __future__ import annotations

import hashlib
from typing import Any

from cotbuilder import records
from cotbuilder.store import Store, utcnow

ADD_KERNEL = """\
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 8 * 2048;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr int32_t TILE_NUM = 8;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ half *)z + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        int32_t loopCount = TILE_NUM * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        AscendC::DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        AscendC::LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        AscendC::DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
    AscendC::GlobalTensor<half> zGm;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KernelAdd op;
    op.Init(x, y, z);
    op.Process();
}
"""

ADD_MAIN = """\
#include "data_utils.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void add_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z);
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);
#endif

int32_t main(int32_t argc, char *argv[])
{
    uint32_t blockDim = 8;
    size_t inputByteSize = 8 * 2048 * sizeof(uint16_t);
    size_t outputByteSize = 8 * 2048 * sizeof(uint16_t);
#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(inputByteSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(inputByteSize);
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(outputByteSize);
    ReadFile("./input/input_x.bin", inputByteSize, x, inputByteSize);
    ReadFile("./input/input_y.bin", inputByteSize, y, inputByteSize);
    ICPU_RUN_KF(add_custom, blockDim, x, y, z);
    WriteFile("./output/output_z.bin", z, outputByteSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
#else
    add_custom<<<blockDim, nullptr, stream>>>(xDevice, yDevice, zDevice);
#endif
    return 0;
}
"""

GEN_DATA = """\
import argparse
import numpy as np

def gen_golden_data(seed):
    rng = np.random.default_rng(seed)
    input_x = np.random.uniform(1, 100, [8, 2048]).astype(np.float16)
    input_y = np.random.uniform(1, 100, [8, 2048]).astype(np.float16)
    golden = (input_x + input_y).astype(np.float16)
    input_x.tofile("./input/input_x.bin")
    input_y.tofile("./input/input_y.bin")
    golden.tofile("./output/golden.bin")
"""

CMAKE = 'set(SOC_VERSION "Ascend310P3" CACHE STRING "system on chip type")\nproject(Ascend_c)\n'


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def add_unit(name: str = "add_custom", *, suffix: str = "") -> dict[str, Any]:
    """A kernel_launch unit like examples/kernel_launch/add_custom (fp16 add, 8 cores, tile 128, double-buffered)."""
    kernel = ADD_KERNEL.replace("add_custom", name) + (f"// variant {suffix}\n" if suffix else "")
    files = [
        {"path": f"{name}.cpp", "role": "kernel", "file_id": _sha(kernel), "text": kernel},
        {
            "path": "main.cpp",
            "role": "host_main",
            "file_id": _sha(ADD_MAIN),
            "text": ADD_MAIN.replace("add_custom", name),
        },
        {"path": "scripts/gen_data.py", "role": "generator", "file_id": _sha(GEN_DATA), "text": GEN_DATA},
        {"path": "CMakeLists.txt", "role": "build", "file_id": _sha(CMAKE), "text": CMAKE},
    ]
    unit = {
        "unit_id": _sha(f"unit:{name}:{suffix}:{kernel}"),
        "source_id": _sha("source:examples"),
        "layout": "kernel_launch",
        "name": name,
        "root": f"examples/kernel_launch/{name}",
        "files": files,
        "kernel_code": kernel,
        "host_code": files[1]["text"],
        "entry": [
            {
                "name": name,
                "params": [{"name": p, "type": "GM_ADDR"} for p in ("x", "y", "z")],
                "file": f"{name}.cpp",
                "line": kernel.count("\n", 0, kernel.index('extern "C"')) + 1,
            }
        ],
        "features": {
            "apis": {
                "AllocTensor": 3,
                "Add": 1,
                "DataCopy": 3,
                "DeQue": 3,
                "EnQue": 3,
                "FreeTensor": 3,
                "GetBlockIdx": 3,
                "InitBuffer": 3,
                "SetGlobalBuffer": 3,
            },
            "dtypes": ["float16"],
            "positions": ["VECIN", "VECOUT"],
            "buffer_num": 2,
            "tile_length": 128,
            "block_dim": 8,
            "ub_bytes": 1536,
            "tiling_fields": [],
            "uses_cube": False,
            "multi_core": True,
            "kernel_class": "KernelAdd",
            "methods": ["Init", "Process", "CopyIn", "Compute", "CopyOut"],
            "op_def": None,
        },
        "category": "elementwise",
        "complexity": 2,
        "diagnostics": [],
        "license": "Apache-2.0",
        "parent_unit_id": None,
        "created_at": utcnow().isoformat(),
    }
    records.validate("unit", unit)
    return unit


OP_KERNEL = """\
#include "kernel_operator.h"
constexpr int32_t BUFFER_NUM = 2;

class KernelLeakyRelu {
public:
    __aicore__ inline KernelLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileNum, float alpha)
    {
        this->blockLength = totalLength / AscendC::GetBlockNum();
        this->tileNum = tileNum;
        this->alpha = alpha;
        this->tileLength = this->blockLength / tileNum / BUFFER_NUM;
        xGm.SetGlobalBuffer((__gm__ float *)x + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, this->tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < this->tileNum * BUFFER_NUM; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopy(xLocal, xGm[progress * this->tileLength], this->tileLength);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LeakyRelu(yLocal, xLocal, this->alpha, this->tileLength);
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopy(yGm[progress * this->tileLength], yLocal, this->tileLength);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t blockLength, tileNum, tileLength;
    float alpha;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLeakyRelu op;
    op.Init(x, y, tilingData.totalLength, tilingData.tileNum, tilingData.alpha);
    op.Process();
}
"""

OP_TILING_H = """\
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(TilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);
  TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LeakyReluCustom, TilingData)
}
"""

OP_HOST = """\
#include "leaky_relu_custom_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    TilingData tiling;
    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    context->SetBlockDim(8);
    tiling.set_totalLength(totalLength);
    tiling.set_tileNum(8);
    tiling.set_alpha(0.01f);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class LeakyReluCustom : public OpDef {
public:
    explicit LeakyReluCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LeakyReluCustom);
}
"""

OP_SPEC = """\
kernel = "op_kernel/leaky_relu_custom.cpp"
entry = "leaky_relu_custom"
block_dim = 8
tiling_header = "op_host/leaky_relu_custom_tiling.h"
tiling_struct = "TilingData"
seeds = [0, 1]
[[inputs]]
name = "x"
shape = [8, 1024]
dtype = "float32"
[[outputs]]
name = "y"
shape = [8, 1024]
dtype = "float32"
[tiling]
totalLength = 8192
tileNum = 8
alpha = 0.01
[reference]
python = \"\"\"
import numpy as np
def reference(x):
    return np.where(x > 0, x, 0.01 * x).astype(np.float32)
\"\"\"
"""


def leaky_relu_op_unit() -> dict[str, Any]:
    """An op_project unit: tiling struct on the host, GET_TILING_DATA in the kernel, a verify_spec.toml harness."""
    files = [
        {"path": "op_kernel/leaky_relu_custom.cpp", "role": "kernel", "file_id": _sha(OP_KERNEL), "text": OP_KERNEL},
        {
            "path": "op_host/leaky_relu_custom_tiling.h",
            "role": "tiling",
            "file_id": _sha(OP_TILING_H),
            "text": OP_TILING_H,
        },
        {"path": "op_host/leaky_relu_custom.cpp", "role": "op_def", "file_id": _sha(OP_HOST), "text": OP_HOST},
        {"path": "verify_spec.toml", "role": "other", "file_id": _sha(OP_SPEC), "text": OP_SPEC},
    ]
    unit = {
        "unit_id": _sha("unit:leaky_relu_custom:" + OP_KERNEL),
        "source_id": _sha("source:examples"),
        "layout": "op_project",
        "name": "LeakyReluCustom",
        "root": "examples/op_project/LeakyReluCustom",
        "files": files,
        "kernel_code": OP_KERNEL,
        "host_code": OP_TILING_H + "\n" + OP_HOST,
        "entry": [
            {
                "name": "leaky_relu_custom",
                "params": [{"name": p, "type": "GM_ADDR"} for p in ("x", "y", "workspace", "tiling")],
                "file": "op_kernel/leaky_relu_custom.cpp",
                "line": 60,
            }
        ],
        "features": {
            "apis": {
                "AllocTensor": 2,
                "DataCopy": 2,
                "DeQue": 2,
                "EnQue": 2,
                "FreeTensor": 2,
                "GetBlockIdx": 2,
                "GetBlockNum": 1,
                "InitBuffer": 2,
                "LeakyRelu": 1,
                "SetGlobalBuffer": 2,
            },
            "dtypes": ["float32"],
            "positions": ["VECIN", "VECOUT"],
            "buffer_num": 2,
            "tile_length": None,
            "block_dim": None,
            "ub_bytes": None,
            "tiling_fields": [
                {"name": "totalLength", "type": "uint32_t"},
                {"name": "tileNum", "type": "uint32_t"},
                {"name": "alpha", "type": "float"},
            ],
            "uses_cube": False,
            "multi_core": True,
            "kernel_class": "KernelLeakyRelu",
            "methods": ["Init", "Process", "CopyIn", "Compute", "CopyOut"],
            "op_def": {
                "name": "LeakyReluCustom",
                "inputs": [{"name": "x", "dtypes": ["DT_FLOAT"]}],
                "outputs": [{"name": "y", "dtypes": ["DT_FLOAT"]}],
                "socs": ["ascend910b"],
            },
        },
        "category": "activation",
        "complexity": 2,
        "diagnostics": [],
        "license": "Apache-2.0",
        "parent_unit_id": None,
        "created_at": utcnow().isoformat(),
    }
    records.validate("unit", unit)
    return unit


def many_add_units(n: int) -> list[dict[str, Any]]:
    return [add_unit(f"add_custom_{i}", suffix=str(i)) for i in range(n)]


def put_units(store: Store, units: list[dict[str, Any]]) -> None:
    rows = [{**u, "created_at": utcnow()} for u in units]
    store.insert("units", rows)
