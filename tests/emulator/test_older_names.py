"""APIs under the names CANN 8.x kernels use (ArithProgression, InitGlobalMemory, InitOutput by value, RepeatReduceSum,
CompareScalar's repeat form, ScalarCast / scalar Cast, GetTaskRation, ASSERT_MSG, assert with a message) compute what
their current names compute, against numpy; their checks (an assertion that fails, a fill read back without the
sync Fill-97.md asks for, another value stored over an unsynchronised fill) stop the kernel. One C++ program
(emulator/tests/older_names.cpp)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from cotbuilder.verify import diagnostics


@pytest.fixture(scope="module")
def older(toolchain, tmp_path_factory):
    d = tmp_path_factory.mktemp("older_names")
    x = np.random.default_rng(16).uniform(-3, 3, 512).astype(np.float32)
    x[:4] = [1.5, -2.5, 0.49, -0.51]  # ScalarCast's CAST_ROUND ties away from zero, CAST_FLOOR below
    x.tofile(d / "rx.bin")
    exe = toolchain.build(toolchain.cpp / "older_names.cpp", d / "older_names")
    proc = subprocess.run([str(exe), str(d)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "COTBUILDER_DIAG" not in proc.stderr, proc.stderr
    return d, x, exe


def _out(d: Path, name: str, dtype) -> np.ndarray:
    return np.fromfile(d / f"out_{name}.bin", dtype=dtype)


def test_arith_progression_is_arange_for_float_and_int(older):
    d, _, _ = older
    o = _out(d, "older", np.float32)
    np.testing.assert_allclose(o[:64], -2.5 + 0.75 * np.arange(64), rtol=1e-6)
    assert np.array_equal(_out(d, "older_int", np.int32), 7 - 3 * np.arange(32))


def test_repeat_reduce_sum_sums_each_repeat_under_a_continuous_mask_and_dst_stride(older):
    d, x, _ = older
    o = _out(d, "older", np.float32)
    rows = x.reshape(8, 64)
    np.testing.assert_allclose(o[64:72], rows.sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(o[72:80:2], rows[:4, :40].sum(1), rtol=1e-5, atol=1e-5)
    assert np.all(o[73:80:2] == 0)  # dstRepStride 2: the places between are not written


def test_scalar_cast_rounds_as_its_mode_says(older):
    d, x, _ = older
    got = _out(d, "older", np.float32)[80:88].view(np.int32)
    assert list(got[:4]) == [2, -3, 0, -1]  # CAST_ROUND: 1.5 -> 2, -2.5 -> -3 (ties away from zero)
    assert list(got[4:]) == list(np.floor(x[:4]).astype(np.int32))


def test_compare_scalar_repeat_form_sets_one_bit_per_element(older):
    d, x, _ = older
    got = _out(d, "older", np.float32)[88:90].view(np.uint8)
    assert np.array_equal(got, np.packbits(x[:64] >= 0, bitorder="little"))


def test_init_global_memory_and_init_output_fill_gm(older):
    d, _, _ = older
    f = _out(d, "fill", np.float32)
    assert np.all(f[:40] == 1.5) and np.all(f[40:] == 0)
    assert _out(d, "ration", np.int32)[0] == 1  # a vector-only kernel: one AIV core per task


@pytest.mark.parametrize(
    ("mode", "marker", "printed"),
    [("assert_msg", "assert_msg", "division by zero: b=0"), ("assert_fmt", "assert_fmt", "b is 0, want 1")],
)
def test_failed_assertion_prints_its_message_and_stops_at_its_line(older, toolchain, mode, marker, printed):
    _, _, exe = older
    proc = subprocess.run([str(exe), str(exe.parent), mode], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3
    assert printed in proc.stderr
    diags = [x for x in toolchain.parse_diags(proc.stderr) if x["kind"] == "assert_failed"]
    src = toolchain.cpp / "older_names.cpp"
    assert [x["line"] for x in diags] == [toolchain.marker_line(src, marker)]


def test_assertions_that_hold_say_nothing(older):
    _, _, exe = older
    proc = subprocess.run([str(exe), str(exe.parent), "assert_ok"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "COTBUILDER_DIAG" not in proc.stderr and "never printed" not in proc.stderr


def test_init_global_memory_read_back_without_the_mte3_mte2_sync_is_a_race(older, toolchain):
    _, _, exe = older
    proc = subprocess.run([str(exe), str(exe.parent), "fill_race"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3
    races = [x for x in toolchain.parse_diags(proc.stderr) if x["kind"] == "race"]
    src = toolchain.cpp / "older_names.cpp"
    assert races and races[0]["line"] == toolchain.marker_line(src, "fill_race")
    assert "InitGlobalMemory" in races[0]["message"] and "MTE3_MTE2" in races[0]["message"]


def test_a_scalar_store_of_the_bytes_a_fill_left_is_no_race_but_another_value_is(older, toolchain):
    """cann-ops BevPool zeroes its output with InitGlobalMemory and then with SetValue(i, 0), with no sync between:
    storing the bytes already there cannot change the result in any order (the hazard model's same-bytes rule, now
    also for GlobalTensor::SetValue); storing another value after the unsynchronised fill is a race (twin)."""
    _, _, exe = older
    same = subprocess.run([str(exe), str(exe.parent), "store_same"], capture_output=True, text=True, timeout=60)
    assert same.returncode == 0 and "COTBUILDER_DIAG" not in same.stderr, same.stderr
    other = subprocess.run([str(exe), str(exe.parent), "store_other"], capture_output=True, text=True, timeout=60)
    assert other.returncode == 3
    races = [x for x in toolchain.parse_diags(other.stderr) if x["kind"] == "race"]
    assert races and races[0]["line"] == toolchain.marker_line(toolchain.cpp / "older_names.cpp", "store_after_fill")


def test_get_reduce_max_min_count_gives_the_best_of_all_repeats_and_its_index(older):
    """GetReduceMaxMinCount (now GetReduceRepeatMaxMinSpr) after WholeReduceMax over 8 repeats: the largest value and
    its element offset, in the bits of a float; after ReduceMin only the value (the page: the index is not accurate,
    so it holds no index)."""
    d, x, exe = older
    proc = subprocess.run([str(exe), str(d), "maxmin"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "COTBUILDER_DIAG" not in proc.stderr, proc.stderr
    o = _out(d, "maxmin", np.float32)
    assert o[0] == x.max() and o[1:2].view(np.uint32)[0] == int(np.argmax(x))
    assert o[2] == x[:100].min() and o[3:4].view(np.uint32)[0] == 0xFFFFFFFF


def test_the_max_min_register_read_after_a_counter_mode_reduction_is_the_kernels_rule_break(older, toolchain):
    """Its page does not support reading the register after a Mask Counter reduction (cann-ops isamax/icamax do):
    the value is undefined, so the kernel is wrong whatever it computed - a rule break (failed_run), not a gap."""
    _, _, exe = older
    proc = subprocess.run([str(exe), str(exe.parent), "maxmin_counter"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3
    found = [x for x in toolchain.parse_diags(proc.stderr) if x["kind"] == "maxmin_counter_mode"]
    assert found and found[0]["line"] == toolchain.marker_line(toolchain.cpp / "older_names.cpp", "maxmin_counter")
    assert found[0]["severity"] == "error" and "counter mode" in found[0]["message"].lower()
    assert "maxmin_counter_mode" in diagnostics.RULE_BREAKS
