"""Toolkit forms real kernels use that the emulator lacked, each against numpy and with its hardware-wrong twin
(emulator/tests/toolkit_forms.cpp): TQueBind's EnQue / DeQue<srcUserPos, dstUserPos, T> (TQue/EnQue.md: one VECIN /
VECOUT buffer along GM -> UB -> GM; cann-ops feeds_repeat, circular_pad_grad), TQue<pos, depth, &TQueConfig>
(TQue简介.md; mse_loss_grad_v2), Trap (Trap.md; group_quant) and SelectWithBytesMask (the implementation-layer name of
the byte-mask Select, Select-95.md; select_reduce_max_d_sub_exp_reduce_sum_d_real_div)."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

N = 64


@pytest.fixture(scope="module")
def prog(toolchain, tmp_path_factory):
    d = tmp_path_factory.mktemp("toolkit_forms")
    exe = toolchain.build(toolchain.cpp / "toolkit_forms.cpp", d / "toolkit_forms")
    return exe, d


def _run(prog, mode: str, x: np.ndarray, mask: np.ndarray | None = None):
    exe, d = prog
    x.astype(np.float32).tofile(d / "x.bin")
    if mask is not None:
        mask.astype(np.uint8).tofile(d / "m.bin")
    proc = subprocess.run([str(exe), str(d), mode], capture_output=True, text=True, timeout=60)
    diags = [json.loads(ln.split(" ", 1)[1]) for ln in proc.stderr.splitlines() if ln.startswith("COTBUILDER_DIAG ")]
    out = np.fromfile(d / f"out_{mode}.bin", np.float32) if (d / f"out_{mode}.bin").is_file() else None
    return proc, diags, out


def _x() -> np.ndarray:
    return np.random.default_rng(3).uniform(-4, 4, N).astype(np.float32)


def test_a_tquebind_reused_along_gm_ub_gm_with_named_positions_computes_in_order(prog):
    proc, diags, out = _run(prog, "queue_user", _x())
    assert proc.returncode == 0 and not diags, proc.stderr[-2000:]
    assert np.array_equal(out, _x() + 1)


def test_a_copy_through_the_vecin_to_vecout_stage_is_ordered_mte2_before_mte3(prog):
    """UB to UB is MTE2 -> MTE3 (a V -> V event, the wrong reading, would leave the copy out racing the copy in)."""
    proc, diags, out = _run(prog, "queue_through", _x())
    assert proc.returncode == 0 and not diags, proc.stderr[-2000:]
    assert np.array_equal(out, _x())


def test_a_dequeue_naming_other_positions_than_its_enqueue_is_an_error(prog):
    proc, diags, _ = _run(prog, "queue_mismatch", _x())
    assert any(g["kind"] == "enque_deque_mismatch" and "DeQue names other" in g["message"] for g in diags), diags


def test_a_vector_result_copied_out_without_the_vecout_to_gm_stage_is_a_race(prog):
    _, diags, _ = _run(prog, "queue_nosync", _x())
    assert any(g["kind"] == "race" for g in diags), diags


def test_a_tque_with_a_tqueconfig_runs_and_one_that_contradicts_init_buffer_is_an_error(prog):
    proc, diags, out = _run(prog, "queue_config", _x())
    assert proc.returncode == 0 and not diags, proc.stderr[-2000:]
    assert np.array_equal(out, _x() * 2)
    _, diags, _ = _run(prog, "config_twin", _x())
    assert any(g["kind"] == "queue_config_mismatch" for g in diags), diags


def test_trap_stops_the_kernel_at_its_line_only_when_reached(prog):
    x = _x()
    x[0] = 0
    proc, diags, _ = _run(prog, "trap", x)
    assert proc.returncode != 0
    assert any(g["kind"] == "assert_failed" and "Trap" in g["message"] for g in diags), diags
    x[0] = 1
    proc, diags, out = _run(prog, "trap", x)
    assert proc.returncode == 0 and not diags and out[0] == 7, proc.stderr[-2000:]


def test_select_with_bytes_mask_takes_src0_where_the_byte_is_zero_and_src1_elsewhere(prog):
    x = np.random.default_rng(5).uniform(-4, 4, 32).astype(np.float32)
    mask = np.random.default_rng(6).integers(0, 3, 64).astype(np.uint8)  # 0, 1 and 2: any non-zero byte selects src1
    _, diags, out = _run(prog, "select_bytes", np.concatenate([x, np.zeros(N - 32, np.float32)]), mask)
    assert not diags, diags
    m = mask.reshape(2, 32)[:, :16].reshape(-1)  # each row's first 16 mask bytes; the rest is ignored
    assert out[:32].tolist() == np.where(m == 0, x, np.float32(9.5)).tolist()
    assert out[32:].tolist() == np.where(m == 0, np.float32(-1), x).tolist()
    # the hardware-wrong reading of the mask as bits / as `== 1` would differ on this data
    assert (m == 2).any() and (mask.reshape(2, 32)[:, 16:] != 0).any()
