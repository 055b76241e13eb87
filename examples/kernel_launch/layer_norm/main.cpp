// Host program of the layer_norm sample: LayerNorm over the last axis of a 32 x 256 float matrix, 4 cores.
// CPU debug build (-DASCENDC_CPU_DEBUG): the kernel runs on the host through ICPU_RUN_KF.
// NPU build: inputs are copied to the device and layer_norm_do launches the kernel on a stream.
#include <cstring>
#include "data_utils.h"
#include "layer_norm_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void layer_norm_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *gamma, uint8_t *beta, uint8_t *y, uint8_t *tiling);
#define CHECK_ACL(expr)                                                          \
    do {                                                                         \
        aclError ret_ = (expr);                                                  \
        if (ret_ != ACL_SUCCESS) {                                               \
            ERROR_LOG("%s failed with %d at %s:%d", #expr, ret_, __FILE__, __LINE__); \
        }                                                                        \
    } while (0)
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void layer_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR tiling);
#endif

int32_t main(int32_t argc, char *argv[])
{
    uint32_t blockDim = 4;
    size_t xByteSize = 32 * 256 * sizeof(float);
    size_t gammaByteSize = 256 * sizeof(float);
    size_t betaByteSize = 256 * sizeof(float);
    size_t yByteSize = 32 * 256 * sizeof(float);
    size_t tilingByteSize = sizeof(LayerNormRowTiling);
    LayerNormRowTiling tilingHost{};
    tilingHost.rows = 32;
    tilingHost.cols = 256;
    tilingHost.epsilon = 1e-5f;

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xByteSize);
    uint8_t *gamma = (uint8_t *)AscendC::GmAlloc(gammaByteSize);
    uint8_t *beta = (uint8_t *)AscendC::GmAlloc(betaByteSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(yByteSize);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(tilingByteSize);
    std::memcpy(tiling, &tilingHost, tilingByteSize);
    ReadFile("./input/input_x.bin", xByteSize, x, xByteSize);
    ReadFile("./input/input_gamma.bin", gammaByteSize, gamma, gammaByteSize);
    ReadFile("./input/input_beta.bin", betaByteSize, beta, betaByteSize);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(layer_norm, blockDim, x, gamma, beta, y, tiling);

    WriteFile("./output/output_y.bin", y, yByteSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)gamma);
    AscendC::GmFree((void *)beta);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)tiling);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xHost = nullptr;
    uint8_t *gammaHost = nullptr;
    uint8_t *betaHost = nullptr;
    uint8_t *yHost = nullptr;
    uint8_t *xDevice = nullptr;
    uint8_t *gammaDevice = nullptr;
    uint8_t *betaDevice = nullptr;
    uint8_t *yDevice = nullptr;
    uint8_t *tilingDevice = nullptr;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), xByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&gammaHost), gammaByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&betaHost), betaByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), yByteSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, xByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&gammaDevice, gammaByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&betaDevice, betaByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, yByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, tilingByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", xByteSize, xHost, xByteSize);
    CHECK_ACL(aclrtMemcpy(xDevice, xByteSize, xHost, xByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_gamma.bin", gammaByteSize, gammaHost, gammaByteSize);
    CHECK_ACL(aclrtMemcpy(gammaDevice, gammaByteSize, gammaHost, gammaByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_beta.bin", betaByteSize, betaHost, betaByteSize);
    CHECK_ACL(aclrtMemcpy(betaDevice, betaByteSize, betaHost, betaByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingByteSize, &tilingHost, tilingByteSize, ACL_MEMCPY_HOST_TO_DEVICE));

    layer_norm_do(blockDim, stream, xDevice, gammaDevice, betaDevice, yDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(yHost, yByteSize, yDevice, yByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", yHost, yByteSize);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(gammaDevice));
    CHECK_ACL(aclrtFree(betaDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(gammaHost));
    CHECK_ACL(aclrtFreeHost(betaHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
