"""How the benchmark runner's check step reads a task's custom_check_precision (bench_runner.py, no build): the
tolerances of a bare check_precision call are taken only when that call alone judged the very outputs handed over;
a check written out is measured on probes, and one of another shape yields nothing."""

from __future__ import annotations

import torch

from .test_bench_runner_rows import _runner


def _call(runner, ref, got, atol, rtol):
    return (ref, got, atol, rtol, runner._check_precision(ref, got, atol, rtol))


def test_a_bare_check_precision_call_declares_its_tolerances_and_nothing_else_does():
    runner = _runner()
    ref, got = torch.ones(4), torch.ones(4) * 1.002
    call = _call(runner, ref, got, 1e-2, 2e-2)
    assert runner._declared_tolerance([call], ref, got, call[4]) == {"atol": 1e-2, "rtol": 2e-2}
    assert runner._declared_tolerance([call], [ref], [got], call[4]) is None  # not the objects it was handed
    assert runner._declared_tolerance([call, call], ref, got, call[4]) is None  # two calls: which one judged?
    assert runner._declared_tolerance([call], ref, got, (1, None, None)) is None  # its verdict not returned
    nan = _call(runner, ref, got, float("nan"), 1e-2)
    assert runner._declared_tolerance([nan], ref, got, nan[4]) is None


def test_a_written_out_rule_is_measured_and_a_mean_bound_is_not():
    runner = _runner()

    def written_out(param, ref, out):
        rtol = 1 / 256 if param["dtype"] == "bfloat16" else 1 / 512
        return int(not torch.any((ref - out).abs() > rtol * torch.maximum(torch.tensor(1.0), ref.abs()))), None, None

    told = runner._measured_tolerance(written_out, {"dtype": "bfloat16"}, None)
    assert told["measured"] is True
    assert abs(told["atol"] - 1 / 256) < 1e-6 and abs(told["rtol"] - 1 / 256) < 1e-6
    listed = runner._measured_tolerance(lambda p, r, o: written_out(p, r[0], o[0]), {"dtype": "float16"}, 2)
    assert abs(listed["rtol"] - 1 / 512) < 1e-6

    def mean_bound(param, ref, out):
        return int((ref - out).abs().mean() < 1e-2), None, None

    assert runner._measured_tolerance(mean_bound, {}, None) is None
    assert runner._measured_tolerance(lambda p, r, o: (1, None, None), {}, None) is None
