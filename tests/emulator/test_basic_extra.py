"""Basic APIs added in basic_*.h against numpy: the reduceType reductions, Interleave/DeInterleave,
cross-block sync through GM flags (IBSet/IBWait, WaitPreBlock/NotifyNextBlock, GroupBarrier) which must
really order the block threads, scalar GM atomics, CTRL register, Mutex IDs, InitOutput, aclFloat16, and
the fatal diagnostics of a hanging IBWait and a failed ascendc_assert. One C++ program (emulator/tests/basic_extra.cpp)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest


@pytest.fixture(scope="module")
def extra(toolchain, tmp_path_factory):
    d = tmp_path_factory.mktemp("basic_extra")
    rng = np.random.default_rng(77)
    inp = {
        "rx": rng.uniform(-2, 2, 1024).astype(np.float32),
        "rxh": rng.uniform(-2, 2, 1024).astype(np.float16),
        "a": rng.uniform(-5, 5, 256).astype(np.float32),
        "b": rng.uniform(-5, 5, 256).astype(np.float32),
    }
    for name, arr in inp.items():
        arr.tofile(d / f"{name}.bin")
    exe = toolchain.build(toolchain.cpp / "basic_extra.cpp", d / "basic_extra")
    env = {k: v for k, v in os.environ.items() if k != "COTBUILDER_SOC"}
    proc = subprocess.run([str(exe), str(d)], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "COTBUILDER_DIAG" not in proc.stderr, proc.stderr
    return d, inp, exe


def _out(d: Path, name: str, dtype) -> np.ndarray:
    return np.fromfile(d / f"out_{name}.bin", dtype=dtype)


def test_reduce_repeat_sums_and_finds_max_with_index_per_repeat(extra):
    d, inp, _ = extra
    o = _out(d, "reduce", np.float32)
    x = inp["rx"].reshape(16, 64)
    np.testing.assert_allclose(o[:16], x.sum(1), rtol=1e-5, atol=1e-5)
    pairs = o[16:48].reshape(16, 2)
    assert np.array_equal(pairs[:, 0], x.max(1))
    assert np.array_equal(pairs[:, 1].view(np.uint32), x.argmax(1).astype(np.uint32))
    # ORDER_ONLY_VALUE with a 40-lane bit mask: the min of the first 40 elements of each repeat
    assert np.array_equal(o[48:64], x[:, :40].min(1))


def test_reduce_data_block_gives_one_result_per_32_byte_block(extra):
    d, inp, _ = extra
    o = _out(d, "reduce", np.float32)
    blocks = inp["rx"].reshape(128, 8)
    np.testing.assert_allclose(o[64:192], blocks.sum(1), rtol=1e-5, atol=1e-5)
    assert np.array_equal(o[192:320], blocks.max(1))


def test_reduce_pair_elem_sums_adjacent_pairs_and_respects_the_mask(extra):
    d, inp, _ = extra
    o = _out(d, "reduce", np.float32)
    x = inp["rx"]
    np.testing.assert_allclose(o[320:832], x[0::2] + x[1::2], rtol=1e-6)
    masked = o[832:1344].reshape(16, 32)
    want = (x[0::2] + x[1::2]).reshape(16, 32)
    np.testing.assert_allclose(masked[:, :24], want[:, :24], rtol=1e-6)
    assert np.all(masked[:, 24:] == 0)  # pairs outside mask 48 are not written


def test_reduce_repeat_and_data_block_on_half(extra):
    d, inp, _ = extra
    o = _out(d, "reduce_half", np.float16).astype(np.float32)
    xh = inp["rxh"].astype(np.float32)
    np.testing.assert_allclose(o[:8], xh.reshape(8, 128).sum(1), rtol=2e-3, atol=2e-2)
    np.testing.assert_allclose(o[8:72], xh.reshape(64, 16).sum(1), rtol=2e-3, atol=1e-2)


def test_interleave_and_deinterleave_match_numpy(extra):
    d, inp, _ = extra
    o = _out(d, "interleave", np.float32).reshape(6, 256)
    a, b = inp["a"], inp["b"]
    z = np.stack([a, b], 1).reshape(-1)
    assert np.array_equal(o[0], z[:256]) and np.array_equal(o[1], z[256:])
    cat = np.concatenate([a, b])
    assert np.array_equal(o[2], cat[0::2]) and np.array_equal(o[3], cat[1::2])
    one = o[4:6].reshape(-1)  # DeInterleave(src=a) then (src=b), each 128 + 128
    assert np.array_equal(one[:128], a[0::2]) and np.array_equal(one[128:256], a[1::2])
    assert np.array_equal(one[256:384], b[0::2]) and np.array_equal(one[384:], b[1::2])


def test_gather_mask_gather_and_gatherb_pick_the_documented_elements(extra):
    d, inp, _ = extra
    o = _out(d, "gather", np.float32)
    a = inp["a"]
    assert np.array_equal(o[:128], a[1::2]) and o[768] == 128  # pattern 2: odd elements of 4 repeats
    # 0x99999999 = bits 0 and 3 of every nibble; counter mode: 32 elements from each of 4 repeats of 64
    sel = np.concatenate([a[r * 64 : r * 64 + 32][np.isin(np.arange(32) % 4, [0, 3])] for r in range(4)])
    assert np.array_equal(o[128 : 128 + sel.size], sel) and o[769] == sel.size
    assert np.array_equal(o[256:512], a[::-1])
    assert np.array_equal(o[512:768].reshape(32, 8), a.reshape(32, 8)[::-1])


def test_ibwait_blocks_until_the_previous_block_ibsets(extra):
    d, _, _ = extra
    log = _out(d, "ibset_log", np.int32)
    assert log[0] == 8
    assert list(log[1:9]) == list(range(8))  # block 0 slept first; each block waited for its predecessor


def test_wait_pre_block_orders_blocks_ascending_in_every_round(extra):
    d, _, _ = extra
    log = _out(d, "sequential_log", np.int32)
    assert log[0] == 24
    assert list(log[1:25]) == list(range(8)) * 3


def test_group_barrier_waiters_see_every_arrivers_work(extra):
    d, _, _ = extra
    assert list(_out(d, "group_seen", np.int32)) == [20] * 6


def test_scalar_atomics_are_atomic_across_blocks(extra):
    d, _, _ = extra
    acc, flag, wins = _out(d, "atomics", np.uint32)
    assert acc == 8000
    assert wins == 1 and 1 <= flag <= 8  # exactly one AtomicCas(0 -> b+1) succeeded
    assert _out(d, "atomics_f32", np.float32)[0] == 4000.0


def test_ctrl_spr_mutex_ids_divceil_ub_size_cycles_and_init_output(extra):
    d, _, _ = extra
    o = _out(d, "misc", np.int64)
    assert list(o[:5]) == [1, 0, 0, 1, 5]  # set, then reset to defaults (CTRL[60] defaults to 1)
    assert o[5] != o[6] and o[7] == o[5]  # distinct IDs; a released ID is handed out again
    assert list(o[8:12]) == [3, 2, 192 * 1024, 192 * 1024]
    assert o[12] > 0
    fill = _out(d, "init_output", np.float16)
    assert np.all(fill[:40] == 1.5) and np.all(fill[40:] == 0)


def test_older_documented_names_tofloat_tobfloat16_broadcast_and_alignup_compute_like_their_new_forms(extra):
    """CANN 8.0.0's ToFloat/ToBfloat16 (bf16 <-> float scalars) and BroadCast (today's Broadcast), and the toolkit's
    AlignUp: real kernels still call them, so a build that lacks them would call correct code broken."""
    d, _, _ = extra
    o = _out(d, "old_names", np.float32)
    bf16_bits = np.array([0x3F80 + 0x40 * i for i in range(4)], np.uint32)
    assert np.array_equal(o[:4], (bf16_bits << 16).view(np.float32))  # exact: a bf16 is a float's top half
    fs = np.array([1.0, -2.5, 3.14159274, 65504.0], np.float32).view(np.uint32)
    rne = ((fs + 0x7FFF + ((fs >> 16) & 1)) >> 16).astype(np.float32)  # round to nearest even
    assert np.array_equal(o[4:8], rne)
    assert list(o[8:10]) == [64, 64]
    assert np.array_equal(o[10:42], np.repeat(np.array([10, 20, 30, 40], np.float32), 8))


def test_fused_mul_add_reads_dst_and_ascendc_utils_set_mask_limits_a_repeat_to_its_first_elements(extra):
    d, inp, _ = extra
    o = _out(d, "fma_mask", np.float32)
    a, b = inp["a"], inp["b"]
    dst0 = a[128:256]
    expect = dst0.copy()
    expect[:100] = (a[:100].astype(np.float32) * dst0[:100] + b[:100]).astype(np.float32)
    np.testing.assert_allclose(o[:128], expect, rtol=1e-6)
    assert np.array_equal(o[128:168], b[128:168] + np.float32(1000)) and np.array_equal(o[168:192], b[168:192])


def test_acl_float16_converts_ieee_half_bits(extra):
    d, _, _ = extra
    f = _out(d, "acl_f16", np.float32)
    assert f[0] == 1.0 and f[1] == -2.0 and np.isinf(f[2])
    assert _out(d, "acl_f16_bits", np.uint16)[3] == np.float16(0.1).view(np.uint16)


@pytest.mark.parametrize(
    "mode,kind", [("deadlock", "sync_deadlock"), ("assert", "assert_failed"), ("assert_msg", "assert_failed")]
)
def test_hang_and_failed_assert_stop_with_a_fatal_diagnostic(extra, toolchain, mode, kind):
    d, _, exe = extra
    proc = subprocess.run([str(exe), str(d), mode], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 3, proc.stderr
    diags = toolchain.parse_diags(proc.stderr)
    assert [x["kind"] for x in diags] == [kind]
    if mode != "deadlock":
        assert diags[0]["line"] == toolchain.marker_line(toolchain.cpp / "basic_extra.cpp", mode)
    if mode == "assert_msg":
        assert "n is 7" in proc.stderr
