"""A TQue passed by value: the real TQueBind is copyable and its copy works on the same buffer states (they live in
the pipe), so kernels hand queues to helpers by value. The emulator's copy shares the original's buffers: a kernel
doing that compiles and computes, and the queue rules still catch a buffer kept or freed twice across copies."""

from __future__ import annotations

import subprocess

import pytest


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "queue_copy.cpp", tmp_path_factory.mktemp("qcopy") / "queue_copy")


def run(exe, case: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(exe), case], capture_output=True, text=True, timeout=60)


def test_helper_taking_the_queue_by_value_computes_and_returns_the_buffer(toolchain, exe):
    proc = run(exe, "by_value_helper")
    assert proc.returncode == 0, proc.stderr
    assert toolchain.parse_diags(proc.stderr) == []
    assert "x[0..4]=0 4 8 12 16" in proc.stdout


def test_tensor_taken_through_a_copy_is_freed_through_the_original_cleanly(toolchain, exe):
    proc = run(exe, "alloc_in_copy_free_in_original")
    assert proc.returncode == 0, proc.stderr
    assert toolchain.parse_diags(proc.stderr) == []


def test_in_place_alloc_and_deque_and_the_untyped_deque_compute_cleanly(toolchain, exe):
    proc = run(exe, "in_place_and_untyped")
    assert proc.returncode == 0, proc.stderr
    assert toolchain.parse_diags(proc.stderr) == []
    assert "x[0..4]=0 3 6 9 12" in proc.stdout


@pytest.mark.parametrize(
    "case,kind",
    [
        ("copy_keeps_buffer", "alloc_exhausted"),
        ("copy_double_free", "double_free"),
        ("untyped_deque_empty", "deque_empty"),  # the untyped DeQue keeps the typed one's checks
    ],
)
def test_buffer_kept_or_freed_twice_across_copies_is_caught(toolchain, exe, case, kind):
    proc = run(exe, case)
    diags = [d for d in toolchain.parse_diags(proc.stderr) if d["kind"] == kind]
    assert diags, proc.stderr
    assert diags[0]["line"] == toolchain.marker_line(toolchain.cpp / "queue_copy.cpp", kind)
    assert proc.returncode == 3
