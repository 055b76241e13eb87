"""Hardware rules the emulator enforces: each broken kernel in cpp/diag_cases.cpp yields its
COTBUILDER_DIAG line with the caller's file and line, and the right exit code."""

from __future__ import annotations

import subprocess

import pytest

# case -> (severity, exit code)
CASES = {
    "ub_overflow": ("error", 3),
    "misaligned_ub": ("error", 3),
    "datacopy_rounddown": ("warning", 0),
    "gm_out_of_bounds": ("error", 3),
    "deque_empty": ("error", 3),
    "alloc_exhausted": ("error", 3),
    "double_free": ("error", 3),
    "tensor_leak": ("warning", 0),  # the real implementation does not check it; nothing breaks
    "enque_deque_mismatch": ("error", 3),
}


@pytest.fixture(scope="module")
def diag_exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "diag_cases.cpp", tmp_path_factory.mktemp("diag") / "diag_cases")


def run_case(exe, case: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(exe), case], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_kernel_reports_its_rule_at_the_calling_line(toolchain, diag_exe, case):
    severity, code = CASES[case]
    proc = run_case(diag_exe, case)
    diags = toolchain.parse_diags(proc.stderr)
    mine = [d for d in diags if d["kind"] == case]
    assert mine, proc.stderr
    d = next((m for m in mine if m["severity"] == severity), mine[0])  # ub_overflow: InitBuffer's warning first
    src = toolchain.cpp / "diag_cases.cpp"
    assert d["severity"] == severity
    assert d["file"].endswith("diag_cases.cpp")
    assert d["line"] == toolchain.marker_line(src, case), d
    assert d["block"] == 0
    assert proc.returncode == code, proc.stderr
    assert "canary corrupted" not in proc.stdout


def test_clean_kernel_has_no_diagnostics_and_exits_zero(toolchain, diag_exe):
    proc = run_case(diag_exe, "clean")
    assert proc.returncode == 0, proc.stderr
    assert toolchain.parse_diags(proc.stderr) == []
    assert "x[0..9]=0 2 4 6 8 10 12 14 16 18" in proc.stdout


def test_datacopy_moves_only_whole_32_byte_blocks(diag_exe):
    proc = run_case(diag_exe, "datacopy_rounddown")
    # 10 floats = 40 bytes: only the first 8 floats reach GM
    assert "x[0..9]=5 5 5 5 5 5 5 5 8 9" in proc.stdout, proc.stdout


def test_out_of_bounds_gm_write_is_stopped_at_the_buffer_end(diag_exe):
    proc = run_case(diag_exe, "gm_out_of_bounds")
    assert proc.returncode == 3
    assert "canary corrupted" not in proc.stdout


def test_ub_capacity_follows_the_soc(toolchain, diag_exe):
    """208 KB of buffers overflow the 910B's 192 KB UB but fit the 310P's 256 KB."""
    import os

    env = {**os.environ, "COTBUILDER_SOC": "ascend310p"}
    proc = run_case(diag_exe, "ub_overflow", env=env)
    assert proc.returncode == 0, proc.stderr
    assert toolchain.parse_diags(proc.stderr) == []
    pinned = toolchain.build(
        toolchain.cpp / "diag_cases.cpp", diag_exe.parent / "diag_small_ub", extra=["-DCOTBUILDER_SOC_UB_BYTES=65536"]
    )
    proc = run_case(pinned, "clean")
    assert proc.returncode == 0
    proc = run_case(pinned, "ub_overflow", env=env)
    assert {d["kind"] for d in toolchain.parse_diags(proc.stderr)} == {"ub_overflow"}


def test_buffers_placed_past_the_ub_are_an_error_only_when_touched(toolchain, diag_exe):
    proc = run_case(diag_exe, "ub_overflow_untouched")
    diags = toolchain.parse_diags(proc.stderr)
    assert [(d["kind"], d["severity"]) for d in diags] == [("ub_overflow", "warning")], proc.stderr
    assert diags[0]["line"] == toolchain.marker_line(toolchain.cpp / "diag_cases.cpp", "ub_overflow_untouched")
    assert proc.returncode == 0


def test_missing_api_fails_to_compile_naming_it(toolchain, tmp_path):
    src = tmp_path / "uses_missing.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        "void f(AscendC::LocalTensor<float> a) { AscendC::MmadWithSparse(a, a, a, {}); }\n"
        "AscendC::SparseMatmulType<int> mm;\n"
    )
    proc = toolchain.compile(src, tmp_path / "uses_missing")
    assert proc.returncode != 0
    assert "'MmadWithSparse' is not a member of 'AscendC'" in proc.stderr  # sparse cube: genuinely not emulated
    assert "'SparseMatmulType' in namespace 'AscendC' does not name a template type" in proc.stderr
