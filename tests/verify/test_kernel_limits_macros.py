"""A kernel TU sees INT_MAX & co. as macros only when it includes <climits> itself, as with the device compiler, whose
kernel_operator.h brings no <climits>: cann-ops' grid_sampler2d_grad defines `constexpr static int32_t INT_MAX`, which
the emulator's own <climits> (for CHAR_BIT) turned into `constexpr int32_t 2147483647` - a failed_compile the real
toolchain never gives. Checked with the headers a kernel build gets (the op build's prelude includes
impl/host/contexts.h). Real g++, syntax only."""

from __future__ import annotations

from pathlib import Path

from .gxx import syntax_only

HEADERS = '#include "kernel_operator.h"\n#include "tikicpulib.h"\n#include "impl/host/contexts.h"\n'
OWN_CONSTANTS = """
constexpr static int32_t INT_MAX = 2147483647;
constexpr static int32_t INT_MIN = -2147483647 - 1;
constexpr static uint32_t CHAR_BIT = 8;
int32_t clamp(int64_t v) { return v > INT_MAX ? INT_MAX : (v < INT_MIN ? INT_MIN : (int32_t)v); }
"""
USES_MACRO = "int32_t biggest() { return INT_MAX; }\n"


def _syntax(tmp_path: Path, text: str):
    return syntax_only(tmp_path / "k.cpp", text, "-w", "-DASCENDC_CPU_DEBUG", includes=("include",))


def test_a_kernels_own_int_max_constant_compiles_against_the_emulator(tmp_path):
    built = _syntax(tmp_path, HEADERS + OWN_CONSTANTS)
    assert built.returncode == 0, built.stderr[-2000:]
    # the same code after <climits>: the macro breaks it, which is what the emulator's headers did before
    clash = _syntax(tmp_path, "#include <climits>\n" + HEADERS + OWN_CONSTANTS)
    assert clash.returncode != 0 and "INT_MAX" in clash.stderr, clash.stderr[-2000:]


def test_int_max_is_there_for_a_kernel_that_includes_climits_and_not_otherwise(tmp_path):
    built = _syntax(tmp_path, HEADERS + "#include <climits>\n" + USES_MACRO)
    assert built.returncode == 0, built.stderr[-2000:]
    # the hardware-wrong twin: INT_MAX with no <climits> of its own does not compile with the device compiler either
    bare = _syntax(tmp_path, HEADERS + USES_MACRO)
    assert bare.returncode != 0 and "INT_MAX" in bare.stderr and "was not declared" in bare.stderr, bare.stderr[-2000:]
