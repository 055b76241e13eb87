"""PairReduceSum (CANN API reference): adjacent pairs summed, a repeat's results half its length, dstRepStride in
reduced repeats (128 bytes); with a mask, only active elements are added and pairs with none stay untouched."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "pair_reduce.cpp", tmp_path_factory.mktemp("pair") / "pair_reduce")


def run(exe, case: str) -> np.ndarray:
    proc = subprocess.run([str(exe), case], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return np.array(proc.stdout.split(), dtype=np.float64)


def test_pairs_of_two_full_repeats_are_summed_back_to_back(exe):
    x = np.arange(128, dtype=np.float64)
    want = np.full(128, -1.0)
    want[:64] = x[0::2] + x[1::2]
    np.testing.assert_array_equal(run(exe, "full"), want)


def test_masked_pairs_add_only_active_elements_and_dst_stride_counts_reduced_repeats(exe):
    x = np.arange(128, dtype=np.float64)
    want = np.full(128, -1.0)
    for r in range(2):  # mask 5: elements 0..4 of each 64-float repeat; dstRepStride 2 = 64 results apart
        base = 64 * r
        want[64 * r : 64 * r + 3] = [x[base] + x[base + 1], x[base + 2] + x[base + 3], x[base + 4]]
    np.testing.assert_array_equal(run(exe, "masked"), want)
