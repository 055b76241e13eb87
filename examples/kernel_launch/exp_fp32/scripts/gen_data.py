#!/usr/bin/env python3
"""Input and golden output of exp_fp32: y = exp(x) on 16384 floats in [-8, 8]."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 16384


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-8.0, 8.0, TOTAL_LENGTH).astype(np.float32)
    golden = np.exp(x.astype(np.float64)).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
