#!/usr/bin/env python3
# output_z.bin against golden_z.bin (float32): an element fails beyond both 1e-4 absolute and 1e-4 relative.
import sys

import numpy as np


def main() -> int:
    out = np.fromfile("output_z.bin", dtype=np.float32)
    gold = np.fromfile("golden_z.bin", dtype=np.float32)
    if out.shape != gold.shape:
        print("FAILED: sizes differ")
        return 1
    diff = np.abs(out - gold)
    bad = (diff > 1e-4) & (diff > 1e-4 * np.abs(gold))
    if bad.any() or not np.isfinite(out).all():
        print(f"FAILED: {int(bad.sum())} of {out.size} elements")
        return 1
    print("PASSED!")
    return 0


if __name__ == "__main__":
    sys.exit(main())
