"""A benchmark validation whose harness reaches past what cotbuilder generates: a binding that calls the answer's
own hand-written aclnn API (NPUKernelBench TopKV3: an int64 `k` where the OpDef has a tensor) is cotbuilder's gap,
named - the same binding without such a file is its own compile error; and a module.py that imports kernel_gen_ops
at its top still lets the task's custom_check_precision run. A check that is only the benchmark's rule with its own
tolerances has cotbuilder compare again with them; any other check is evidence (a case only it accepts is
`unchecked`, never passed). Real builds of the demo benchmark task (HardSigmoidCustom)."""

from __future__ import annotations

from cotbuilder.verify.harness_aclnn import own_aclnn_gap
from cotbuilder.verify.verdict import Verdict

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


def _off_by(shift: str, check: str, module: list | None = None, prepare: list | None = None) -> dict:
    """The task with its kernel adding `shift` instead of 0.5 and `check` as its custom_check_precision's body (and
    more edits of module.py / prepare_inputs.py)."""
    return _bench(
        {
            HSIG_KERNEL: ("AscendC::Adds(work, work, 0.5f, len);", f"AscendC::Adds(work, work, {shift}f, len);"),
            HSIG_VALIDATION + "module.py": [("import torch_npu\n", "import torch_npu\nimport kernel_gen_ops\n")]
            + (module or []),
            HSIG_VALIDATION + "prepare_inputs.py": [
                (
                    "import torch\n",
                    "import torch\nfrom framework.utils import check_precision\n\n\n"
                    f"def custom_check_precision(param, ref, out):\n{check}\n",
                )
            ]
            + (prepare or []),
        }
    )


def test_a_check_that_is_the_benchmarks_rule_with_its_own_tolerance_is_judged_by_cotbuilder_with_it(ctx):
    """The kernel is 0.002 off everywhere: beyond the default 1e-3, within the 1e-2 the task's check declares. The
    check runs though module.py imports kernel_gen_ops at its top, declares its tolerance, and cotbuilder's own
    comparison with it passes the task (before, only `unchecked`)."""
    _, v = verify(_off_by("0.502", "    return check_precision(ref, out, 1e-2, 1e-2)"), ctx)
    assert v.status == "passed", (v.reason, [c.get("evidence") for c in v.cases])
    for case in v.cases:
        assert case["evidence"]["tolerance"] == {"atol": 0.01, "rtol": 0.01, "measured": False}
        assert "task's own tolerances" in case["why"] and case["outputs"][0]["atol"] == 0.01


WRITTEN_OUT = (
    "    rtol = 1e-2\n"
    "    tolerance = rtol * torch.maximum(torch.tensor(1.0), torch.abs(ref))\n"
    "    return int(not torch.any(torch.abs(ref - out) > tolerance)), None, None"
)


GRADIENT_REFERENCE = (
    "        return torch.nn.functional.hardsigmoid(x)",
    "        with torch.enable_grad():\n"
    "            weight = torch.nn.functional.hardsigmoid(x.detach())\n"
    "            return torch.autograd.grad((weight * x).sum(), x)[0]",
)


def test_a_check_that_writes_the_rule_out_has_its_tolerance_measured_and_a_gradient_reference_runs(ctx):
    """Two NPUKernelBench shapes in one task (one verify, the suite's time):
    - the element-wise rule written out (`abs_diff > rtol * max(1, |out|)`, SwiGluGrad, Muls, MatmulAdd): no
      check_precision call to read, so the check step measures the threshold on probes - rtol * max(1, m) at every
      magnitude, one element beyond it refused - and cotbuilder compares with atol = rtol = 1e-2 itself;
    - GeGluGradV2: get_inputs makes x with requires_grad=True and the reference computes its output with
      torch.autograd.grad (here hardsigmoid(x) as the gradient of hardsigmoid(x) * x). The benchmark runs Model on
      clones of the inputs, which keep requires_grad, with grad mode on; under no_grad the reference failed ("does
      not require grad") and the task was `unsupported` without its answer being run."""
    task = _off_by(
        "0.502",
        WRITTEN_OUT,
        module=[GRADIENT_REFERENCE],
        prepare=[("    return (x.to(dtype),)", "    return (x.to(dtype).requires_grad_(),)")],
    )
    _, v = verify(task, ctx)
    assert v.status == "passed", (v.reason, [c.get("evidence") for c in v.cases])
    for case in v.cases:
        told = case["evidence"]["tolerance"]
        assert told["measured"] is True and abs(told["atol"] - 1e-2) < 1e-4 and abs(told["rtol"] - 1e-2) < 1e-4
        assert "as measured on probes" in case["why"]


def test_a_nan_kernel_that_a_nan_blind_written_out_check_accepts_is_not_passed(ctx):
    """Hostile: the kernel writes NaN everywhere and the task's written-out check, like NPUKernelBench's, is NaN-blind
    (`abs_diff > tolerance` is False for NaN), so it accepts. Its tolerance is measured (1e-2), but cotbuilder's own
    comparison with it fails every NaN: the case stays `unchecked`, never passed (InplaceFusedMatmulSoftmaxGrad's
    shape)."""
    task = _bench(
        {
            HSIG_KERNEL: (
                "AscendC::Mins(work, work, 1.0f, len);",
                'AscendC::Mins(work, work, 1.0f, len);\n        AscendC::Adds(work, work, __builtin_nanf(""), len);',
            ),
            HSIG_VALIDATION + "module.py": ("import torch_npu\n", "import torch_npu\nimport kernel_gen_ops\n"),
            HSIG_VALIDATION + "prepare_inputs.py": (
                "import torch\n",
                f"import torch\n\n\ndef custom_check_precision(param, ref, out):\n{WRITTEN_OUT}\n",
            ),
        }
    )
    _, v = verify(task, ctx)
    assert v.status == "unchecked", v.reason
    for case in v.cases:
        assert case["evidence"]["accepted"] is True and case["evidence"]["tolerance"]["measured"] is True
        assert "NaN" in case["why"]


def test_a_check_that_answers_otherwise_than_the_rule_or_declares_no_real_tolerance_is_not_taken(ctx):
    """Hostile: the check calls check_precision with a real tolerance, then answers with a call so loose it compares
    nothing (1e3). Neither the two calls nor the 1e3 is taken: the wrong kernel stays `unchecked` - never passed.
    (A check that calls the rule and answers 1, or compares the reference with itself: test_bench_check_tolerance.)"""
    body = "    check_precision(ref, out, 1e-2, 1e-2)\n    return check_precision(ref, out, 1e3, 1e3)"
    _, v = verify(_off_by("0.25", body), ctx)
    assert v.status == "unchecked", v.reason
    assert all(c["evidence"]["accepted"] is True and c["evidence"]["tolerance"] is None for c in v.cases)


def test_a_binding_calling_an_aclnn_api_named_after_another_op_names_the_answers_own_aclnn_file(ctx):
    """NPUKernelBench BatchNormV3: the binding calls aclnnBatchNorm, which the answer's own op_host/aclnn_batch_norm.cpp
    defines on the op-api framework, while its OpDef registers BatchNormV3. The verdict stays `unsupported`, and its
    reason names the hand-written API the binding reaches for; without such a file it is the unregistered op."""
    other_op = ("    EXEC_NPU_CMD(aclnnCustomOp, x, y);", "    EXEC_NPU_CMD(aclnnHardSigmoid, x, y);")
    _, v = verify(_with_own_aclnn(_bench({HSIG_VALIDATION + "pybind.cpp": other_op})), ctx)
    assert v.status == "unsupported", v.reason
    assert "calls the op's own aclnn API" in v.reason and OWN_ACLNN in v.reason, v.reason
    assert "op HardSigmoid not registered by the host code" in v.reason, v.reason
    # without such a file it stays the unregistered op (the verdict the build gave, passed through unchanged)
    plain = Verdict(status="unsupported", reason="op project: op HardSigmoid not registered by the host code")
    kept = own_aclnn_gap(plain, "layout", _bench({HSIG_VALIDATION + "pybind.cpp": other_op}))
    assert kept.status == "unsupported" and kept.reason == plain.reason


def test_a_modelnew_forging_the_binding_gap_mark_keeps_its_failed_run(ctx):
    """Hostile: ModelNew prints the stand-in's gap mark itself and fails, to turn its failure into cotbuilder's gap
    (`unsupported`: no reward instead of a low one). The mark comes from ModelNew's own process, so it counts only for a
    type torch's binding converts and the stand-in does not; a dict is no such type: the answer's `failed_run`."""
    forged = (
        "        import kernel_gen_ops\n        return kernel_gen_ops.hard_sigmoid_custom(x)",
        "        import sys\n"
        "        print('COTBUILDER_SHIM_GAP kernel_gen_ops.hard_sigmoid_custom: cannot pass a dict', file=sys.stderr)\n"
        "        raise SystemExit(1)",
    )
    _, v = verify(_bench({HSIG_VALIDATION + "module.py": forged}), ctx)
    assert v.status == "failed_run", v.reason
    assert "no torch binding converts" in v.reason, v.reason


def test_only_a_type_torchs_binding_converts_is_the_stand_ins_gap():
    from cotbuilder.verify import harness_bench

    assert harness_bench._shim_gap("kernel_gen_ops.sscal: cannot pass a complex")[0] == "unsupported"
    assert harness_bench._shim_gap("kernel_gen_ops.f: cannot pass a device")[0] == "unsupported"
    for other in ("cannot pass a dict", "cannot pass a ndarray", "anything else"):
        assert harness_bench._shim_gap(f"kernel_gen_ops.f: {other}")[0] == "failed_run", other
