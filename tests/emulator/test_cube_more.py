"""More of the cube path against numpy, with kernels written here (emulator/tests/cube_more_checks.cpp): the
whole-tensor operator forms of the vector APIs that cube epilogues use (`dst = x + y`, `bits = x >= y`), Coord /
Layout offsets and the integer Ceil that tiled matmul kernels compute block offsets with,
MatmulConfig.isPartialOutput (one baseK slice per Iterate), the triangular MatmulPolicy templates, the MatmulCallBackFunc
copy-in functions, and Matmul::IterateNBatch into the SetWorkspace buffer;
each with a broken variant that must fail with its status.

The Matmul cases run under three tilings (ours and two seeded random valid ones, COTBUILDER_MATMUL_TILING)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

TILINGS = ("ours", "random:1", "random:2")


def run(exe: Path, d: Path, case: str, tiling: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COTBUILDER_SOC", "COTBUILDER_MATMUL_TILING")}
    if tiling:
        env["COTBUILDER_MATMUL_TILING"] = tiling
    return subprocess.run([str(exe), str(d), case], capture_output=True, text=True, timeout=60, env=env)


def write(d: Path, **arrays: np.ndarray) -> None:
    for name, arr in arrays.items():
        np.ascontiguousarray(arr).tofile(d / f"{name}.bin")


def f16(rng, *shape) -> np.ndarray:
    return rng.uniform(-1, 1, shape).astype(np.float16)


def mm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a.astype(np.float64) @ b.astype(np.float64)


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "cube_more_checks.cpp", tmp_path_factory.mktemp("cmore") / "cmc")


def _tiling(proc) -> tuple[int, ...]:
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("tiling"))
    base = line.split("base=")[1].split()[0]
    return tuple(int(v) for v in base.split(","))


# ---------------- whole-tensor operator forms ----------------


def test_tensor_operator_forms_compute_the_whole_tensor(exe, tmp_path, toolchain):
    rng = np.random.default_rng(40)
    n = 256
    x, y = rng.uniform(-2, 2, n).astype(np.float32), rng.uniform(-2, 2, n).astype(np.float32)
    y[:8] = x[:8]  # equal elements: >= is true, < is false
    write(tmp_path, x=x, y=y)
    proc = run(exe, tmp_path, "expr_ok")
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    got = np.fromfile(tmp_path / "out_c.bin", np.float32).reshape(3, n)
    np.testing.assert_array_equal(got[0], x + y)
    np.testing.assert_array_equal(got[1], x - y)
    np.testing.assert_array_equal(got[2], x * y)
    bits = np.unpackbits(np.fromfile(tmp_path / "out_bits.bin", np.uint8), bitorder="little").reshape(2, n)
    np.testing.assert_array_equal(bits[0], (x >= y).astype(np.uint8))
    np.testing.assert_array_equal(bits[1], (x < y).astype(np.uint8))


def test_tensor_operator_into_a_too_small_dst_is_reported_at_the_expression_line(exe, tmp_path, toolchain):
    rng = np.random.default_rng(41)
    write(tmp_path, x=rng.uniform(-1, 1, 256).astype(np.float32), y=rng.uniform(-1, 1, 256).astype(np.float32))
    proc = run(exe, tmp_path, "expr_short_dst")
    diags = toolchain.parse_diags(proc.stderr)
    assert proc.returncode != 0 and diags, proc.stderr
    assert diags[0]["severity"] == "error" and "Add" in diags[0]["message"], diags
    assert diags[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_more_checks.cpp", "expr_short_dst"), diags


# ---------------- isPartialOutput ----------------


def partial(exe, d, case, M, N, K, a, b):
    """[(tiling, proc, C slices, their offsets)] for each of the three tilings."""
    write(d, a=a, b=b, shape=np.array([M, N, K, 0, 0], np.int32))
    runs = []
    for tiling in TILINGS:
        proc = run(exe, d, case, tiling)
        got = [
            np.fromfile(d / f, t) if (d / f).exists() else None
            for f, t in (("out_c.bin", np.float32), ("out_offs.bin", np.int32))
        ]
        runs.append((tiling, proc, *got))
    return runs


def _slices(proc, c, offs, M, N, K):
    bm, bn, bk = _tiling(proc)
    k_steps = -(-K // bk)
    n = -(-M // bm) * -(-N // bn) * k_steps
    return bk, k_steps, c.reshape(n, bm, bn), offs.reshape(n, 4)


def test_partial_output_gives_each_basek_slice_of_each_block_in_turn(exe, tmp_path, toolchain):
    rng = np.random.default_rng(42)
    M, N, K = 48, 64, 200
    a, b = f16(rng, M, K), f16(rng, K, N)
    runs = partial(exe, tmp_path, "partial_ok", M, N, K, a, b)
    for tiling, proc, raw_c, raw_offs in runs:
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        bk, k_steps, c, offs = _slices(proc, raw_c, raw_offs, M, N, K)
        total = np.zeros((M, N))
        for i, (row, col, h, w) in enumerate(offs):
            k0 = (i % k_steps) * bk  # the K slices of one block come one after another
            want = mm(a[row : row + h, k0 : k0 + bk], b[k0 : k0 + bk, col : col + w])
            np.testing.assert_allclose(c[i, :h, :w], want, rtol=1e-5, atol=1e-5, err_msg=f"{tiling} slice {i}")
            total[row : row + h, col : col + w] += c[i, :h, :w]
        np.testing.assert_allclose(total, mm(a, b), rtol=1e-4, atol=1e-4, err_msg=tiling)
    assert len({_tiling(p) for _, p, _, _ in runs}) > 1


def test_without_partial_output_the_slices_are_whole_k_sums_and_the_slice_check_fails(exe, tmp_path):
    """The broken twin: the same slice-reading kernel on a Matmul without isPartialOutput gets whole-K blocks."""
    rng = np.random.default_rng(43)
    M, N, K = 32, 32, 1024  # our baseK for a 32 x 32 block is 512: two slices
    a, b = f16(rng, M, K), f16(rng, K, N)
    (tiling, proc, raw, _), *_ = partial(exe, tmp_path, "partial_whole", M, N, K, a, b)
    assert proc.returncode == 0, proc.stderr
    bm, bn, bk = _tiling(proc)
    assert (bm, bn) == (M, N)  # our tiling: one block
    got = raw[: bm * bn].reshape(bm, bn)
    assert not np.allclose(got, mm(a[:, :bk], b[:bk, :]), rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(got, mm(a, b), rtol=1e-5, atol=1e-5)


def test_partial_output_with_a_bias_is_an_unsupported_api_naming_it(exe, tmp_path, toolchain):
    rng = np.random.default_rng(44)
    (tiling, proc, _, _), *_ = partial(exe, tmp_path, "partial_bias", 32, 32, 128, f16(rng, 32, 128), f16(rng, 128, 32))
    diags = toolchain.parse_diags(proc.stderr)
    assert proc.returncode != 0 and diags[0]["kind"] == "unsupported_api", proc.stderr
    assert "isPartialOutput" in diags[0]["message"]


# ---------------- IterateNBatch ----------------


def test_iterate_n_batch_runs_every_loop_into_the_workspace(exe, tmp_path, toolchain):
    rng = np.random.default_rng(45)
    loops, batch, M, N, K = 2, 3, 32, 48, 64
    a, b = f16(rng, loops * batch, M, K), f16(rng, loops * batch, K, N)
    write(tmp_path, a=a, b=b, shape=np.array([M, N, K, loops, batch], np.int32))
    for tiling in TILINGS:
        proc = run(exe, tmp_path, "nbatch_ok", tiling)
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        got = np.fromfile(tmp_path / "out_c.bin", np.float32).reshape(loops * batch, M, N)
        for i in range(loops * batch):
            np.testing.assert_allclose(got[i], mm(a[i], b[i]), rtol=1e-5, atol=1e-5, err_msg=f"{tiling} batch {i}")


def test_iterate_n_batch_without_set_workspace_is_an_error_at_the_call(exe, tmp_path, toolchain):
    rng = np.random.default_rng(46)
    M, N, K = 32, 32, 32
    write(tmp_path, a=f16(rng, 2, M, K), b=f16(rng, 2, K, N), shape=np.array([M, N, K, 2, 1], np.int32))
    proc = run(exe, tmp_path, "nbatch_no_workspace")
    diags = toolchain.parse_diags(proc.stderr)
    assert proc.returncode != 0 and diags[0]["kind"] == "cube_bad_params", proc.stderr
    assert "SetWorkspace" in diags[0]["message"]
    assert diags[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_more_checks.cpp", "nbatch_no_workspace"), (
        diags
    )


# ---------------- Coord / Layout / Ceil ----------------


def test_layout_maps_coordinates_to_row_major_indices_and_ceil_counts_tiles(exe, tmp_path, toolchain):
    d0, d1, d2, tile = 7, 6, 11, 4
    write(tmp_path, dims=np.array([d0, d1, d2, tile], np.int64))
    proc = run(exe, tmp_path, "layout")
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    want = []
    for i in range(0, d0, 3):
        for j in range(0, d1, 2):
            for k in range(0, d2, 5):
                idx = int(np.ravel_multi_index((i, j, k), (d0, d1, d2)))
                want += [idx, idx]
    want += [-(-d0 // tile), -(-d1 // tile), -(-d2 // tile), 0]
    got = np.fromfile(tmp_path / "out_c.bin", np.int64)[: len(want)]
    np.testing.assert_array_equal(got, want)


def test_a_coordinate_of_the_wrong_rank_does_not_compile(toolchain, tmp_path):
    src = tmp_path / "bad_rank.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        "int64_t f() {\n"
        "    auto l = AscendC::MakeLayout(AscendC::MakeShape(4, 4), AscendC::MakeStride(4, 1));\n"
        "    return l(AscendC::MakeCoord(1, 2, 3));\n"
        "}\n"
    )
    proc = toolchain.compile(src, tmp_path / "bad_rank.o", after_pch=["-fsyntax-only"])
    assert proc.returncode != 0 and "different ranks" in proc.stderr, proc.stderr[-2000:]


# ---------------- TrianUpper / TrianLowerMatmulPolicy ----------------


@pytest.mark.parametrize("case", ["tri_upper", "tri_lower"])
def test_triangular_policy_leaves_the_base_blocks_off_its_triangle_untouched(exe, tmp_path, toolchain, case):
    rng = np.random.default_rng(47)
    M, N, K = 96, 80, 64
    a, b = f16(rng, M, K), f16(rng, K, N)
    sentinel = np.full((M, N), -7.0, np.float32)
    write(tmp_path, a=a, b=b, c0=sentinel, shape=np.array([M, N, K, 0, 0], np.int32))
    full = mm(a, b)
    skipped = 0
    for tiling in TILINGS:
        proc = run(exe, tmp_path, case, tiling)
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        bm, bn, _ = _tiling(proc)
        rows, cols = np.arange(M)[:, None] // bm, np.arange(N)[None, :] // bn
        kept = rows <= cols if case == "tri_upper" else rows >= cols
        got = np.fromfile(tmp_path / "out_c.bin", np.float32).reshape(M, N)
        np.testing.assert_allclose(got[kept], full[kept], rtol=1e-5, atol=1e-5, err_msg=tiling)
        assert (got[~kept] == -7.0).all(), tiling
        skipped += int((~kept).sum())
    assert skipped  # some tiling has more than one base block (ours is one 96 x 80 block)


def test_the_default_policy_writes_every_block_so_a_triangle_golden_fails_it(exe, tmp_path):
    """The broken twin: a kernel that forgets the policy overwrites the blocks a triangular golden keeps."""
    rng = np.random.default_rng(48)
    M, N, K = 96, 80, 64
    a, b = f16(rng, M, K), f16(rng, K, N)
    write(tmp_path, a=a, b=b, c0=np.full((M, N), -7.0, np.float32), shape=np.array([M, N, K, 0, 0], np.int32))
    proc = run(exe, tmp_path, "tri_none", "random:1")
    assert proc.returncode == 0, proc.stderr
    got = np.fromfile(tmp_path / "out_c.bin", np.float32).reshape(M, N)
    np.testing.assert_allclose(got, mm(a, b), rtol=1e-5, atol=1e-5)
    assert not (got == -7.0).any()


# ---------------- MatmulCallBackFunc copy-in ----------------


def callback(exe, d, case, M, N, K, tilings=TILINGS):
    rng = np.random.default_rng(49)
    a, b = f16(rng, M, K), f16(rng, K, N)
    decoy = np.zeros(max(M, N) * K + 4096, np.float16)  # what SetTensorA / SetTensorB get
    write(d, a=a, b=b, decoy=decoy, shape=np.array([M, N, K, 0, 0], np.int32))
    for tiling in tilings:
        proc = run(exe, d, case, tiling)
        yield tiling, proc, np.fromfile(d / "out_c.bin", np.float32).reshape(M, N), mm(a, b)


@pytest.mark.parametrize("case", ["cb_a", "cb_b", "cb_ab"])
def test_copy_in_callbacks_supply_every_base_block_of_their_operand(exe, tmp_path, toolchain, case):
    for tiling, proc, got, want in callback(exe, tmp_path, case, 40, 48, 96):
        assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), (tiling, proc.stderr)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=tiling)


def test_a_copy_in_callback_with_the_wrong_nz_stride_gives_a_wrong_matrix(exe, tmp_path):
    """M = 40 is no multiple of 16: a column stride of 40 rows instead of 48 misplaces the block in L1."""
    ((tiling, proc, got, want),) = callback(exe, tmp_path, "cb_wrong_stride", 40, 48, 96, tilings=("ours",))
    assert proc.returncode == 0, proc.stderr
    assert not np.allclose(got, want, rtol=1e-3, atol=1e-3)
