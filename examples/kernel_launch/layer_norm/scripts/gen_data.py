#!/usr/bin/env python3
"""Inputs and golden output of layer_norm over the last axis of a (32, 256) float matrix."""
import argparse
import os

import numpy as np

ROWS, COLS = 32, 256
EPSILON = 1e-5  # must match tilingHost.epsilon in main.cpp


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=47)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(1.5, 2.0, (ROWS, COLS)).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, COLS).astype(np.float32)
    beta = rng.uniform(-0.5, 0.5, COLS).astype(np.float32)

    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    golden = ((x64 - mean) / np.sqrt(var + EPSILON) * gamma + beta).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    gamma.tofile("input/input_gamma.bin")
    beta.tofile("input/input_beta.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
