"""The cube unit against numpy: kernels written here (emulator/tests/cube_checks.cpp) for each API group -- the basic
API (DataCopy ND2NZ, LoadData / LoadDataWithTranspose, Mmad, Fixpipe, the bias table), the high-level Matmul with
the host tiling, mixed AIC/AIV kernels -- and broken variants that must fail with their diagnostic.

Every high-level Matmul case runs under three tilings (the emulator's own and two seeded random valid ones,
COTBUILDER_MATMUL_TILING) and must pass under all of them."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

TILINGS = ("ours", "random:1", "random:2")


@pytest.fixture(scope="module")
def cube_exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "cube_checks.cpp", tmp_path_factory.mktemp("cube") / "cube_checks")


def _env(tiling: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COTBUILDER_SOC", "COTBUILDER_MATMUL_TILING")}
    if tiling:
        env["COTBUILDER_MATMUL_TILING"] = tiling
    return env


def run(exe: Path, d: Path, case: str, tiling: str | None = None, timeout: int = 60) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), str(d), case], capture_output=True, text=True, timeout=timeout, env=_env(tiling))


def write(d: Path, **arrays: np.ndarray) -> None:
    for name, arr in arrays.items():
        np.ascontiguousarray(arr).tofile(d / f"{name}.bin")


def out(d: Path, dtype, n: int) -> np.ndarray:
    return np.fromfile(d / "out_c.bin", dtype=dtype)[:n]


def f16(rng, *shape) -> np.ndarray:
    return rng.uniform(-1, 1, shape).astype(np.float16)


def i8(rng, *shape) -> np.ndarray:
    return rng.integers(-128, 128, shape).astype(np.int8)


def mm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a.astype(np.float64) @ b.astype(np.float64)


def padded(v: np.ndarray, n: int = 256) -> np.ndarray:
    """A 1-D input with room after it: kernels read whole 16-element / base-block rows of it."""
    return np.concatenate([v, np.zeros(n, v.dtype)])


def basic(exe, tmp_path, case, a, b, bias=None):
    write(tmp_path, a=a, b=b, bias=padded(bias if bias is not None else np.zeros(16, np.float32)))
    return run(exe, tmp_path, case)


# ---------------- basic API ----------------


def test_fp16_matmul_over_long_k_accumulates_in_fp32_not_fp16(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(1)
    a, b = f16(rng, 16, 4096), f16(rng, 4096, 32)  # L1 holds all of A and B: 128 KB + 256 KB
    proc = basic(cube_exe, tmp_path, "basic_f16_longk", a, b)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    got = out(tmp_path, np.float32, 16 * 32).reshape(16, 32).astype(np.float64)
    exact = mm(a, b)
    f32_ref = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float64)
    f16_acc = np.zeros((16, 32), np.float16)  # what a half accumulator would give
    for k in range(0, 4096, 256):
        f16_acc = (f16_acc + (a[:, k : k + 256].astype(np.float32) @ b[k : k + 256].astype(np.float32))).astype(
            np.float16
        )
    err = np.abs(got - exact).max()
    assert np.allclose(got, f32_ref, rtol=1e-5, atol=1e-4)
    assert err < 1e-4
    assert np.abs(f16_acc.astype(np.float64) - exact).max() > 100 * err


def test_fp16_matmul_with_tails_in_m_n_and_k(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(2)
    a, b = f16(rng, 30, 70), f16(rng, 70, 40)
    proc = basic(cube_exe, tmp_path, "basic_f16_tails", a, b)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    np.testing.assert_allclose(out(tmp_path, np.float32, 30 * 40).reshape(30, 40), mm(a, b), rtol=1e-5, atol=1e-5)


def test_fp16_matmul_with_transposed_b(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(3)
    a, bt = f16(rng, 48, 96), f16(rng, 32, 96)  # B given as [N, K]
    proc = basic(cube_exe, tmp_path, "basic_f16_transb", a, bt)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    np.testing.assert_allclose(out(tmp_path, np.float32, 48 * 32).reshape(48, 32), mm(a, bt.T), rtol=1e-5, atol=1e-5)


def test_bias_from_the_bias_table_and_fixpipe_relu(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(4)
    a, b, bias = f16(rng, 32, 64), f16(rng, 64, 64), rng.uniform(-2, 2, 64).astype(np.float32)
    proc = basic(cube_exe, tmp_path, "basic_f16_bias_relu", a, b, bias)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    want = np.maximum(mm(a, b) + bias, 0)
    np.testing.assert_allclose(out(tmp_path, np.float32, 32 * 64).reshape(32, 64), want, rtol=1e-5, atol=1e-5)


def test_fixpipe_casts_to_half_and_writes_nz(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(5)
    a, b = f16(rng, 32, 48), f16(rng, 48, 32)
    proc = basic(cube_exe, tmp_path, "basic_f16_to_f16_nz", a, b)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    nz = out(tmp_path, np.float16, 32 * 32).reshape(2, 32, 16)  # [N1][M][16]
    got = nz.transpose(1, 0, 2).reshape(32, 32)
    want = mm(a, b).astype(np.float32).astype(np.float16)  # fp32 in L0C, rounded to half once
    assert np.array_equal(got, want)


def test_fp32_matmul_sums_exact_products_with_transposed_b(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(6)
    a, bt = rng.standard_normal((20, 40)).astype(np.float32), rng.standard_normal((24, 40)).astype(np.float32)
    proc = basic(cube_exe, tmp_path, "basic_f32", a, bt)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    np.testing.assert_allclose(out(tmp_path, np.float32, 20 * 24).reshape(20, 24), mm(a, bt.T), rtol=1e-5, atol=1e-5)


def test_int8_matmul_accumulates_exactly_in_int32(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(7)
    a, b = i8(rng, 32, 96), i8(rng, 96, 64)
    proc = basic(cube_exe, tmp_path, "basic_i8", a, b)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    want = a.astype(np.int64) @ b.astype(np.int64)
    assert np.array_equal(out(tmp_path, np.int32, 32 * 64).reshape(32, 64), want)


def test_int8_matmul_with_int32_bias_and_an_m_tail(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(8)
    a, b, bias = i8(rng, 40, 80), i8(rng, 80, 64), rng.integers(-5000, 5000, 64).astype(np.int32)
    proc = basic(cube_exe, tmp_path, "basic_i8_bias", a, b, bias)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    want = a.astype(np.int64) @ b.astype(np.int64) + bias
    assert np.array_equal(out(tmp_path, np.int32, 40 * 64).reshape(40, 64), want)


def test_int8_matmul_dequantised_to_half_on_the_way_out(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(9)
    a, b = i8(rng, 32, 64), i8(rng, 64, 64)
    proc = basic(cube_exe, tmp_path, "basic_i8_deq", a, b)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    want = ((a.astype(np.int64) @ b.astype(np.int64)).astype(np.float32) * np.float32(1 / 64)).astype(np.float16)
    assert np.array_equal(out(tmp_path, np.float16, 32 * 64).reshape(32, 64), want)


def test_gemv_reads_a_as_a_plain_row_when_m_is_1(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(10)
    a, b = f16(rng, 1, 256), f16(rng, 256, 64)
    proc = basic(cube_exe, tmp_path, "basic_gemv", a, b)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    np.testing.assert_allclose(out(tmp_path, np.float32, 64), mm(a, b)[0], rtol=1e-5, atol=1e-5)


# ---------------- broken basic kernels ----------------


def test_wrong_nz_stride_overlaps_the_l1_blocks_and_gives_a_wrong_matrix(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(11)
    a, b = f16(rng, 30, 48), f16(rng, 48, 32)
    proc = basic(cube_exe, tmp_path, "bad_basic_wrong_nz_stride", a, b)
    diags = [d for d in toolchain.parse_diags(proc.stderr) if d["kind"] == "nd2nz_overlap"]
    assert diags and diags[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_checks.cpp", "nd2nz_overlap")
    assert proc.returncode == 3
    got = out(tmp_path, np.float32, 30 * 32).reshape(30, 32)
    assert not np.allclose(got, mm(a, b), rtol=1e-3, atol=1e-3, equal_nan=False)


def test_missing_loaddata_transpose_gives_a_wrong_matrix(cube_exe, tmp_path):
    rng = np.random.default_rng(12)
    a, b = f16(rng, 32, 32), f16(rng, 32, 32)
    proc = basic(cube_exe, tmp_path, "bad_basic_no_transpose", a, b)
    assert proc.returncode == 0, proc.stderr
    got = out(tmp_path, np.float32, 32 * 32).reshape(32, 32)
    assert not np.allclose(got, mm(a, b), rtol=1e-3, atol=1e-3)
    # what it computed is A @ (B with every 16 x 16 block transposed): the fractal layout is modelled, not guessed
    bt = b.reshape(2, 16, 2, 16).transpose(0, 3, 2, 1).reshape(32, 32)
    np.testing.assert_allclose(got, mm(a, bt), rtol=1e-5, atol=1e-5)


def test_fixpipe_accumulating_onto_uncleared_gm_says_so_and_onto_cleared_gm_is_right(cube_exe, tmp_path, toolchain):
    """Fixpipe with SetAtomicAdd adds onto C: onto zeroed GM that is the product, without a word; onto GM nobody
    wrote (the poison byte, as aclrtMalloc memory holds) the output is garbage and the warning atomic_onto_poison
    names the Fixpipe, once for the call, not once per element."""
    rng = np.random.default_rng(11)
    a, b = f16(rng, 32, 64), f16(rng, 64, 32)
    proc = basic(cube_exe, tmp_path, "basic_atomic_cleared", a, b)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    np.testing.assert_allclose(out(tmp_path, np.float32, 32 * 32).reshape(32, 32), mm(a, b), rtol=1e-5, atol=1e-5)
    proc = basic(cube_exe, tmp_path, "bad_basic_atomic_uncleared", a, b)
    poison = [d for d in toolchain.parse_diags(proc.stderr) if d["kind"] == "atomic_onto_poison"]
    assert len(poison) == 1 and "Fixpipe" in poison[0]["message"] and poison[0]["severity"] == "warning", proc.stderr
    assert np.isnan(out(tmp_path, np.float32, 32 * 32)).all()


def test_l0a_overflow_is_reported_at_the_initbuffer_line(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(13)
    proc = basic(cube_exe, tmp_path, "bad_basic_l0a_overflow", f16(rng, 32, 32), f16(rng, 32, 32))
    d = [x for x in toolchain.parse_diags(proc.stderr) if x["kind"] == "l0a_overflow"]
    assert d and d[0]["severity"] == "error", proc.stderr
    assert d[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_checks.cpp", "l0a_overflow")
    assert "65536" in d[0]["message"]
    assert proc.returncode == 3


@pytest.mark.parametrize(
    ("case", "marker", "pipes"),
    [("no_sync_load_mmad", "race_mte1_m", "MTE1_M"), ("no_sync_mmad_fixpipe", "race_m_fix", "M_FIX")],
)
def test_a_missing_cube_pipe_sync_is_a_race_at_the_reading_line(cube_exe, tmp_path, toolchain, case, marker, pipes):
    """The cube pipes take part in the pipe-hazard model: LoadData runs on MTE1, Mmad on M, Fixpipe on FIX, and only
    SetFlag/WaitFlag orders them. The twin with the syncs (test below) runs clean."""
    rng = np.random.default_rng(11)
    write(tmp_path, a=f16(rng, 32, 64), b=f16(rng, 64, 32), bias=np.zeros(1, np.float32))
    proc = run(cube_exe, tmp_path, f"bad_basic_{case}")
    races = [d for d in toolchain.parse_diags(proc.stderr) if d["kind"] == "race"]
    assert races, proc.stderr
    assert races[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_checks.cpp", marker)
    assert f"missing SetFlag/WaitFlag<HardEvent::{pipes}>" in races[0]["message"], races[0]


def test_the_synced_twin_of_the_race_cases_runs_clean_and_right(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(11)
    a, b = f16(rng, 32, 64), f16(rng, 64, 32)
    write(tmp_path, a=a, b=b, bias=np.zeros(1, np.float32))
    proc = run(cube_exe, tmp_path, "basic_synced")
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    np.testing.assert_allclose(out(tmp_path, np.float32, 32 * 32).reshape(32, 32), mm(a, b), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("case", ["misaligned_fractal", "bad_position", "fractal_shape"])
def test_cube_operand_rule_is_reported_at_the_calling_line(cube_exe, tmp_path, toolchain, case):
    proc = run(cube_exe, tmp_path, case)
    d = [x for x in toolchain.parse_diags(proc.stderr) if x["kind"] == case]
    assert d, proc.stderr
    assert d[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_checks.cpp", case)
    assert proc.returncode == 3


# ---------------- high-level Matmul ----------------


def hl(exe, d, case, shape, a, b, bias=None):
    write(
        d,
        a=a,
        b=b,
        bias=padded(bias if bias is not None else np.zeros(16, np.float32)),
        shape=np.array(shape, np.int32),
    )
    results = []
    for tiling in TILINGS:
        proc = run(exe, d, case, tiling)
        results.append((tiling, proc, (d / "out_c.bin").read_bytes() if (d / "out_c.bin").exists() else b""))
    return results


def _tilings(results) -> set[str]:
    return {next(ln for ln in p.stdout.splitlines() if ln.startswith("tiling")) for _, p, _ in results}


def test_matmul_fp16_over_eight_cores_with_tails_under_three_tilings(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(20)
    M, N, K = 100, 200, 96
    a, b = f16(rng, M, K), f16(rng, K, N)
    results = hl(cube_exe, tmp_path, "hl_f16", [M, N, K, 8, 0], a, b)
    assert len(_tilings(results)) == 3
    for tiling, proc, raw in results:
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        got = np.frombuffer(raw, np.float32)[: M * N].reshape(M, N)
        np.testing.assert_allclose(got, mm(a, b), rtol=1e-5, atol=1e-5, err_msg=tiling)


def test_matmul_transposed_b_with_bias_under_three_tilings(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(21)
    M, N, K = 64, 80, 64
    a, bt, bias = f16(rng, M, K), f16(rng, N, K), rng.uniform(-1, 1, N).astype(np.float32)
    for tiling, proc, raw in hl(cube_exe, tmp_path, "hl_f16_transb_bias", [M, N, K, 4, 0], a, bt, bias):
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        got = np.frombuffer(raw, np.float32)[: M * N].reshape(M, N)
        np.testing.assert_allclose(got, mm(a, bt.T) + bias, rtol=1e-5, atol=1e-5, err_msg=tiling)


def test_matmul_int8_to_int32_and_dequantised_to_half(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(22)
    M, N, K = 48, 64, 100
    a, b = i8(rng, M, K), i8(rng, K, N)
    exact = a.astype(np.int64) @ b.astype(np.int64)
    for tiling, proc, raw in hl(cube_exe, tmp_path, "hl_i8", [M, N, K, 4, 0], a, b):
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        assert np.array_equal(np.frombuffer(raw, np.int32)[: M * N].reshape(M, N), exact), tiling
    want = (exact.astype(np.float32) * np.float32(1 / 64)).astype(np.float16)
    for tiling, proc, raw in hl(cube_exe, tmp_path, "hl_i8_deq", [M, N, K, 4, 0], a, b):
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        assert np.array_equal(np.frombuffer(raw, np.float16)[: M * N].reshape(M, N), want), tiling


def test_batched_matmul_iterates_the_normal_layout(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(23)
    B, M, N, K = 3, 32, 48, 64
    a, b = f16(rng, B, M, K), f16(rng, B, K, N)
    for tiling, proc, raw in hl(cube_exe, tmp_path, "hl_batch", [M, N, K, 1, B], a, b):
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        got = np.frombuffer(raw, np.float32)[: B * M * N].reshape(B, M, N)
        np.testing.assert_allclose(got, np.einsum("bmk,bkn->bmn", a.astype(np.float64), b), rtol=1e-5, atol=1e-5)


def test_mixed_matmul_with_a_vector_bias_relu_epilogue_through_the_library(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(24)
    M, N, K = 64, 96, 64
    a, b, bias = f16(rng, M, K), f16(rng, K, N), rng.uniform(-1, 1, N).astype(np.float32)
    want = np.maximum(mm(a, b) + bias, 0)
    for tiling, proc, raw in hl(cube_exe, tmp_path, "hl_mix_epilogue", [M, N, K, 4, 0], a, b, bias):
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        got = np.frombuffer(raw, np.float32)[: M * N].reshape(M, N)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=tiling)


def test_a_kernel_tiling_that_overflows_l0a_is_a_matmul_tiling_error(cube_exe, tmp_path, toolchain):
    rng = np.random.default_rng(25)
    write(
        tmp_path,
        a=f16(rng, 128, 256),
        b=f16(rng, 256, 128),
        bias=padded(np.zeros(16, np.float32)),
        shape=np.array([128, 128, 256, 1, 0], np.int32),
    )
    proc = run(cube_exe, tmp_path, "hl_bad_tiling")
    d = [x for x in toolchain.parse_diags(proc.stderr) if x["kind"] == "matmul_tiling"]
    assert d and "L0A" in d[0]["message"], proc.stderr
    assert d[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_checks.cpp", "matmul_tiling")
    assert proc.returncode == 3


def test_a_matmul_reading_past_its_gm_allocation_is_reported_at_the_calling_line(cube_exe, tmp_path, toolchain):
    """A's allocation holds half the matrix: the Matmul's reads past it are an out-of-bounds error (the operand keeps
    its bounds when it is stored), not a right or silently wrong answer."""
    rng = np.random.default_rng(26)
    write(tmp_path, a=f16(rng, 32, 64), b=f16(rng, 64, 64), bias=padded(np.zeros(16, np.float32)))
    write(tmp_path, shape=np.array([64, 64, 64, 1, 0], np.int32))
    proc = run(cube_exe, tmp_path, "hl_short_a")
    d = [x for x in toolchain.parse_diags(proc.stderr) if x["kind"] == "gm_out_of_bounds"]
    assert d, proc.stderr
    assert d[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_checks.cpp", "short_a")
    assert proc.returncode == 3


def test_a_matmul_reading_past_the_declared_size_inside_its_allocation_computes_as_the_hardware_does(
    cube_exe, tmp_path, toolchain
):
    """The same kernel declares half of A in SetGlobalBuffer, but the allocation holds all of it. The hardware checks
    neither size: the Matmul reads the whole matrix and the answer is right. The emulator says so with a warning at
    the calling line, never an error that would fail a kernel the NPU runs correctly."""
    rng = np.random.default_rng(26)
    a, b = f16(rng, 64, 64), f16(rng, 64, 64)
    write(tmp_path, a=a, b=b, bias=padded(np.zeros(16, np.float32)))
    write(tmp_path, shape=np.array([64, 64, 64, 1, 0], np.int32))
    proc = run(cube_exe, tmp_path, "hl_short_a")
    assert proc.returncode == 0, proc.stderr
    diags = toolchain.parse_diags(proc.stderr)
    assert [(d["kind"], d["severity"]) for d in diags] == [("gm_beyond_declared_size", "warning")], proc.stderr
    assert diags[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_checks.cpp", "short_a")
    np.testing.assert_allclose(out(tmp_path, np.float32, 64 * 64).reshape(64, 64), mm(a, b), rtol=1e-5, atol=1e-5)


# ---------------- mixed AIC / AIV kernels ----------------


def mix_inputs(d: Path):
    rng = np.random.default_rng(30)
    a, b, bias = f16(rng, 128, 64), f16(rng, 64, 64), rng.uniform(-1, 1, 64).astype(np.float32)
    write(d, a=a, b=b, bias=padded(bias))
    return np.maximum(np.concatenate([mm(a[:64], b), mm(a[64:], b)]) + bias, 0)


def test_mixed_kernel_aic_matmul_then_aiv_bias_relu_through_cross_core_flags(cube_exe, tmp_path, toolchain):
    want = mix_inputs(tmp_path)
    proc = run(cube_exe, tmp_path, "mix_ok")
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    np.testing.assert_allclose(out(tmp_path, np.float32, 128 * 64).reshape(128, 64), want, rtol=1e-5, atol=1e-5)


def test_a_missing_cross_core_wait_is_reported_as_an_unpaired_flag(cube_exe, tmp_path, toolchain):
    mix_inputs(tmp_path)
    proc = run(cube_exe, tmp_path, "mix_no_wait")
    d = [x for x in toolchain.parse_diags(proc.stderr) if x["kind"] == "cross_core_unpaired"]
    assert d and "CrossCoreWaitFlag(3) is missing" in d[0]["message"], proc.stderr
    assert proc.returncode == 3


def test_a_wait_nobody_can_satisfy_is_a_deadlock_naming_the_flag_not_a_hang(cube_exe, tmp_path, toolchain):
    mix_inputs(tmp_path)
    start = time.monotonic()
    proc = run(cube_exe, tmp_path, "mix_deadlock", timeout=30)
    assert time.monotonic() - start < 20
    d = [x for x in toolchain.parse_diags(proc.stderr) if x["kind"] == "sync_deadlock"]
    assert d and "CrossCoreWaitFlag(4)" in d[0]["message"], proc.stderr
    assert d[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_checks.cpp", "sync_deadlock")
    assert proc.returncode == 3
