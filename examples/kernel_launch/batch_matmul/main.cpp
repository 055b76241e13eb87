// Host program of the batch_matmul sample: C[b] = A[b] @ B[b] + bias, 4 batches of A [64, 128] half and
// B [128, 96] half, bias [96] float, C [4, 64, 96] float; one batch per core. The single-core tiling comes from
// the Matmul library's MatmulApiTiling.
// CPU debug build (-DASCENDC_CPU_DEBUG): the kernel runs on the host through ICPU_RUN_KF.
// NPU build: inputs are copied to the device and batch_matmul_do launches the kernel on a stream.
#include <cstring>
#include "data_utils.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void batch_matmul_do(uint32_t blockDim, void* stream, uint8_t* a, uint8_t* b, uint8_t* bias, uint8_t* c,
                            uint8_t* tiling);
#define CHECK_ACL(expr)                                                               \
    do {                                                                              \
        aclError ret_ = (expr);                                                       \
        if (ret_ != ACL_SUCCESS) {                                                    \
            ERROR_LOG("%s failed with %d at %s:%d", #expr, ret_, __FILE__, __LINE__); \
        }                                                                             \
    } while (0)
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void batch_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
#endif

constexpr int32_t BATCH = 4, M = 64, N = 96, K = 128;

static bool GenerateTiling(TCubeTiling& tiling)
{
    namespace mt = matmul_tiling;
    auto platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    mt::MatmulApiTiling api(*platform);
    api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, false);
    api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16, false);
    api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
    api.SetBiasType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT);
    api.SetOrgShape(M, N, K);
    api.SetShape(M, N, K);
    api.EnableBias(true);
    api.SetBufferSpace(-1, -1, -1);
    return api.GetTiling(tiling) != -1;
}

int32_t main(int32_t argc, char* argv[])
{
    TCubeTiling tiling;
    if (!GenerateTiling(tiling)) {
        ERROR_LOG("GetTiling failed");
        return 1;
    }
    uint32_t blockDim = BATCH;
    size_t aByteSize = BATCH * M * K * sizeof(uint16_t), bByteSize = BATCH * K * N * sizeof(uint16_t);
    size_t biasByteSize = N * sizeof(float), cByteSize = BATCH * M * N * sizeof(float);

#ifdef ASCENDC_CPU_DEBUG
    uint8_t* a = (uint8_t*)AscendC::GmAlloc(aByteSize);
    uint8_t* b = (uint8_t*)AscendC::GmAlloc(bByteSize);
    uint8_t* bias = (uint8_t*)AscendC::GmAlloc(biasByteSize);
    uint8_t* c = (uint8_t*)AscendC::GmAlloc(cByteSize);
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(tiling));
    ReadFile("./input/input_a.bin", aByteSize, a, aByteSize);
    ReadFile("./input/input_b.bin", bByteSize, b, bByteSize);
    ReadFile("./input/input_bias.bin", biasByteSize, bias, biasByteSize);
    std::memcpy(t, &tiling, sizeof(tiling));

    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(batch_matmul, blockDim, a, b, bias, c, t);

    WriteFile("./output/output_c.bin", c, cByteSize);
    AscendC::GmFree((void*)a);
    AscendC::GmFree((void*)b);
    AscendC::GmFree((void*)bias);
    AscendC::GmFree((void*)c);
    AscendC::GmFree((void*)t);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *host, *aDevice, *bDevice, *biasDevice, *cDevice, *tDevice;
    size_t hostBytes = aByteSize + bByteSize + biasByteSize + cByteSize;
    CHECK_ACL(aclrtMallocHost((void**)(&host), hostBytes));
    CHECK_ACL(aclrtMalloc((void**)&aDevice, aByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&bDevice, bByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&biasDevice, biasByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&cDevice, cByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&tDevice, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_a.bin", aByteSize, host, aByteSize);
    CHECK_ACL(aclrtMemcpy(aDevice, aByteSize, host, aByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_b.bin", bByteSize, host, bByteSize);
    CHECK_ACL(aclrtMemcpy(bDevice, bByteSize, host, bByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_bias.bin", biasByteSize, host, biasByteSize);
    CHECK_ACL(aclrtMemcpy(biasDevice, biasByteSize, host, biasByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tDevice, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    batch_matmul_do(blockDim, stream, aDevice, bDevice, biasDevice, cDevice, tDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(host, cByteSize, cDevice, cByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_c.bin", host, cByteSize);
    CHECK_ACL(aclrtFree(aDevice));
    CHECK_ACL(aclrtFree(bDevice));
    CHECK_ACL(aclrtFree(biasDevice));
    CHECK_ACL(aclrtFree(cDevice));
    CHECK_ACL(aclrtFree(tDevice));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
