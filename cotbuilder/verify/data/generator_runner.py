# Runs a unit's input/golden generator (gen_data.py) inside the sandbox and records, for every file it writes with
# numpy's `ndarray.tofile`, the dtype and shape of the array written: so cotbuilder knows the golden's dtype instead of
# guessing it from the script's text.
# Usage: python generator_runner.py MANIFEST SCRIPT [ARGS...]; runs SCRIPT as __main__ with sys.argv = [SCRIPT, ARGS...]
# and writes MANIFEST = {"path relative to the work dir": {"dtype", "shape", "nbytes"}}.
# How: numpy's tofile is a C method (it cannot be wrapped), so a profile hook sees the call (with the array as its
# `self`) and a wrapper around builtins.open - which tofile uses to open a path - sees the file name.
import builtins
import json
import os
import runpy
import sys
import threading

MANIFEST = sys.argv[1]
SCRIPT = sys.argv[2]
CWD = os.getcwd()
written = {}
_pending = []  # arrays whose tofile() is in progress (innermost last)
_open_files = []  # (file object, path) opened for writing by the script
_real_open = builtins.open


def _rel(path):
    return os.path.relpath(os.path.abspath(os.fspath(path)), CWD).replace(os.sep, "/")


def _record(path, array):
    written[_rel(path)] = {
        "dtype": str(array.dtype),
        "shape": [int(n) for n in array.shape],
        "nbytes": int(array.nbytes),
    }


def _open(file, mode="r", *args, **kwargs):
    fh = _real_open(file, mode, *args, **kwargs)
    if isinstance(file, (str, bytes, os.PathLike)) and any(m in mode for m in "wax+"):
        if _pending:  # tofile(path) opening its file
            _record(file, _pending[-1])
        else:
            _open_files.append((fh, file))
    return fh


def _positions():
    out = {}
    for fh, path in _open_files:
        try:
            out[id(fh)] = (fh.tell(), path)
        except (ValueError, OSError):
            pass
    return out


_before = []


def _profile(frame, event, arg):
    if event not in ("c_call", "c_return", "c_exception"):
        return
    if getattr(arg, "__name__", None) != "tofile":
        return
    array = getattr(arg, "__self__", None)
    if array is None or not hasattr(array, "dtype"):
        return
    if event == "c_call":
        _pending.append(array)
        _before.append(_positions())
        return
    _pending.pop() if _pending else None
    before = _before.pop() if _before else {}
    if event == "c_return":  # tofile(file object): the open file that grew by the array's size
        for key, (pos, path) in _positions().items():
            if key in before and pos - before[key][0] == array.nbytes and array.nbytes:
                _record(path, array)


def _save():
    with _real_open(MANIFEST, "w") as fh:
        json.dump(written, fh)


def _tensorflow_dtypes():
    """Where TensorFlow is not installed, a stand-in `tensorflow` that has its bfloat16 dtype only: generators (cann-ops
    gen_data.py) import TensorFlow for `tf.bfloat16.as_numpy_dtype`, which is ml_dtypes' bfloat16 (TensorFlow takes
    its numpy bfloat16 from ml_dtypes) and compute with numpy / torch. Anything else they take from it is the
    missing module, as without the stand-in (the step is unsupported, naming tensorflow)."""
    import importlib.util
    import types

    try:
        if importlib.util.find_spec("tensorflow") is not None:
            return
        import ml_dtypes
    except Exception:
        return
    tf = types.ModuleType("tensorflow")
    tf.bfloat16 = types.SimpleNamespace(as_numpy_dtype=ml_dtypes.bfloat16, name="bfloat16")

    def missing(name):
        if name.startswith("__"):  # what tools ask any module (inspect's __file__): it is not there
            raise AttributeError(name)
        raise ModuleNotFoundError(
            f"No module named 'tensorflow' (cotbuilder stands in for tf.bfloat16 only, not tf.{name})",
            name="tensorflow",
        )

    tf.__getattr__ = missing
    sys.modules["tensorflow"] = tf


builtins.open = _open
_tensorflow_dtypes()
sys.argv = [SCRIPT] + sys.argv[3:]
sys.path.insert(0, os.path.dirname(os.path.abspath(SCRIPT)))
try:
    # numpy imported here (found on the script's own path, as its `import numpy` would be) rather than under the
    # profile hook, which is called on every function call: numpy's import makes thousands (~0.07 s of a 0.2 s run)
    try:
        import numpy  # noqa: F401
    except Exception:  # no numpy, or a module of that name that fails: the script's own import meets it as before
        pass
    threading.setprofile(_profile)
    sys.setprofile(_profile)
    runpy.run_path(SCRIPT, run_name="__main__")
finally:
    sys.setprofile(None)
    _save()
