"""Integer division by zero in kernel code does not trap on the device (Catlass kernels compute `i % kLoopsNext`
before they know a next block exists): the emulator steps over the CPU's fault, gives x / 0 = 0 and x % 0 = x, and
reports `div_by_zero` once per core; outside a kernel the program still dies of SIGFPE. Real g++ builds and runs."""

from __future__ import annotations

import os
import signal
import subprocess


def test_a_kernel_dividing_by_zero_runs_on_with_the_documented_choice_and_a_warning_per_core(toolchain, tmp_path):
    exe = toolchain.build(toolchain.cpp / "div_zero.cpp", tmp_path / "div_zero")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["7", "0", "-5", "7", "21"] * 2
    warnings = [line for line in proc.stderr.splitlines() if '"kind":"div_by_zero"' in line]
    assert len(warnings) == 2 and all('"severity":"warning"' in w and "4 time(s)" in w for w in warnings), warnings


def test_a_division_by_zero_on_the_host_still_kills_the_program(toolchain, tmp_path):
    exe = toolchain.build(toolchain.cpp / "div_zero.cpp", tmp_path / "div_zero")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, env={**os.environ, "HOST_DIV": "1"})
    assert proc.returncode == -signal.SIGFPE, (proc.returncode, proc.stderr[-500:])
