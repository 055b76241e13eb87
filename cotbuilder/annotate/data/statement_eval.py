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
if spec.get("kind") == "numpy program":
    # a sliced generator (reference_expr.extract_program, allow-listed): its own loops and branches run here, with a
    # few pure builtins; the inputs are the files' arrays, the result is what it leaves in __golden__
    pure = (range, len, enumerate, zip, int, float, bool, min, max, abs, round, list, tuple, sum)
    pure += (ValueError, RuntimeError, Exception)
    builtins = {"__import__": __import__, **{f.__name__: f for f in pure}}
    scope = {"__builtins__": builtins, "np": np, "__inputs__": {k: v for k, v in names.items() if k != "np"}}
    exec(compile(spec["expression"], "<reference>", "exec"), scope)
    value = scope["__golden__"]
else:
    value = eval(
        compile(spec["expression"], "<reference>", "eval"), {"__builtins__": {"__import__": __import__}}, names
    )
result = np.ascontiguousarray(np.asarray(value).astype(spec["out_dtype"]))
result.tofile(spec["out_file"])
json.dump({"shape": list(result.shape), "dtype": str(result.dtype)}, open(spec["out_file"] + ".json", "w"))
