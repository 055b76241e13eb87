#!/usr/bin/env python3
# Inputs and golden of one AxpbyCustom case: gen_data.py COUNT ALPHA BETA (x, y uniform in [-10, 10)).
import sys

import numpy as np


def main(count: int, alpha: float, beta: float) -> None:
    x = np.random.uniform(-10, 10, count).astype(np.float32)
    y = np.random.uniform(-10, 10, count).astype(np.float32)
    golden = (np.float32(alpha) * x + np.float32(beta) * y).astype(np.float32)
    x.tofile("input_x.bin")
    y.tofile("input_y.bin")
    golden.tofile("golden_z.bin")


if __name__ == "__main__":
    main(int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]))
