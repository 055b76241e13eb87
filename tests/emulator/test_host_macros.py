"""Host names op hosts take from the toolkit's headers: OPS_LOG_E_IF_NULL logs a null pointer by its name and runs
the caller's statement (here a failing return), ASCENDC_EXTERN_C gives an exported tiling function C linkage, and
the tiling template header brings platform_ascendc along.
Real g++ build of emulator/tests/host_macros.cpp; `nm` reads the symbol."""

from __future__ import annotations

import subprocess


def test_a_null_input_is_logged_by_name_and_returns_the_callers_failure(toolchain, tmp_path):
    exe = toolchain.build(toolchain.cpp / "host_macros.cpp", tmp_path / "host_macros")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["1", "1", "1"]  # a real input succeeds, the null one fails; platform_ascendc seen
    assert "shape is nullptr" in proc.stderr and "HostMacros" in proc.stderr
    symbols = subprocess.run(["nm", str(exe)], capture_output=True, text=True, timeout=60).stdout.split()
    assert "CheckInput" in symbols  # unmangled: C linkage
