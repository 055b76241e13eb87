#!/usr/bin/env python3
"""Inputs and golden output of select_max_abs: z = where(|x| >= |y|, x, y) on 32768 halves."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 32768


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=97)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(0.0, 4.0, TOTAL_LENGTH).astype(np.float16)
    y = rng.normal(0.0, 4.0, TOTAL_LENGTH).astype(np.float16)
    golden = np.where(np.abs(x) >= np.abs(y), x, y).astype(np.float16)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    y.tofile("input/input_y.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
