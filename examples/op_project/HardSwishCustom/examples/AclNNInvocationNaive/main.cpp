/**
 * HardSwishCustom through its aclnn two-phase API: read input/input_x.bin, run the op, write output/output_y.bin.
 * Run from the build/ folder (paths are ../input, ../output), after gen_data.py.
 */
#include <cstdint>
#include <fstream>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnn_hard_swish_custom.h"

#define CHECK_RET(cond, expr) \
    do {                      \
        if (!(cond)) {        \
            expr;             \
        }                     \
    } while (0)

static bool ReadFile(const char* path, void* buffer, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        std::cerr << "cannot open " << path << std::endl;
        return false;
    }
    f.read(static_cast<char*>(buffer), static_cast<std::streamsize>(size));
    return static_cast<size_t>(f.gcount()) == size;
}

static bool WriteFile(const char* path, const void* buffer, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char*>(buffer), static_cast<std::streamsize>(size));
    return f.good();
}

int main()
{
    const std::vector<int64_t> shape = {33, 1031};
    const size_t count = 33 * 1031;
    const size_t bytes = count * sizeof(aclFloat16);

    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, return 1);
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, return 1);
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, return 1);

    std::vector<aclFloat16> xHost(count);
    CHECK_RET(ReadFile("../input/input_x.bin", xHost.data(), bytes), return 1);
    void* xDevice = nullptr;
    void* yDevice = nullptr;
    CHECK_RET(aclrtMalloc(&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, return 1);
    CHECK_RET(aclrtMalloc(&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, return 1);
    CHECK_RET(aclrtMemcpy(xDevice, bytes, xHost.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, return 1);
    aclTensor* x = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, shape.data(),
                                   shape.size(), xDevice);
    aclTensor* y = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, shape.data(),
                                   shape.size(), yDevice);

    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    auto ret = aclnnHardSwishCustomGetWorkspaceSize(x, y, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS, std::cerr << "GetWorkspaceSize failed: " << ret << std::endl; return 1);
    void* workspace = nullptr;
    if (workspaceSize > 0) {
        CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, return 1);
    }
    ret = aclnnHardSwishCustom(workspace, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, std::cerr << "aclnnHardSwishCustom failed: " << ret << std::endl; return 1);
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, return 1);

    std::vector<aclFloat16> yHost(count);
    CHECK_RET(aclrtMemcpy(yHost.data(), bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, return 1);
    CHECK_RET(WriteFile("../output/output_y.bin", yHost.data(), bytes), return 1);

    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclrtFree(xDevice);
    aclrtFree(yDevice);
    if (workspace != nullptr) {
        aclrtFree(workspace);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
