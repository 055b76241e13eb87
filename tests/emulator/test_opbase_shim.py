"""The ops-base host shim (emulator/include/util/*.h, infershape_*_util.h, op_host/tiling_base_class.h,
op_kernel/*_util.h: the `Ops::Base` library hicann ops-* repos fetch from another repository) behaves as op host code
relies on: integer division and alignment (constexpr for kernels), shape printing and the unknown-shape conventions,
const inputs read as shapes, element-wise and numpy broadcast InferShape through the UT context builder (shapes that
do not broadcast fail), and the tiling template running its steps in order. Real g++ build of
emulator/tests/opbase_shim.cpp."""

from __future__ import annotations

import subprocess


def test_opbase_helpers_compute_what_op_hosts_rely_on(toolchain, tmp_path):
    exe = toolchain.build(toolchain.cpp / "opbase_shim.cpp", tmp_path / "opbase")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "4 3 64 0"  # CeilDiv, FloorDiv, CeilAlign; a zero divisor gives 0
    assert lines[1] == "[1] [2, 3] DT_FLOAT16"  # a scalar is treated as [1]
    assert lines[2] == "1 1 [-1, -1]"  # unknown rank is [-2], unknown dims -1
    assert lines[3] == "0 [4, 5, 6]"  # [4,1,6] broadcast with [5,1]
    assert lines[4] == "0 [4, 1, 6]"  # element-wise: input 0's shape
    assert lines[5] == "1 [4, 1, 6] 1 4"  # the int32 const input as a shape, and its first value
    assert lines[6] == "0"  # [4,1,6] and [3,2] do not broadcast: not a success
    assert "do not broadcast" in proc.stderr
    assert lines[7] == "0 7 shape platform op lib workspace post"
    assert lines[8] == "32 48 0"  # UB block, the 910B's vector cores, not a register-based SoC
