#!/usr/bin/env python3
"""Input and golden output of gelu_tanh_fp32 (tanh approximation of GELU) on 16384 floats."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 16384


def gelu_tanh(x):
    u = np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)
    return 0.5 * x * (1.0 + np.tanh(u))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-6.0, 6.0, TOTAL_LENGTH).astype(np.float32)
    golden = gelu_tanh(x.astype(np.float64)).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
