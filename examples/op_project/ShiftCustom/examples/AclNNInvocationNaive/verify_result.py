#!/usr/bin/python3
# Compares the example's output with the golden (float16, 1e-3 absolute and relative).
import sys

import numpy as np


def verify_result(output, golden):
    real = np.fromfile(output, dtype=np.float16).astype(np.float32)
    gold = np.fromfile(golden, dtype=np.float16).astype(np.float32)
    if real.shape != gold.shape:
        print("[ERROR] size mismatch")
        return False
    bad = (np.abs(real - gold) > 1e-3) & (np.abs(real - gold) > 1e-3 * np.abs(gold))
    if bad.any():
        print("[ERROR] result error: %d elements" % int(bad.sum()))
        return False
    print("test pass")
    return True


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1], sys.argv[2]) else 1)
