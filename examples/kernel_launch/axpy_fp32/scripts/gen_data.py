#!/usr/bin/env python3
"""Inputs and golden output of axpy_fp32: z = 1.75 * x + y on 9999 floats."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 9999
ALPHA = 1.75  # must match tilingHost.alpha in main.cpp


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=101)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-3.0, 3.0, TOTAL_LENGTH).astype(np.float32)
    y = rng.uniform(-3.0, 3.0, TOTAL_LENGTH).astype(np.float32)
    golden = (np.float64(ALPHA) * x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    y.tofile("input/input_y.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
