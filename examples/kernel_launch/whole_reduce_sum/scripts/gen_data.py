#!/usr/bin/env python3
"""Input and golden output of whole_reduce_sum: y = x.sum(axis=1) for x of shape (512, 64), float."""
import argparse
import os

import numpy as np

ROWS, COLS = 512, 64


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-2.0, 2.0, (ROWS, COLS)).astype(np.float32)
    golden = x.astype(np.float64).sum(axis=1).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
