// Host program of the gather_rows sample: out = table[index] row gather with int32 indices read from GM, 4 cores.
// CPU debug build (-DASCENDC_CPU_DEBUG): the kernel runs on the host through ICPU_RUN_KF.
// NPU build: inputs are copied to the device and gather_rows_do launches the kernel on a stream.
#include <cstring>
#include "data_utils.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void gather_rows_do(uint32_t blockDim, void *stream, uint8_t *table, uint8_t *index, uint8_t *out);
#define CHECK_ACL(expr)                                                          \
    do {                                                                         \
        aclError ret_ = (expr);                                                  \
        if (ret_ != ACL_SUCCESS) {                                               \
            ERROR_LOG("%s failed with %d at %s:%d", #expr, ret_, __FILE__, __LINE__); \
        }                                                                        \
    } while (0)
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void gather_rows(GM_ADDR table, GM_ADDR index, GM_ADDR out);
#endif

int32_t main(int32_t argc, char *argv[])
{
    uint32_t blockDim = 4;
    size_t tableByteSize = 512 * 64 * sizeof(float);
    size_t indexByteSize = 128 * sizeof(int32_t);
    size_t outByteSize = 128 * 64 * sizeof(float);

#ifdef ASCENDC_CPU_DEBUG
    uint8_t *table = (uint8_t *)AscendC::GmAlloc(tableByteSize);
    uint8_t *index = (uint8_t *)AscendC::GmAlloc(indexByteSize);
    uint8_t *out = (uint8_t *)AscendC::GmAlloc(outByteSize);
    ReadFile("./input/input_table.bin", tableByteSize, table, tableByteSize);
    ReadFile("./input/input_index.bin", indexByteSize, index, indexByteSize);

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(gather_rows, blockDim, table, index, out);

    WriteFile("./output/output_out.bin", out, outByteSize);
    AscendC::GmFree((void *)table);
    AscendC::GmFree((void *)index);
    AscendC::GmFree((void *)out);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *tableHost = nullptr;
    uint8_t *indexHost = nullptr;
    uint8_t *outHost = nullptr;
    uint8_t *tableDevice = nullptr;
    uint8_t *indexDevice = nullptr;
    uint8_t *outDevice = nullptr;
    CHECK_ACL(aclrtMallocHost((void **)(&tableHost), tableByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&indexHost), indexByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&outHost), outByteSize));
    CHECK_ACL(aclrtMalloc((void **)&tableDevice, tableByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&indexDevice, indexByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&outDevice, outByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_table.bin", tableByteSize, tableHost, tableByteSize);
    CHECK_ACL(aclrtMemcpy(tableDevice, tableByteSize, tableHost, tableByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    ReadFile("./input/input_index.bin", indexByteSize, indexHost, indexByteSize);
    CHECK_ACL(aclrtMemcpy(indexDevice, indexByteSize, indexHost, indexByteSize, ACL_MEMCPY_HOST_TO_DEVICE));

    gather_rows_do(blockDim, stream, tableDevice, indexDevice, outDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(outHost, outByteSize, outDevice, outByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_out.bin", outHost, outByteSize);
    CHECK_ACL(aclrtFree(tableDevice));
    CHECK_ACL(aclrtFree(indexDevice));
    CHECK_ACL(aclrtFree(outDevice));
    CHECK_ACL(aclrtFreeHost(tableHost));
    CHECK_ACL(aclrtFreeHost(indexHost));
    CHECK_ACL(aclrtFreeHost(outHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
