#!/usr/bin/env python3
"""Inputs and golden output of matmul_fp16: C = A @ B, A [256, 512] half, B [512, 256] half, C float."""
import argparse
import os

import numpy as np

M, N, K = 256, 256, 512


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    a = rng.uniform(-1.0, 1.0, (M, K)).astype(np.float16)
    b = rng.uniform(-1.0, 1.0, (K, N)).astype(np.float16)
    # the cube multiplies halves exactly and accumulates in fp32
    golden = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a.tofile("input/input_a.bin")
    b.tofile("input/input_b.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
