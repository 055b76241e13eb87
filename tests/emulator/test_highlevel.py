"""High-level (library) APIs of the emulator against numpy: one C++ program (emulator/tests/highlevel_checks.cpp) runs a
kernel per API group on numpy-generated inputs; each test checks one group's outputs, plus the host tiling API."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest

N = 256
R, C = 8, 64


@pytest.fixture(scope="module")
def hl(toolchain, tmp_path_factory):
    """Build and run emulator/tests/highlevel_checks.cpp once; returns (output dir, inputs, host JSON facts)."""
    d = tmp_path_factory.mktemp("hl")
    rng = np.random.default_rng(7)
    inp = {
        "x": rng.uniform(-3, 3, N).astype(np.float32),
        "y": rng.uniform(0.5, 2, N).astype(np.float32),
        "z": rng.uniform(1, 50, N).astype(np.float32),
        "w": rng.uniform(-1, 1, N).astype(np.float32),
        "mask": rng.integers(0, 2, N).astype(np.uint8),
        "i16a": rng.integers(-32768, 32767, N, dtype=np.int16),
        "i16b": rng.integers(-32768, 32767, N, dtype=np.int16),
        "sx": rng.uniform(-4, 4, R * C).astype(np.float32),
        "sg": rng.uniform(-1, 1, R * C).astype(np.float32),
        "smask": rng.integers(0, 2, R * C).astype(np.uint8),
        "sxi": rng.integers(-1000, 1000, R * C).astype(np.int32),
        "nx": rng.uniform(-5, 5, 128).astype(np.float32),
        "ndy": rng.uniform(-1, 1, 128).astype(np.float32),
        "ngb": rng.uniform(-2, 2, 32).astype(np.float32),
        "nzorig": rng.uniform(-100, 100, (1, 2, 32, 32)).astype(np.float16),
    }
    # the same data in NZ order [B, N, H/N/16, S/16, 16, 16] for Transpose NZ2ND_0213
    inp["nz"] = np.ascontiguousarray(inp["nzorig"].reshape(1, 2, 2, 16, 2, 16).transpose(0, 1, 4, 2, 3, 5))
    inp["i16b"][:8] = 0  # LogicalAnd must see some zeros
    for k, v in inp.items():
        v.tofile(d / f"{k}.bin")
    exe = toolchain.build(toolchain.cpp / "highlevel_checks.cpp", d / "highlevel_checks")
    run = subprocess.run([str(exe), str(d)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "COTBUILDER_DIAG" not in run.stderr, run.stderr[-3000:]
    return d, inp, json.loads(run.stdout.strip().splitlines()[-1])


def _out(d: Path, name: str, dtype) -> np.ndarray:
    return np.fromfile(d / f"out_{name}.bin", dtype=dtype)


def _close(got, want, rtol=2e-6, atol=1e-6):
    np.testing.assert_allclose(got, np.asarray(want, dtype=np.float64), rtol=rtol, atol=atol)


def test_elementwise_math_and_activation_apis_match_numpy(hl):
    d, i, _ = hl
    x, y, z, w, m = (i[k].astype(np.float64) for k in ("x", "y", "z", "w", "mask"))
    r = _out(d, "math", np.float32).reshape(24, N)
    erf = np.vectorize(math.erf)
    gelu = lambda v: v / (1 + np.exp(-1.5957691216057308 * (v + 0.044715 * v**3)))  # noqa: E731
    want = [
        np.arccosh(z),
        np.ceil(x),
        x - np.trunc(x),
        np.rint(x),
        erf(x),
        np.fmod(x, y),
        y**x,
        y**3,
        x * y + w,
        np.maximum(x, -0.5),
        np.minimum(x, 0.5),
        np.minimum(np.maximum(x, w), 0.75),
        np.where(m != 0, x, -7.0),
        1 / (1 + np.exp(-x)),
        gelu(x),
        x / (1 + np.exp(-x)),
        x / (1 + np.exp(-1.702 * x)),
        x * gelu(y),
        x * y / (1 + np.exp(-0.5 * y)),
        np.exp(x),
        np.log(y),
        1.5 - 0.25 * np.arange(N),
    ]
    for k, ref in enumerate(want):
        _close(r[k], ref, rtol=3e-6, atol=2e-6)
    # CumSum along rows of 16, each partial sum stored in float32
    cs = np.cumsum(i["x"].reshape(16, 16), axis=1, dtype=np.float32).reshape(-1)
    _close(r[22], cs, rtol=1e-6, atol=1e-6)
    _close(r[23], 2 * x)


def test_bitwise_logical_and_gm_fill(hl):
    d, i, _ = hl
    a, b = i["i16a"], i["i16b"]
    r = _out(d, "bits16", np.int16).reshape(3, N)
    np.testing.assert_array_equal(r[0], a ^ b)
    np.testing.assert_array_equal(r[1], a & b)
    np.testing.assert_array_equal(r[2], ~a)
    lg = _out(d, "logical", np.uint8).reshape(4, N)
    np.testing.assert_array_equal(lg[0], ((a != 0) & (b != 0)).astype(np.uint8))
    np.testing.assert_array_equal(lg[1], ((a != 0) ^ (b != 0)).astype(np.uint8))
    np.testing.assert_array_equal(lg[2], (b == 0).astype(np.uint8))
    np.testing.assert_array_equal(lg[3], np.zeros(N, np.uint8))
    np.testing.assert_array_equal(_out(d, "fill", np.float32), np.full(64, 2.5, np.float32))


def test_softmax_family_rowwise_with_block_broadcast_max_and_sum(hl):
    d, i, _ = hl
    x = i["sx"].astype(np.float64).reshape(R, C)
    g = i["sg"].astype(np.float64).reshape(R, C)
    r = _out(d, "softmax", np.float32).reshape(5, R, C)
    red = _out(d, "softmax_red", np.float32).reshape(8, R, 8)
    mx = x.max(axis=1, keepdims=True)
    e = np.exp(x - mx)
    s = e.sum(axis=1, keepdims=True)
    sm = e / s
    _close(r[0], sm)
    _close(red[0], np.repeat(s, 8, axis=1), rtol=3e-6)  # sum broadcast over one 32-byte block per row
    _close(red[1], np.repeat(mx, 8, axis=1))
    # SoftmaxFlashV2 in two column halves: the update pass folds the first half's max / sum in
    left, right = x[:, : C // 2], x[:, C // 2 :]
    m1 = left.max(axis=1, keepdims=True)
    m2 = np.maximum(m1, right.max(axis=1, keepdims=True))
    flat = r[1].reshape(-1)
    _close(flat[: R * C // 2].reshape(R, C // 2), np.exp(left - m1))
    _close(flat[R * C // 2 :].reshape(R, C // 2), np.exp(right - m2))
    _close(red[2], np.repeat(np.exp(m1 - m2), 8, axis=1))
    _close(red[6], np.repeat(s, 8, axis=1), rtol=3e-6)
    _close(red[7], np.repeat(mx, 8, axis=1))
    _close(r[2], np.log10(sm), rtol=1e-5, atol=2e-6)  # LogSoftMax follows the docs' log10 reference
    front = (g * r[0].astype(np.float64)).sum(axis=1, keepdims=True)
    _close(red[3], np.repeat(front, 8, axis=1), rtol=1e-5, atol=1e-6)
    _close(r[3], (g - front) * r[0], rtol=1e-5, atol=1e-6)


def test_layernorm_grad_and_deepnorm_over_the_last_axis(hl):
    d, i, _ = hl
    B, S, H = 2, 4, 16
    x = i["nx"].astype(np.float64).reshape(B * S, H)
    dy = i["ndy"].astype(np.float64).reshape(B * S, H)
    gam, bet = i["ngb"][:H].astype(np.float64), i["ngb"][H:].astype(np.float64)
    r = _out(d, "norm", np.float32)
    nn, eps = B * S * H, 1e-5
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    rs = 1 / np.sqrt(var + eps)
    _close(r[:nn].reshape(B * S, H), gam * (x - mean) * rs + bet, rtol=1e-5, atol=1e-5)
    mv = r[4 * nn : 4 * nn + 64]
    _close(mv[:8], mean[:, 0], atol=1e-6)
    _close(mv[8:16], var[:, 0], rtol=1e-6)
    xm, pxl = x - mean, dy * gam
    pd_var = (-0.5 * pxl * xm * rs**3).sum(axis=1, keepdims=True)
    pd_mean = (-pxl * rs).sum(axis=1, keepdims=True) + pd_var / H * (-2 * xm).sum(axis=1, keepdims=True)
    pdx = pd_mean / H + 2 * pd_var / H * xm + pxl * rs
    _close(r[nn : 2 * nn].reshape(B * S, H), pdx, rtol=1e-4, atol=1e-4)
    _close(r[2 * nn : 3 * nn].reshape(B * S, H), xm * rs, rtol=1e-5, atol=1e-5)
    tail = r[4 * nn + 64 :]
    _close(tail[:H], (dy * xm * rs).sum(axis=0), rtol=1e-4, atol=1e-4)
    _close(tail[H:], dy.sum(axis=0), rtol=1e-5, atol=1e-5)
    v = 0.5 * x + dy
    vm = v.mean(axis=1, keepdims=True)
    vv = ((v - vm) ** 2).mean(axis=1, keepdims=True)
    _close(r[3 * nn : 4 * nn].reshape(B * S, H), gam * (v - vm) / np.sqrt(vv + eps) + bet, rtol=1e-5, atol=1e-5)
    _close(mv[16:24], vm[:, 0], atol=1e-6)


def test_reductions_broadcast_select_dropout_and_dequantize(hl):
    d, i, _ = hl
    x = i["sx"].reshape(R, C).astype(np.float64)
    m = i["smask"].reshape(R, C)
    r = _out(d, "misc", np.float32).reshape(6, R * C)
    _close(r[0][:R], x[:, : C - 3].sum(axis=1), rtol=1e-6)
    _close(r[0][64 : 64 + R], x[:, : C - 5].mean(axis=1), rtol=1e-6, atol=1e-6)
    _close(r[1][:R], x.max(axis=1))
    _close(r[1][64 : 64 + C], x.max(axis=0))
    _close(r[2].reshape(R, C), np.repeat(i["sx"][:R, None].astype(np.float64), C, axis=1))
    _close(r[3].reshape(R, C), np.where(m == 0, x, 9.0))
    _close(r[4].reshape(R, C), np.where(m != 0, x / 0.25, 0.0))
    _close(r[5].reshape(R, C), i["sxi"].reshape(R, C) * x[0][None, :], rtol=1e-6)


def test_ascend_quant_rounds_through_half_to_int8(hl):
    d, i, _ = hl
    h = i["sx"].astype(np.float16)
    want = np.clip(np.rint((h * np.float16(20.0)) + np.float16(0.5)), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(_out(d, "quant", np.int8), want)


def _philox4x32(ctr: list[int], key: list[int], rounds: int) -> list[int]:
    c, k = list(ctr), list(key)
    for r in range(rounds):
        if r:
            k = [(k[0] + 0x9E3779B9) & 0xFFFFFFFF, (k[1] + 0xBB67AE85) & 0xFFFFFFFF]
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [
            ((p1 >> 32) ^ c[1] ^ k[0]) & 0xFFFFFFFF,
            p1 & 0xFFFFFFFF,
            ((p0 >> 32) ^ c[3] ^ k[1]) & 0xFFFFFFFF,
            p0 & 0xFFFFFFFF,
        ]
    return c


def test_philox_random_matches_the_published_known_answer_vectors(hl):
    d, _, _ = hl
    p = _out(d, "philox", np.uint32)
    # Random123's philox4x32-10 known-answer vector for counter 0, key 0
    assert [int(v) for v in p[:4]] == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert [int(v) for v in p[4:8]] == _philox4x32([1, 0, 0, 0], [0, 0], 10)  # the counter advanced by one
    want = _philox4x32([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0], 10)
    assert [int(v) for v in p[8:12]] == want


def test_host_tiling_helpers_and_platform(hl):
    _, _, facts = hl
    assert facts["acosh_min"] <= facts["acosh_max"] and facts["acosh_max"] >= 1024 * 4
    assert (facts["sm_srcM"], facts["sm_srcK"], facts["sm_outMaxK"]) == (32, 64, 8)
    assert facts["ub"] == 192 * 1024 and facts["aiv"] > 0
    assert facts["shape_size"] == 24
    assert facts["shapeinfo"] == [70, 3, 0]


def test_topk_picks_k_extremes_per_row_with_stable_ties_and_finished_rows(hl):
    d, i, _ = hl
    x = i["sx"].reshape(R, C)
    v = _out(d, "topk_v", np.float32).reshape(2, R, 8)
    ix = _out(d, "topk_i", np.int32).reshape(2, R, 8)
    big = np.argsort(-x, axis=1, kind="stable")[:, :5]
    np.testing.assert_array_equal(ix[0][:, :5], big)
    np.testing.assert_array_equal(v[0][:, :5], np.take_along_axis(x, big, axis=1))
    small = np.argsort(x, axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(v[1][:, :3], np.take_along_axis(x, small, axis=1))
    want_i = small.copy()
    want_i[1, :] = C  # the finished row reports index n
    np.testing.assert_array_equal(ix[1][:, :3], want_i)


def test_sort_extract_descending_with_indices_and_shape_ops(hl):
    d, i, _ = hl
    x = i["sx"]
    o = _out(d, "order", np.float32)
    oi = o.view(np.uint32)
    order = np.argsort(-x[:128], kind="stable")
    np.testing.assert_array_equal(o[:128], x[:128][order])
    t = _out(d, "transpose", np.float16)
    np.testing.assert_array_equal(t[:2048], np.transpose(i["nzorig"], (0, 2, 1, 3)).reshape(-1))
    np.testing.assert_array_equal(t[2048:], i["nz"].reshape(-1)[:512].reshape(16, 32).T.reshape(-1))
    a8 = x[:64].reshape(8, 8)
    want_pad = np.full((8, 8), -1.0, np.float32)
    want_pad[:, 1:6] = a8[:, :5]
    np.testing.assert_array_equal(o[128:192], want_pad.reshape(-1))
    np.testing.assert_array_equal(o[192:448], x.reshape(8, 64)[:, 8:40].reshape(-1))
    np.testing.assert_array_equal(oi[1024:1152], 1000 + order)  # the index paired with each score


def test_welford_update_and_finalize_combine_partial_statistics(hl):
    d, i, _ = hl
    x = i["sx"].astype(np.float32)
    o = _out(d, "order", np.float32)
    m0 = (0.5 * np.arange(64)).astype(np.float32)
    v0 = (2.0 + np.arange(64)).astype(np.float32)
    n = np.float32(0.25)
    m1, v1 = m0.copy(), v0.copy()
    xs = x[:64]
    m1[:40] = m0[:40] + (xs[:40] - m0[:40]) * n
    v1[:40] = v0[:40] + (xs[:40] - m0[:40]) * (xs[:40] - m1[:40])
    np.testing.assert_allclose(o[512:576], m1, rtol=1e-6)
    np.testing.assert_allclose(o[576:640], v1, rtol=1e-6)
    c = np.arange(1, 9, dtype=np.float64)
    means, ms = x[:8].astype(np.float64), x[8:16].astype(np.float64)
    mean = (c * means).sum() / c.sum()
    var = (ms.sum() + (c * (means - mean) ** 2).sum()) / 36
    np.testing.assert_allclose([o[640], o[648]], [mean, var], rtol=1e-5)


def test_rmsnorm_ar_layernorm_with_rstd_and_normalize(hl):
    d, i, _ = hl
    x = i["nx"].astype(np.float64).reshape(8, 16)
    gam, bet = i["ngb"][:16].astype(np.float64), i["ngb"][16:].astype(np.float64)
    r = _out(d, "norm2", np.float32)
    _close(r[:128].reshape(8, 16), x / np.sqrt((x**2).mean(axis=1, keepdims=True) + 1e-6) * gam, rtol=1e-5, atol=1e-6)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    rs = 1 / np.sqrt(var + 1e-5)
    _close(r[128:256].reshape(8, 16), (x - mean) * rs * gam + bet, rtol=1e-5, atol=1e-5)
    _close(r[384:392], mean[:, 0], atol=1e-6)
    _close(r[392:400], rs[:, 0], rtol=1e-6)
    v2 = 0.5 + np.arange(8)[:, None]
    rs2 = 1 / np.sqrt(v2 + 1e-5)
    _close(r[256:384].reshape(8, 16), (x - r[384:392, None].astype(np.float64)) * rs2 * gam, rtol=1e-5, atol=1e-5)
    _close(r[408:416], rs2[:, 0], rtol=1e-6)


def test_isinf_isnan_flag_specials_and_hypot(hl):
    d, i, _ = hl
    x = i["x"].astype(np.float64).copy()
    x[:3] = [np.inf, -np.inf, np.nan]
    r = _out(d, "special", np.float32).reshape(3, N)
    np.testing.assert_array_equal(r[0], np.isinf(x).astype(np.float32))
    np.testing.assert_array_equal(r[1], np.isnan(x).astype(np.float32))
    _close(r[2][3:], np.hypot(x[3:], i["y"][3:].astype(np.float64)))


def test_a_library_function_whose_dst_overlaps_its_src_ahead_computes_from_src_as_it_was(hl):
    """Sigmoid into dst = src + N/2 (half a buffer ahead): every element is sigmoid of the input. An element-wise
    in-place loop overwrote src's second half before reading it (half the elements wrong, as NPUKernelBench's
    MulSigmoidMulAdd reference answer came out)."""
    d, i, _ = hl
    _close(_out(d, "overlap", np.float32), 1.0 / (1.0 + np.exp(-i["x"].astype(np.float64))), rtol=1e-6)


def test_batchnorm_over_the_batch_and_groupnorm_per_group(hl):
    d, i, _ = hl
    x = i["nx"].astype(np.float64)
    g = i["ngb"].astype(np.float64)
    r = _out(d, "norm2", np.float32)
    xb = x.reshape(4, 32)
    m, v = xb.mean(axis=0), xb.var(axis=0)
    want = g[:4, None] * (xb - m) / np.sqrt(v + 1e-5) + g[8:12, None]
    _close(r[416:544].reshape(4, 32), want, rtol=1e-5, atol=1e-5)
    _close(r[544:576], m, atol=1e-6)
    _close(r[576:608], v, rtol=1e-6)
    xg = x.reshape(2, 2, 2, 16)  # [N, G, C/G, HW]
    gm, gv = xg.mean(axis=(2, 3)), xg.var(axis=(2, 3))
    norm = ((xg - gm[:, :, None, None]) / np.sqrt(gv[:, :, None, None] + 1e-5)).reshape(2, 4, 16)
    want = g[:4][None, :, None] * norm + g[16:20][None, :, None]
    _close(r[608:736].reshape(2, 4, 16), want, rtol=1e-5, atol=1e-5)
    _close(r[736:740], gm.reshape(-1), atol=1e-6)
    _close(r[744:748], gv.reshape(-1), rtol=1e-6)
