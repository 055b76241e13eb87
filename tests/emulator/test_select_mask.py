"""Select's selMask in the type Compare writes it: Compare.md lists int8_t for the mask, Select.md lists unsigned
types only, and the mask is read bit by bit - so an int8_t mask selects exactly as a uint8_t one (the reference
answers of NPUKernelBench's comparison tasks ran on chips that way), while a type no page lists for a mask (half)
still does not build."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

N = 256


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "select_mask.cpp", tmp_path_factory.mktemp("selmask") / "selmask")


def _expected() -> list[float]:
    i = np.arange(N)
    x, y = (i % 7 - 3).astype(np.float32), (i % 5 - 2).astype(np.float32)
    return np.where(x < y, x, np.float32(0)).tolist()


@pytest.mark.parametrize("mask", ["i8", "u8"])
def test_select_on_the_mask_compare_wrote_keeps_the_lesser_elements(exe, mask):
    proc = subprocess.run([str(exe), mask], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = [float(v) for v in proc.stdout.split()]
    assert got == _expected()
    assert 0 < sum(v != 0 for v in got) < N  # both branches taken


def test_a_half_mask_is_still_refused_by_the_legality_table_naming_select(toolchain, tmp_path):
    reason, log = toolchain.legality_refusal(toolchain.cpp / "select_mask.cpp", tmp_path, "HALF_MASK")
    assert reason and "Select does not support this U" in reason and "Select.md" in reason, log
