#!/usr/bin/env python3
"""Input and golden output of reduce_max_rows: y = x.max(axis=1) for x of shape (32, 1024), half."""
import argparse
import os

import numpy as np

ROWS, COLS = 32, 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(0.0, 10.0, (ROWS, COLS)).astype(np.float16)
    golden = x.max(axis=1)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
