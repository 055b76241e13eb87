"""Op projects verified the way their authors test them (issue 11), end to end on op projects written here
(examples/op_project): an aclnn example (HardSwishCustom), a verify_spec.toml whose tiling its TilingFunc computes
(SwishCustom), a kernel unit test (AxpbyCustom), a benchmark task (bench/.../HardSigmoidCustom). For each layout: it passes with the tiling its own TilingFunc computes; a host tiling bug
is a `failed_run` of the host; a kernel bug is a `wrong_answer`; and a hostile variant - its checker lies, or it tries
to copy the golden, or it computes the answer itself - is never `passed`.

Real builds against the emulator and its host shims, real sandboxed runs; the build cache is shared by the run's
tests (both workers), so a variant recompiles only what it changed.
"""

from __future__ import annotations

import re
from pathlib import Path

from cotbuilder.parse.units import extract_units
from cotbuilder.verify import build as buildmod
from cotbuilder.verify import harness_op, steps

OPS = Path(__file__).resolve().parents[2] / "examples" / "op_project"
BENCH = "bench/tasks/level1/Activation/HardSigmoidCustom"


def unit_of(folder: str, edits: dict[str, tuple[str, str] | list[tuple[str, str]]] | None = None) -> dict:
    """The op project under examples/op_project/<folder> as the crawl groups it, with `edits` {path: (old, new) or a
    list of them}."""
    root = OPS / folder
    files = []
    for path in sorted(root.rglob("*")):
        if path.is_file():
            rel = str(path.relative_to(root))
            text = path.read_text(encoding="utf-8")
            for old, new in _pairs((edits or {}).get(rel)):
                assert old in text, (rel, old)
                text = text.replace(old, new)
            files.append({"path": f"{folder}/{rel}", "text": text, "file_id": None, "license": "Apache-2.0"})
    units, _ = extract_units("c" * 64, files)
    (unit,) = [u for u in units if u["layout"] == "op_project"]
    return unit


def _pairs(edit) -> list[tuple[str, str]]:
    return [] if edit is None else edit if isinstance(edit, list) else [edit]


def verify(unit: dict, ctx: steps.Context):
    which = harness_op.choose(unit)
    unit_dir = ctx.sandbox_session().new_dir("op-test-")
    return which, harness_op.verify(unit, which, unit_dir, ctx)


# ---- aclnn example -------------------------------------------------------------------------------------------------

SWISH_TILING = "op_host/hard_swish_custom.cpp"
SWISH_KERNEL = "op_kernel/hard_swish_custom.cpp"
SWISH_EXAMPLE = "examples/AclNNInvocationNaive/"
# a kernel bug that moves every element (a bug hitting only some elements, after a matching prefix, is left
# unchecked when the sample's own checker passes: see goldens.judge_case)
SWISH_BUG = (
    "AscendC::Muls(gate, gate, 1.0f / 6.0f, len);",
    "AscendC::Muls(gate, gate, 1.0f / 6.0f, len);\n        AscendC::Adds(gate, gate, 0.5f, len);",
)


def test_aclnn_example_passes_with_the_tiling_its_own_tiling_func_computes(ctx):
    which, v = verify(unit_of("HardSwishCustom"), ctx)
    assert which == "aclnn" and v.status == "passed", (v.reason, v.compile_log[-2000:])
    (case,) = v.cases
    assert case["check"] == "golden" and case["ok"] is True and case["goldens"]
    (host,) = case["host"]
    assert host["op"] == "HardSwishCustom" and host["block_dim"] == 16
    assert host["tiling"] == {
        "totalLength": 33 * 1031,
        "blockLength": 2128,
        "lastBlockLength": 2103,
        "tileLength": 2048,
    }
    assert case["evidence"]["ok"] is True  # the example's own checker agreed: evidence, not the verdict


def test_aclnn_example_with_a_failing_tiling_func_is_a_failed_run_of_the_host(ctx):
    broken = unit_of("HardSwishCustom", {SWISH_TILING: ("if (totalLength == 0) {", "if (totalLength != 0) {")})
    _, v = verify(broken, ctx)
    assert v.status == "failed_run" and v.reason.startswith("host:"), v.reason
    assert "TilingFunc returned" in v.reason


def test_aclnn_example_with_a_kernel_bug_is_a_wrong_answer(ctx):
    broken = unit_of("HardSwishCustom", {SWISH_KERNEL: SWISH_BUG})
    _, v = verify(broken, ctx)
    assert v.status == "wrong_answer", v.reason


def test_aclnn_example_whose_checker_lies_is_still_judged_by_cotbuilder(ctx):
    hostile = unit_of(
        "HardSwishCustom",
        {
            SWISH_KERNEL: SWISH_BUG,
            SWISH_EXAMPLE + "verify_result.py": ("    if bad.any() or not np.isfinite(real).all():", "    if False:"),
        },
    )
    _, v = verify(hostile, ctx)
    assert v.status == "wrong_answer", v.reason
    assert v.cases[0]["evidence"]["ok"] is True  # the checker said pass; the verdict is cotbuilder's


PREFIX_BUG = (  # only the first 64 elements of each tile are scaled: the output matches its golden up to there
    "AscendC::Muls(gate, gate, 1.0f / 6.0f, len);",
    "AscendC::Muls(gate, gate, 1.0f / 6.0f, len > 64 ? 64 : len);",
)


def test_aclnn_example_whose_checker_prints_an_error_but_exits_zero_did_not_pass_the_prefix_rule(ctx):
    """A difference after a matching prefix is left open only when the example's checker passed; a checker that
    prints "[ERROR] result error" and exits 0 (cann-ops' verify_result.py) did not."""
    says_error = unit_of(
        "HardSwishCustom",
        {SWISH_KERNEL: PREFIX_BUG, SWISH_EXAMPLE + "verify_result.py": ("sys.exit(0 if ok else 1)", "sys.exit(0)")},
    )
    _, v = verify(says_error, ctx)
    assert v.status == "wrong_answer", v.reason
    assert v.cases[0]["evidence"]["ok"] is False and "result error" in v.cases[0]["evidence"]["said"]
    lying = unit_of(
        "HardSwishCustom",
        {
            SWISH_KERNEL: PREFIX_BUG,
            SWISH_EXAMPLE + "verify_result.py": ("    if bad.any() or not np.isfinite(real).all():", "    if False:"),
        },
    )
    _, v = verify(lying, ctx)
    # open, never passed (the first unscaled element may equal the golden by chance: a clamp to 0 at x <= -3)
    assert v.status == "unchecked" and re.search(r"first (6[4-9]|[7-9]\d|\d{3,}) of", v.reason), v.reason


def test_aclnn_example_main_that_copies_the_golden_is_not_passed(ctx):
    hostile = unit_of(
        "HardSwishCustom",
        {
            SWISH_KERNEL: SWISH_BUG,
            SWISH_EXAMPLE + "main.cpp": (
                '    CHECK_RET(WriteFile("../output/output_y.bin", yHost.data(), bytes), return 1);',
                '    ReadFile("../output/golden.bin", yHost.data(), bytes);\n'
                '    CHECK_RET(WriteFile("../output/output_y.bin", yHost.data(), bytes), return 1);',
            ),
        },
    )
    _, v = verify(hostile, ctx)
    assert v.status != "passed" and v.status == "wrong_answer", v.reason  # the golden was never there to copy


def test_aclnn_example_of_an_op_cann_ships_built_in_includes_its_aclnnop_header_and_passes(ctx):
    """cann-ops' examples of ops CANN also ships (foreach_*, cast, arange) include aclnnop/aclnn_<op>.h: the API
    generated from the OpDef stands in for the built-in one."""
    builtin = unit_of(
        "HardSwishCustom",
        {
            SWISH_EXAMPLE + "main.cpp": (
                '#include "aclnn_hard_swish_custom.h"',
                '#include "aclnnop/aclnn_hard_swish_custom.h"',
            )
        },
    )
    _, v = verify(builtin, ctx)
    assert v.status == "passed", (v.reason, v.compile_log[-1500:])


def test_aclnn_example_gets_the_case_its_run_script_passes_by_default_to_generator_and_binary(ctx):
    """run.sh's `case=${1:-"float16"}`, then `python3 gen_data.py $case` and `./execute_op $case`: both need it."""
    cased = unit_of(
        "HardSwishCustom",
        {
            SWISH_EXAMPLE + "run.sh": [
                ("set -e\n", 'set -e\ncase_name=${1:-"float16"}  # float16 unless told\n'),
                ("python3 gen_data.py\n", "python3 gen_data.py $case_name\n"),
                ("./execute_hard_swish_op)", "./execute_hard_swish_op $case_name)"),
            ],
            # a README naming the argument by a placeholder, read before the script: not an argument to pass
            SWISH_EXAMPLE + "README.md": (
                "# HardSwishCustom: aclnn invocation example\n",
                "# HardSwishCustom: aclnn invocation example\n\n    ./execute_hard_swish_op {case-id}\n",
            ),
            SWISH_EXAMPLE + "gen_data.py": (
                'np.float32 if len(sys.argv) > 1 and sys.argv[1] == "float32" else np.float16',
                '{"float16": np.float16}[sys.argv[1]]',
            ),
            SWISH_EXAMPLE + "main.cpp": (
                "int main()\n{\n",
                'int main(int argc, char **argv)\n{\n    if (argc < 2 || std::string(argv[1]) != "float16") {\n'
                "        return 2;\n    }\n",
            ),
        },
    )
    _, v = verify(cased, ctx)
    assert v.status == "passed", (v.reason, v.run_log[-1500:])


# ---- verify_spec.toml with the tiling from TilingFunc (op_spec) ----------------------------------------------------

SWISH_OP_TILING = "op_host/swish_custom.cpp"
SWISH_OP_KERNEL = "op_kernel/swish_custom.cpp"
SWISH_OP_ENTRY = "    GET_TILING_DATA(tilingData, tiling);\n"


def test_op_spec_passes_with_the_tiling_its_own_tiling_func_computes(ctx):
    which, v = verify(unit_of("SwishCustom"), ctx)
    assert which == "op_spec" and v.status == "passed", v.reason
    assert len(v.cases) == 2 and all(c["ok"] is True and c["goldens"] for c in v.cases)
    assert all(c["host"][0]["block_dim"] > 1 and c["host"][0]["tiling"] for c in v.cases)  # TilingFunc ran, multi-core
    # its two generated sources (the aclnn layer, the spec's main) were built with the harness PCH
    assert v.timings.get("harness_pch_objects") == 2 and "harness_pch_fallbacks" not in v.timings, v.timings


def test_op_spec_whose_harness_pch_breaks_its_generated_sources_builds_them_with_the_emulators_and_passes(
    ctx, tmp_path, monkeypatch
):
    """The harness PCH only saves time: a generated source that does not build with it is built again with the
    emulator's PCH, and the verdict is that build's."""
    broken = tmp_path / buildmod.HARNESS_PCH_NAME
    broken.write_text("#error not a usable harness header\n", encoding="utf-8")
    monkeypatch.setattr(buildmod, "ensure_harness_pch", lambda pch: broken)
    which, v = verify(unit_of("SwishCustom"), ctx)
    assert which == "op_spec" and v.status == "passed", v.reason
    assert v.timings.get("harness_pch_fallbacks") == 2 and "harness_pch_objects" not in v.timings, v.timings


def test_op_spec_with_a_failing_tiling_func_is_a_failed_run_of_the_host(ctx):
    broken = unit_of("SwishCustom", {SWISH_OP_TILING: ("if (totalLength == 0) {", "if (totalLength != 0) {")})
    _, v = verify(broken, ctx)
    assert v.status == "failed_run" and v.reason.startswith("host:"), v.reason


SWISH_SAVE = (
    "tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());",
    "tiling.SetDataPtr(context->GetRawTilingData()->GetData());",
)


def test_op_spec_tiling_written_through_set_data_ptr_passes_and_one_over_the_buffer_is_a_failed_run_of_the_host(ctx):
    """SetDataPtr (a reserved interface) instead of SaveToBuffer: the TilingData copies itself into the raw buffer,
    so the op passes as before. A tiling struct larger than the framework's buffer, with a small size reported, is
    the host's failure naming both sizes - never a kernel verdict, and never a copy past the buffer's end."""
    _, v = verify(unit_of("SwishCustom", {SWISH_OP_TILING: SWISH_SAVE}), ctx)
    assert v.status == "passed", v.reason
    # the size it reports is small; only the copy SetDataPtr makes runs past the buffer
    oversized = {
        SWISH_OP_TILING: (
            SWISH_SAVE[0] + "\n    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());",
            SWISH_SAVE[1] + "\n    context->GetRawTilingData()->SetDataSize(20);",
        ),
        "op_host/swish_custom_tiling.h": (
            "TILING_DATA_FIELD_DEF(float, beta);",
            "TILING_DATA_FIELD_DEF(float, beta);\n    TILING_DATA_FIELD_DEF_ARR(uint8_t, 70000, pad);",
        ),
    }
    _, v = verify(unit_of("SwishCustom", oversized), ctx)
    assert v.status == "failed_run" and v.reason.startswith("host:"), v.reason
    assert "bytes exceeds the" in v.reason and "tiling buffer" in v.reason, v.reason


def test_op_spec_with_a_kernel_bug_is_a_wrong_answer(ctx):
    broken = unit_of(
        "SwishCustom",
        {SWISH_OP_KERNEL: ("AscendC::Adds(denom, denom, 1.0f, len);", "AscendC::Adds(denom, denom, 2.0f, len);")},
    )
    _, v = verify(broken, ctx)
    assert v.status == "wrong_answer", v.reason


def test_op_spec_kernel_that_reads_the_reference_golden_instead_of_computing_is_not_passed(ctx):
    """The reference runs in a sibling step; its sealed golden is never in the kernel's sandbox, so a kernel that
    looks for it (next to it, one level up, in the sibling step's folder) finds nothing and writes nothing right."""
    steal = (
        SWISH_OP_ENTRY
        + '    for (const char* p : {"expected/y.bin", "../expected/y.bin", "../reference-0/expected/y.bin"}) {\n'
        '        if (FILE* f = fopen(p, "rb")) { fread((void*)y, 2, 7 * 7143, f); fclose(f); return; }\n'
        "    }\n"
        "    return;\n"
    )
    hostile = unit_of("SwishCustom", {SWISH_OP_KERNEL: (SWISH_OP_ENTRY, steal)})
    _, v = verify(hostile, ctx)
    assert v.status != "passed" and v.status in ("wrong_answer", "unchecked"), v.reason


# ---- kernel unit test ----------------------------------------------------------------------------------------------

AXPBY_TILING = "op_host/axpby_custom.cpp"
AXPBY_KERNEL = "op_kernel/axpby_custom.cpp"
AXPBY_TEST = "tests/ut/op_kernel/"


def test_kernel_ut_passes_every_test_against_the_golden_made_before_the_kernel_ran(ctx):
    which, v = verify(unit_of("AxpbyCustom"), ctx)
    assert which == "kernel_ut" and v.status == "passed", (v.reason, v.compile_log[-2000:], v.run_log[-2000:])
    assert [c["test"] for c in v.cases] == [
        "AxpbyCustomTest.aligned_8192",
        "AxpbyCustomTest.unaligned_tail_10007",
        "AxpbyCustomTest.single_block_13",
    ]
    for case in v.cases:
        assert case["status"] == "passed" and case["check"] == "golden" and case["goldens"]
        assert case["evidence"]["gtest"] == "passed" and case["evidence"]["checker"]["ok"] is True


def test_kernel_ut_with_a_failing_tiling_func_is_a_failed_run_of_the_host(ctx):
    broken = unit_of("AxpbyCustom", {AXPBY_TILING: ("if (totalLength == 0 ||", "if (totalLength != 0 ||")})
    _, v = verify(broken, ctx)
    assert v.status == "failed_run" and "host:" in v.reason, v.reason


def test_kernel_ut_whose_checker_lies_about_a_kernel_bug_is_a_wrong_answer(ctx):
    hostile = unit_of(
        "AxpbyCustom",
        {
            AXPBY_KERNEL: ("AscendC::Axpy(zLocal, yLocal, beta, len);", "AscendC::Axpy(zLocal, yLocal, alpha, len);"),
            AXPBY_TEST + "axpby_custom_data/compare_data.py": ("    if bad.any()", "    if False and bad.any()"),
        },
    )
    _, v = verify(hostile, ctx)
    assert v.status == "wrong_answer", v.reason
    assert all(c["status"] == "wrong_answer" for c in v.cases)


def test_kernel_ut_that_copies_the_golden_into_its_output_is_not_passed(ctx):
    hostile = unit_of(
        "AxpbyCustom",
        {
            AXPBY_KERNEL: ("AscendC::Axpy(zLocal, yLocal, beta, len);", "AscendC::Axpy(zLocal, yLocal, alpha, len);"),
            AXPBY_TEST + "test_axpby_custom.cpp": (
                '    WriteFile("./axpby_custom_data/output_z.bin", z, bytes);',
                '    ReadFile("./axpby_custom_data/golden_z.bin", z, bytes);\n'
                '    WriteFile("./axpby_custom_data/output_z.bin", z, bytes);',
            ),
        },
    )
    _, v = verify(hostile, ctx)
    assert v.status == "wrong_answer", v.reason


# ---- benchmark validation ------------------------------------------------------------------------------------------

# torch is the `torch` extra (.ci/run installs it); without it the reference step is `unsupported`, naming it.
HSIG_TILING = "answer/0/op_host/hard_sigmoid_custom.cpp"
HSIG_KERNEL = "answer/0/op_kernel/hard_sigmoid_custom.cpp"
HSIG_VALIDATION = "validation/"


HSIG_CASES = (HSIG_VALIDATION + "test_cases.csv", ("\n1;[7, 333];float32\n2;[3, 5, 1001];float16", ""))


def _bench(edits=None, all_cases=False) -> dict:
    """The benchmark task with `edits`; a variant keeps only the first case (each case is a reference and a kernel
    step, each importing torch): the task itself passes every case in the demo run (test_demo_corpus)."""
    edits = dict(edits or {})
    if not all_cases:
        edits.setdefault(*HSIG_CASES)
    return unit_of(BENCH, edits)


ONE_CLASS_PER_BINARY = """// one non-template class per binary, its types from DTYPE_X, as many real answers write it: every dtype
// variant defines a KernelRunner::Run of the same mangled name (noinline keeps it a call at every -O)
class KernelRunner {
public:
    __attribute__((noinline)) void Run(GM_ADDR x, GM_ADDR y, uint32_t block, uint32_t last, uint32_t tile)
    {
        KernelHardSigmoid<DTYPE_X> op;
        op.Init(x, y, block, last, tile);
        op.Process();
    }
};

extern "C" __global__"""


def test_benchmark_task_whose_dtype_variants_share_class_names_runs_each_variants_own_code(ctx):
    """msOpGen builds one binary per dtype combination; the emulator links them into one program. A class that is
    not a template has the same mangled names in every variant, and the linker would keep one variant's inline
    functions for all (NPUKernelBench Eye ran its float code on half and int32 tensors: a correct answer stored
    wrong_answer). Each variant after the first gets names of its own: both the half and the float cases pass."""
    which, v = verify(_bench(_one_class(ONE_CLASS_PER_BINARY), all_cases=True), ctx)
    assert which == "benchmark" and v.status == "passed", (v.reason, v.compile_log[-2000:])
    assert sorted({c["case"]["dtype"] for c in v.cases}) == ["float16", "float32"]


def _one_class(runner: str, *csv_edits: tuple[str, str]) -> dict:
    call = (
        "    KernelHardSigmoid<DTYPE_X> op;\n    op.Init(x, y, tilingData.blockLength, tilingData.lastBlockLength, "
        "tilingData.tileLength);\n    op.Process();"
    )
    run = "    KernelRunner().Run(x, y, tilingData.blockLength, tilingData.lastBlockLength, tilingData.tileLength);"
    edits = {HSIG_KERNEL: [('extern "C" __global__', runner), (call, run)]}
    if csv_edits:
        edits[HSIG_CASES[0]] = list(csv_edits)
    return edits


def test_a_gm_overrun_in_a_renamed_dtype_variant_is_still_caught(ctx):
    """Hardware-wrong twin: the float binary (the second variant, the renamed one) writes past its output. The rename
    must leave the emulator's shared state (the GM allocation registry, the diagnostics) shared, or the renamed
    variant would run unchecked and pass."""
    past_end = ONE_CLASS_PER_BINARY.replace(
        "        op.Process();\n",
        "        op.Process();\n"
        "        if constexpr (sizeof(DTYPE_X) == 4) {  // the float binary only, core 0: 16 KiB past the output (the shim rounds a tensor to 512 B, as torch_npu does)\n"
        "            if (AscendC::GetBlockIdx() != 0) return;\n"
        "            AscendC::GlobalTensor<DTYPE_X> out;\n"
        "            out.SetGlobalBuffer((__gm__ DTYPE_X*)y);\n"
        "            out.SetValue(block * (AscendC::GetBlockNum() - 1) + last + 4096, DTYPE_X(0));\n"
        "        }\n",
    )
    assert past_end != ONE_CLASS_PER_BINARY
    only_float = _one_class(past_end, ("\n0;[16, 1024];float16", ""), ("\n2;[3, 5, 1001];float16", ""))
    _, v = verify(_bench(only_float, all_cases=True), ctx)
    assert [c["case"]["dtype"] for c in v.cases] == ["float32"] and v.timings["kernel_variants"] == 1
    assert v.status == "failed_run" and "gm_out_of_bounds" in v.reason, (v.reason, v.diagnostics[:3])


def test_benchmark_task_with_a_failing_tiling_func_is_a_failed_run_of_the_host(ctx):
    _, v = verify(_bench({HSIG_TILING: ("if (typeSize == 0 || totalLength == 0) {", "if (typeSize != 0) {")}), ctx)
    assert v.status == "failed_run" and v.reason.startswith("host:"), v.reason


def test_benchmark_binding_that_includes_a_file_of_the_answer_is_compiled_beside_it_and_passes(ctx):
    """The binding is compiled apart from the answer (one object per task, shared by every answer to it); one that
    names a header only the answer's folders hold (here the op's tiling header, found through op_host/) cannot be,
    and is compiled beside the answer as before: the task still passes."""
    pybind = HSIG_VALIDATION + "pybind.cpp"
    include = (
        '#include "pytorch_npu_helper.hpp"',
        '#include "pytorch_npu_helper.hpp"\n#include "hard_sigmoid_custom_tiling.h"',
    )
    which, v = verify(_bench({pybind: include}), ctx)
    assert which == "benchmark" and v.status == "passed", (v.reason, v.compile_log[-2000:])


def test_an_answer_cannot_slip_a_header_into_the_binding_it_shares(ctx):
    """The binding (cotbuilder_gen/pybind_bound.cpp) includes "pytorch_npu_helper.hpp": an answer file at
    cotbuilder_gen/pytorch_npu_helper.hpp would be found first beside it, and its static initializer would end the
    binding's program before any call. The binding is compiled where the answer is not: the task passes, judged."""
    unit = _bench()
    shadow = '#include_next "pytorch_npu_helper.hpp"\n#include <cstdlib>\nstatic int cotbuilder_poison = (std::_Exit(0), 0);\n'
    unit["files"].append({"path": "cotbuilder_gen/pytorch_npu_helper.hpp", "text": shadow, "role": None})
    which, v = verify(unit, ctx)
    assert which == "benchmark" and v.status == "passed", (v.reason, v.run_log[-2000:])
    assert all(c["check"] == "golden" and c["ok"] is True for c in v.cases)


def test_benchmark_task_with_a_kernel_bug_is_a_wrong_answer(ctx):
    _, v = verify(
        _bench({HSIG_KERNEL: ("AscendC::Adds(work, work, 0.5f, len);", "AscendC::Adds(work, work, 0.25f, len);")}), ctx
    )
    assert v.status == "wrong_answer", v.reason


def test_benchmark_reference_that_cannot_run_on_the_cpu_says_nothing_of_the_answer(ctx):
    """The benchmark's own reference fails on the CPU (a torch op with no CPU kernel for that dtype): the answer
    never ran, so the verdict is `unsupported` naming the reference, never a `failed_run` of the answer."""
    cpu_lacks = "return torch.empty(2, dtype=torch.int32).uniform_(0, 1)  # no CPU kernel for int\n"
    v = verify(_bench({"validation/module.py": ("return torch.nn.functional.hardsigmoid(x)", cpu_lacks)}), ctx)[1]
    assert v.status == "unsupported" and v.reason.startswith("benchmark reference"), v.reason
    assert "not implemented for 'Int'" in v.reason and "the answer was not run" in v.reason, v.reason


def test_benchmark_model_that_computes_the_answer_itself_is_not_passed(ctx):
    hostile = _bench(
        {
            HSIG_VALIDATION + "module.py": (
                "        import kernel_gen_ops\n        return kernel_gen_ops.hard_sigmoid_custom(x)",
                "        return torch.nn.functional.hardsigmoid(x)",
            )
        }
    )
    _, v = verify(hostile, ctx)
    assert v.status == "unchecked", v.reason
    assert "never called the kernel" in v.cases[0]["why"]


def test_benchmark_custom_check_that_accepts_a_wrong_kernel_does_not_pass_it(ctx):
    hostile = _bench(
        {
            HSIG_KERNEL: ("AscendC::Adds(work, work, 0.5f, len);", "AscendC::Adds(work, work, 0.25f, len);"),
            HSIG_VALIDATION + "prepare_inputs.py": (
                "def get_init_inputs(param, device=None):",
                "def custom_check_precision(param, ref, out):\n    return 1, None, None\n\n\n"
                "def get_init_inputs(param, device=None):",
            ),
        }
    )
    _, v = verify(hostile, ctx)
    assert v.status == "unchecked", v.reason  # only the task's own check accepts it: never passed
    assert v.cases[0]["evidence"]["accepted"] is True


def test_benchmark_custom_check_built_on_the_benchmarks_check_precision_runs_and_rejects_a_wrong_kernel(ctx):
    """29 NPUKernelBench tasks' custom checks import `framework.utils.check_precision` from the benchmark itself: the
    runner provides it (cotbuilder's own copy of the rule), so the task is judged instead of `unsupported`, and the
    check - run as evidence when cotbuilder's comparison fails - gives its own verdict rather than an import error."""
    task = _bench(
        {
            HSIG_KERNEL: ("AscendC::Adds(work, work, 0.5f, len);", "AscendC::Adds(work, work, 0.25f, len);"),
            HSIG_VALIDATION + "prepare_inputs.py": (
                "import torch\n",
                "import torch\nfrom framework.utils import check_precision\n\n\n"
                "def custom_check_precision(param, ref, out):\n    return check_precision(ref, out, 1e-3, 1e-3)\n",
            ),
        }
    )
    _, v = verify(task, ctx)
    assert v.status == "wrong_answer", v.reason
    for case in v.cases:
        assert case["evidence"]["accepted"] is False
        assert '"custom_check_precision": false' in case["evidence"]["custom_check_precision"]


def test_benchmark_binding_using_torch_api_the_shim_lacks_is_unsupported_naming_it_not_a_kernel_error(ctx):
    """validation/pybind.cpp is the task's, compiled against cotbuilder's torch-extension shim: a torch API the shim
    does not provide (`Tensor::cumsum`, absent today) is our gap, never the kernel's `failed_compile`."""
    task = _bench(
        {
            HSIG_VALIDATION + "pybind.cpp": (
                "    at::Tensor y = torch::empty_like(x);",
                "    at::Tensor y = torch::empty_like(x);\n    (void)x.cumsum(0);",
            )
        }
    )
    _, v = verify(task, ctx)
    assert v.status == "unsupported" and "torch-extension shim lacks" in v.reason, v.reason
    assert "cumsum" in v.reason


# ---- a foreach op: dynamic tensor lists and a host scalar list -------------------------------------------------------
# (its clean form passes every dtype in the demo run: tests/verify/test_demo_corpus.py)

FOREACH = "bench/tasks/level2/Foreach/ForeachMulScalarListCustom"
FOREACH_KERNEL = "answer/0/op_kernel/foreach_mul_scalar_list_custom.cpp"
FOREACH_CASES = "validation/test_cases.csv"
ONLY_INT32 = [("0;[[16, 1024]];float16;[1.5]\n", "")]  # the case with two tensors (two scalars)
ONLY_FLOAT16 = [("1;[[5, 100], [3, 7, 9]];int32;[3, -2]\n", "")]


def test_foreach_kernel_declaring_one_scalar_and_reading_each_is_judged_by_its_answer(ctx):
    """Real foreach answers declare the scalar list's GlobalTensor with one element and GetValue(i) for tensor i. The
    NPU checks no declared size, so their answer is right: the emulator warns (past the declared size, inside the
    allocation) and the verdict is the comparison's."""
    task = unit_of(
        FOREACH,
        {
            FOREACH_KERNEL: (
                "scalarGm.SetGlobalBuffer((__gm__ S*)scalars, tensorNum);",
                "scalarGm.SetGlobalBuffer((__gm__ S*)scalars, 1);",
            ),
            FOREACH_CASES: ONLY_INT32,
        },
    )
    _, v = verify(task, ctx)
    assert v.status == "passed", (v.reason, v.diagnostics[:3])
    assert any(d["kind"] == "gm_beyond_declared_size" and d["severity"] == "warning" for d in v.diagnostics)


def test_foreach_kernel_reading_past_the_scalar_list_is_a_wrong_answer_naming_the_overrun(ctx):
    """The hardware-wrong twin: tensor i's scalar read 8 elements further on, past the scalar tensor's allocation,
    is an out-of-bounds error (on the NPU it reads whatever lies there): its outputs are wrong and the reason names
    the overrun, never a pass."""
    task = unit_of(
        FOREACH,
        {
            FOREACH_KERNEL: ("const S scalar = scalarGm.GetValue(i);", "const S scalar = scalarGm.GetValue(i + 8);"),
            FOREACH_CASES: ONLY_FLOAT16,
        },
    )
    _, v = verify(task, ctx)
    assert v.status == "wrong_answer" and "gm_out_of_bounds" in v.reason, (v.reason, v.diagnostics[:3])


def test_weights_drawn_in_get_init_inputs_reach_the_kernel_step_as_the_reference_had_them(ctx):
    """The scalars as the Model's own tensor, drawn at random in get_init_inputs (as NPUKernelBench's DeepNorm draws
    beta and gamma). The kernel step must get the reference's draws, not draws of its own: before, it drew again
    (unseeded) and a right kernel was a wrong_answer."""
    init = "    def __init__(self, scalars):\n        super().__init__()\n        self.scalars = scalars\n"
    task = unit_of(
        FOREACH,
        {
            "validation/module.py": [
                ("    def __init__(self):\n        super().__init__()\n", init),
                ("def forward(self, x, scalars):", "def forward(self, x):"),
                ("scalars.tolist()", "self.scalars.tolist()"),
                ("foreach_mul_scalar_list_custom(x, scalars)", "foreach_mul_scalar_list_custom(x, self.scalars)"),
            ],
            "validation/prepare_inputs.py": [
                ("    return xs, scalars\n", "    return (xs,)\n"),
                (
                    "def get_init_inputs(param, device=None):\n    return []",
                    "def get_init_inputs(param, device=None):\n"
                    "    return [torch.rand(len(eval(param.get('input_shape', '[[1]]')))) * 4.0 - 2.0]",
                ),
            ],
            FOREACH_CASES: ONLY_FLOAT16,
        },
    )
    _, v = verify(task, ctx)
    assert v.status == "passed", (v.status, v.reason, v.cases[:1])


def test_foreach_scalar_list_whose_dtype_no_variant_declares_is_unsupported_naming_the_conversion(ctx):
    """The binding's int32 case hands int64 scalars; an OpDef declaring int32 scalars for it has no kernel for that
    combination. The framework may convert host scalars to the declared dtype (a ScalarList without To()); the
    emulator does not, so this is its gap (`unsupported`), not a failure of the op."""
    task = unit_of(
        FOREACH,
        {
            "answer/0/op_host/foreach_mul_scalar_list_custom.cpp": (
                ".DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64})",
                ".DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT32})",
            ),
            FOREACH_CASES: ONLY_INT32,
        },
    )
    _, v = verify(task, ctx)
    assert v.status == "unsupported", (v.reason, v.diagnostics[:3])
    assert "ScalarList without To()" in v.reason and "DT_INT64" in v.reason, v.reason
