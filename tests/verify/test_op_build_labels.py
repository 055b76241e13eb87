"""The status of an op project whose build stopped: the unit's own error (`failed_compile`) or a piece cotbuilder
lacks (`unsupported`, named). The logs are g++'s own wording for each situation."""

from __future__ import annotations

from cotbuilder.verify.opproject import build as opbuild
from cotbuilder.verify.opproject.run import failed_build


def _verdict(stage: str, log: str):
    result = opbuild.OpBuild(False, stage=stage, log=log, outcome="exit", reason=log.splitlines()[0])
    return failed_build(result, "op_spec", {})


def test_a_host_namespace_undeclared_in_a_tiling_header_the_kernel_includes_is_our_gap():
    log = (
        "In file included from op_kernel/add_rms_norm.cpp:12:\n"
        "./op_host/add_rms_norm_tiling.h:39:29: error: 'gert' has not been declared\n"
        "   39 | static ge::graphStatus TilingPrepare(gert::TilingParseContext* context);\n"
    )
    v = _verdict("kernel", log)
    assert v.status == "unsupported" and "host API not emulated" in v.reason, v.reason
    ops = "op_host/pack_infershape.cpp:21:8: error: 'Ops' has not been declared\n"  # ops-math's op_common helpers
    assert _verdict("host", ops).status == "unsupported"


def test_a_name_the_kernel_never_defined_is_its_own_compile_error():
    log = "op_kernel/add_custom.cpp:40:9: error: 'CopyInn' was not declared in this scope; did you mean 'CopyIn'?\n"
    v = _verdict("kernel", log)
    assert v.status == "failed_compile" and "CopyInn" in v.reason, v.reason


def test_an_invented_ascendc_api_is_the_kernels_error_and_a_real_unemulated_one_is_ours():
    invented = "op_kernel/k.cpp:7:14: error: 'AddTwiceFast' is not a member of 'AscendC'\n"
    assert _verdict("kernel", invented).status == "failed_compile"
    real = "op_kernel/k.cpp:7:14: error: 'GetReduceMaxMinCount' is not a member of 'AscendC'\n"
    v = _verdict("kernel", real)
    assert v.status == "unsupported" and "GetReduceMaxMinCount" in v.reason, v.reason


def test_an_example_calling_the_ops_hand_written_aclnn_api_is_our_gap_but_without_one_is_its_own_error():
    from cotbuilder.verify.harness_aclnn import own_aclnn_gap

    log = "examples/AclNNInvocationNaive/main.cpp:196:15: error: cannot convert 'aclIntArray*' to 'const aclTensor*'\n"
    files = [{"path": "op_host/up.cpp", "text": ""}, {"path": "op_kernel/up.cpp", "text": ""}]
    own = {"files": [*files, {"path": "op_host/aclnn_up.cpp", "text": ""}]}
    v = own_aclnn_gap(_verdict("harness", log), "harness", own)
    assert v.status == "unsupported" and "op_host/aclnn_up.cpp" in v.reason, v.reason
    assert own_aclnn_gap(_verdict("harness", log), "harness", {"files": files}).status == "failed_compile"
    kernel_bug = "op_kernel/up.cpp:7:9: error: 'CopyInn' was not declared in this scope\n"
    assert own_aclnn_gap(_verdict("kernel", kernel_bug), "kernel", own).status == "failed_compile"


def test_a_generated_aclnn_layer_that_stops_without_a_message_still_names_why():
    result = opbuild.OpBuild(False, stage="aclnn", log="", outcome="limit", reason="")
    v = failed_build(result, "aclnn", {})
    assert v.status == "unsupported" and "without a message" in v.reason and "limit" in v.reason, v.reason


def test_an_example_written_for_the_built_in_aclnn_api_is_our_gap_naming_it():
    from cotbuilder.verify.harness_aclnn import builtin_aclnn_gap

    main = '#include "acl/acl.h"\n#include "aclnnop/aclnn_cast.h"\n'
    arity = "examples/AclNNInvocationNaive/main.cpp:192:9: error: too many arguments to function 'aclnnCastGetWorkspaceSize'\n"
    v = builtin_aclnn_gap(_verdict("harness", arity), "harness", main)
    assert v.status == "unsupported" and "built-in aclnn API (<aclnnop/aclnn_cast.h>)" in v.reason, v.reason
    # a type the built-in API's header declares and the generated one does not
    typed = "examples/AclNNInvocationNaive/main.cpp:40:5: error: 'castPlan' was not declared in this scope\n"
    v = builtin_aclnn_gap(_verdict("harness", typed), "harness", main)
    assert v.status == "unsupported" and "<aclnnop/aclnn_cast.h>" in v.missing_apis[0], v.reason
    # the same error in an example of a custom op (its own generated header) stays the example's compile error
    own = builtin_aclnn_gap(_verdict("harness", typed), "harness", '#include "aclnn_cast_custom.h"\n')
    assert own.status == "failed_compile"
    # a built-in header of another op name: nothing generated from this OpDef is called so
    missing = (
        "examples/AclNNInvocationNaive/main.cpp:25:10: fatal error: aclnnop/aclnn_histc.h: No such file or directory\n"
    )
    v = builtin_aclnn_gap(_verdict("harness", missing), "harness", '#include "aclnnop/aclnn_histc.h"\n')
    assert v.status == "unsupported" and "built-in aclnn API <aclnnop/aclnn_histc.h>" in v.reason, v.reason


def test_a_toolkit_name_or_member_the_host_shims_lack_is_our_gap_and_an_invented_one_the_codes_error():
    """hicann/ops-math host code built against the shims (g++'s wording from the measurement)."""
    arch = "op_host/angle_v2_tiling.cpp:68:5: error: 'NpuArch' does not name a type\n"
    v = _verdict("host", arch)
    assert v.status == "unsupported" and "NpuArch" in v.reason, v.reason
    member = (
        "op_host/radix_top_k_tiling.cpp:63:31: error: 'const class gert::StorageShape' has no member named 'GetShape'\n"
    )
    assert _verdict("host", member).status == "unsupported"
    op_def = "aicpu_op_def.h:35:11: error: 'class ops::Cross' has no member named 'AICPU'\n"
    assert _verdict("host", op_def).status == "unsupported"
    test_type = "tests/ut/op_kernel/test_pad.cpp:146:31: error: 'bfloat16' was not declared in this scope\n"
    assert _verdict("harness", test_type).status == "unsupported"
    invented = "op_host/add_tiling.cpp:40:9: error: 'tileLenght' was not declared in this scope\n"
    v = _verdict("host", invented)
    assert v.status == "failed_compile" and "tileLenght" in v.reason, v.reason
    # a comment whose opening /* the answer lost (NPUKernelBench DequantSwigluQuant): its words are no toolkit API,
    # even where the toolkit's sources spell them as locals (db)
    lost = (
        "op_host/dequant_swiglu_quant.cpp:238:3: error: 'x' was not declared in this scope\n"
        "op_host/dequant_swiglu_quant.cpp:250:59: error: 'db' was not declared in this scope\n"
    )
    assert _verdict("host", lost).status == "failed_compile"


def test_a_host_symbol_declared_by_shared_code_the_unit_lacks_is_ours_and_the_ops_own_undefined_helper_its_error():
    """ops-math stateless_random_*: ops::randomCommon::CommonInferShape is declared in random_common's header (a
    _deps/ file of the unit) and defined in that folder's sources, which the unit does not hold."""
    from cotbuilder.verify.opproject import layout

    log = (
        "/usr/bin/ld: x_infershape.cpp:(.text+0x29a): undefined reference to "
        "`ops::randomCommon::CommonInferShape(gert::InferShapeContext*)'\ncollect2: error: ld returned 1 exit status\n"
    )
    texts = {
        "_deps/random/random_common/op_host/random_infershape_base.h": "ge::graphStatus CommonInferShape(\n  int c);",
        "op_host/x_infershape.h": "ge::graphStatus OwnHelper(int c);",
    }
    gap = layout.shared_declarer(log, list(texts), texts.__getitem__)
    assert "CommonInferShape" in gap and "random_infershape_base.h" in gap, gap
    result = opbuild.OpBuild(False, stage="host", log=log, outcome="exit", reason="link failed")
    result.gap = gap
    assert failed_build(result, "aclnn", {}).status == "unsupported"
    own = log.replace("randomCommon::CommonInferShape", "OwnHelper")
    assert layout.shared_declarer(own, list(texts), texts.__getitem__) == ""  # declared in the op's own header
    assert _verdict("host", own).status == "failed_compile"


def test_an_error_inside_arch35_code_a_test_reached_through_another_file_is_the_unmodelled_soc():
    log = (
        "In file included from tests/ut/op_kernel/../../../op_kernel/tensor_equal.cpp:12:\n"
        "tests/ut/op_kernel/../../../op_kernel/arch35/tensor_equal.h:37:47: error: 'TensorEqualTilingData' does not "
        "name a type\n"
    )
    v = _verdict("harness", log)
    assert v.status == "unsupported" and "arch35" in v.reason, v.reason
    mine = "op_kernel/tensor_equal.h:37:47: error: 'TensorEqualTilingDat' does not name a type\n"
    assert _verdict("harness", mine).status == "failed_compile"


def test_the_graph_mode_operator_type_unknown_in_host_code_is_our_gap_named_as_such():
    for log in (
        "op_host/reverse_sequence.cpp:415:54: error: 'Operator' in namespace 'ge' does not name a type\n"
        "op_host/reverse_sequence.cpp: In constructor 'ops::ReverseSequenceCheckSupported::Check(const int&)':\n",
        "op_host/lin_space.cpp:458:43: error: 'Operator' does not name a type\n"
        "op_host/lin_space.cpp:458:63: error: 'Tensor' does not name a type\n",
        "op_host/x_proto.h:20:1: error: 'REG_OP' was not declared in this scope\n",
    ):
        v = _verdict("host", log)
        assert v.status == "unsupported" and "graph-mode operator" in v.reason, v.reason
    typo = "op_host/t.cpp:12:5: error: 'Operatr' does not name a type\n"
    assert _verdict("host", typo).status == "failed_compile"


def test_an_implementation_layer_function_the_emulator_lacks_is_ours_and_an_invented_one_the_kernels():
    """cann-ops scatter_elements_v2 calls DataCopyPadGm2UBImpl (the layer under DataCopyPad) directly."""
    real = "op_kernel/k.h:90:9: error: 'DataCopyPadGm2UBImpl' was not declared in this scope\n"
    v = _verdict("kernel", real)
    assert v.status == "unsupported" and "DataCopyPadGm2UBImpl" in v.reason, v.reason
    invented = "op_kernel/k.h:90:9: error: 'CopyTileFastImpl' was not declared in this scope\n"
    assert _verdict("kernel", invented).status == "failed_compile"
