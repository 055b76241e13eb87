"""The arch-2201 special-register header some kernels include by path: it resolves, its sub-block getters and
SetSysWorkspace work, and a register the emulator does not model stops the build naming itself - which verify
labels `unsupported` (an emulator gap), never failed_compile."""

from __future__ import annotations

import subprocess

import pytest

from cotbuilder.verify import diagnostics


def test_kernel_including_the_register_header_builds_and_reads_its_sub_block_and_core_type(toolchain, tmp_path):
    exe = toolchain.build(toolchain.cpp / "reg_others.cpp", tmp_path / "reg_others")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0", "1", "1"]  # sub-block 0 of 1, g_coreType == AIV


@pytest.mark.parametrize("macro,name", [("USE_RSVD_CNT", "GetRsvdCnt")])  # GetAccVal is modelled now (isa_reduce.h)
def test_an_unmodelled_register_refuses_the_build_by_name_and_is_an_emulator_gap(toolchain, tmp_path, macro, name):
    proc = toolchain.compile(
        toolchain.cpp / "reg_others.cpp", tmp_path / "x.o", after_pch=["-fsyntax-only", f"-D{macro}"]
    )
    assert proc.returncode != 0
    kind, names = diagnostics.unsupported_gap(proc.stderr)
    assert kind in ("missing in emulator", "emulator gap") and names[0].startswith(name), (kind, names)
