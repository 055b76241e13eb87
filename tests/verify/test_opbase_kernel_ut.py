"""A kernel UT in the hicann ops-math style, verified end to end on an op project written here
(tests/verify/fixtures/opbase_ut/ScaleBiasCustom): its host is written on the ops-base library (Ops::Base::
TilingBaseClass, CeilDiv / CeilAlign, GetUbBlockSize, EnsureNotScalar, InferShape4Elewise: the emulator's opbase
shim), its kernel on op_kernel/platform_util.h's constexpr helpers, and its test names the tiling struct bare, as the
repo's UT CMake allows by forcing the generated tiling header into the kernel and the test. It passes, the TEST that
runs the host's own TilingFunc included; a kernel bug is a wrong_answer; a test that copies the golden into its output
is not passed; a test that builds an arch35 kernel is unsupported naming it; a kernel that defines its own IsFinite
(written for a toolkit without AscendC's) gets the emulator's hidden in its UT build too.

Real builds against the emulator and its host shims, real sandboxed runs; the object cache is shared by the module's
tests, so a variant recompiles only what it changed.
"""

from __future__ import annotations

from pathlib import Path

from cotbuilder.parse.units import extract_units
from cotbuilder.verify import harness_op, steps
from cotbuilder.verify.opproject import kernel_glue

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "opbase_ut" / "ScaleBiasCustom"
ROOT = "math/scale_bias_custom"  # where an ops-math op lives
KERNEL = "op_kernel/scale_bias_custom.h"
TEST = "tests/ut/op_kernel/test_scale_bias_custom.cpp"


def unit_of(edits: dict[str, tuple[str, str]] | None = None, extra: dict[str, str] | None = None) -> dict:
    files = []
    for path in sorted(FIXTURE.rglob("*")):
        if path.is_file():
            rel = str(path.relative_to(FIXTURE))
            text = path.read_text(encoding="utf-8")
            if edits and rel in edits:
                old, new = edits[rel]
                assert old in text, (rel, old)
                text = text.replace(old, new)
            files.append({"path": f"{ROOT}/{rel}", "text": text, "file_id": None, "license": "Apache-2.0"})
    for rel, text in (extra or {}).items():
        files.append({"path": f"{ROOT}/{rel}", "text": text, "file_id": None, "license": "Apache-2.0"})
    units, _ = extract_units("d" * 64, files)
    (unit,) = [u for u in units if u["layout"] == "op_project"]
    return unit


def verify(unit: dict, ctx: steps.Context):
    which = harness_op.choose(unit)
    return which, harness_op.verify(unit, which, ctx.sandbox_session().new_dir("opbase-test-"), ctx)


def test_ops_math_style_kernel_ut_on_the_opbase_shim_passes_every_test(ctx):
    which, v = verify(unit_of(), ctx)
    assert which == "kernel_ut" and v.status == "passed", (v.reason, v.compile_log[-3000:], v.run_log[-3000:])
    assert sorted(c["test"] for c in v.cases) == [
        "scale_bias_custom_test.host_tiling_10000",
        "scale_bias_custom_test.tail_1000",
        "scale_bias_custom_test.two_cores_4096",
    ]
    for case in v.cases:
        assert case["status"] == "passed" and case["goldens"], case
        assert case["evidence"]["gtest"] == "passed", case  # the TilingFunc's split matched the test's expectations


def test_ops_math_style_kernel_ut_with_a_kernel_bug_is_a_wrong_answer(ctx):
    _, v = verify(unit_of({KERNEL: ("AscendC::Adds(yl, yl, bias_, aligned);", "")}), ctx)
    assert v.status == "wrong_answer", (v.reason, v.compile_log[-2000:])
    assert all(c["status"] == "wrong_answer" for c in v.cases)


def test_ops_math_style_kernel_ut_that_copies_the_golden_is_not_passed(ctx):
    hostile = unit_of(
        {
            KERNEL: ("AscendC::Adds(yl, yl, bias_, aligned);", ""),
            TEST: (
                '    WriteBin("./scale_bias_custom_data/output_y.bin", y, bytes);',
                '    ReadBin("./scale_bias_custom_data/golden_y.bin", y, bytes);\n'
                '    WriteBin("./scale_bias_custom_data/output_y.bin", y, bytes);',
            ),
        }
    )
    _, v = verify(hostile, ctx)
    assert v.status != "passed" and all(c["status"] != "passed" for c in v.cases), v.reason


def test_kernel_ut_that_builds_an_arch35_kernel_is_unsupported_naming_it(ctx):
    arch35 = unit_of(
        {TEST: ('#include "tikicpulib.h"\n', '#include "tikicpulib.h"\n#include "../../../op_kernel/arch35/sb.h"\n')},
        extra={"op_kernel/arch35/sb.h": "// the Ascend 950 path\n"},
    )
    _, v = verify(arch35, ctx)
    assert v.status == "unsupported" and "arch35" in v.reason and "not modelled" in v.reason, v.reason


def test_kernel_ut_build_hides_the_emulators_newer_name_the_kernel_defines_itself(ctx, monkeypatch):
    """The kernel UT's kernel build gets the kernel's header flags, as the ordinary op build does: a kernel of its own
    IsFinite beside `using namespace AscendC` builds and passes; its twin with the hiding off is the ambiguous-name
    gap (unsupported), never the kernel's failed_compile."""
    own = (
        '#include "op_kernel/platform_util.h"\n',
        '#include "op_kernel/platform_util.h"\nusing namespace AscendC;\n'
        "template <typename T> struct IsFinite { static constexpr bool OK = true; };\n"
        'static_assert(IsFinite<float>::OK, "the kernel\'s own IsFinite");\n',
    )
    unit = unit_of({KERNEL: own})
    _, v = verify(unit, ctx)
    assert v.status == "passed", (v.reason, v.compile_log[-3000:])
    monkeypatch.setattr(kernel_glue, "own_newer_apis", lambda texts: [])
    _, v = verify(unit, ctx)
    assert v.status == "unsupported" and "IsFinite" in v.reason, (v.status, v.reason)
