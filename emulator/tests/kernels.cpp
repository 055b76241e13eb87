// Two complete kernels written the way real AscendC samples are: a double-buffered fp16 add with
// tiling data and a non-aligned tail, and a row-wise softmax. Usage: kernels DIR
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

// ---------------- host tiling ----------------
namespace optiling {
BEGIN_TILING_DATA_DEF(AddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AddTail, AddTilingData);
}  // namespace optiling

// ---------------- kernel 1: add with double buffering and a tail ----------------
constexpr int32_t BUFFER_NUM = 2;

class KernelAddTail {
public:
    __aicore__ inline KernelAddTail() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength, uint32_t tileLength) {
        this->blockLength = blockLength;
        this->tileLength = tileLength;
        this->tileNum = blockLength / tileLength;
        this->tailLength = blockLength % tileLength;
        uint64_t off = (uint64_t)blockLength * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half*)x + off, blockLength);
        yGm.SetGlobalBuffer((__gm__ half*)y + off, blockLength);
        zGm.SetGlobalBuffer((__gm__ half*)z + off, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(half));
    }
    __aicore__ inline void Process() {
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i, tileLength);
            Compute(tileLength);
            CopyOut(i, tileLength);
        }
        if (tailLength > 0) {
            CopyIn(tileNum, tailLength);
            Compute(tailLength);
            CopyOut(tileNum, tailLength);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len) {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(half)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[progress * tileLength], params, pad);
        AscendC::DataCopyPad(yLocal, yGm[progress * tileLength], params, pad);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t len) {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::Add(zLocal, xLocal, yLocal, len);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len) {
        AscendC::LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(half)), 0, 0, 0};
        AscendC::DataCopyPad(zGm[progress * tileLength], zLocal, params);
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<half> xGm, yGm, zGm;
    uint32_t blockLength, tileLength, tileNum, tailLength;
};

extern "C" __global__ __aicore__ void add_tail(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(tilingData, tiling);
    KernelAddTail op;
    op.Init(x, y, z, tilingData.blockLength, tilingData.tileLength);
    op.Process();
}

// ---------------- kernel 2: row softmax, one 64-float row per step ----------------
constexpr uint32_t COLS = 64;

class KernelSoftmax {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rowsPerBlock) {
        rows = rowsPerBlock;
        uint64_t off = (uint64_t)rowsPerBlock * COLS * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float*)x + off, rowsPerBlock * COLS);
        yGm.SetGlobalBuffer((__gm__ float*)y + off, rowsPerBlock * COLS);
        pipe.InitBuffer(inQ, BUFFER_NUM, COLS * sizeof(float));
        pipe.InitBuffer(outQ, BUFFER_NUM, COLS * sizeof(float));
        pipe.InitBuffer(workBuf, COLS * sizeof(float));
        pipe.InitBuffer(redBuf, 32);
    }
    __aicore__ inline void Process() {
        for (uint32_t r = 0; r < rows; ++r) {
            AscendC::LocalTensor<float> in = inQ.AllocTensor<float>();
            AscendC::DataCopy(in, xGm[r * COLS], COLS);
            inQ.EnQue(in);
            in = inQ.DeQue<float>();
            AscendC::LocalTensor<float> out = outQ.AllocTensor<float>();
            AscendC::LocalTensor<float> work = workBuf.Get<float>();
            AscendC::LocalTensor<float> red = redBuf.Get<float>();
            AscendC::ReduceMax(red, in, work, COLS);
            float mx = red.GetValue(0);
            AscendC::Adds(out, in, -mx, COLS);
            AscendC::Exp(out, out, COLS);
            AscendC::ReduceSum(red, out, work, COLS);
            float sum = red.GetValue(0);
            AscendC::Muls(out, out, 1.0f / sum, COLS);
            outQ.EnQue(out);
            inQ.FreeTensor(in);
            out = outQ.DeQue<float>();
            AscendC::DataCopy(yGm[r * COLS], out, COLS);
            outQ.FreeTensor(out);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> workBuf, redBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t rows;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, uint32_t rowsPerBlock) {
    KernelSoftmax op;
    op.Init(x, y, rowsPerBlock);
    op.Process();
}

// ---------------- host ----------------
static std::vector<char> read_file(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    return std::vector<char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}
static void write_file(const std::string& p, const void* d, size_t n) {
    std::ofstream f(p, std::ios::binary);
    f.write((const char*)d, (std::streamsize)n);
}

int main(int argc, char** argv) {
    std::string dir = argc > 1 ? argv[1] : ".";
    // add_tail: tikicpulib style
    {
        const uint32_t blockDim = 8, blockLength = 1000, total = blockDim * blockLength;
        size_t bytes = total * sizeof(half);
        uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
        uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
        uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
        auto xs = read_file(dir + "/add_x.bin"), ys = read_file(dir + "/add_y.bin");
        std::memcpy(x, xs.data(), bytes);
        std::memcpy(y, ys.data(), bytes);
        optiling::AddTilingData tiling;
        tiling.set_blockLength(blockLength);
        tiling.set_tileLength(256);
        uint8_t* t = (uint8_t*)AscendC::GmAlloc(tiling.GetDataSize());
        tiling.SaveToBuffer(t, tiling.GetDataSize());
        uint8_t* ws = (uint8_t*)AscendC::GmAlloc(1024);
        AscendC::SetKernelMode(KernelMode::AIV_MODE);
        ICPU_RUN_KF(add_tail, blockDim, x, y, z, ws, t);
        write_file(dir + "/add_z.bin", z, bytes);
        AscendC::GmFree(x);
        AscendC::GmFree(y);
        AscendC::GmFree(z);
    }
    // softmax_rows: acl style; `softmax_rows<<<4, nullptr, stream>>>(...)` rewritten to COTBUILDER_LAUNCH
    {
        const uint32_t blockDim = 4, rowsPerBlock = 6;
        size_t bytes = blockDim * rowsPerBlock * COLS * sizeof(float);
        aclInit(nullptr);
        aclrtSetDevice(0);
        aclrtContext context = nullptr, current = nullptr;  // the context calls an aclnn example makes (ge_glu_grad_v2)
        if (aclrtCreateContext(&context, 0) != ACL_SUCCESS || aclrtSetCurrentContext(context) != ACL_SUCCESS ||
            aclrtGetCurrentContext(&current) != ACL_SUCCESS || current != context) {
            std::printf("context calls failed\n");
            return 3;
        }
        aclrtStream stream = nullptr;
        aclrtCreateStream(&stream);
        void *xHost, *yHost, *xDev, *yDev;
        aclrtMallocHost(&xHost, bytes);
        aclrtMallocHost(&yHost, bytes);
        aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        auto xs = read_file(dir + "/sm_x.bin");
        std::memcpy(xHost, xs.data(), bytes);
        aclrtMemcpy(xDev, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        COTBUILDER_LAUNCH(softmax_rows, blockDim, (uint8_t*)xDev, (uint8_t*)yDev, rowsPerBlock);
        aclrtSynchronizeStream(stream);
        aclrtMemcpy(yHost, bytes, yDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        write_file(dir + "/sm_y.bin", yHost, bytes);
        // the same kernel through the generated-launcher spelling
        ACLRT_LAUNCH_KERNEL(softmax_rows)(blockDim, stream, (uint8_t*)xDev, (uint8_t*)yDev, rowsPerBlock);
        aclrtFree(xDev);
        aclrtFree(yDev);
        aclrtFreeHost(xHost);
        aclrtFreeHost(yHost);
        aclrtDestroyStream(stream);
        aclrtDestroyContext(context);
        aclrtResetDevice(0);
        aclFinalize();
    }
    std::printf("kernels done\n");
    return 0;
}
