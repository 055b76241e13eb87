#!/usr/bin/env python3
"""Inputs and golden output of gather_rows: out = table[index] for a (512, 64) float table, 128 indices."""
import argparse
import os

import numpy as np

TABLE_ROWS, COLS, INDEX_NUM = 512, 64, 128


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=83)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    table = rng.normal(0.0, 1.0, (TABLE_ROWS, COLS)).astype(np.float32)
    index = rng.integers(0, TABLE_ROWS, INDEX_NUM, dtype=np.int32)
    golden = table[index]

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    table.tofile("input/input_table.bin")
    index.tofile("input/input_index.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
