"""An op host written the way cann-ops writes them (issue 11) runs on the emulated aclnn layer, end to end on the
HardSwishCustom op project (examples/op_project): its TilingFunc takes the core count from the platform description
(`context->GetPlatformInfo()->GetCoreNum()`, the AI-core count the runtime sets before tiling - it was 0 here, and
ops dividing by it crashed inside TilingFunc), reports a null pointer with REPORT_INNER_ERR_MSG, builds its tiling
key with GET_TILINGKEY, and declares typed InitValue scalars on its output. Those are the toolkit's, so their
absence was cotbuilder's gap, never the op's failed_compile; and an op that still divides by a zero core count
is the op's own failed_run of the host."""

from __future__ import annotations

from .test_op_project_harnesses import SWISH_TILING, unit_of, verify

CANN_STYLE = [
    (
        '#include "tiling/platform/platform_ascendc.h"',
        '#include "tiling/platform/platform_ascendc.h"\n#include "tiling/tiling_type.h"\n'
        "#define CHECK_NULL_REPORTED(ptr)                                                    \\\n"
        "    if ((ptr) == nullptr) {                                                          \\\n"
        '        REPORT_INNER_ERR_MSG("EZ9999", "op[%s], %s is nullptr!", "HardSwish", #ptr); \\\n'
        "        return ge::GRAPH_FAILED;                                                     \\\n"
        "    }",
    ),
    (
        "    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();\n"
        "    coreNum = coreNum < MAX_CORE_NUM ? coreNum : MAX_CORE_NUM;",
        "    auto platformInfo = context->GetPlatformInfo();\n"
        "    CHECK_NULL_REPORTED(platformInfo);\n"
        "    uint32_t coreNum = platformInfo->GetCoreNum();\n"
        "    (void)ascendcPlatform;",
    ),
    (
        "    context->SetBlockDim(blockDim);",
        "    context->SetBlockDim(blockDim);\n    context->SetTilingKey(GET_TILINGKEY(1, 0, 2) % 1000);",
    ),
    (
        '        this->Output("y")\n            .ParamType(REQUIRED)\n            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})\n'
        "            .Format({ge::FORMAT_ND, ge::FORMAT_ND});",
        '        this->Output("y")\n            .ParamType(REQUIRED)\n            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})\n'
        "            .Format({ge::FORMAT_ND, ge::FORMAT_ND})\n"
        "            .InitValue({{ScalarType::FLOAT16, 0}, {ScalarType::FLOAT32, 0}});",
    ),
]


def test_a_cann_ops_style_tiling_func_runs_with_the_ai_core_count_and_its_own_key(ctx):
    which, v = verify(unit_of("HardSwishCustom", {SWISH_TILING: CANN_STYLE}), ctx)  # TilingFunc and OpDef: one file
    assert which == "aclnn" and v.status == "passed", (v.reason, v.compile_log[-2000:])
    (case,) = v.cases
    (host,) = case["host"]
    # 33 * 1031 halves in 16-element blocks over the 910B's 24 AI cores; the key's digits are 2 0 1
    assert host["block_dim"] == 24 and host["tiling_key"] == 201, host
    assert host["tiling"]["totalLength"] == 33 * 1031


def test_an_op_dividing_by_a_core_count_it_zeroed_itself_is_its_own_failed_run_of_the_host(ctx):
    old, new = CANN_STYLE[1]
    zeroed = [CANN_STYLE[0], (old, new.replace("GetCoreNum();", "GetCoreNum() / 64;"))]
    _, v = verify(unit_of("HardSwishCustom", {SWISH_TILING: zeroed}), ctx)
    assert v.status == "failed_run" and v.reason.startswith("host:") and "TilingFunc" in v.reason, v.reason


# ---- InitValue: the framework fills an output before the kernel runs, when the TilingFunc asked for atomics ---------

SWISH_KERNEL = "op_kernel/hard_swish_custom.cpp"
ACCUMULATING_KERNEL = [
    (
        "        AscendC::LocalTensor<T> yLocal = outQueue.DeQue<T>();",
        "        AscendC::LocalTensor<T> yLocal = outQueue.DeQue<T>();\n        AscendC::SetAtomicAdd<T>();",
    ),
    ("        outQueue.FreeTensor(yLocal);", "        AscendC::SetAtomicNone();\n        outQueue.FreeTensor(yLocal);"),
]
ZEROED_OUTPUT = (
    "            .Format({ge::FORMAT_ND, ge::FORMAT_ND});\n\n        this->SetInferShape",
    "            .Format({ge::FORMAT_ND, ge::FORMAT_ND})\n            .InitValue(0);\n\n        this->SetInferShape",
)
NEEDS_ATOMIC = (
    "    context->SetBlockDim(blockDim);",
    "    context->SetBlockDim(blockDim);\n    context->SetNeedAtomic(true);",
)


def test_an_output_with_init_value_is_zeroed_before_a_kernel_that_accumulates_into_it(ctx):
    unit = unit_of("HardSwishCustom", {SWISH_TILING: [ZEROED_OUTPUT, NEEDS_ATOMIC], SWISH_KERNEL: ACCUMULATING_KERNEL})
    _, v = verify(unit, ctx)
    assert v.status == "passed", (v.reason, v.compile_log[-2000:])


def test_init_value_without_set_need_atomic_is_not_applied_so_the_accumulating_kernel_is_wrong(ctx):
    # the docs: InitValue takes effect only with SetNeedAtomic(true); the output keeps the device's garbage
    unit = unit_of("HardSwishCustom", {SWISH_TILING: [ZEROED_OUTPUT], SWISH_KERNEL: ACCUMULATING_KERNEL})
    _, v = verify(unit, ctx)
    assert v.status == "wrong_answer", v.reason


# ---- a host helper defined only in a source cotbuilder does not build ------------------------------------------------

HELPER_USE = (
    "    const uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();",
    "    const uint32_t totalLength = ops::CountElements(context->GetInputShape(0)->GetStorageShape());",
)
HELPER_DECL = (
    '#include "tiling/platform/platform_ascendc.h"',
    '#include "tiling/platform/platform_ascendc.h"\nnamespace ops {\nuint32_t CountElements(const gert::Shape& s);\n}',
)
# a shared helper next to the op's hand-written op-api code (cann-ops' cube_util.cpp): it includes the op-api
# framework, so the op-project build skips it as that layer
OP_API_HELPER = (
    '#include "aclnn/opdev/op_log.h"\n#include "register/op_def_registry.h"\nnamespace ops {\n'
    "uint32_t CountElements(const gert::Shape& s)\n{\n    return (uint32_t)s.GetShapeSize();\n}\n}  // namespace ops\n"
)


def test_a_host_symbol_defined_only_in_a_skipped_op_api_source_is_our_gap_naming_that_file(ctx):
    unit = unit_of("HardSwishCustom", {SWISH_TILING: [HELPER_DECL, HELPER_USE]})
    unit["files"].append({"path": "op_host/shape_util.cpp", "text": OP_API_HELPER, "file_id": None})
    _, v = verify(unit, ctx)
    assert v.status == "unsupported", v.reason
    assert "CountElements" in v.reason and "op_host/shape_util.cpp" in v.reason and "not built" in v.reason


def test_a_host_helper_the_op_declares_and_never_defines_is_its_own_compile_error(ctx):
    # outside the op namespaces (ops::, optiling::: a symbol there may live in a sibling op's file, run.py's rule)
    decl = (HELPER_DECL[0], HELPER_DECL[1].replace("namespace ops {\n", "").replace("\n}", ""))
    use = (HELPER_USE[0], HELPER_USE[1].replace("ops::CountElements", "CountElements"))
    _, v = verify(unit_of("HardSwishCustom", {SWISH_TILING: [decl, use]}), ctx)
    assert v.status == "failed_compile" and "CountElements" in v.reason, v.reason


# A graph-mode support check, as cann-ops' ReverseSequence registers one: it takes a ge::Operator (the toolkit's
# registry headers bring the class). Graph mode never runs here, so the callback only has to build; were an op to
# read its own node through an Operator in TilingFunc, every lookup fails rather than inventing an attribute.
CHECK_SUPPORT = (
    "namespace ops {",
    "static ge::graphStatus CheckSupported(const ge::Operator& op, ge::AscendString& result) {\n"
    "    int64_t axis = 0;\n"
    '    if (op.GetAttr("axis", axis) != ge::GRAPH_SUCCESS || op.GetInputDescByName("x").GetShape().GetDimNum() > 8) {\n'
    '        result = ge::AscendString("{\\"isSupported\\": \\"False\\"}");\n'
    "        return ge::GRAPH_FAILED;\n"
    "    }\n"
    "    return ge::GRAPH_SUCCESS;\n"
    "}\n"
    "namespace ops {",
)
REGISTERED = (
    "        this->AICore().SetTiling(optiling::TilingFunc);",
    "        this->AICore().SetTiling(optiling::TilingFunc).SetCheckSupport(CheckSupported);",
)
READS_ITS_NODE = (
    "static ge::graphStatus TilingFunc(gert::TilingContext* context)\n{",
    "static ge::graphStatus TilingFunc(gert::TilingContext* context)\n{\n"
    '    float alpha = 0.0f;\n    if (ge::Operator("HardSwishCustom").GetAttr("alpha", alpha) != ge::GRAPH_SUCCESS) {\n'
    "        return ge::GRAPH_FAILED;\n    }",
)


def test_a_graph_mode_check_support_callback_builds_and_the_op_runs_through_aclnn(ctx):
    which, v = verify(unit_of("HardSwishCustom", {SWISH_TILING: [CHECK_SUPPORT, REGISTERED]}), ctx)
    assert which == "aclnn" and v.status == "passed", (v.reason, v.compile_log[-2000:])


def test_a_tiling_func_reading_an_attribute_through_a_graphless_operator_is_its_failed_run_of_the_host(ctx):
    _, v = verify(unit_of("HardSwishCustom", {SWISH_TILING: [READS_ITS_NODE]}), ctx)
    assert v.status == "failed_run" and v.reason.startswith("host:") and "TilingFunc" in v.reason, v.reason
