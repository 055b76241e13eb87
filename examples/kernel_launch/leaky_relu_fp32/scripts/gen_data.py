#!/usr/bin/env python3
"""Input and golden output of leaky_relu_fp32 on 12345 floats, negative slope 0.01."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 12345
NEGATIVE_SLOPE = 0.01  # must match tilingHost.negativeSlope in main.cpp


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(0.0, 5.0, TOTAL_LENGTH).astype(np.float32)
    golden = np.where(x >= 0, x, x * np.float32(NEGATIVE_SLOPE)).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
