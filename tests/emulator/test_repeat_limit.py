"""MAX_REPEAT_TIMES (255, the toolkit's constant kernels size repeat loops with): chunks of that many repeats cover
300 repeats of an Adds; the hardware-wrong twin's chunks of 256 are taken as 0 repeats by the 8-bit repeatTime, so
its first 256 repeats are never computed."""

from __future__ import annotations

import subprocess

import pytest


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "repeat_limit.cpp", tmp_path_factory.mktemp("rep") / "repeat_limit")


def _run(exe, case: str) -> list[int]:
    proc = subprocess.run([str(exe), case], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [int(v) for v in proc.stdout.split()]


def test_chunks_of_max_repeat_times_cover_every_repeat(exe):
    assert _run(exe, "") == [255, 300 * 64, 300 * 64]


def test_chunks_one_repeat_over_the_limit_leave_the_first_chunk_uncomputed(exe):
    limit, right, n = _run(exe, "over")
    assert limit == 255 and right == n - 256 * 64
