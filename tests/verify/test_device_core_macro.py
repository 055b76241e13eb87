"""`__CCE_AICORE__`, the device compiler's core-version macro: NPUKernelBench kernels test it 500+ times
(`#if __CCE_AICORE__ == 220` picks the Atlas A2 path, a bfloat16 specialisation among others; 200 is the 310P
path). An op project's kernel prelude defines it for the SoC; host code (g++ on the real toolchain) never sees it. A
kernel launch's main and kernel build as one translation unit, where a `#ifdef __CCE_AICORE__` host/device split
would lose the host: it is not defined there. Checked by compiling the generated text with the real g++."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cotbuilder.verify import build, cmake_defines
from cotbuilder.verify.opproject import kernel_glue

PROBE = """
#if !defined(__CCE_AICORE__)
#error no core macro
#elif __CCE_AICORE__ == 220
int picked = 220;
#elif __CCE_AICORE__ == 200
int picked = 200;
#endif
static_assert(__CCE_AICORE__ == EXPECTED, "wrong core version");
"""

OP = {"inputs": [], "outputs": [], "type": "ProbeOp"}


def _compile(tmp_path: Path, prelude: str, soc: str, expected: int) -> subprocess.CompletedProcess:
    tu = tmp_path / f"probe_{soc}.cpp"
    tu.write_text(prelude + PROBE)
    argv = ["g++", "-std=c++17", "-fsyntax-only", f"-D{build.SOC_DEFINES[soc]}", f"-DEXPECTED={expected}", str(tu)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("soc,expected", [("ascend910b", 220), ("ascend310p", 200)])
def test_kernel_preludes_define_the_core_version_of_the_soc(tmp_path, soc, expected):
    prelude = kernel_glue.prelude(OP, None, "cotbuilder_kernel_v0", [], None, False)
    res = _compile(tmp_path, prelude, soc, expected)
    assert res.returncode == 0, (prelude, res.stderr)


def test_host_code_and_a_kernel_launch_do_not_see_the_device_macro(tmp_path):
    tu = tmp_path / "host.cpp"
    host_only = "#ifdef __CCE_AICORE__\n#error host code sees the device macro\n#endif\nint main() { return 0; }\n"
    tu.write_text(cmake_defines.defines_header({"files": []}, "ascend910b") + host_only)
    res = subprocess.run(
        ["g++", *build.base_flags("ascend910b"), "-fsyntax-only", str(tu)], capture_output=True, text=True, timeout=60
    )
    assert res.returncode == 0, res.stderr
