"""An op project whose aclnn API is written by hand on CANN's op-api framework (examples/op_project/ShiftCustom:
`op_host/aclnn_shift.cpp` checks its arguments with the OP_CHECK macros, makes a strided input contiguous with
l0op::Contiguous, launches the op's kernel through `l0op::ShiftCustom` = ADD_TO_LAUNCHER_LIST_AICORE after
INFER_SHAPE, and copies the result out with l0op::ViewCopy). Its aclnn example runs that layer on the emulated
framework: the l0 launch runs the op's own TilingFunc and kernel. It passes; a kernel bug is a wrong answer; the
layer's own check rejecting the call is a failed run of the host half; a layer that writes the output itself
(without launching the kernel, or over the kernel's result) is never passed.

Real builds and sandboxed runs on the run's shared build cache, like test_op_project_harnesses.
"""

from __future__ import annotations

from .test_op_project_harnesses import unit_of, verify

OP = "ShiftCustom"
LAYER = "op_host/aclnn_shift.cpp"
KERNEL = "op_kernel/shift_custom.cpp"
# a kernel bug on every element: the shift is applied twice
KERNEL_BUG = ("AscendC::Adds(wide, wide, shift, n);", "AscendC::Adds(wide, wide, shift + shift, n);")
LAUNCH = "    auto shifted = l0op::ShiftCustom(selfContiguous, shift->ToFloat(), uniqueExecutor.get());\n"
# the kernel runs (with a bug); the layer then computes the answer on the host and aclrtMemcpy's it over `out`
_COPY = (
    "    *workspaceSize = uniqueExecutor->GetWorkspaceSize();\n",
    "    {\n"
    "        std::vector<aclFloat16> host(out->Numel());\n"
    "        auto* src = static_cast<const aclFloat16*>(self->GetData());\n"
    "        for (int64_t i = 0; i < out->Numel(); ++i)\n"
    "            host[i] = aclFloatToFloat16(aclFloat16ToFloat(src[(i % 45) * 37 + i / 45]) + 1.25f);\n"
    "        aclrtMemcpy(out->GetData(), host.size() * 2, host.data(), host.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);\n"
    "    }\n"
    "    *workspaceSize = uniqueExecutor->GetWorkspaceSize();\n",
)
_ACL_INCLUDE = ('#include "aclnn_shift.h"\n', '#include "aclnn_shift.h"\n#include <vector>\n#include "acl/acl.h"\n')
HOST_ANSWER_COPY = (_ACL_INCLUDE, _COPY)  # the layer aclrtMemcpy's a host-computed answer over `out`


def test_hand_written_aclnn_layer_runs_its_kernel_through_the_l0_launch_and_passes(ctx):
    which, v = verify(unit_of(OP), ctx)
    assert which == "aclnn" and v.status == "passed", (v.reason, v.compile_log[-3000:], v.run_log[-2000:])
    (case,) = v.cases
    assert case["check"] == "golden" and case["ok"] is True
    # the host half is the op's own TilingFunc, run by the l0 launch on the tensor the framework made contiguous
    (host,) = case["host"]
    assert host["op"] == OP and host["block_dim"] == 8
    assert host["tiling"]["totalLength"] == 37 * 45 and host["tiling"]["shift"] == 1.25


def test_kernel_bug_behind_a_hand_written_layer_is_a_wrong_answer(ctx):
    _, v = verify(unit_of(OP, {KERNEL: KERNEL_BUG}), ctx)
    assert v.status == "wrong_answer", (v.reason, v.compile_log[-2000:])


def test_hand_written_layer_rejecting_the_call_is_a_failed_run_of_the_host_not_a_kernel_verdict(ctx):
    only_float = ("{DataType::DT_FLOAT16, DataType::DT_FLOAT}", "{DataType::DT_FLOAT}")
    _, v = verify(unit_of(OP, {LAYER: only_float}), ctx)
    assert v.status == "failed_run" and v.reason.startswith("host: "), v.reason
    assert "aclnnShiftGetWorkspaceSize rejected the call" in v.reason and "dtype" in v.reason, v.reason


def test_hand_written_layer_that_writes_the_output_itself_without_the_kernel_is_not_passed(ctx):
    # the layer computes out = self + shift on the host into the caller's device memory and launches nothing
    compute = (
        LAUNCH,
        "    for (int64_t i = 0; i < out->Numel(); ++i) {\n"
        "        int64_t r = i / self->GetViewShape().GetDim(1), c = i % self->GetViewShape().GetDim(1);\n"
        "        auto* src = static_cast<const aclFloat16*>(self->GetData());\n"
        "        auto* dst = static_cast<aclFloat16*>(out->GetData());\n"
        "        dst[i] = aclFloatToFloat16(aclFloat16ToFloat(src[c * self->GetViewShape().GetDim(0) + r]) + 1.25f);\n"
        "    }\n"
        "    *workspaceSize = 0;\n"
        "    uniqueExecutor.ReleaseTo(executor);\n"
        "    return ACLNN_SUCCESS;\n" + LAUNCH,
    )
    _, v = verify(unit_of(OP, {LAYER: compute}), ctx)
    assert v.status == "failed_run" and "opapi_bypass" in v.reason, v.reason


def test_hand_written_layer_that_overwrites_the_kernels_output_after_the_run_is_not_passed(ctx):
    # the kernel runs (with a bug), then phase 2 writes the right answer over it
    overwrite = (
        "    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);\n",
        "    auto st = CommonOpExecutorRun(workspace, workspaceSize, executor, stream);\n"
        "    extern aclTensor* g_out;\n"
        "    extern const aclTensor* g_self;\n"
        "    auto* src = static_cast<const aclFloat16*>(g_self->GetData());\n"
        "    auto* dst = static_cast<aclFloat16*>(g_out->GetData());\n"
        "    for (int64_t i = 0; i < g_out->Numel(); ++i)\n"
        "        dst[i] = aclFloatToFloat16(aclFloat16ToFloat(src[(i % 45) * 37 + i / 45]) + 1.25f);\n"
        "    return st;\n",
    )
    remember = (
        "    L2_DFX_PHASE_1(aclnnShift, DFX_IN(self, shift), DFX_OUT(out));\n",
        "    L2_DFX_PHASE_1(aclnnShift, DFX_IN(self, shift), DFX_OUT(out));\n    g_out = out;\n    g_self = self;\n",
    )
    globals_ = ("using namespace op;\n", "using namespace op;\naclTensor* g_out;\nconst aclTensor* g_self;\n")
    _, v = verify(unit_of(OP, {LAYER: [globals_, remember, overwrite], KERNEL: KERNEL_BUG}), ctx)
    assert v.status == "failed_run" and "opapi_bypass" in v.reason, v.reason


def test_hand_written_layer_that_copies_a_host_answer_into_the_output_with_the_runtime_is_not_passed(ctx):
    _, v = verify(unit_of(OP, {LAYER: [*HOST_ANSWER_COPY], KERNEL: KERNEL_BUG}), ctx)
    assert v.status == "failed_run" and "opapi_bypass" in v.reason and "aclrtMemcpy" in v.reason, v.reason


def test_hand_written_api_named_like_the_generated_one_is_built_when_the_example_does_not_build_against_ours(ctx):
    # aclnnShiftCustom is what msOpGen would generate for the OpDef (x, double shift, y); the hand-written one of
    # that name takes an aclScalar: the example builds only against the op's own layer, which then runs
    renamed = ("aclnnShift", "aclnnShiftCustom")
    edits = {LAYER: renamed, "op_host/aclnn_shift.h": renamed, "examples/AclNNInvocationNaive/main.cpp": renamed}
    _, v = verify(unit_of(OP, edits), ctx)
    assert v.status == "passed", (v.reason, v.compile_log[-2000:])
    (case,) = v.cases
    assert case["host"][0]["op"] == OP and case["ok"] is True


def test_a_failure_through_the_generated_api_is_judged_again_through_the_ops_own_layer_of_that_name(ctx):
    """The op's own aclnnShiftCustom has the generated API's signature (x, double shift, y) and header name, so the
    example builds against the generated layer first - which hands the kernel the transposed view's storage as it
    lies: wrong through ours. The op's build uses its own layer (it makes the view contiguous first), so a failure
    through the generated one is judged again through the op's own, which passes (cann-ops adaptive_avg_pool3d)."""
    api = [("aclnnShift", "aclnnShiftCustom"), ("const aclScalar* shift", "double shift")]
    layer = [
        *api,
        ('#include "aclnn_shift.h"', '#include "aclnn_shift_custom.h"'),
        ("    OP_CHECK_NULL(shift, return ACLNN_ERR_PARAM_NULLPTR);\n", ""),
        ("shift->ToFloat()", "static_cast<float>(shift)"),
    ]
    main = [
        ("aclnnShift", "aclnnShiftCustom"),
        ('#include "aclnn_shift.h"', '#include "aclnn_shift_custom.h"'),
        ("aclScalar* shift = aclCreateScalar(&shiftValue, ACL_FLOAT);", "double shift = shiftValue;"),
        ("    aclDestroyScalar(shift);\n", ""),
    ]

    def same_signature(layer_edits=(), kernel_edits=()):
        edits = {LAYER: [*layer_edits, *layer], "op_host/aclnn_shift.h": api}
        edits.update({"examples/AclNNInvocationNaive/main.cpp": main, KERNEL: list(kernel_edits)})
        unit = unit_of(OP, edits)
        for f in unit["files"]:  # the header under the name msOpGen gives the generated one
            f["path"] = f["path"].replace("op_host/aclnn_shift.h", "op_host/aclnn_shift_custom.h")
        return unit

    _, v = verify(same_signature(), ctx)
    assert v.status == "passed", (v.reason, v.compile_log[-2000:])
    assert v.timings.get("opapi_layer") is True  # judged through the op's own layer
    _, bug = verify(same_signature(kernel_edits=[KERNEL_BUG]), ctx)  # a kernel bug stays wrong through either
    assert bug.status == "wrong_answer" and bug.timings.get("opapi_layer") is True, bug.reason
    # hostile: the retry reaches the op's own layer, which copies a host answer over the buggy kernel's output
    _, lie = verify(same_signature(HOST_ANSWER_COPY, [KERNEL_BUG]), ctx)
    assert lie.status == "failed_run" and "opapi_bypass" in lie.reason, lie.reason
