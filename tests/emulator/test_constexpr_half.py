"""`constexpr half ONE = 1.0f;` (cann-ops kernels write it): half and bfloat16_t convert at compile time to the same
correctly rounded bits as at run time."""

from __future__ import annotations

import subprocess


def test_half_and_bfloat16_constants_are_constexpr_and_match_the_runtime_conversion(toolchain, tmp_path):
    exe = toolchain.build(toolchain.cpp / "constexpr_half.cpp", tmp_path / "constexpr_half")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "1"
