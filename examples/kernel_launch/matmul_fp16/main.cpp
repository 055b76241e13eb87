// Host program of the matmul_fp16 sample: C = A @ B, A [256, 512] half, B [512, 256] half, C [256, 256] float,
// 4 cores of 64 rows each.
// CPU debug build (-DASCENDC_CPU_DEBUG): the kernel runs on the host through ICPU_RUN_KF.
// NPU build: inputs are copied to the device and matmul_fp16_do launches the kernel on a stream.
#include <cstring>
#include "data_utils.h"
#include "matmul_fp16_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
extern void matmul_fp16_do(uint32_t blockDim, void* stream, uint8_t* a, uint8_t* b, uint8_t* c, uint8_t* tiling);
#define CHECK_ACL(expr)                                                               \
    do {                                                                              \
        aclError ret_ = (expr);                                                       \
        if (ret_ != ACL_SUCCESS) {                                                    \
            ERROR_LOG("%s failed with %d at %s:%d", #expr, ret_, __FILE__, __LINE__); \
        }                                                                             \
    } while (0)
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void matmul_fp16(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling);
#endif

int32_t main(int32_t argc, char* argv[])
{
    MatmulFp16Tiling tiling{256, 256, 512, 64, 128, 128};
    uint32_t blockDim = tiling.M / tiling.coreRows;
    size_t aByteSize = tiling.M * tiling.K * sizeof(uint16_t);
    size_t bByteSize = tiling.K * tiling.N * sizeof(uint16_t);
    size_t cByteSize = tiling.M * tiling.N * sizeof(float);

#ifdef ASCENDC_CPU_DEBUG
    uint8_t* a = (uint8_t*)AscendC::GmAlloc(aByteSize);
    uint8_t* b = (uint8_t*)AscendC::GmAlloc(bByteSize);
    uint8_t* c = (uint8_t*)AscendC::GmAlloc(cByteSize);
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(tiling));
    ReadFile("./input/input_a.bin", aByteSize, a, aByteSize);
    ReadFile("./input/input_b.bin", bByteSize, b, bByteSize);
    std::memcpy(t, &tiling, sizeof(tiling));

    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(matmul_fp16, blockDim, a, b, c, t);

    WriteFile("./output/output_c.bin", c, cByteSize);
    AscendC::GmFree((void*)a);
    AscendC::GmFree((void*)b);
    AscendC::GmFree((void*)c);
    AscendC::GmFree((void*)t);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *aHost, *bHost, *cHost, *aDevice, *bDevice, *cDevice, *tDevice;
    CHECK_ACL(aclrtMallocHost((void**)(&aHost), aByteSize));
    CHECK_ACL(aclrtMallocHost((void**)(&bHost), bByteSize));
    CHECK_ACL(aclrtMallocHost((void**)(&cHost), cByteSize));
    CHECK_ACL(aclrtMalloc((void**)&aDevice, aByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&bDevice, bByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&cDevice, cByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void**)&tDevice, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_a.bin", aByteSize, aHost, aByteSize);
    ReadFile("./input/input_b.bin", bByteSize, bHost, bByteSize);
    CHECK_ACL(aclrtMemcpy(aDevice, aByteSize, aHost, aByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(bDevice, bByteSize, bHost, bByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tDevice, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    matmul_fp16_do(blockDim, stream, aDevice, bDevice, cDevice, tDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(cHost, cByteSize, cDevice, cByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_c.bin", cHost, cByteSize);
    CHECK_ACL(aclrtFree(aDevice));
    CHECK_ACL(aclrtFree(bDevice));
    CHECK_ACL(aclrtFree(cDevice));
    CHECK_ACL(aclrtFree(tDevice));
    CHECK_ACL(aclrtFreeHost(aHost));
    CHECK_ACL(aclrtFreeHost(bHost));
    CHECK_ACL(aclrtFreeHost(cHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
