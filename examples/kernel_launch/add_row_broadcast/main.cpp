// Host program of the add_row_broadcast sample: z = x + b with b broadcast over the rows of a 128 x 256 float matrix, 4 cores.
// CPU debug build (-DASCENDC_CPU_DEBUG): the kernel runs on the host through ICPU_RUN_KF.
// NPU build: inputs are copied to the device and add_row_broadcast_do launches the kernel on a stream.
#include <cstring>
#include "data_utils.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void add_row_broadcast_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *b, uint8_t *z);
#define CHECK_ACL(expr)                                                          \
    do {                                                                         \
        aclError ret_ = (expr);                                                  \
        if (ret_ != ACL_SUCCESS) {                                               \
            ERROR_LOG("%s failed with %d at %s:%d", #expr, ret_, __FILE__, __LINE__); \
        }                                                                        \
    } while (0)
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void add_row_broadcast(GM_ADDR x, GM_ADDR b, GM_ADDR z);
#endif

int32_t main(int32_t argc, char *argv[])
{
    uint32_t blockDim = 4;
    size_t xByteSize = 128 * 256 * sizeof(float);
    size_t bByteSize = 256 * sizeof(float);
    size_t zByteSize = 128 * 256 * sizeof(float);

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xByteSize);
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(bByteSize);
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(zByteSize);
    ReadFile("./input/input_x.bin", xByteSize, x, xByteSize);
    ReadFile("./input/input_b.bin", bByteSize, b, bByteSize);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_row_broadcast, blockDim, x, b, z);

    WriteFile("./output/output_z.bin", z, zByteSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)z);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xHost = nullptr;
    uint8_t *bHost = nullptr;
    uint8_t *zHost = nullptr;
    uint8_t *xDevice = nullptr;
    uint8_t *bDevice = nullptr;
    uint8_t *zDevice = nullptr;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), xByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&bHost), bByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&zHost), zByteSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, xByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&bDevice, bByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&zDevice, zByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", xByteSize, xHost, xByteSize);
    CHECK_ACL(aclrtMemcpy(xDevice, xByteSize, xHost, xByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_b.bin", bByteSize, bHost, bByteSize);
    CHECK_ACL(aclrtMemcpy(bDevice, bByteSize, bHost, bByteSize, ACL_MEMCPY_HOST_TO_DEVICE));

    add_row_broadcast_do(blockDim, stream, xDevice, bDevice, zDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(zHost, zByteSize, zDevice, zByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_z.bin", zHost, zByteSize);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(bDevice));
    CHECK_ACL(aclrtFree(zDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(bHost));
    CHECK_ACL(aclrtFreeHost(zHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
