"""The 0.3.0 basic additions against numpy: the sort family (Sort32 -> MrgSort with and without suspension,
ProposalConcat -> RpSort16 -> MrgSort4 -> ProposalExtract), Transpose (16x16, NCHW <-> NHWC), TransDataTo5HD
(16-bit and the 8-bit half-block form), Cast to int4b_t, DataCopy with SliceInfo, and the small resource/utility
APIs samples need (TBuf::AllocTensor, GetPhyAddr as a usable address, PopStackBuffer, Set/GetShapeInfo,
SetL2CacheHint, AscendCUtils::SetOverflow, GetDataBlockSizeInBytes, Sin/Cos). One C++ program (emulator/tests/basic_more.cpp)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest


@pytest.fixture(scope="module")
def more(toolchain, tmp_path_factory):
    d = tmp_path_factory.mktemp("basic_more")
    rng = np.random.default_rng(31)
    inp = {
        # few distinct values so that ties (equal scores) are exercised
        "scores": rng.integers(-20, 20, 128).astype(np.float32),
        "hscores": rng.integers(-50, 50, 64).astype(np.float16),
        "th": rng.uniform(-4, 4, 256).astype(np.float16),
        "t8": rng.integers(-128, 127, 512).astype(np.int8),
        "angles": rng.uniform(-3, 3, 8).astype(np.float32),
        "sl": rng.uniform(-1, 1, 256).astype(np.float16),
        "i4": np.concatenate([rng.uniform(-9.5, 8.5, 250), [2.5, -2.5, 0.5, 7.6, -8.6, 100.0]]).astype(np.float16),
    }
    for name, arr in inp.items():
        arr.tofile(d / f"{name}.bin")
    exe = toolchain.build(toolchain.cpp / "basic_more.cpp", d / "basic_more")
    env = {k: v for k, v in os.environ.items() if k != "COTBUILDER_SOC"}
    proc = subprocess.run([str(exe), str(d)], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "COTBUILDER_DIAG" not in proc.stderr, proc.stderr
    return d, inp


def _out(d: Path, name: str, dtype) -> np.ndarray:
    return np.fromfile(d / f"out_{name}.bin", dtype=dtype)


def _pairs(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(scores, indices) of float (score, index) pair records."""
    rec = raw.view(np.uint32).reshape(-1, 2)
    return rec[:, 0].view(np.float32), rec[:, 1]


def _stable_desc(scores: np.ndarray) -> np.ndarray:
    return np.argsort(-scores.astype(np.float64), kind="stable")


def test_sort32_sorts_each_group_of_32_descending_with_ties_in_index_order(more):
    d, inp = more
    s, idx = _pairs(_out(d, "sort", np.float32)[256:512])
    for g in range(4):
        want = g * 32 + _stable_desc(inp["scores"][g * 32 : (g + 1) * 32])
        assert np.array_equal(idx[g * 32 : (g + 1) * 32], want)
        assert np.array_equal(s[g * 32 : (g + 1) * 32], inp["scores"][want])


def test_mrgsort_merges_four_sorted_queues_into_one_stable_order(more):
    d, inp = more
    s, idx = _pairs(_out(d, "sort", np.float32)[:256])
    # merged order: by score descending; equal scores: the earlier queue first, then position in the queue,
    # which for Sort32 output is the original index order -> a stable sort of the whole input
    want = _stable_desc(inp["scores"])
    assert np.array_equal(s, inp["scores"][want])
    assert np.array_equal(idx, want)


def test_mrgsort_with_exhausted_suspension_stops_when_a_queue_runs_out(more):
    d, inp = more
    counts = _out(d, "sort_counts", np.uint32)
    q = [g * 32 + _stable_desc(inp["scores"][g * 32 : (g + 1) * 32]) for g in range(4)]
    q[0] = q[0][:8]
    pos, merged = [0, 0, 0, 0], []
    while all(pos[i] < len(q[i]) for i in range(4)):
        best = max(range(4), key=lambda i: (inp["scores"][q[i][pos[i]]], -i))
        merged.append(q[best][pos[best]])
        pos[best] += 1
    assert list(counts) == pos
    s, idx = _pairs(_out(d, "sort", np.float32)[512:768])
    n = len(merged)
    assert n == sum(pos) and np.array_equal(idx[:n], merged)
    assert np.all(_out(d, "sort", np.float32)[512 + 2 * n : 768] == -1.0)  # nothing written past the stop


def test_region_proposal_path_sorts_half_scores_descending(more):
    d, inp = more
    got = _out(d, "sort_half", np.float16)
    assert np.array_equal(got, np.sort(inp["hscores"])[::-1])


def test_transpose_16x16_and_nchw_nhwc_round_trip(more):
    d, inp = more
    out = _out(d, "transpose", np.float16)
    x = inp["th"]
    assert np.array_equal(out[:256], x.reshape(16, 16).T.reshape(-1))
    nchw = x[:96].reshape(2, 3, 4, 4)
    assert np.array_equal(out[256:352], nchw.transpose(0, 2, 3, 1).reshape(-1))
    assert np.array_equal(out[352:448], x[:96])


def test_transdata_to_5hd_transposes_16_blocks(more):
    d, inp = more
    out = _out(d, "transpose", np.float16)
    assert np.array_equal(out[512:768], inp["th"].reshape(16, 16).T.reshape(-1))
    got8 = _out(d, "transpose8", np.int8).reshape(16, 32)
    src8 = inp["t8"].reshape(16, 32)
    assert np.array_equal(got8[:, :16], src8[:, :16].T)  # low halves from positions 0..15
    assert np.array_equal(got8[:, 16:], src8[:, 16:].T)  # high halves from positions 16..31


def test_small_resource_and_utility_apis(more):
    d, inp = more
    m = _out(d, "misc", np.float32)
    assert m[0] == 64 and m[1] == 24  # ShapeInfo travels with tensor copies (Local) and is kept (Global)
    assert m[2] == 1 and m[3] == 192 * 1024 - 1024 - 256  # PopStackBuffer: all UB not yet given out (910B)
    assert m[4] == 32 and m[5] == 1 and m[6] == 256 and m[7] == 5.5
    np.testing.assert_allclose(m[8:16], np.sin(inp["angles"]), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(m[16:24], np.cos(inp["angles"]), rtol=1e-6, atol=1e-6)


def _pack_int4(values: np.ndarray) -> np.ndarray:
    nib = np.clip(values, -8, 7).astype(np.int8) & 0xF
    return (nib[::2] | (nib[1::2] << 4)).astype(np.uint8)


def test_cast_to_int4_packs_two_saturated_values_per_byte_low_nibble_first(more):
    d, inp = more
    got = _out(d, "int4", np.uint8)
    x = inp["i4"].astype(np.float64)
    assert np.array_equal(got[:128], _pack_int4(np.rint(x)))  # ties to even: 2.5 -> 2, -2.5 -> -2
    assert np.array_equal(got[128:], _pack_int4(np.ceil(x)))  # repeat form, as in the asc-devkit cast sample


def test_datacopy_with_slice_info_moves_the_selected_rows_and_column_runs(more):
    d, inp = more
    want = inp["sl"].reshape(4, 64)[[1, 3]][:, np.r_[8:24, 32:48]]
    assert np.array_equal(_out(d, "slice", np.float16), want.reshape(-1))
