#!/usr/bin/env python3
"""Inputs and golden output of add_row_broadcast: z = x + b for x (128, 256) and b (256,), float."""
import argparse
import os

import numpy as np

ROWS, COLS = 128, 256


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=79)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-5.0, 5.0, (ROWS, COLS)).astype(np.float32)
    b = rng.uniform(-1.0, 1.0, COLS).astype(np.float32)
    golden = (x + b[np.newaxis, :]).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    b.tofile("input/input_b.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
