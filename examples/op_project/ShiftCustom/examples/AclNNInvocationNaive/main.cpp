/**
 * ShiftCustom through its hand-written aclnn API (op_host/aclnn_shift.h): out = self + 1.25, where self is a
 * transposed (strided) view of the input buffer. Run from build/ after gen_data.py: ../input -> ../output.
 */
#include <cstdint>
#include <fstream>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnn_shift.h"

#define CHECK_RET(cond, expr) \
    do {                      \
        if (!(cond)) {        \
            expr;             \
        }                     \
    } while (0)

static bool ReadBytes(const char* path, void* data, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    f.read(static_cast<char*>(data), static_cast<std::streamsize>(size));
    return f && static_cast<size_t>(f.gcount()) == size;
}

int main()
{
    const int64_t h = 37, w = 45;
    const size_t bytes = static_cast<size_t>(h * w) * sizeof(aclFloat16);
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, return 1);
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, return 1);
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, return 1);

    std::vector<aclFloat16> host(static_cast<size_t>(h * w));
    CHECK_RET(ReadBytes("../input/input_x.bin", host.data(), bytes), std::cerr << "no input" << std::endl; return 1);
    void* xDev = nullptr;
    void* outDev = nullptr;
    CHECK_RET(aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, return 1);
    CHECK_RET(aclrtMalloc(&outDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, return 1);
    CHECK_RET(aclrtMemcpy(xDev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, return 1);

    const std::vector<int64_t> shape = {h, w};
    const std::vector<int64_t> transposed = {1, h};  // the buffer is [w, h]: element (i, j) sits at j * h + i
    const std::vector<int64_t> storage = {w, h};
    aclTensor* self = aclCreateTensor(shape.data(), 2, ACL_FLOAT16, transposed.data(), 0, ACL_FORMAT_ND,
                                      storage.data(), 2, xDev);
    aclTensor* out = aclCreateTensor(shape.data(), 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, shape.data(), 2, outDev);
    float shiftValue = 1.25f;
    aclScalar* shift = aclCreateScalar(&shiftValue, ACL_FLOAT);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    auto ret = aclnnShiftGetWorkspaceSize(self, shift, out, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, std::cerr << "aclnnShiftGetWorkspaceSize failed: " << ret << std::endl; return 1);
    void* workspace = nullptr;
    if (workspaceSize > 0) {
        CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, return 1);
    }
    ret = aclnnShift(workspace, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, std::cerr << "aclnnShift failed: " << ret << std::endl; return 1);
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, return 1);

    std::vector<aclFloat16> result(static_cast<size_t>(h * w));
    CHECK_RET(aclrtMemcpy(result.data(), bytes, outDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, return 1);
    std::ofstream("../output/output_y.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(result.data()), static_cast<std::streamsize>(bytes));

    aclDestroyTensor(self);
    aclDestroyTensor(out);
    aclDestroyScalar(shift);
    aclrtFree(xDev);
    aclrtFree(outDev);
    if (workspace != nullptr) {
        aclrtFree(workspace);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
