"""Tolerance is one function of the dtype; an element fails only beyond both bounds; NaN/Inf must match."""

from __future__ import annotations

import numpy as np
import pytest

from cotbuilder.verify import compare


def test_default_tolerances_by_dtype():
    assert compare.tolerance("float32") == (1e-4, 1e-4)
    assert compare.tolerance("float16") == (1e-3, 1e-3)
    assert compare.tolerance("bfloat16") == (1e-3, 1e-3)
    assert compare.tolerance("int32") == (0.0, 0.0)
    assert compare.tolerance("half") == compare.tolerance("float16")


def test_element_fails_only_beyond_both_absolute_and_relative_bound():
    expected = np.array([1000.0, 0.0, 1.0], dtype=np.float32)
    # 0.05 off at 1000 is within rtol (1e-4 * 1000 = 0.1) though beyond atol: passes
    ok = compare.compare(np.array([1000.05, 0.0, 1.0], np.float32), expected, "float32")
    assert ok["ok"] and ok["mismatches"] == 0
    bad = compare.compare(np.array([1000.5, 0.0, 1.0], np.float32), expected, "float32")
    assert not bad["ok"] and bad["mismatches"] == 1
    assert bad["max_abs_err"] == pytest.approx(0.5, abs=1e-3)


def test_integers_compare_exactly():
    assert not compare.compare(np.array([1, 2, 4], np.int32), np.array([1, 2, 3], np.int32), "int32")["ok"]
    assert compare.compare(np.array([1, 2, 3], np.int32), np.array([1, 2, 3], np.int32), "int32")["ok"]


@pytest.mark.parametrize(
    "actual, expected, ok",
    [
        ([np.nan], [np.nan], True),
        ([np.inf], [np.inf], True),
        ([1.0], [np.nan], False),
        ([np.nan], [1.0], False),
        ([-np.inf], [np.inf], False),
        ([np.inf], [65504.0], False),
    ],
)
def test_nan_and_inf_must_match_exactly(actual, expected, ok):
    assert compare.compare(np.array(actual, np.float16), np.array(expected, np.float16), "float16")["ok"] is ok


def test_size_mismatch_fails():
    res = compare.compare(np.zeros(3, np.float32), np.zeros(4, np.float32), "float32")
    assert not res["ok"] and "size" in res["error"]


def test_bfloat16_bits_round_to_nearest_even_and_compare_as_floats():
    bits = compare.float_to_bf16_bits(np.array([1.0, 1.00390625, 1.01171875], np.float32))
    # 1 + 2^-8 is a tie between 1.0 and 1.0078125: rounds to even (1.0); 1 + 3*2^-8 rounds up to 1.015625
    assert list(bits) == [0x3F80, 0x3F80, 0x3F82]
    assert compare.compare(bits, bits, "bfloat16")["ok"]


def test_ulp_distance_counts_16_bit_steps_across_zero():
    one = np.float16(1.0)
    up2 = np.nextafter(np.nextafter(one, np.float16(2)), np.float16(2))
    tiny = np.float16(2.0**-24)  # the smallest float16 subnormal
    got = compare.ulp_distance(
        np.array([up2, tiny, -0.0, 3.0], np.float64), np.array([one, -tiny, 0.0, 3.0], np.float64), "float16"
    )
    assert got.tolist() == [2, 2, 0, 0]
    bf = compare.ulp_distance(np.array([1.0 + 2**-7], np.float64), np.array([1.0], np.float64), "bfloat16")
    assert bf.tolist() == [1]


def test_a_16_bit_mismatch_records_how_many_steps_off_it_is():
    want = np.full(4, 3.0, np.float16)
    got = want.copy()
    got[1] = np.float16(3.0 + 2 * 2.0**-9)  # two float16 steps above 3: 0.0039 abs, 0.0013 rel, a mismatch
    r = compare.compare(got, want, "float16", atol=1e-3, rtol=1e-3)
    assert r["mismatches"] == 1 and r["max_ulp"] == 2
    r32 = compare.compare(got.astype(np.float32), want.astype(np.float32), "float32", atol=1e-3, rtol=1e-3)
    assert r32["mismatches"] == 1 and "max_ulp" not in r32  # a float32 step is far below any tolerance
