"""GetScalarBitcodeValue, the toolkit utility kernel_operator.h declares (no page of its own; cann-ops'
grid_sampler2d_grad sets DataCopyPad's paddingValue with it): a scalar's bits as an integer, not its value converted."""

from __future__ import annotations

import subprocess

PROGRAM = r"""
#include <cstdio>
#include "kernel_operator.h"
using namespace AscendC;
int main() {
    std::printf("%llx %llx %x %x %d\n",
                (unsigned long long)GetScalarBitcodeValue(1.0f),
                (unsigned long long)GetScalarBitcodeValue((half)-2.0f),
                (unsigned)GetScalarBitcodeValue<float, uint32_t>(-0.0f),
                (unsigned)GetScalarBitcodeValue<uint16_t, uint16_t>((uint16_t)0x7BFF),
                (int)(float)GetScalarBitcodeValue<uint16_t, half>((uint16_t)0x3C00));
    return 0;
}
"""


def test_scalar_bitcode_value_is_the_bits_zero_extended(toolchain, tmp_path):
    src = tmp_path / "bitcode.cpp"
    src.write_text(PROGRAM)
    built = toolchain.compile(src, tmp_path / "bitcode")
    assert built.returncode == 0, built.stderr[-2000:]
    out = subprocess.run([str(tmp_path / "bitcode")], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    # float 1.0 is 0x3f800000, not 1 (the value converted: the hardware-wrong answer); half -2.0 is 0xc000, the upper
    # bytes zero; half 1.0's bits 0x3c00 read back as a half are 1
    assert out.stdout.split() == ["3f800000", "c000", "80000000", "7bff", "1"]
