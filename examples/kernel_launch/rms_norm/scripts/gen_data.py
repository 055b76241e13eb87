#!/usr/bin/env python3
"""Inputs and golden output of rms_norm over the last axis of a (64, 512) half matrix."""
import argparse
import os

import numpy as np

ROWS, COLS = 64, 512
EPSILON = 1e-6


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=53)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(0.0, 3.0, (ROWS, COLS)).astype(np.float16)
    gamma = rng.uniform(0.5, 1.5, COLS).astype(np.float16)

    x64 = x.astype(np.float64)
    rms = np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + EPSILON)
    golden = (x64 / rms * gamma.astype(np.float64)).astype(np.float16)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    gamma.tofile("input/input_gamma.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
