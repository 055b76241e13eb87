#!/usr/bin/env python3
"""Input and golden output of softmax_rows: softmax along the last axis of a (64, 512) float matrix."""
import argparse
import os

import numpy as np

ROWS, COLS = 64, 512


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=59)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(0.0, 4.0, (ROWS, COLS)).astype(np.float32)
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=1, keepdims=True))
    golden = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
