#!/usr/bin/env python3
"""Input and golden output of cast_f32_to_f16: float -> half, round to nearest even, 10003 elements."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 10003


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=67)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(0.0, 300.0, TOTAL_LENGTH).astype(np.float32)
    golden = x.astype(np.float16)  # numpy rounds to nearest even, like CAST_RINT

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
