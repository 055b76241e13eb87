"""Cube-side instructions in the pipe-hazard model, with kernels written here (emulator/tests/cube_sync_checks.cpp).

- CrossCoreSetFlag / CrossCoreWaitFlag within the core that sets and waits: in an all-core group (mode 0) a core
  waits for its own set too, and the set goes out only after its pipe's earlier work (CrossCoreSetFlag(ISASI).md),
  so that work is ordered before everything after the wait (on the A2 family the wait holds every pipe:
  CrossCoreWaitFlag(ISASI).md).
- Fill runs on PIPE_MTE2 into L1 and on PIPE_MTE1 into L0A / L0B (Fill.md, 约束说明)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest


@pytest.fixture(scope="module")
def sync_exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "cube_sync_checks.cpp", tmp_path_factory.mktemp("cubesync") / "cube_sync")


def run(exe: Path, d: Path, case: str) -> subprocess.CompletedProcess:
    x = np.random.default_rng(7).uniform(-1, 1, 2 * 64).astype(np.float32)
    x.tofile(d / "x.bin")
    return subprocess.run([str(exe), str(d), case], capture_output=True, text=True, timeout=60)


def test_an_all_core_set_on_the_writing_pipe_orders_the_own_write_before_the_read_after_the_wait(
    sync_exe, tmp_path, toolchain
):
    proc = run(sync_exe, tmp_path, "own_pipe")
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    x = np.fromfile(tmp_path / "x.bin", dtype=np.float32)
    got = np.fromfile(tmp_path / "out_sum.bin", dtype=np.float32)
    np.testing.assert_allclose(got, x[:64] * 1 + x[64:] * 2, rtol=1e-6)


def test_an_all_core_set_on_another_pipe_leaves_the_own_write_unordered_a_race_at_the_read(
    sync_exe, tmp_path, toolchain
):
    proc = run(sync_exe, tmp_path, "wrong_pipe")
    races = [d for d in toolchain.parse_diags(proc.stderr) if d["kind"] == "race"]
    assert races, proc.stderr
    assert "read-after-write on GM" in races[0]["message"] and "MTE3_MTE2" in races[0]["message"], races[0]
    assert races[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_sync_checks.cpp", "read_back")


@pytest.mark.parametrize("case", ["fill_l1_synced", "fill_l0_synced"])
def test_fill_then_mmad_with_the_sync_of_fills_pipe_runs_clean_and_right(sync_exe, tmp_path, toolchain, case):
    proc = subprocess.run([str(sync_exe), str(tmp_path), case], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and not toolchain.parse_diags(proc.stderr), proc.stderr
    np.testing.assert_array_equal(np.fromfile(tmp_path / "out_c.bin", dtype=np.float32), np.full(256, 16.0))


def test_a_fill_into_l1_is_on_mte2_so_loaddata_without_mte2_mte1_sync_is_a_race(sync_exe, tmp_path, toolchain):
    proc = subprocess.run(
        [str(sync_exe), str(tmp_path), "fill_l1_unsynced"], capture_output=True, text=True, timeout=60
    )
    races = [d for d in toolchain.parse_diags(proc.stderr) if d["kind"] == "race"]
    assert races and "L1" in races[0]["message"] and "MTE2_MTE1" in races[0]["message"], proc.stderr
    assert races[0]["line"] == toolchain.marker_line(toolchain.cpp / "cube_sync_checks.cpp", "load_filled")
