"""The ISA reduce intrinsics kernels call under the API (vcadd, get_acc_val, the mask-mode switches: isa_reduce.h), as
NPUKernelBench's norm answers do: each gives what the documented API built on it gives (WholeReduceSum, the count
form of ReduceSum with GetReduceRepeatSumSpr), and a raw pointer outside UB is an emulator error, never a read."""

from __future__ import annotations

import subprocess

import pytest

from cotbuilder.verify import diagnostics


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "isa_reduce.cpp", tmp_path_factory.mktemp("isa") / "isa_reduce")


def _values(exe, case: str) -> list[float]:
    proc = subprocess.run([str(exe), case], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [float(v) for v in proc.stdout.split()]


def test_accumulating_vcadd_leaves_the_sum_of_its_repeats_in_acc_val_and_a_second_call_replaces_it(exe):
    assert _values(exe, "acc") == [sum(range(1, 193)), sum(range(193, 201))]


def test_accumulating_vcadd_in_counter_mode_sums_the_count_read_by_both_register_apis(exe):
    assert _values(exe, "counter") == [sum(range(1, 201))] * 2


def test_vcadd_without_accumulating_writes_one_sum_per_repeat_like_whole_reduce_sum(exe):
    assert _values(exe, "repeat") == [sum(range(1 + 64 * r, 65 + 64 * r)) for r in range(3)]


def test_accumulating_vcadd_on_half_leaves_a_half_in_the_registers_low_bits(exe):
    assert _values(exe, "half")[0] == sum(range(1, 65))


def test_vcadd_on_a_pointer_past_ub_is_an_emulator_error(exe):
    proc = subprocess.run([str(exe), "outside"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3, proc.stderr[-3000:]
    kinds = {d["kind"] for d in diagnostics.errors(diagnostics.parse_emulator_diagnostics(proc.stderr)[0])}
    assert "ub_out_of_bounds" in kinds, proc.stderr[-2000:]


def test_reading_acc_val_after_a_vcadd_that_does_not_accumulate_is_flagged_and_gives_no_sum(exe):
    """Hardware-wrong: the per-repeat form writes dst, not the register; a kernel reading the register after it gets
    no sum of its data - the emulator says so (a warning) and the value is not the data's sum."""
    proc = subprocess.run([str(exe), "unset"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    kinds = {d["kind"] for d in diagnostics.parse_emulator_diagnostics(proc.stderr)[0]}
    assert "reduce_spr_unset" in kinds, proc.stderr[-2000:]
    assert [float(v) for v in proc.stdout.split()] == [0.0, -1.0]
