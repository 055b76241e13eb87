"""A benchmark validation whose harness reaches past what cotbuilder generates: a binding that calls the answer's
own hand-written aclnn API (NPUKernelBench TopKV3: an int64 `k` where the OpDef has a tensor) is cotbuilder's gap,
named - the same binding without such a file is its own compile error; and a module.py that imports kernel_gen_ops
at its top still lets the task's custom_check_precision run (its verdict is evidence; a case only it accepts is
`unchecked`, never passed). Real builds of the demo benchmark task (HardSigmoidCustom)."""

from __future__ import annotations

from .test_op_project_harnesses import HSIG_KERNEL, HSIG_VALIDATION, _bench, verify

OWN_ACLNN = "answer/0/op_host/aclnn_hard_sigmoid_custom.cpp"
EXTRA_ARG = (
    "    EXEC_NPU_CMD(aclnnCustomOp, x, y);",
    "    int64_t mode = 2;\n    EXEC_NPU_CMD(aclnnCustomOp, x, mode, y);",
)


def _with_own_aclnn(task: dict) -> dict:
    text = '#include "opdev/op_executor.h"\n// the op-api layer (L2) written by hand: its own argument list\n'
    task["files"].append({"path": OWN_ACLNN, "text": text, "file_id": None, "license": "Apache-2.0"})
    return task


def test_a_binding_calling_the_answers_own_aclnn_api_is_unsupported_naming_it(ctx):
    _, v = verify(_with_own_aclnn(_bench({HSIG_VALIDATION + "pybind.cpp": EXTRA_ARG})), ctx)
    assert v.status == "unsupported", v.reason
    assert "the benchmark's binding calls the op's own aclnn API" in v.reason and OWN_ACLNN in v.reason, v.reason


def test_the_same_binding_without_a_hand_written_aclnn_api_is_its_own_compile_error(ctx):
    _, v = verify(_bench({HSIG_VALIDATION + "pybind.cpp": EXTRA_ARG}), ctx)
    assert v.status == "failed_compile" and v.reason.startswith("harness:"), v.reason


def test_a_custom_check_runs_though_module_py_imports_kernel_gen_ops_at_its_top(ctx):
    task = _bench(
        {
            HSIG_KERNEL: ("AscendC::Adds(work, work, 0.5f, len);", "AscendC::Adds(work, work, 0.502f, len);"),
            HSIG_VALIDATION + "module.py": ("import torch_npu\n", "import torch_npu\nimport kernel_gen_ops\n"),
            HSIG_VALIDATION + "prepare_inputs.py": (
                "import torch\n",
                "import torch\nfrom framework.utils import check_precision\n\n\n"
                "def custom_check_precision(param, ref, out):\n    return check_precision(ref, out, 1e-2, 1e-2)\n",
            ),
        }
    )
    _, v = verify(task, ctx)
    assert v.status == "unchecked", (v.reason, [c.get("evidence") for c in v.cases])
    assert all(c["evidence"]["accepted"] is True for c in v.cases)
