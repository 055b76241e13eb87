# Runs a verify_spec.toml reference inside the sandbox (the reference is crawled code like the kernel).
# Usage: python reference_runner.py SPEC_JSON  (SPEC_JSON: {"code", "inputs": [{name, dtype, shape}],
# "outputs": [{name, dtype, shape}]}); reads input/<name>.bin, writes expected/<name>.bin.
import json
import os
import sys

import numpy as np


def load(path, dtype, shape):
    if dtype == "bfloat16":  # stored as raw 16 bits; the reference sees float32 values
        bits = np.fromfile(path, dtype=np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32).reshape(shape)
    return np.fromfile(path, dtype=np.dtype(dtype)).reshape(shape)


def store(path, array, dtype, shape):
    array = np.asarray(array)
    if dtype == "bfloat16":
        f = np.ascontiguousarray(array, dtype=np.float32).reshape(-1).view(np.uint32).astype(np.uint64)
        rounded = ((f + 0x7FFF + ((f >> 16) & 1)) >> 16).astype(np.uint16)  # round to nearest even
        rounded[np.isnan(array.reshape(-1).astype(np.float32))] = 0x7FC0
        rounded.tofile(path)
        return
    np.ascontiguousarray(array.astype(np.dtype(dtype))).reshape(-1).tofile(path)


def main():
    spec = json.loads(open(sys.argv[1]).read())
    scope = {}
    exec(compile(spec["code"], "verify_spec.toml:[reference]", "exec"), scope)
    args = [load(f"input/{i['name']}.bin", i["dtype"], i["shape"]) for i in spec["inputs"]]
    result = scope["reference"](*args)
    if not isinstance(result, (tuple, list)):
        result = (result,)
    if len(result) != len(spec["outputs"]):
        sys.exit(f"reference returned {len(result)} arrays for {len(spec['outputs'])} outputs")
    os.makedirs("expected", exist_ok=True)
    for out, value in zip(spec["outputs"], result, strict=False):
        if int(np.prod(out["shape"])) != np.asarray(value).size:
            sys.exit(f"reference output {out['name']} has {np.asarray(value).size} elements, spec says {out['shape']}")
        store(f"expected/{out['name']}.bin", value, out["dtype"], out["shape"])


main()
