"""Rationales of kernels outside the TPipe/TQue style (issue 13, item 2): a SIMT kernel and a kernel whose local buffers
are placed by LocalMemAllocator with namespaced SetFlag events. Their decisions are read from the code (thread
mapping, launch, bound check, direct GM access; statically placed buffers; event syncs), so the static rationale is
long enough for the gates from the kernel's own content, and every gate still passes. Units come from cotbuilder's
own parser (extract_units) over sources written here."""

from __future__ import annotations

from cotbuilder.annotate.facts import unit_facts
from cotbuilder.annotate.gates import run_gates
from cotbuilder.annotate.static_teacher import write_annotation
from cotbuilder.parse.units import extract_units

SRC = "1" * 64

SIMT_KERNEL = """\
#include <vector>
#include "acl/acl.h"

__global__ void pick_rows(float* table, int32_t* ids, float* out, uint32_t n)
{
    int32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) {
        return;
    }
    out[gid] = table[ids[gid]];
}

std::vector<float> run_pick(std::vector<float>& table, std::vector<int32_t>& ids)
{
    constexpr uint32_t grid = 16;
    constexpr uint32_t threads = 128;
    aclrtStream stream = nullptr;
    float* t = nullptr;
    int32_t* i = nullptr;
    float* o = nullptr;
    pick_rows<<<grid, threads, 0, stream>>>(t, i, o, ids.size());
    return {};
}

int32_t main()
{
    std::vector<float> table(64);
    std::vector<int32_t> ids(2048);
    run_pick(table, ids);
    return 0;
}
"""

ALLOCATOR_KERNEL = """\
#include "kernel_operator.h"

__global__ __aicore__ void neg_copy(__gm__ uint8_t* x, __gm__ uint8_t* y)
{
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 512);
    yGm.SetGlobalBuffer((__gm__ float*)y, 512);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> xLocal = ub.Alloc<float, 512>();
    AscendC::LocalTensor<float> yLocal = ub.Alloc<float, 512>();
    AscendC::DataCopy(xLocal, xGm, 512);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Muls(yLocal, xLocal, -1.0f, 512);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, yLocal, 512);
}

int32_t main()
{
    neg_copy<<<1, nullptr, nullptr>>>(nullptr, nullptr);
    return 0;
}
"""


def _unit(root: str, name: str, text: str) -> dict:
    record = {"path": f"{root}/{name}", "text": text, "file_id": "f" * 64, "license": "Apache-2.0", "language": "cpp"}
    units, _ = extract_units(SRC, [record])
    assert len(units) == 1
    return units[0]


def _annotate(unit: dict, lang: str = "en") -> tuple[dict, dict[str, str], dict]:
    facts = unit_facts(unit)
    answer = write_annotation(facts, lang)
    return facts, {s["step"]: s["text"] for s in answer["rationale"]}, answer


def test_simt_kernel_rationale_walks_thread_mapping_launch_direct_gm_access_and_bound_check():
    unit = _unit("simt/pick_rows", "pick_rows.asc", SIMT_KERNEL)
    facts, steps, answer = _annotate(unit)
    assert (
        "each thread computes its global index `gid` = blockIdx.x × blockDim.x + threadIdx.x (line 6)"
        in (steps["multi_core_split"])
    )
    assert "16 × 128 = 2048 threads (line 21)" in steps["multi_core_split"]
    # the old sentence for this shape of code was false: blockIdx.x does give every block its own run of indices
    assert "does not give each core its own slice" not in steps["multi_core_split"]
    assert "access global memory directly through the pointer arguments (line 10)" in steps["ub_budget_and_tile"]
    assert "Threads whose `gid` is `n` or more return at line 7" in steps["tail_and_alignment"]
    results, passed = run_gates("", answer["rationale"], unit, facts, "en")
    assert passed, {k: v for k, v in results.items() if not v["passed"]}
    zh = write_annotation(facts, "zh")
    results, passed = run_gates("", zh["rationale"], unit, facts, "zh")
    assert passed, {k: v for k, v in results.items() if not v["passed"]}


def test_a_launch_number_the_code_does_not_hold_fails_the_numbers_gate():
    unit = _unit("simt/pick_rows", "pick_rows.asc", SIMT_KERNEL)
    facts, _, answer = _annotate(unit)
    for step in answer["rationale"]:
        step["text"] = step["text"].replace("= 2048 threads", "= 4096 threads")
    results, passed = run_gates("", answer["rationale"], unit, facts, "en")
    assert not passed and "4096" in results["numbers_supported"]["detail"]


def test_allocator_buffers_and_namespaced_event_syncs_are_read_from_the_code():
    unit = _unit("vec/neg_copy", "neg_copy.asc", ALLOCATOR_KERNEL)
    facts, steps, answer = _annotate(unit)
    assert (
        "`xLocal` (512 float32 elements = 2048 bytes, placed by LocalMemAllocator at line 10)"
        in (steps["ub_budget_and_tile"])
    )
    assert "Together the buffers take 4096 bytes" in steps["ub_budget_and_tile"]
    assert "`SetFlag` on MTE2_V at line 13" in steps["pipeline"]
    assert "`SetFlag` on V_MTE3 at line 16" in steps["pipeline"]
    results, passed = run_gates("", answer["rationale"], unit, facts, "en")
    assert passed, {k: v for k, v in results.items() if not v["passed"]}


def test_a_template_typed_allocation_states_its_element_count_not_a_made_up_size():
    templated = ALLOCATOR_KERNEL.replace("ub.Alloc<float, 512>()", "ub.Alloc<T, 512>()").replace(
        "__global__ __aicore__ void neg_copy", "template <typename T>\n__global__ __aicore__ void neg_copy"
    )
    unit = _unit("vec/neg_copy", "neg_copy.asc", templated)
    _, steps, _ = _annotate(unit)
    text = steps["ub_budget_and_tile"]
    assert "`xLocal` (512 elements of the template type `T`, placed by LocalMemAllocator at line 11)" in text
    assert "bytes" not in text
    # a concrete type is never called a template type (uint16_t was, before it was in the size table)
    concrete = ALLOCATOR_KERNEL.replace("ub.Alloc<float, 512>()", "ub.Alloc<uint16_t, 512>()")
    _, steps, _ = _annotate(_unit("vec/neg_copy", "neg_copy.asc", concrete))
    text = steps["ub_budget_and_tile"]
    assert "`xLocal` (512 uint16 elements = 1024 bytes, placed by LocalMemAllocator at line 10)" in text


def test_claims_benchmark_reads_the_stated_data_types_not_the_element_counts_of_a_repeat_sentence():
    # measure_claims.py compares the data types a rationale states with hand labels; the repeat-limit sentence
    # ("`Add` at line 40 works on 128 elements in count mode") is no data-type statement
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
    sys.path.insert(0, str(Path(__file__).parent))
    from measure_claims import stated_dtypes
    from units import add_unit

    facts = unit_facts(add_unit())
    text = "\n".join(s["text"] for s in write_annotation(facts)["rationale"])
    assert "works on 128 elements in count mode" in text
    assert stated_dtypes(text) == {"float16"}
    assert stated_dtypes("The data types it handles are half and float.") == {"float16", "float32"}


RUNTIME_TILE_KERNEL = """\
#include "kernel_operator.h"
constexpr int32_t BUFFER_NUM = 2;

class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t len)
    {
        tileLength = len;
        xGm.SetGlobalBuffer((__gm__ half*)x + tileLength * AscendC::GetBlockIdx(), tileLength);
        yGm.SetGlobalBuffer((__gm__ half*)y + tileLength * AscendC::GetBlockIdx(), tileLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm, tileLength);
        inQueueX.EnQue(xLocal);
        AscendC::LocalTensor<half> x2 = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();
        AscendC::Muls(yLocal, x2, (half)2.0, tileLength);
        outQueueY.EnQue(yLocal);
        inQueueX.FreeTensor(x2);
        AscendC::LocalTensor<half> y2 = outQueueY.DeQue<half>();
        AscendC::DataCopy(yGm, y2, tileLength);
        outQueueY.FreeTensor(y2);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void scale_rt(GM_ADDR x, GM_ADDR y, uint32_t len)
{
    KernelScale op;
    op.Init(x, y, len);
    op.Process();
}
"""


def test_a_buffer_sized_from_a_member_set_at_run_time_is_not_stated_as_zero_bytes():
    unit = _unit("vec/scale_rt", "scale_rt.cpp", RUNTIME_TILE_KERNEL)
    # the parser folds a size variable's `= 0` default where it cannot see the run-time assignment (seen on real
    # cann-ops kernels: `smallTileLength: 0`); a 0-byte buffer is that default, not a size
    unit["features"]["constants"] = {**(unit["features"].get("constants") or {}), "tileLength": 0}
    facts, steps, answer = _annotate(unit)
    assert "`inQueueX` (VECIN, size set at run time, line 11)" in steps["ub_budget_and_tile"]
    assert "0 bytes" not in " ".join(steps.values())
    results, passed = run_gates("", answer["rationale"], unit, facts, "en")
    assert passed, {k: v for k, v in results.items() if not v["passed"]}


BATCH_MATMUL_KERNEL = """\
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using A_T = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using C_T = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

__global__ __aicore__ void bmm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    CopyTiling(&tiling, tilingGm);
    AscendC::GlobalTensor<half> aGm;
    AscendC::GlobalTensor<half> bGm;
    AscendC::GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, tiling.M * tiling.Ka * 4);
    bGm.SetGlobalBuffer((__gm__ half*)b, tiling.Kb * tiling.N * 4);
    cGm.SetGlobalBuffer((__gm__ float*)c, tiling.M * tiling.N * 4);
    AscendC::Matmul<A_T, A_T, C_T> mm;
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateBatch(cGm, 4, 4, false);
}
"""


def test_a_batched_matmul_names_its_batch_call_and_the_cube_tiling_it_is_registered_with():
    unit = _unit("cube/bmm", "bmm.asc", BATCH_MATMUL_KERNEL)
    facts, steps, answer = _annotate(unit)
    assert "`IterateBatch` (line 21)" in steps["api_choice"]
    assert (
        "a `TCubeTiling` the host filled (line 8), registered with the pipe by REGIST_MATMUL_OBJ at line 18"
        in (steps["host_tiling"])
    )
    results, _ = run_gates("", answer["rationale"], unit, facts, "en")
    # no verification step here (the unit is not verified), so only the content gates are asserted
    for gate in ("numbers_supported", "numbers_match_facts", "api_names_exist_and_used", "claims_match_code"):
        assert results[gate]["passed"], (gate, results[gate])


C_API_KERNEL = """\
#include "c_api/asc_simd.h"
constexpr uint32_t TILE = 1024;

__vector__ __global__ __aicore__ void sub_rows(__gm__ float* a, __gm__ float* b, __gm__ float* out)
{
    asc_init();
    __ubuf__ float aLocal[TILE];
    __ubuf__ float bLocal[TILE];
    asc_copy_gm2ub_sync(aLocal, (a + asc_get_block_idx() * TILE), TILE * sizeof(float));
    asc_copy_gm2ub_sync(bLocal, (b + asc_get_block_idx() * TILE), TILE * sizeof(float));
    asc_sub_sync(aLocal, aLocal, bLocal, TILE);
    asc_copy_ub2gm_sync((out + asc_get_block_idx() * TILE), aLocal, TILE * sizeof(float));
}
"""


def test_a_c_api_kernel_reads_its_core_index_and_its_ubuf_arrays_in_both_languages():
    unit = _unit("capi/sub_rows", "sub_rows.asc", C_API_KERNEL)
    facts, steps, answer = _annotate(unit)
    # asc_get_block_idx() offsets every GM copy: it was read as "does not read its core index", a false claim
    assert facts["claims"]["core_slice"] and facts["claims"]["reads_block_idx"]
    assert "does not read its core index" not in steps["multi_core_split"]
    assert "`aLocal` (a `__ubuf__` array of 1024 float32 elements = 4096 bytes, line 7)" in steps["ub_budget_and_tile"]
    for lang in ("en", "zh"):
        answer = write_annotation(facts, lang)
        results, _ = run_gates("", answer["rationale"], unit, facts, lang)
        # `ub` inside `__ubuf__` is not a statement about the UB's size (the zh ub_bytes pattern read it as one)
        for gate in ("numbers_supported", "numbers_match_facts", "claims_match_code", "api_names_exist_and_used"):
            assert results[gate]["passed"], (lang, gate, results[gate])


def test_the_chinese_statement_says_what_the_english_one_says_and_its_gate_catches_a_wrong_shape():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from units import leaky_relu_op_unit

    from cotbuilder.annotate.statement import from_spec
    from cotbuilder.annotate.statement_prose import prose, prose_matches

    unit = leaky_relu_op_unit()
    form = from_spec(next(f for f in unit["files"] if f["path"] == "verify_spec.toml"))["statement"]
    zh = prose(form, "leaky_relu_custom", "ascend910b", "zh")
    assert zh.startswith("请编写 AscendC 核函数 `leaky_relu_custom`。") and "形状 [8, 1024]" in zh
    assert "196608 字节统一缓冲区" in zh and prose_matches(zh, form, "zh") == []
    assert "shape [8, 2048] is in no case" in prose_matches(zh.replace("[8, 1024]", "[8, 2048]"), form, "zh")
    assert prose_matches(zh.replace("float32", "float16", 1), form, "zh")
