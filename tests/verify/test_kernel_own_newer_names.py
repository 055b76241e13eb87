"""A kernel written for a toolkit without IsFinite / IsInf that defines its own (cann-ops is_finite: a class template
IsFinite beside `using namespace AscendC`) met the emulator's AscendC::IsFinite: the unqualified name was ambiguous
(`unsupported`, a name clash). The op build hides the emulator's declaration for such a kernel
(kernel_glue.own_newer_apis -> -DCBEMU_HIDE_<name>, the headers parsed without the PCH). Real g++ (syntax only)."""

from __future__ import annotations

from pathlib import Path

from cotbuilder.verify.opproject import kernel_glue

from .gxx import syntax_only

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
class IsFinite {
public:
    __aicore__ inline T Keep(T v) const { return v; }
};
float keep(float v) { return IsFinite<float>().Keep(v); }
"""


def _syntax(tmp_path: Path, defines: list[str]):
    return syntax_only(tmp_path / "k.cpp", KERNEL, "-w", "-DASCENDC_CPU_DEBUG", *defines)


def test_the_kernels_own_definition_is_found_and_builds_with_the_emulators_hidden(tmp_path):
    hidden = kernel_glue.own_newer_apis([KERNEL])
    assert hidden == ["IsFinite"]
    built = _syntax(tmp_path, [f"-DCBEMU_HIDE_{n}" for n in hidden])
    assert built.returncode == 0, built.stderr[-2000:]
    clash = _syntax(tmp_path, [])  # what the build did before: the two IsFinite are ambiguous
    assert clash.returncode != 0 and "ambiguous" in clash.stderr, clash.stderr[-2000:]


def test_a_kernel_that_only_calls_the_api_keeps_it():
    calls = "AscendC::IsFinite(dst, src, n);\nIsInf(dst, src, n);\nbool ok = IsFinite<float>(x);"
    assert kernel_glue.own_newer_apis([calls]) == []
    own_fn = "__aicore__ inline bool IsInf(float x) { return x != x; }"
    assert kernel_glue.own_newer_apis([own_fn]) == ["IsInf"]
