"""Hardware numerics bit for bit against a small numpy model of what the docs describe:

- ReduceSum.md 关键特性说明: inside a repeat a binary tree (lanes pairwise, then the sums pairwise; ReduceDataBlock.md),
  every addition rounded to the operand type; across repeats in order (方式一: A2's count form) or again as a tree
  (方式二: the repeat forms, and every form on the other SoCs). ReduceRepeat (WholeReduceSum) and ReduceDataBlock
  (BlockReduceSum) are the per-repeat and per-block trees.
- SetCtrlSpr(ISASI).md (A2): half results saturate in saturation mode (inf -> +-65504, NaN -> 0; SetOverflow(0)) and
  keep inf / NaN in IEEE mode (SetOverflow(1));
- aclrtFloatOverflowMode (the runtime): a kernel starts in Inf/NaN mode on A2 / A3, the runtime's default, and in
  saturation mode after aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION).
- Sigmoid / Silu (高阶API 激活函数) on A2: the library's chain of vector instructions in the operand type
  (Muls -1, Exp, Adds 1, Div), each result rounded to half: cann-ops' MulSigmoid golden is computed the same way.
"""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

M, R, EPR = 5008, 20, 128


def h16(v) -> np.float16:
    return np.float16(np.float64(v))


def add(a, b) -> np.float16:
    """One half addition of the vector unit: exact sum (fits a double), rounded once to half."""
    return h16(np.float64(a) + np.float64(b))


def tree(lanes: np.ndarray) -> np.float16:
    v = [np.float16(x) for x in lanes]
    while len(v) > 1:
        v = [add(v[2 * i], v[2 * i + 1]) for i in range(len(v) // 2)]
    return v[0]


def repeat_sums(x: np.ndarray, active: list[int], repeats: int) -> list[np.float16]:
    out = []
    for r in range(repeats):
        lanes = np.zeros(EPR, np.float16)
        for j in active:
            if r * EPR + j < x.size:
                lanes[j] = x[r * EPR + j]
        out.append(tree(lanes))
    return out


def in_order(sums: list[np.float16]) -> np.float16:
    acc = sums[0]
    for s in sums[1:]:
        acc = add(acc, s)
    return acc


def tree_of_repeats(sums: list[np.float16]) -> np.float16:
    while len(sums) > 1:
        sums = [
            tree(np.pad(np.array(sums[i : i + EPR], np.float16), (0, EPR - len(sums[i : i + EPR]))))
            for i in range(0, len(sums), EPR)
        ]
    return sums[0]


@pytest.fixture(scope="module")
def numerics_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("numerics")


@pytest.fixture(scope="module")
def run(toolchain, numerics_dir):
    d = numerics_dir
    x = np.random.default_rng(12).uniform(-4, 4, M).astype(np.float16)
    x.tofile(d / "h.bin")
    exe = toolchain.build(toolchain.cpp / "numerics_checks.cpp", d / "numerics_checks")
    proc = subprocess.run([str(exe), str(d)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "COTBUILDER_DIAG" not in proc.stderr, proc.stderr
    sums, sat = np.fromfile(d / "out_sums.bin", np.float16), np.fromfile(d / "out_saturation.bin", np.float16)
    # again, the host having asked the runtime for saturation mode
    proc = subprocess.run([str(exe), str(d), "saturation"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "COTBUILDER_DIAG" not in proc.stderr, proc.stderr
    return x, sums, sat, np.fromfile(d / "out_saturation.bin", np.float16)


def _bits(v) -> int:
    return int(np.asarray(v, np.float16).view(np.uint16))


def test_count_form_reduce_sum_adds_repeat_trees_in_order_in_half(run):
    x, got, _, _ = run
    want = in_order(repeat_sums(x, list(range(EPR)), (M + EPR - 1) // EPR))
    assert _bits(got[0]) == _bits(want)
    # and it is not what summing in double and rounding once gives (the old emulator), for this data
    assert _bits(got[0]) != _bits(h16(x.astype(np.float64).sum()))


def test_repeat_form_reduce_sum_is_a_tree_across_repeats_too(run):
    x, got, _, _ = run
    assert _bits(got[16]) == _bits(tree_of_repeats(repeat_sums(x, list(range(EPR)), R)))
    mask = [j for j in range(64) if (0xF0F0F0F0F0F0F0F0 >> j) & 1] + [
        64 + j for j in range(64) if (0x00FF00FF00FF00FF >> j) & 1
    ]
    assert _bits(got[32]) == _bits(tree_of_repeats(repeat_sums(x, mask, R)))


def test_whole_and_block_reductions_are_trees_rounded_at_every_step(run):
    x, got, _, _ = run
    assert [_bits(v) for v in got[64 : 64 + R]] == [_bits(s) for s in repeat_sums(x, list(range(EPR)), R)]
    blocks = [tree(x[b * 16 : (b + 1) * 16]) for b in range(R * 8)]
    assert [_bits(v) for v in got[128 : 128 + R * 8]] == [_bits(s) for s in blocks]


def test_a_launch_starts_in_the_runtimes_inf_nan_mode_unless_the_host_asked_for_saturation(run):
    """A half overflow in a kernel that sets no mode is inf, as on a 910B under the default runtime (a saturated
    65504 there would fail a kernel the NPU runs right, against a torch golden holding inf)."""
    _, _, default, asked = run
    assert np.all(default[96:112] == np.float16(np.inf)) and default[112] == 1
    assert np.all(asked[96:112] == np.float16(65504)) and asked[112] == 0
    assert np.array_equal(asked[:96].view(np.uint16), default[:96].view(np.uint16))  # explicit modes: the same


def test_half_results_saturate_in_saturation_mode_and_keep_inf_nan_after_set_overflow(run):
    _, _, sat, _ = run
    max_half, inf = np.float16(65504), np.float16(np.inf)
    assert np.all(sat[0:16] == max_half) and np.all(sat[16:32] == max_half)  # 60000 + 60000, Cast 1e6
    assert np.all(sat[32:48] == inf) and np.all(sat[48:64] == inf)  # the same in IEEE mode
    assert np.all(sat[64:80] == max_half)  # saturation again: inf inputs give +-MAX
    assert np.all(sat[80:96] == 0)  # inf - inf = NaN -> 0


def _half_steps(x: np.ndarray) -> np.ndarray:
    """1 + exp(-x) as the vector unit computes it on half: every instruction's result rounded to half (exp and the
    arithmetic in float, as the emulator's vector instructions compute a half operand)."""
    m = (-x.astype(np.float32)).astype(np.float16)
    e = np.exp(m.astype(np.float32)).astype(np.float16)
    return (e.astype(np.float32) + np.float32(1)).astype(np.float16)


def test_sigmoid_and_silu_on_half_round_every_library_step_to_half(run, numerics_dir):
    x = run[0][:1024]
    got = np.fromfile(numerics_dir / "out_activation.bin", np.float16)
    d = _half_steps(x).astype(np.float32)
    sigmoid = (np.float32(1) / d).astype(np.float16)
    silu = (x.astype(np.float32) / d).astype(np.float16)
    assert np.array_equal(got[:1024].view(np.uint16), sigmoid.view(np.uint16))
    assert np.array_equal(got[1024:].view(np.uint16), silu.view(np.uint16))
    # the hardware-wrong answer, rounding the exact function once (the old emulator), differs for this data
    once = (1 / (1 + np.exp(-x.astype(np.float64)))).astype(np.float16)
    assert not np.array_equal(once.view(np.uint16), sigmoid.view(np.uint16))
