"""Tiling registration in the forms real op hosts use (emulator/tests/tiling_registry.cpp): with and without a
trailing `;`, several ops and tiling-key variants with different structs in one header, and the
-DCOTBUILDER_TILING_TYPE override. The demo corpus's own op-project tiling headers compile with their kernels."""

from __future__ import annotations

import subprocess

from .conftest import REPO


def test_plain_get_tiling_data_reads_the_first_non_keyed_registration(toolchain, tmp_path):
    exe = toolchain.build(toolchain.cpp / "tiling_registry.cpp", tmp_path / "tiling")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["16384", "8", "-5", str(1 << 40), "6"]


def test_cotbuilder_tiling_type_overrides_the_registered_struct(toolchain, tmp_path):
    exe = toolchain.build(
        toolchain.cpp / "tiling_registry.cpp",
        tmp_path / "tiling_other",
        extra=["-DCOTBUILDER_TILING_TYPE=optiling::OtherTiling", "-DEXPECT_OTHER"],
    )
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["2500", "0", "0", str(1 << 40), "6"]


def test_get_tiling_data_without_any_registration_fails_naming_the_fix(toolchain, tmp_path):
    src = tmp_path / "none.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void k(GM_ADDR t) { GET_TILING_DATA(d, t); (void)d; }\n'
    )
    proc = toolchain.compile(src, tmp_path / "none.o", after_pch=["-fsyntax-only"])
    assert proc.returncode != 0
    assert "no REGISTER_TILING_DATA_CLASS in namespace optiling" in proc.stderr


def test_demo_op_project_kernels_compile_with_their_tiling_headers(toolchain, tmp_path):
    projects = sorted(p for p in (REPO / "examples" / "op_project").iterdir() if (p / "op_host").is_dir())
    assert projects
    failures = {}
    for proj in projects:
        header = next((proj / "op_host").glob("*_tiling.h"))
        if "tiling/tiling_api.h" in header.read_text():  # Matmul tiling: cube, outside the emulator
            continue
        kernel = next((proj / "op_kernel").glob("*.cpp"))
        # msOpGen's build defines DTYPE_<PARAM> per dtype variant (opproject/kernel_glue.py); one variant here
        proc = toolchain.compile(
            kernel,
            tmp_path / f"{proj.name}.o",
            after_pch=["-fsyntax-only", "-DDTYPE_X=half", "-DDTYPE_Y=half", "-include", str(header)],
        )
        if proc.returncode != 0:
            failures[proj.name] = proc.stderr[-1500:]
    assert not failures, failures
