#!/usr/bin/env python3
"""Input and golden output of sum_all_atomic: y = [sum(x), 0, 0, 0, 0, 0, 0, 0] for 32768 floats."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 32768
OUT_LENGTH = 8


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=103)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(0.0, 1.0, TOTAL_LENGTH).astype(np.float32)
    golden = np.zeros(OUT_LENGTH, dtype=np.float32)
    golden[0] = np.float32(x.astype(np.float64).sum())

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
