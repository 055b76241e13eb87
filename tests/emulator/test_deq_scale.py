"""SetDeqScale(half) and the int32_t -> half Cast (s322fp16), which goes through the DEQSCALE register
(SetDeqScale.md): the integer times the scale, then to half. NPUKernelBench's RmsNorm family rounds with
`Cast(int32 <- float, CAST_RINT); SetDeqScale((half)1.0); Cast(half <- int32)`: those 5 reference answers were
`unsupported` (SetDeqScale missing). Before any SetDeqScale the cast stays unscaled, as the emulator always did."""

from __future__ import annotations

import subprocess

import numpy as np


def test_the_int32_to_half_cast_multiplies_by_the_scale_set_last(toolchain, tmp_path):
    exe = toolchain.build(toolchain.cpp / "deq_scale.cpp", tmp_path / "deq")
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-3000:]
    rows = [[float(v) for v in line.split()] for line in run.stdout.splitlines() if line.strip()]
    x = (np.arange(16) - 8) * 3
    np.testing.assert_array_equal(rows[0], x)  # never set: unscaled
    np.testing.assert_array_equal(rows[1], x * 0.5)
    np.testing.assert_array_equal(rows[2], x)
