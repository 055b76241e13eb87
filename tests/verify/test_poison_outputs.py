"""An output that is NaN/Inf in every element from finite inputs is a wrong case even when nothing can be compared
(the sample checks itself): the emulator's poison byte reads as NaN, so this is what an output nothing computed looks
like."""

from __future__ import annotations

import numpy as np

from cotbuilder.verify import poison

FINITE = {"input/x.bin": np.linspace(-1, 1, 64, dtype=np.float32).tobytes()}


def test_an_output_of_poison_bytes_from_finite_inputs_is_named():
    why = poison.non_finite_output({"output/out.bin": b"\xff" * 256}, FINITE)
    assert why and why.startswith("output/out.bin is NaN/Inf in every element")


def test_an_all_inf_half_output_counts_too_but_a_partly_finite_one_does_not():
    inf16 = np.full(63, np.inf, np.float16).tobytes()  # an odd count of halves: read as float16
    assert poison.non_finite_output({"output/y.bin": inf16}, FINITE)
    partly = np.array([np.nan] * 63 + [1.0], np.float32).tobytes()
    assert poison.non_finite_output({"output/y.bin": partly}, FINITE) is None


def test_non_finite_inputs_or_non_bin_outputs_are_left_alone():
    nan_in = {"input/x.bin": np.full(16, np.nan, np.float32).tobytes()}
    assert poison.non_finite_output({"output/out.bin": b"\xff" * 64}, nan_in) is None
    assert poison.non_finite_output({"output/log.txt": b"\xff" * 64}, FINITE) is None
