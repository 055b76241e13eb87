#!/usr/bin/env python3
"""Inputs and golden output of matmul_int8_dequant: C = half(float(A @ B) * scale[n]), A [96, 256] int8,
B [256, 160] int8, per-column scales [160] (uint64 words whose low 32 bits are the fp32 scale)."""
import argparse
import os

import numpy as np

M, N, K = 96, 160, 256


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    a = rng.integers(-128, 128, (M, K)).astype(np.int8)
    b = rng.integers(-128, 128, (K, N)).astype(np.int8)
    # scales with at most 10 mantissa bits: the out-path multiplies in a (1, 8, 10) float format
    scale = (rng.uniform(0.5, 2.0, N) / 4096).astype(np.float16).astype(np.float32)
    words = scale.view(np.uint32).astype(np.uint64)
    scale = words.astype(np.uint32).view(np.float32)  # the golden from what the kernel reads (the same values)
    acc = a.astype(np.int32) @ b.astype(np.int32)  # exact on the cube
    golden = (acc.astype(np.float32) * scale).astype(np.float16)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a.tofile("input/input_a.bin")
    b.tofile("input/input_b.bin")
    words.tofile("input/input_scale.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
