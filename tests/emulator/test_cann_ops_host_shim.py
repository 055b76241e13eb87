"""Host-shim pieces cann-ops op hosts rely on (emulator/tests/cann_ops_host_shim.cpp, real g++ build): the platform
description a TilingFunc gets answers the emulated SoC's core counts when nothing filled it (a 0 made coalesce_sparse
divide by zero and foreach_non_finite_check_and_unscale refuse to tile), GET_TILINGKEY packs one decimal digit per
field with the first lowest (RecursiveSum the same digits without the marker, checked at compile time), the tiling template keeps tilingKey_ / blockDim_ / the platform in the base class,
REPORT_INNER_ERR_MSG logs under its error code, InitValue takes typed scalars, AlogCheckDebugLevel says debug logging
is off, a project's own AlignUp template wins over the shim's instead of clashing with it, runtime2_util.h's
GetCompileInfoPtr hands TilingParse its compile info, and the shims' own code compiles when a project defined
OP_LOGE as a printf of a name first."""

from __future__ import annotations

import subprocess


def test_cann_ops_host_pieces_compute_what_the_op_hosts_rely_on(toolchain, tmp_path):
    exe = toolchain.build(toolchain.cpp / "cann_ops_host_shim.cpp", tmp_path / "cann_ops_shim")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "24 24 48"  # GetCoreNum defaults to the AI cores (910B: 24 cube), VectorCore 48
    assert lines[1] == "48 5"  # SetCoreNumByCoreType / SetCoreNum win over the default
    assert lines[2] == "703"  # GET_TILINGKEY(3, 0, 7) below the marker digit: 7 0 3
    assert lines[3] == "0 1025 20 [4, 6]"  # key and block dim set by the steps through the base's members
    assert lines[4] == "1"
    assert "[ERROR] EZ9999: op[Padded], ptr is nullptr!" in proc.stderr
    assert lines[5] == "9 1 3 2"  # FLOAT16 holds 1.0, INT32 holds 2 (2.5 written for an integer type)
    assert lines[6] == "65 4"  # the project's AlignUp<uint32_t> ran (not ambiguous with the shim's), CeilDiv the shim's
    assert lines[7] == "0 48"  # GetCompileInfoPtr gave TilingParse the context's compile info to fill
    assert lines[8] == "0 1"  # AlogCheckDebugLevel: debug off (no COTBUILDER_HOST_LOG), errors on
