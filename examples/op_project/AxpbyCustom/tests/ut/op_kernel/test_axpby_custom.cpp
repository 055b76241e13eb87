/**
 * Kernel unit test of AxpbyCustom (CPU mode): each TEST runs the op's own TilingFunc through the documented
 * ContextBuilder, generates inputs and a golden with axpby_custom_data/gen_data.py, launches the kernel with
 * ICPU_RUN_KF, writes the output next to the golden and compares them with compare_data.py.
 * Run from a folder holding a copy of axpby_custom_data/ (the CMakeLists.txt copies it).
 */
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tikicpulib.h"
#include "tiling/context/context_builder.h"
#include "../../../op_host/axpby_custom_tiling.h"

extern "C" __global__ __aicore__ void axpby_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                   GM_ADDR tiling);

namespace {
struct Tiling {
    uint32_t blockDim = 0;
    uint64_t tilingKey = 0;
    size_t workspace = 0;
    std::vector<uint8_t> data;
};

bool RunTiling(int64_t count, float alpha, float beta, Tiling& out)
{
    gert::StorageShape shape = {{count}, {count}};
    auto tilingHolder = gert::TilingData::CreateCap(4096);
    auto workspaceHolder = gert::ContinuousVector::Create<size_t>(16);
    auto holder = context_ascendc::ContextBuilder()
                      .SetOpNameType("axpby", "AxpbyCustom")
                      .NodeIoNum(2, 1)
                      .IrInstanceNum({1, 1})
                      .AddInputTd(0, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND, shape)
                      .AddInputTd(1, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND, shape)
                      .AddOutputTd(0, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND, shape)
                      .AddAttr("alpha", alpha)
                      .AddAttr("beta", beta)
                      .AddPlatformInfo(nullptr)
                      .TilingData(tilingHolder.get())
                      .Workspace(reinterpret_cast<gert::ContinuousVector*>(workspaceHolder.get()))
                      .BuildTilingContext();
    gert::TilingContext* context = holder->GetContext<gert::TilingContext>();
    auto tilingFunc = context_ascendc::OpTilingRegistry().GetTilingFunc("AxpbyCustom");
    if (tilingFunc == nullptr || tilingFunc(context) != ge::GRAPH_SUCCESS) {
        return false;
    }
    out.blockDim = context->GetBlockDim();
    out.tilingKey = context->GetTilingKey();
    out.workspace = context->GetWorkspaceSizes(1)[0];
    auto raw = context->GetRawTilingData();
    const uint8_t* bytes = static_cast<const uint8_t*>(raw->GetData());
    out.data.assign(bytes, bytes + raw->GetDataSize());
    return true;
}

bool ReadFile(const std::string& path, void* buffer, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    f.read(static_cast<char*>(buffer), static_cast<std::streamsize>(size));
    return f.good() && static_cast<size_t>(f.gcount()) == size;
}

void WriteFile(const std::string& path, const void* buffer, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char*>(buffer), static_cast<std::streamsize>(size));
}

// One case: tile the shape, generate data, run the kernel, write z, compare.
void RunCase(int64_t count, float alpha, float beta)
{
    Tiling tiling;
    ASSERT_TRUE(RunTiling(count, alpha, beta, tiling));
    ASSERT_GT(tiling.blockDim, 0u);

    const std::string cmd = "cd ./axpby_custom_data/ && python3 gen_data.py " + std::to_string(count) + " " +
                            std::to_string(alpha) + " " + std::to_string(beta);
    system(cmd.c_str());

    const size_t bytes = static_cast<size_t>(count) * sizeof(float);
    const size_t padded = (bytes + 31) / 32 * 32;
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(padded);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(padded);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(padded);
    uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(tiling.workspace + 32);
    uint8_t* tilingGm = (uint8_t*)AscendC::GmAlloc(tiling.data.size());
    std::memcpy(tilingGm, tiling.data.data(), tiling.data.size());
    EXPECT_TRUE(ReadFile("./axpby_custom_data/input_x.bin", x, bytes));
    EXPECT_TRUE(ReadFile("./axpby_custom_data/input_y.bin", y, bytes));

    ICPU_SET_TILING_KEY(tiling.tilingKey);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(axpby_custom, tiling.blockDim, x, y, z, workspace, tilingGm);

    WriteFile("./axpby_custom_data/output_z.bin", z, bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    AscendC::GmFree(workspace);
    AscendC::GmFree(tilingGm);
    EXPECT_EQ(system("cd ./axpby_custom_data/ && python3 compare_data.py"), 0);
}
}  // namespace

class AxpbyCustomTest : public testing::Test {
protected:
    static void SetUpTestCase() { std::cout << "AxpbyCustomTest SetUp" << std::endl; }
    static void TearDownTestCase() { std::cout << "AxpbyCustomTest TearDown" << std::endl; }
};

TEST_F(AxpbyCustomTest, aligned_8192) { RunCase(8192, 1.5f, -0.5f); }

TEST_F(AxpbyCustomTest, unaligned_tail_10007) { RunCase(10007, -2.0f, 0.25f); }

TEST_F(AxpbyCustomTest, single_block_13) { RunCase(13, 3.0f, 1.0f); }
