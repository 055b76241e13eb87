#!/usr/bin/env python3
"""Input and golden output of clamp_select: y = clip(x, -1.5, 2.0) on 16384 floats."""
import argparse
import os

import numpy as np

TOTAL_LENGTH = 16384
CLAMP_LO, CLAMP_HI = -1.5, 2.0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=89)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    x = rng.normal(0.0, 2.0, TOTAL_LENGTH).astype(np.float32)
    golden = np.clip(x, np.float32(CLAMP_LO), np.float32(CLAMP_HI)).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
