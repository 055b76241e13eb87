#!/usr/bin/env python3
"""Input and golden output of silu_fp16: y = x * sigmoid(x) on 16384 halves."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 16384


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-16.0, 16.0, TOTAL_LENGTH).astype(np.float16)
    xf = x.astype(np.float64)
    golden = (xf / (1.0 + np.exp(-xf))).astype(np.float16)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
