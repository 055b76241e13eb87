"""The device compiler's system-variable intrinsics (get_block_idx, get_block_num, get_subblockid, get_subblockdim):
a kernel calls them undeclared, as on the device, and they report the hardware's view - the logical core in a mixed
launch, with the sub-block telling its AIVs apart - which is not GetBlockIdx()'s view on an AIV."""

from __future__ import annotations

import subprocess

import pytest

from cotbuilder.verify import diagnostics


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "device_sysvars.cpp", tmp_path_factory.mktemp("sysvars") / "sysvars")


def _rows(values: list[int]) -> list[tuple[int, ...]]:
    return [tuple(values[i : i + 4]) for i in range(0, len(values), 4)]


def _run(exe, case: str) -> list[int]:
    proc = subprocess.run([str(exe), case], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [int(v) for v in proc.stdout.split()]


def test_a_grid_stride_loop_on_get_block_idx_and_get_block_num_gives_each_block_its_tiles(exe):
    assert _run(exe, "tiles") == [t % 3 for t in range(10)]


def test_in_a_mixed_launch_get_block_idx_is_the_logical_core_and_the_sub_block_tells_the_aivs_apart(exe):
    rows = _rows(_run(exe, "mixed"))
    # slot = core * 2 + sub: (get_block_idx, get_subblockid, get_subblockdim, GetBlockIdx)
    assert rows == [(0, 0, 2, 0), (0, 1, 2, 1), (1, 0, 2, 2), (1, 1, 2, 3)]


def test_a_kernel_taking_get_block_idx_for_the_aiv_index_is_caught_racing_its_sibling_aiv(exe):
    # both AIVs of core c write slot c: a cross-core write-after-write the emulator reports (exit 3), as a race
    proc = subprocess.run([str(exe), "mixed_wrong"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3
    diags = diagnostics.errors(diagnostics.parse_emulator_diagnostics(proc.stderr)[0])
    assert diags and {d["kind"] for d in diags} == {"race"}
    assert all("write-after-write on GM" in d["message"] for d in diags)


def test_a_plain_kernel_is_the_aiv_for_the_core_macros_only_when_its_build_says_it_is_a_vector_kernel(exe):
    """A kernel of no declared AIC/AIV type: as built plainly, ASCEND_IS_AIV is false (the launch's core is not known:
    a cube kernel's `if ASCEND_IS_AIV return;` must not end it); built as the op build builds a kernel using no Cube
    API, it is the AIV, as the device compiler builds it - its `if ASCEND_IS_AIV { ... }` work runs (NPUKernelBench's
    RmsNorm skipped its reduction and wrote NaN before). g_coreType says AIV either way."""
    assert _run(exe, "plain") == [0, 1]
    assert _run(exe, "plain_vector") == [1, 1, 1]
