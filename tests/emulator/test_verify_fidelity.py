"""The fidelity checks as the verify stage records them (real g++, real sandbox, real DuckDB): a kernel with a
missing pipe sync is stored failed_run naming both lines and the missing sync, an illegal element type is
failed_compile naming the API, the type and the doc page, and every cpu verification records its scheduler seeds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cotbuilder.store import Store
from cotbuilder.verify.stage import VerifyConfig, run

from ..conftest import link_run_pch

# the verify tests' folder -> unit helper (tests are not a package)
_spec = importlib.util.spec_from_file_location("unitdir", Path(__file__).resolve().parents[1] / "verify" / "unitdir.py")
unitdir = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(unitdir)


@pytest.fixture
def verify_workspace(tmp_path, shared_verify_cache) -> Path:
    """A fresh workspace with its own builds on the run's precompiled header."""
    ws = tmp_path / "ws"
    link_run_pch(ws / "cache" / "verify", shared_verify_cache)
    return ws


SPEC = """
kernel = "k.cpp"
entry = "k"
block_dim = 1
seeds = [0]

[[inputs]]
name = "x"
shape = [256]
dtype = "{dtype}"

[[inputs]]
name = "y"
shape = [256]
dtype = "{dtype}"

[[outputs]]
name = "z"
shape = [256]
dtype = "{dtype}"

[reference]
python = '''
import numpy as np
def reference(x, y):
    return (x + y).astype(x.dtype)
'''
"""

# z = x + y through TBufs; SYNC_IN is the MTE2 -> V sync the broken copy leaves out.
KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR ws, GM_ADDR tiling) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, 256 * sizeof(T)), pipe.InitBuffer(by, 256 * sizeof(T)), pipe.InitBuffer(bz, 256 * sizeof(T));
    GlobalTensor<T> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ T*)x, 256), gy.SetGlobalBuffer((__gm__ T*)y, 256), gz.SetGlobalBuffer((__gm__ T*)z, 256);
    LocalTensor<T> a = bx.Get<T>(), b = by.Get<T>(), c = bz.Get<T>();
    DataCopy(a, gx, 256);
    DataCopy(b, gy, 256);
    SYNC_IN
    Add(c, a, b, 256);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(gz, c, 256);
}
"""
SYNC = "SetFlag<HardEvent::MTE2_V>(EVENT_ID0); WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);"


def _unit(root: Path, name: str, ctype: str, dtype: str, sync: str) -> dict:
    folder = root / name
    folder.mkdir()
    (folder / "k.cpp").write_text(f"using T = {ctype};\n" + KERNEL.replace("SYNC_IN", sync))
    (folder / "verify_spec.toml").write_text(SPEC.format(dtype=dtype))
    return unitdir.unit_from_dir(folder, layout="kernel_launch", name=name)


def test_the_verify_stage_records_races_illegal_types_and_run_time_gaps_with_their_rule(verify_workspace, tmp_path):
    """Beside the race and the illegal type: the emulator stops with `unsupported_api` on a variant it does not model
    (SetLoadDataBoundary with a non-zero boundary). That is a gap of cotbuilder, stored `unsupported` naming the
    variant - it was failed_run, a verdict on code the emulator never judged; the same kernel without the call
    (add_synced) passes."""
    unitdir.add_units(
        verify_workspace,
        _unit(tmp_path, "add_synced", "float", "float32", SYNC),
        _unit(tmp_path, "add_race", "float", "float32", ""),
        _unit(tmp_path, "add_bf16", "bfloat16_t", "bfloat16", SYNC),
        _unit(tmp_path, "add_boundary", "float", "float32", SYNC + " SetLoadDataBoundary(64);"),
    )
    with Store(verify_workspace) as store:
        run(store, VerifyConfig(progress=False, jobs=2))
        rows = {
            r["name"]: r for r in store.rows("SELECT u.name, v.* FROM verifications v JOIN units u USING (unit_id)")
        }
    assert rows["add_synced"]["status"] == "passed", rows["add_synced"]["reason"]
    race = rows["add_race"]
    assert race["status"] == "failed_run"
    assert "race" in race["reason"] and "MTE2_V" in race["reason"]
    assert "Add at k.cpp:" in race["reason"] and "DataCopy at k.cpp:" in race["reason"]  # both lines
    illegal = rows["add_bf16"]
    assert illegal["status"] == "failed_compile"
    assert "cotbuilder legality: Add" in illegal["reason"] and "T = bfloat16_t" in illegal["reason"]
    assert "基础算术/Add.md" in illegal["reason"]
    gap = rows["add_boundary"]
    assert gap["status"] == "unsupported", gap["reason"]
    assert "SetLoadDataBoundary with a non-zero boundary" in gap["reason"]
    assert "SetLoadDataBoundary with a non-zero boundary" in gap["missing_apis"]
    assert all(r["timings"]["schedule_seeds"] == [0] for r in rows.values() if r["timings"])


def test_more_schedules_are_another_verification(verify_workspace, tmp_path):
    unitdir.add_units(verify_workspace, _unit(tmp_path, "add_synced", "float", "float32", SYNC))
    with Store(verify_workspace) as store:
        run(store, VerifyConfig(progress=False))
        again = run(store, VerifyConfig(progress=False))
        more = run(store, VerifyConfig(progress=False, schedules=3))
        seeds = [r["timings"]["schedule_seeds"] for r in store.rows("SELECT timings FROM verifications")]
    assert again.counts["kept"] == 0 and more.counts["kept"] == 1
    assert sorted(seeds) == [[0], [0, 1, 2]]
