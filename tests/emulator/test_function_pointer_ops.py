"""AscendC APIs passed as function pointers in the toolkit's types (NPUKernelBench's Foreach kernels: `Acos<half,
false>` as a `void (*)(dst, src, const uint32_t)` template argument, `Add<T>` as `void (*)(dst, src0, src1, const
int32_t&)`): every emulated API ends in a source-location parameter, so the address form (an empty trailing pack) is
what converts. Built with the real g++ against the emulator and run; the results are checked against numpy. 27 of the
benchmark's level-2 reference answers failed to build before."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest


@pytest.fixture(scope="module")
def ops_exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "function_pointer_ops.cpp", tmp_path_factory.mktemp("fp") / "ops")


@pytest.fixture(scope="module")
def run_ops(ops_exe):
    return subprocess.run([str(ops_exe)], capture_output=True, text=True, timeout=60)


def test_apis_passed_as_function_pointers_compute_what_a_direct_call_does(run_ops):
    assert run_ops.returncode == 0, run_ops.stderr[-3000:]
    got = np.array([[float(v) for v in line.split()] for line in run_ops.stdout.split("\n") if line.strip()])
    x = np.float32(0.01) * np.array([0, 1, 10, 63], dtype=np.float32)
    want = np.stack([x + x, x * np.float32(3), np.exp(x), np.arccos(x), x - x])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_a_call_with_an_extra_argument_is_still_no_matching_function(toolchain, tmp_path):
    """The address form takes no extra argument: a wrong call stays the kernel's compile error, worded as before."""
    proc = toolchain.compile(
        toolchain.cpp / "function_pointer_ops.cpp", tmp_path / "x.o", after_pch=["-fsyntax-only", "-DWRONG_CALL"]
    )
    assert proc.returncode != 0 and "no matching function for call to 'Add(" in proc.stderr, proc.stderr[-3000:]


def test_a_call_through_the_pointer_that_overruns_its_buffer_is_still_caught(ops_exe, run_ops):
    """Hardware-wrong twin: the same kernel, its Acos call through the pointer running past the end of the buffer.
    The address form forwards to the checked implementation: the overrun is an error (exit status 3), only the
    caller's line is unknown."""
    bad = subprocess.run([str(ops_exe), "overrun"], capture_output=True, text=True, timeout=60)
    assert run_ops.returncode == 0 and "COTBUILDER_DIAG" not in run_ops.stderr, run_ops.stderr[-2000:]
    assert bad.returncode == 3, (bad.returncode, bad.stderr[-3000:])
    errors = [ln for ln in bad.stderr.splitlines() if ln.startswith("COTBUILDER_DIAG") and '"error"' in ln]
    assert errors and "called through a function pointer" in errors[0], bad.stderr[-3000:]


def test_mask_forms_passed_as_function_pointers_compute_what_a_direct_call_does(toolchain, tmp_path):
    """The bit-mask and continuous-mask forms ("level 0") have an address form too: `Sub` as a
    `void (*)(dst, src0, src1, uint64_t, const uint8_t, const BinaryRepeatParams&)` template argument, as
    NPUKernelBench's Foreach level-zero kernels pass it (6 of its reference answers were `unsupported` for want of it),
    `Div` with a bit mask, `Abs` and `Adds` with a continuous mask. Run and checked against numpy."""
    exe = toolchain.build(toolchain.cpp / "function_pointer_level0.cpp", tmp_path / "level0")
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-3000:]
    got = np.array([[float(v) for v in line.split()] for line in run.stdout.split("\n") if line.strip()])
    i = np.array([0, 1, 10, 63], dtype=np.float32)
    x, y = np.float32(0.25) * (i - np.float32(20)), np.float32(1) + np.float32(0.5) * i
    want = np.stack([x - y, x / y, np.abs(x), x + np.float32(0.5)])
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_a_mask_form_call_through_the_pointer_that_overruns_its_buffer_is_still_caught(toolchain, tmp_path):
    """Hardware-wrong twin of the mask-form kernel: its Adds call through the pointer takes two repeats from the last
    repeat of the buffer. The address form forwards to the checked implementation: an error (exit status 3) naming
    the call through a function pointer; the same program with one repeat has no diagnostic."""
    exe = toolchain.build(toolchain.cpp / "function_pointer_level0.cpp", tmp_path / "level0")
    good = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    bad = subprocess.run([str(exe), "overrun"], capture_output=True, text=True, timeout=60)
    assert good.returncode == 0 and "COTBUILDER_DIAG" not in good.stderr, good.stderr[-2000:]
    assert bad.returncode == 3, (bad.returncode, bad.stderr[-3000:])
    errors = [ln for ln in bad.stderr.splitlines() if ln.startswith("COTBUILDER_DIAG") and '"error"' in ln]
    assert errors and "called through a function pointer" in errors[0], bad.stderr[-3000:]
