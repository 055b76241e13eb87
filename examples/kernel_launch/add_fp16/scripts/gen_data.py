#!/usr/bin/env python3
"""Inputs and golden output of add_fp16: z = x + y, 8 x 4096 half values."""
import argparse
import os

import numpy as np

SHAPE = (8, 4096)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.uniform(-10.0, 10.0, SHAPE).astype(np.float16)
    y = rng.uniform(-10.0, 10.0, SHAPE).astype(np.float16)
    # the vector unit adds two halves exactly and rounds once: same as fp32 add then round to half
    golden = (x.astype(np.float32) + y.astype(np.float32)).astype(np.float16)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    y.tofile("input/input_y.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
