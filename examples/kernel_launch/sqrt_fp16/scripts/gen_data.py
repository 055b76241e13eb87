#!/usr/bin/env python3
"""Input and golden output of sqrt_fp16: y = sqrt(x) on 5000 non-negative halves."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 5000


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(0.0, 100.0, TOTAL_LENGTH).astype(np.float16)
    golden = np.sqrt(x.astype(np.float32)).astype(np.float16)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
