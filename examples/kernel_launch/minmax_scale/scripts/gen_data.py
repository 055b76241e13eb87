#!/usr/bin/env python3
"""Input and golden output of minmax_scale: y = (x - min x) / (max x - min x) on 32768 floats."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 32768


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=109)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(3.0, 5.0, TOTAL_LENGTH).astype(np.float32)
    lo, hi = np.float32(x.min()), np.float32(x.max())
    # the kernel subtracts in float and multiplies by the float reciprocal of the range
    inv = np.float32(1.0) / (hi - lo)
    golden = ((x - lo) * inv).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
