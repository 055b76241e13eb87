"""The toolkit's implementation-layer functions kernels call with raw pointers (TransDataTo5HDImpl, DuplicateImpl,
DataCopyUB2GMImpl): each does what the documented API above it does - TransDataTo5HD.md's int32_t example for the
32-bit transpose - and a raw pointer outside UB is an emulator error, never a silent write."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from cotbuilder.verify import diagnostics


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "impl_layer.cpp", tmp_path_factory.mktemp("impl") / "impl_layer")


def _run(exe, case: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), case], capture_output=True, text=True, timeout=60)


def test_transdata_to_5hd_impl_on_int32_turns_16_blocks_of_8_into_their_8_by_16_transpose(exe):
    proc = _run(exe, "b32")
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = np.array([int(v) for v in proc.stdout.split()]).reshape(8, 16)
    assert (got == np.arange(128).reshape(16, 8).T).all()


def test_transdata_to_5hd_impl_on_half_address_values_is_a_16_by_16_transpose(exe):
    proc = _run(exe, "b16")
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = np.array([float(v) for v in proc.stdout.split()]).reshape(16, 16)
    assert (got == np.arange(256, dtype=np.float64).reshape(16, 16).T).all()


def test_duplicate_impl_and_datacopy_ub2gm_impl_fill_and_copy_whole_blocks(exe):
    proc = _run(exe, "fill")
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = [int(v) for v in proc.stdout.split()]
    assert got[:64] == [7] * 64 and got[64:] == [-1, -1]  # 4 blocks copied, GM past them untouched (0xFF)


def test_duplicate_impl_on_a_pointer_past_ub_is_an_emulator_error(exe):
    proc = _run(exe, "outside")
    assert proc.returncode == 3, proc.stderr[-3000:]
    kinds = {d["kind"] for d in diagnostics.errors(diagnostics.parse_emulator_diagnostics(proc.stderr)[0])}
    assert "ub_out_of_bounds" in kinds, proc.stderr[-2000:]


def test_datacopy_ub2gm_impl_past_the_end_of_its_gm_allocation_is_an_emulator_error(exe):
    """Hardware-wrong twin of the fill case: the raw GM pointer is checked against its allocation, as DataCopy's."""
    proc = _run(exe, "gm_past")
    assert proc.returncode == 3, proc.stderr[-3000:]
    errors = diagnostics.errors(diagnostics.parse_emulator_diagnostics(proc.stderr)[0])
    assert any(d["kind"] == "gm_out_of_bounds" and "DataCopy" in d["message"] for d in errors), proc.stderr[-2000:]
