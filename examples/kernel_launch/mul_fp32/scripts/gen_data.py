#!/usr/bin/env python3
"""Inputs and golden output of mul_fp32: z = x * y on 32768 floats."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 32768


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-4.0, 4.0, TOTAL_LENGTH).astype(np.float32)
    y = rng.uniform(-4.0, 4.0, TOTAL_LENGTH).astype(np.float32)
    golden = (x * y).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    y.tofile("input/input_y.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
