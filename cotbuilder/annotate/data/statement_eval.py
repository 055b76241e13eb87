# Runs in the sandbox (never in cotbuilder's process): evaluates a reference expression that cotbuilder already
# checked against its allow-list, on the input files the unit's generator wrote, and writes the result as raw bytes in
# the golden's dtype. Usage: python -I statement_eval.py SPEC.json  (SPEC: expression, inputs {name: {file, dtype,
# shape}}, out_dtype, out_file). Python builtins are withheld from the expression.
import json
import sys

import numpy as np

spec = json.load(open(sys.argv[1]))
names = {"np": np}
for name, meta in spec["inputs"].items():
    names[name] = np.fromfile(meta["file"], dtype=meta["dtype"]).reshape(meta["shape"])
# numpy's C code imports through the calling frame's __import__; the expression itself can name no builtin (the
# allow-list admits only the input names and np), so this is the one builtin it gets
value = eval(compile(spec["expression"], "<reference>", "eval"), {"__builtins__": {"__import__": __import__}}, names)
result = np.ascontiguousarray(np.asarray(value).astype(spec["out_dtype"]))
result.tofile(spec["out_file"])
json.dump({"shape": list(result.shape), "dtype": str(result.dtype)}, open(spec["out_file"] + ".json", "w"))
