"""Element types the docs' lists leave out but the NPU build of the toolkit takes (its checks of them are asserts
under ASCENDC_CPU_DEBUG, asc-devkit dav_c220), run with what the instructions do instead of refused as failed_compile:
a uint16_t dst mask for Compare / Compares (the bits are written byte by byte: cann-ops adaptive_max_pool3d, radius),
and And / Or on 8- and 32-bit integers in the count form, which on A2 counts 16-bit lanes (And.md 约束说明: count
doubled for int32_t; cann-ops gather_v3's And<uint8_t>). A half mask is still refused."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

N = 256


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "mask_types.cpp", tmp_path_factory.mktemp("masktypes") / "mask_types")


def _run(exe, mode: str) -> np.ndarray:
    proc = subprocess.run([str(exe), mode], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "COTBUILDER_DIAG" not in proc.stderr, proc.stderr[-3000:]
    return np.array([int(v) for v in proc.stdout.split()], np.uint8)


def test_compare_and_compares_into_a_uint16_mask_write_the_uint8_bits(exe):
    i = np.arange(N)
    x, y = (i % 7 - 3).astype(np.float32), (i % 5 - 2).astype(np.float32)
    got = _run(exe, "cmp16")
    assert got[: N // 8].tolist() == np.packbits(x < y, bitorder="little").tolist()
    assert got[N // 8 :].tolist() == np.packbits(x >= 0, bitorder="little").tolist()


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(64)
    return (i * 37 + 11).astype(np.uint8), (i * 91 + 5).astype(np.uint8)


@pytest.mark.parametrize("mode", ["and8", "and32"])
def test_and_or_count_form_covers_count_16_bit_lanes_whatever_the_type(exe, mode):
    x, y = _inputs()
    got = _run(exe, mode)
    covered = 32  # count 16 lanes of 2 bytes: 32 bytes, for uint8_t (16 elements asked) and int32_t (8 of 16) alike
    untouched = np.full(64 - covered, 0xEE, np.uint8)
    assert got[:64].tolist() == [*(x & y)[:covered], *untouched]
    assert got[64:].tolist() == [*(x | y)[:covered], *untouched]
    # the hardware-wrong reading, count elements of the type: 16 bytes for uint8_t, all 64 for int32_t
    assert got[16:32].tolist() != [0xEE] * 16 and got[32:64].tolist() == [0xEE] * 32


def test_a_half_compare_mask_is_still_refused_naming_compare(toolchain, tmp_path):
    reason, log = toolchain.legality_refusal(toolchain.cpp / "mask_types.cpp", tmp_path, "HALF_CMP_MASK")
    assert reason and "Compare does not support this U" in reason and "Compare.md" in reason, log
