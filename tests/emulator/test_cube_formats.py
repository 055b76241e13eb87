"""High-level Matmul output formats and the host tiling's core split, against numpy, with kernels written here
(emulator/tests/cube_format_checks.cpp).

- CubeFormat::ND_ALIGN writes each row of C padded to 32 bytes, the padding as zeros (asc-devkit's
  matmul_format_nd_align README: "按照N方向32字节对齐的补齐规则输出C矩阵").
- MatmulConfig::isEnableChannelSplit turns a float NZ C's 16 x 16 fractals into 16 x 8 ones (MatmulConfig.md).
- Our GetTiling's core split (docs/emulator.md, "The Cube unit"): no core under 128 rows / columns (or the base the
  host fixed), the smallest largest block, ties to no partial base blocks, then more cores along M while each keeps
  128 rows (N first with a fixed base). The asc-devkit samples that hard-code a split agree (matmul_advanced_api,
  matmul_format_nd_align, matmul_tscm, matmul_fused, matmul_leakyrelu_advanced_api).
- GetMatmulApiTiling (a constant tiling) double-buffers L0A / L0B only where two base blocks fit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

M, N, K = 32, 37, 48


@pytest.fixture(scope="module")
def fmt_exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "cube_format_checks.cpp", tmp_path_factory.mktemp("cubefmt") / "cube_fmt")


def run(exe: Path, d: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), str(d), *args], capture_output=True, text=True, timeout=60)


def matmul_case(exe: Path, d: Path, case: str, toolchain, n: int = N) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, n)).astype(np.float16)
    np.array([M, n, K], np.int32).tofile(d / "shape.bin")
    a.tofile(d / "a.bin")
    b.tofile(d / "b.bin")
    proc = run(exe, d, case)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    want = a.astype(np.float64) @ b.astype(np.float64)
    return np.fromfile(d / "out_c.bin", dtype=np.float32), want


def test_nd_align_output_pads_each_row_to_32_bytes_with_zeros(fmt_exe, tmp_path, toolchain):
    got, want = matmul_case(fmt_exe, tmp_path, "nd_align", toolchain)
    n_al = 40  # 37 floats padded to a multiple of 8
    rows = got[: M * n_al].reshape(M, n_al)
    np.testing.assert_allclose(rows[:, :N], want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(rows[:, N:], 0.0)


def nz(c: np.ndarray, cols: int) -> np.ndarray:
    """C [M, N] (N a multiple of `cols`) in NZ order: N / cols fractal columns of [M, cols]."""
    return c.reshape(M, -1, cols).transpose(1, 0, 2).reshape(-1)


def test_channel_split_writes_a_float_nz_c_in_16_by_8_fractals(fmt_exe, tmp_path, toolchain):
    got, want = matmul_case(fmt_exe, tmp_path, "nz_split", toolchain, n=48)
    np.testing.assert_allclose(got[: M * 48], nz(want, 8), rtol=1e-5, atol=1e-5)


def test_without_channel_split_a_float_nz_c_has_16_by_16_fractals(fmt_exe, tmp_path, toolchain):
    got, want = matmul_case(fmt_exe, tmp_path, "nz_plain", toolchain, n=48)
    np.testing.assert_allclose(got[: M * 48], nz(want, 16), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    ("shape", "split"),
    [
        (("512", "512", "128", "2"), (256, 512)),  # equal blocks either way: M, each core keeping 256 rows
        (("128", "7679", "128", "24"), (128, 320)),  # splitting M would leave cores under 128 rows: N only
        (("64", "64", "64", "24"), (64, 64)),  # no core under 128 rows / columns: one core
        (("640", "1024", "512", "48"), (128, 128)),  # 40 cores of 128 x 128, none with a partial block
        (("512", "128", "128", "2", "128", "64", "128"), (512, 64)),  # a base the host fixed: N first
        (("1024", "640", "256", "2", "256", "128", "-1"), (512, 640)),  # unless N would leave a partial base block
    ],
)
def test_tiling_core_split_follows_our_documented_rules(fmt_exe, tmp_path, shape, split):
    proc = run(fmt_exe, tmp_path, "split", *shape)
    assert proc.returncode == 0, proc.stderr
    assert f"singleCoreM={split[0]} singleCoreN={split[1]}" in proc.stdout, proc.stdout


def test_a_constant_tiling_double_buffers_l0_only_where_two_base_blocks_fit(fmt_exe, tmp_path):
    proc = run(fmt_exe, tmp_path, "static_db")
    assert proc.returncode == 0, proc.stderr
    # 256 x 128 fp16 = 64 KB: one copy fills L0A; 128 x 128 (B) and 128 x 64 (both) leave room for two
    assert "big dbL0A=1 dbL0B=2 small dbL0A=2 dbL0B=2" in proc.stdout, proc.stdout
