"""The op-project kernel glue turns the device compiler's bracketed function attributes (`[aicore]`,
`[host, aicore]`, as Catlass-style kernels write them) into `__aicore__`, which g++ parses; an index that happens
to be named `aicore` stays as it is. The rewritten source must compile against the emulator's headers."""

from __future__ import annotations

import subprocess

from cotbuilder.paths import emulator_include_dirs
from cotbuilder.verify.opproject.kernel_glue import bracket_attributes_to_qualifier

SOURCE = """#include "kernel_operator.h"
#define MY_GLOBAL __global__ [aicore]
template <class T>
__forceinline__ [aicore] constexpr T RoundUp(const T &v, const T a) { return (v + a - 1) / a * a; }
struct Shape {
    __forceinline__ [host, aicore] Shape() {}
    __forceinline__
    [aicore] int Rows() const { int aicore[2] = {3, 4}; return aicore[1]; }
};
MY_GLOBAL void k(GM_ADDR x) { (void)x; }
int main() { return RoundUp<int>(5, 4) == 8 && Shape().Rows() == 4 ? 0 : 1; }
"""


def test_bracket_attributes_become_the_aicore_qualifier_and_indexes_stay():
    out = bracket_attributes_to_qualifier(SOURCE)
    assert "[aicore]" not in out and "[host, aicore]" not in out
    assert "#define MY_GLOBAL __global__ __aicore__" in out
    assert "return aicore[1];" in out  # an array named aicore is not an attribute


def test_the_rewritten_catlass_style_source_compiles_against_the_emulator_headers(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(bracket_attributes_to_qualifier(SOURCE))
    inc = [f"-I{d}" for d in emulator_include_dirs()]
    build = subprocess.run(
        ["g++", "-std=c++17", "-fsyntax-only", "-DASCENDC_CPU_DEBUG", "-DCOTBUILDER_EMU_PREBUILT", *inc, str(src)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-3000:]
