#!/usr/bin/python3
# Inputs and golden of the aclnnShift example: the device buffer holds x^T ([W, H], row-major); the example hands
# aclnnShift the [H, W] view of it with strides [1, H] (a non-contiguous tensor), so out = x^T^T + 1.25 in float16.
import os

import numpy as np

H, W = 37, 45
SHIFT = 1.25


def gen_golden_data():
    buffer = np.random.uniform(-4, 4, (W, H)).astype(np.float16)
    golden = (buffer.T.astype(np.float32) + SHIFT).astype(np.float16)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    buffer.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
