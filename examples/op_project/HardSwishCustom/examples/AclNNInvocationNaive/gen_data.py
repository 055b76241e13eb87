#!/usr/bin/python3
# Inputs and the golden of the HardSwishCustom aclnn example: x uniform in [-5, 5) (both sides of the
# -3 / +3 knees), y = x * clip(x + 3, 0, 6) / 6 computed in float32, rounded once to the op's dtype.
import os
import sys

import numpy as np


def gen_golden_data(dtype=np.float16, shape=(33, 1031)):
    x = np.random.uniform(-5, 5, shape).astype(dtype)
    xf = x.astype(np.float32)
    golden = (xf * np.clip(xf + 3.0, 0.0, 6.0) / 6.0).astype(dtype)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data(np.float32 if len(sys.argv) > 1 and sys.argv[1] == "float32" else np.float16)
