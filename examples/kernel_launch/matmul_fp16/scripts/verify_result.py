#!/usr/bin/env python3
"""Checks the matmul_fp16 kernel output against the golden file.

Usage: python3 scripts/verify_result.py output/output_c.bin output/golden.bin
Elements are float32; one fails only when it is off by more than ATOL *and* by more than RTOL
relative to the golden value (and NaN/Inf must match exactly). Exit 0 and "test pass" when all agree.
"""
import sys

import numpy as np

DTYPE = np.float32
ATOL = 0.0001
RTOL = 0.0001
MAX_LISTED = 10


def compare(output, golden):
    """Returns the indexes of the elements that are out of tolerance."""
    out64 = output.astype(np.float64)
    gold64 = golden.astype(np.float64)
    both_finite = np.isfinite(out64) & np.isfinite(gold64)
    abs_err = np.where(both_finite, np.abs(out64 - gold64), 0.0)
    rel_err = abs_err / np.maximum(np.abs(gold64), 1e-30)
    too_far = both_finite & (abs_err > ATOL) & (rel_err > RTOL)
    # a non-finite value on either side must be the very same value on the other
    special_mismatch = ~both_finite & ~((out64 == gold64) | (np.isnan(out64) & np.isnan(gold64)))
    return np.flatnonzero(too_far | special_mismatch)


def main(argv):
    if len(argv) != 3:
        print("usage: verify_result.py OUTPUT_BIN GOLDEN_BIN")
        return 2
    output = np.fromfile(argv[1], dtype=DTYPE)
    golden = np.fromfile(argv[2], dtype=DTYPE)
    if output.size != golden.size:
        print(f"size mismatch: output has {output.size} elements, golden has {golden.size}")
        return 1
    bad = compare(output, golden)
    if bad.size == 0:
        print("test pass")
        return 0
    for idx in bad[:MAX_LISTED]:
        print(f"index {idx:6d}: expected {float(golden[idx]):.8g}, got {float(output[idx]):.8g}")
    print(f"{bad.size} of {golden.size} elements out of tolerance (atol={ATOL}, rtol={RTOL})")
    print("test failed")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
