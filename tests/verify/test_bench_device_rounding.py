"""The benchmark harness leaves open (never wrong, never passed) a case whose float16/bfloat16 outputs differ from the
CPU reference by rounding only: NPUKernelBench's golden is computed on the NPU in the 16-bit dtype, ours on the CPU in
float32, so two steps either way say nothing of the kernel. Anything further, any NaN, any integer output stays
wrong. Real comparisons of real arrays (goldens.judge_case with the benchmark's rule)."""

from __future__ import annotations

import numpy as np

from cotbuilder.verify import goldens, harness_bench


def _judge(got: np.ndarray, want: np.ndarray, dtype: str) -> dict:
    sealed = goldens.Sealed()
    sealed.goldens["golden_0.bin"] = goldens.Golden(want.tobytes(), dtype)
    return goldens.judge_case(
        sealed, {"output_0.bin": got.tobytes()}, atol=1e-3, rtol=1e-3, pairs=[("output_0.bin", "golden_0.bin")]
    )


def _steps(values: np.ndarray, n: int) -> np.ndarray:
    out = values.copy()
    for _ in range(n):
        out = np.nextafter(out, np.float16(np.inf))
    return out


def test_float16_outputs_two_steps_off_are_rounding():
    want = np.linspace(2.0, 3.9, 64).astype(np.float16)
    got = want.copy()
    got[::7] = _steps(want[::7], 2)
    case = _judge(got, want, "float16")
    assert case["ok"] is False  # the benchmark's rule fails them
    assert harness_bench.rounding_only(case["outputs"])


def test_three_steps_off_nan_or_integers_stay_wrong():
    want = np.linspace(2.0, 3.9, 64).astype(np.float16)
    far = want.copy()
    far[5] = _steps(want[5:6], 3)[0]
    assert not harness_bench.rounding_only(_judge(far, want, "float16")["outputs"])
    nan = want.copy()
    nan[3] = np.nan
    assert not harness_bench.rounding_only(_judge(nan, want, "float16")["outputs"])
    ints = np.arange(16, dtype=np.int32)
    assert not harness_bench.rounding_only(_judge(ints + (ints == 4), ints, "int32")["outputs"])


def test_bfloat16_one_step_off_is_rounding():
    from cotbuilder.verify import compare

    values = np.linspace(1.0, 7.0, 32, dtype=np.float32)
    want = compare.float_to_bf16_bits(values)
    got = want.copy()
    got[10] += 1  # one bfloat16 step (positive values): 0.4-0.8% of the value, a mismatch under the rule
    case = _judge(got, want, "bfloat16")
    assert case["ok"] is False and harness_bench.rounding_only(case["outputs"])
