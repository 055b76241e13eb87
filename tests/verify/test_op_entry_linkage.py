"""An op project's host and kernel as the real op build links them, not as one program happens to: a kernel entry
declared inside an unnamed namespace (internal linkage - the device compiler's launch stub sits in its own
translation unit) is reached from the emulated aclnn layer through a forwarder; and a non-inline helper defined in a
header that two host sources include links when the CMakeLists builds those sources into different libraries (one
copy each), while within one library the clash stays the code's own error. Real builds and runs of the SwishCustom
demo op (verify_spec.toml harness)."""

from __future__ import annotations

from .test_op_project_harnesses import OPS, unit_of, verify

KERNEL = "op_kernel/swish_custom.cpp"
ENTRY = 'extern "C" __global__ __aicore__ void swish_custom('
HOST = "op_host/swish_custom.cpp"


def _kernel_in_unnamed_namespace(bug: bool = False) -> dict:
    text = (OPS / "SwishCustom" / KERNEL).read_text(encoding="utf-8")
    assert ENTRY in text
    wrapped = text.replace(ENTRY, "namespace {\n" + ENTRY) + "\n}  // namespace\n"
    if bug:
        wrapped = wrapped.replace("AscendC::Adds(denom, denom, 1.0f, len);", "AscendC::Adds(denom, denom, 2.0f, len);")
    return unit_of("SwishCustom", {KERNEL: (text, wrapped)})


def test_an_entry_in_an_unnamed_namespace_is_launched_and_passes(ctx):
    _, v = verify(_kernel_in_unnamed_namespace(), ctx)
    assert v.status == "passed", (v.reason, v.compile_log[-2000:])


def test_an_entry_in_an_unnamed_namespace_with_a_bug_is_its_wrong_answer_not_a_link_error(ctx):
    _, v = verify(_kernel_in_unnamed_namespace(bug=True), ctx)
    assert v.status == "wrong_answer", v.reason


HELPER = """#pragma once
#include <cstdint>
namespace optiling {
// not inline: one definition per translation unit that includes it
uint32_t AtLeastOne(uint32_t v) { return v == 0 ? 1 : v; }
}  // namespace optiling
"""
DEF_SOURCE = """#include "swish_helpers.h"
namespace optiling {
uint32_t DescribeCores(uint32_t n) { return AtLeastOne(n); }
}  // namespace optiling
"""


def _two_host_sources(cmake: str) -> dict:
    text = (OPS / "SwishCustom" / HOST).read_text(encoding="utf-8")
    unit = unit_of("SwishCustom", {HOST: (text, '#include "swish_helpers.h"\n' + text)})
    unit["files"] += [
        {"path": path, "text": body, "file_id": None, "license": "Apache-2.0"}
        for path, body in (
            ("op_host/swish_helpers.h", HELPER),
            ("op_host/swish_custom_def.cpp", DEF_SOURCE),
            ("CMakeLists.txt", cmake),
        )
    ]
    return unit


def test_a_header_helper_in_two_libraries_links_as_one_copy_each(ctx):
    cmake = (
        "target_sources(optiling PRIVATE\n    op_host/swish_custom.cpp\n)\n"
        "target_sources(opsproto PRIVATE op_host/swish_custom_def.cpp)\n"
    )
    _, v = verify(_two_host_sources(cmake), ctx)
    assert v.status == "passed", (v.reason, v.compile_log[-2000:])


def test_the_same_helper_twice_in_one_library_is_the_codes_link_error(ctx):
    cmake = "target_sources(optiling PRIVATE op_host/swish_custom.cpp op_host/swish_custom_def.cpp)\n"
    _, v = verify(_two_host_sources(cmake), ctx)
    assert v.status == "failed_compile", v.reason
    assert "multiple definition" in v.compile_log, v.compile_log[-2000:]
