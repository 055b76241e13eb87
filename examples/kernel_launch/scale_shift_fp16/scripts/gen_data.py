#!/usr/bin/env python3
"""Input and golden output of scale_shift_fp16: y = x * 0.75 + 2.5 on 16384 halves.

The device rounds to half after the multiply and again after the add; the golden does the same.
"""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 16384
SCALE, SHIFT = 0.75, 2.5  # must match tilingHost in main.cpp


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=73)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-20.0, 20.0, TOTAL_LENGTH).astype(np.float16)
    scaled = (x.astype(np.float64) * np.float16(SCALE)).astype(np.float16)
    golden = (scaled.astype(np.float64) + np.float16(SHIFT)).astype(np.float16)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
