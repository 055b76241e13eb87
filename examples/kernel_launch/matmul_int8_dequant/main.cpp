// Host program of the matmul_int8_dequant sample: C = dequant(A @ B), A [96, 256] int8, B [256, 160] int8,
// per-column scales [160], C [96, 160] half. The tiling comes from the Matmul library's MultiCoreMatmulTiling.
// CPU debug build (-DASCENDC_CPU_DEBUG): the kernel runs on the host through ICPU_RUN_KF.
// NPU build: inputs are copied to the device and matmul_int8_dequant_do launches the kernel on a stream.
#include <cstring>
#include "data_utils.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void matmul_int8_dequant_do(uint32_t blockDim, void* stream, uint8_t* a, uint8_t* b, uint8_t* scale,
                                   uint8_t* c, uint8_t* tiling);
#define CHECK_ACL(expr)                                                               \
    do {                                                                              \
        aclError ret_ = (expr);                                                       \
        if (ret_ != ACL_SUCCESS) {                                                    \
            ERROR_LOG("%s failed with %d at %s:%d", #expr, ret_, __FILE__, __LINE__); \
        }                                                                             \
    } while (0)
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void matmul_int8_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR c,
                                                          GM_ADDR tiling);
#endif

constexpr int32_t M = 96, N = 160, K = 256;

static bool GenerateTiling(TCubeTiling& tiling)
{
    namespace mt = matmul_tiling;
    auto platform = platform_ascendc::PlatformAscendCManager::GetInstance();
    mt::MultiCoreMatmulTiling api(*platform);
    api.SetDim(platform->GetCoreNumAic());
    api.SetAType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT8, false);
    api.SetBType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_INT8, false);
    api.SetCType(mt::TPosition::GM, mt::CubeFormat::ND, mt::DataType::DT_FLOAT16);
    api.SetOrgShape(M, N, K);
    api.SetShape(M, N, K);
    api.EnableBias(false);
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
    uint32_t blockDim = (uint32_t)tiling.usedCoreNum;
    size_t aByteSize = M * K, bByteSize = K * N, scaleByteSize = N * sizeof(uint64_t);
    size_t cByteSize = M * N * sizeof(uint16_t);

#ifdef ASCENDC_CPU_DEBUG
    uint8_t* a = (uint8_t*)AscendC::GmAlloc(aByteSize);
    uint8_t* b = (uint8_t*)AscendC::GmAlloc(bByteSize);
    uint8_t* scale = (uint8_t*)AscendC::GmAlloc(scaleByteSize);
    uint8_t* c = (uint8_t*)AscendC::GmAlloc(cByteSize);
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(tiling));
    ReadFile("./input/input_a.bin", aByteSize, a, aByteSize);
    ReadFile("./input/input_b.bin", bByteSize, b, bByteSize);
    ReadFile("./input/input_scale.bin", scaleByteSize, scale, scaleByteSize);
    std::memcpy(t, &tiling, sizeof(tiling));

    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(matmul_int8_dequant, blockDim, a, b, scale, c, t);

    WriteFile("./output/output_c.bin", c, cByteSize);
    AscendC::GmFree((void*)a);
    AscendC::GmFree((void*)b);
    AscendC::GmFree((void*)scale);
    AscendC::GmFree((void*)c);
    AscendC::GmFree((void*)t);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *host, *aDevice, *bDevice, *scaleDevice, *cDevice, *tDevice;
    size_t hostBytes = aByteSize + bByteSize + scaleByteSize + cByteSize;
    CHECK_ACL(aclrtMallocHost((void**)(&host), hostBytes));
    CHECK_ACL(aclrtMalloc((void**)&aDevice, aByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&bDevice, bByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&scaleDevice, scaleByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&cDevice, cByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&tDevice, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_a.bin", aByteSize, host, aByteSize);
    CHECK_ACL(aclrtMemcpy(aDevice, aByteSize, host, aByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_b.bin", bByteSize, host, bByteSize);
    CHECK_ACL(aclrtMemcpy(bDevice, bByteSize, host, bByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_scale.bin", scaleByteSize, host, scaleByteSize);
    CHECK_ACL(aclrtMemcpy(scaleDevice, scaleByteSize, host, scaleByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tDevice, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    matmul_int8_dequant_do(blockDim, stream, aDevice, bDevice, scaleDevice, cDevice, tDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(host, cByteSize, cDevice, cByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_c.bin", host, cByteSize);
    CHECK_ACL(aclrtFree(aDevice));
    CHECK_ACL(aclrtFree(bDevice));
    CHECK_ACL(aclrtFree(scaleDevice));
    CHECK_ACL(aclrtFree(cDevice));
    CHECK_ACL(aclrtFree(tDevice));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
