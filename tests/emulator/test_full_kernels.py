"""Complete kernels in real AscendC style (emulator/tests/kernels.cpp) run end to end on the emulator: tiling
data from the host, double-buffered queues, a non-32-byte-aligned tail via DataCopyPad, multi-core
split, the acl host runtime and both launch spellings."""

from __future__ import annotations

import subprocess

import numpy as np


def test_double_buffered_add_and_row_softmax_match_numpy(toolchain, tmp_path):
    rng = np.random.default_rng(7)
    x = rng.uniform(-10, 10, 8000).astype(np.float16)
    y = rng.uniform(-10, 10, 8000).astype(np.float16)
    sm = rng.normal(0, 3, (24, 64)).astype(np.float32)
    x.tofile(tmp_path / "add_x.bin")
    y.tofile(tmp_path / "add_y.bin")
    sm.tofile(tmp_path / "sm_x.bin")
    exe = toolchain.build(toolchain.cpp / "kernels.cpp", tmp_path / "kernels")
    proc = subprocess.run([str(exe), str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert toolchain.parse_diags(proc.stderr) == []
    z = np.fromfile(tmp_path / "add_z.bin", dtype=np.float16)
    assert np.array_equal(z, x + y)
    e = np.exp(sm - sm.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    got = np.fromfile(tmp_path / "sm_y.bin", dtype=np.float32).reshape(24, 64)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
