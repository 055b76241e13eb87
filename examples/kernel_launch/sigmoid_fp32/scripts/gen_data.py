#!/usr/bin/env python3
"""Input and golden output of sigmoid_fp32 on 32768 floats."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 32768


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-12.0, 12.0, TOTAL_LENGTH).astype(np.float32)
    golden = (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
