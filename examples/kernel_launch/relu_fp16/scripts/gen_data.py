#!/usr/bin/env python3
"""Input and golden output of relu_fp16: y = max(x, 0) on 32768 halves."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 32768


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(0.0, 2.0, TOTAL_LENGTH).astype(np.float16)
    golden = np.maximum(x, np.float16(0.0))

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
