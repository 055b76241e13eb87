#!/usr/bin/env python3
"""Inputs and golden output of batch_matmul: C[b] = A[b] @ B[b] + bias, 4 x ([64, 128] half @ [128, 96] half),
bias [96] float, C float."""
import argparse
import os

import numpy as np

BATCH, M, N, K = 4, 64, 96, 128


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    a = rng.uniform(-1.0, 1.0, (BATCH, M, K)).astype(np.float16)
    b = rng.uniform(-1.0, 1.0, (BATCH, K, N)).astype(np.float16)
    bias = rng.uniform(-1.0, 1.0, N).astype(np.float32)
    golden = (np.einsum("bmk,bkn->bmn", a.astype(np.float64), b.astype(np.float64)) + bias).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a.tofile("input/input_a.bin")
    b.tofile("input/input_b.bin")
    bias.tofile("input/input_bias.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
