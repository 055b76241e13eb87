// Host program of the minmax_scale sample: global min-max scaling of 32768 floats: two phases around SyncAll, partials in the user workspace, 8 cores.
// CPU debug build (-DASCENDC_CPU_DEBUG): the kernel runs on the host through ICPU_RUN_KF.
// NPU build: inputs are copied to the device and minmax_scale_do launches the kernel on a stream.
#include <cstring>
#include "data_utils.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void minmax_scale_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *workspace);
#define CHECK_ACL(expr)                                                          \
    do {                                                                         \
        aclError ret_ = (expr);                                                  \
        if (ret_ != ACL_SUCCESS) {                                               \
            ERROR_LOG("%s failed with %d at %s:%d", #expr, ret_, __FILE__, __LINE__); \
        }                                                                        \
    } while (0)
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void minmax_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace);
#endif

int32_t main(int32_t argc, char *argv[])
{
    uint32_t blockDim = 8;
    size_t xByteSize = 32768 * sizeof(float);
    size_t yByteSize = 32768 * sizeof(float);
    size_t workspaceByteSize = 3 * 8 * 32;

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(xByteSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(yByteSize);
    // in CPU debug mode GetUserWorkspace returns this pointer unchanged
    uint8_t *workspace = (uint8_t *)AscendC::GmAlloc(workspaceByteSize);
    std::memset(workspace, 0, workspaceByteSize);  // the kernel expects zeroed sync flags
    ReadFile("./input/input_x.bin", xByteSize, x, xByteSize);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(minmax_scale, blockDim, x, y, workspace);

    WriteFile("./output/output_y.bin", y, yByteSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)workspace);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    // on the device GetUserWorkspace skips a reserved system part placed in front of the user part
    size_t npuWorkspaceByteSize = 16 * 1024 * 1024 + workspaceByteSize;

    uint8_t *xHost = nullptr;
    uint8_t *yHost = nullptr;
    uint8_t *xDevice = nullptr;
    uint8_t *yDevice = nullptr;
    uint8_t *workspaceDevice = nullptr;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), xByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), yByteSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, xByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, yByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&workspaceDevice, npuWorkspaceByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", xByteSize, xHost, xByteSize);
    CHECK_ACL(aclrtMemcpy(xDevice, xByteSize, xHost, xByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemset(workspaceDevice, npuWorkspaceByteSize, 0, npuWorkspaceByteSize));

    minmax_scale_do(blockDim, stream, xDevice, yDevice, workspaceDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(yHost, yByteSize, yDevice, yByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", yHost, yByteSize);
    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(workspaceDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
