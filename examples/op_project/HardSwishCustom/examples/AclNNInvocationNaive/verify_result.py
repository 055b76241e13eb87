#!/usr/bin/python3
# Compares the op's output with the golden: fp16 may differ by 1e-3 (absolute and relative both exceeded fails).
import sys

import numpy as np

LOSS = 1e-3


def verify_result(output, golden, dtype=np.float16):
    real = np.fromfile(output, dtype=dtype)
    gold = np.fromfile(golden, dtype=dtype)
    if real.shape != gold.shape:
        print("[ERROR] output size differs from the golden")
        return False
    diff = np.abs(real.astype(np.float32) - gold.astype(np.float32))
    rel = diff / np.maximum(np.abs(gold.astype(np.float32)), 1e-7)
    bad = (diff > LOSS) & (rel > LOSS)
    if bad.any() or not np.isfinite(real).all():
        print("[ERROR] result error: %d of %d elements" % (int(bad.sum()), real.size))
        return False
    print("test pass")
    return True


if __name__ == "__main__":
    ok = verify_result(sys.argv[1], sys.argv[2])
    sys.exit(0 if ok else 1)
