#!/usr/bin/env python3
"""Input and golden output of abs_fp16: y = |x| on 8192 halves."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 8192


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-50.0, 50.0, TOTAL_LENGTH).astype(np.float16)
    golden = np.abs(x)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
