// Host program of the sub_tail sample: z = x - y on 10007 floats, 4 cores, DataCopyPad for the tail.
// CPU debug build (-DASCENDC_CPU_DEBUG): the kernel runs on the host through ICPU_RUN_KF.
// NPU build: inputs are copied to the device and sub_tail_do launches the kernel on a stream.
#include <cstring>
#include "data_utils.h"
#include "sub_tail_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void sub_tail_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *z, uint8_t *tiling);
#define CHECK_ACL(expr)                                                          \
    do {                                                                         \
        aclError ret_ = (expr);                                                  \
        if (ret_ != ACL_SUCCESS) {                                               \
            ERROR_LOG("%s failed with %d at %s:%d", #expr, ret_, __FILE__, __LINE__); \
        }                                                                        \
    } while (0)
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void sub_tail(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling);
#endif

int32_t main(int32_t argc, char *argv[])
{
    uint32_t blockDim = 4;
    size_t xByteSize = 10007 * sizeof(float);
    size_t yByteSize = 10007 * sizeof(float);
    size_t zByteSize = 10007 * sizeof(float);
    size_t tilingByteSize = sizeof(SubTailTiling);
    SubTailTiling tilingHost{};
    tilingHost.totalLength = 10007;
    tilingHost.tileLength = 1024;

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xByteSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(yByteSize);
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(zByteSize);
    uint8_t *tiling = (uint8_t *)AscendC::GmAlloc(tilingByteSize);
    std::memcpy(tiling, &tilingHost, tilingByteSize);
    ReadFile("./input/input_x.bin", xByteSize, x, xByteSize);
    ReadFile("./input/input_y.bin", yByteSize, y, yByteSize);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(sub_tail, blockDim, x, y, z, tiling);

    WriteFile("./output/output_z.bin", z, zByteSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    AscendC::GmFree((void *)tiling);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xHost = nullptr;
    uint8_t *yHost = nullptr;
    uint8_t *zHost = nullptr;
    uint8_t *xDevice = nullptr;
    uint8_t *yDevice = nullptr;
    uint8_t *zDevice = nullptr;
    uint8_t *tilingDevice = nullptr;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), xByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), yByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&zHost), zByteSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, xByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, yByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&zDevice, zByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, tilingByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", xByteSize, xHost, xByteSize);
    CHECK_ACL(aclrtMemcpy(xDevice, xByteSize, xHost, xByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_y.bin", yByteSize, yHost, yByteSize);
    CHECK_ACL(aclrtMemcpy(yDevice, yByteSize, yHost, yByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, tilingByteSize, &tilingHost, tilingByteSize, ACL_MEMCPY_HOST_TO_DEVICE));

    sub_tail_do(blockDim, stream, xDevice, yDevice, zDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(zHost, zByteSize, zDevice, zByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_z.bin", zHost, zByteSize);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(zDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtFreeHost(zHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
