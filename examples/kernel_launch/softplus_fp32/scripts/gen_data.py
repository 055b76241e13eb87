#!/usr/bin/env python3
"""Input and golden output of softplus_fp32: y = ln(1 + exp(x)) on 7001 floats in [-10, 10]."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 7001


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=107)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-10.0, 10.0, TOTAL_LENGTH).astype(np.float32)
    golden = np.log1p(np.exp(x.astype(np.float64))).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
