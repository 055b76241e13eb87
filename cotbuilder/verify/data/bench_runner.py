"""Run a benchmark task's validation on CPU (cotbuilder verify, benchmark harness; runs inside the sandbox).

Two modes, each a step of its own (the kernel's step never sees a golden):

  python bench_runner.py golden VALIDATION_DIR CASE_JSON OUT_DIR
      inputs from prepare_inputs.get_inputs(row) (seeded), the reference Model(*get_init_inputs(row)) run on CPU;
      writes OUT_DIR/inputs/ (the inputs, to give the kernel step), OUT_DIR/goldens/ (Model's outputs) and
      OUT_DIR/manifest.json (dtypes, shapes, the module's custom_check_precision if it defines one).
  python bench_runner.py kernel VALIDATION_DIR CASE_JSON INPUT_DIR OUT_DIR BINARY
      the task's ModelNew on those inputs; its `import kernel_gen_ops` gets a module whose functions run BINARY
      (the binding compiled against the emulator) once per call, each call in OUT_DIR/calls/call_<n>/; writes
      OUT_DIR/outputs/ and manifest.json.
  python bench_runner.py check VALIDATION_DIR CASE_JSON GOLDEN_DIR OUTPUT_DIR
      the task's own custom_check_precision(row, reference, output) on copies: prints its verdict (evidence) and,
      when the check is only the benchmark's rule with tolerances of its own, those tolerances (cotbuilder then
      compares with them itself).

torch_npu and torch_npu.contrib.transfer_to_npu are stubbed (the tasks import them for the NPU); `device` is CPU; the
benchmark's `framework.utils.check_precision` (imported by tasks' custom checks) is cotbuilder's own copy of its rule.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import numbers
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np

SHIM_GAP = "COTBUILDER_SHIM_GAP"  # harness_bench turns a ModelNew failure carrying it into `unsupported`
INIT_MISMATCH = "COTBUILDER_INIT_MISMATCH"  # the same, for init tensors the reference step did not draw alike


def _stub_npu_modules() -> None:
    torch_npu = types.ModuleType("torch_npu")
    torch_npu.npu = types.SimpleNamespace(synchronize=lambda *a, **k: None, set_device=lambda *a, **k: None)
    contrib = types.ModuleType("torch_npu.contrib")
    transfer = types.ModuleType("torch_npu.contrib.transfer_to_npu")
    torch_npu.contrib = contrib
    contrib.transfer_to_npu = transfer
    sys.modules.setdefault("torch_npu", torch_npu)
    sys.modules.setdefault("torch_npu.contrib", contrib)
    sys.modules.setdefault("torch_npu.contrib.transfer_to_npu", transfer)
    _stub_framework()


def _check_precision(outputs, outputs_new, max_abs_error, max_rel_error):
    """The benchmark's precision rule, written here from its description (a task's custom_check_precision imports it
    from the benchmark's own `framework.utils`, which is not part of a task): an element fails when its absolute error
    exceeds max_abs_error and its relative error (to |reference| + 1e-7) exceeds max_rel_error; any non-finite value in
    either side or in the errors fails everything. Returns (1 or 0, all absolute errors, all relative errors)."""
    import torch

    refs = outputs if isinstance(outputs, list) else [outputs]
    news = outputs_new if isinstance(outputs_new, list) else [outputs_new]
    ok = len(refs) == len(news)
    abs_all, rel_all = [], []
    for ref, new in zip(refs, news, strict=False):
        if new.dtype == torch.bool:
            ref, new = ref.to(torch.int), new.to(torch.int)
        abs_err = (ref - new).abs()
        rel_err = abs_err / (ref.abs() + 1e-7)
        abs_all.append(abs_err.reshape(-1))
        rel_all.append(rel_err.reshape(-1))
        finite = all(bool(torch.isfinite(t).all()) for t in (ref, new, abs_err, rel_err))
        if not finite or bool(((abs_err > max_abs_error) & (rel_err > max_rel_error)).any()):
            ok = False
    return (1 if ok else 0), torch.cat(abs_all), torch.cat(rel_all)


def _stub_framework() -> None:
    """`framework.utils.check_precision`, which 29 NPUKernelBench tasks' prepare_inputs import from the benchmark."""
    framework = types.ModuleType("framework")
    utils = types.ModuleType("framework.utils")
    utils.check_precision = _check_precision
    framework.utils = utils
    sys.modules.setdefault("framework", framework)
    sys.modules.setdefault("framework.utils", utils)


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _whole(v) -> bool:
    try:
        return float(v) == int(float(v))
    except (OverflowError, ValueError):
        return False


def _row(case: dict, validation: Path | None = None):
    """The test_cases.csv row as the benchmark's framework hands it over: the file read with pandas (`;`-separated),
    numeric columns without gaps whose values are all whole turned into int, the row taken from iterrows() - so a
    task's `param.get('epsilon', 1e-5)` gets a number, as on the benchmark, not the CSV's text. Without pandas (or
    the file), the row's text values in a dict."""
    row = case["row"]
    try:
        import pandas as pd
    except ImportError:
        return dict(row)
    table = validation / "test_cases.csv" if validation is not None else None
    if table is None or "index" not in case or not table.is_file():
        return pd.Series(row)
    df = pd.read_csv(table, sep=";")
    for col in df.columns:
        values = df[col]
        if pd.api.types.is_numeric_dtype(values) and not values.isna().any():
            if all(_whole(v) for v in values):
                df[col] = values.astype(int)
    for i, (_, typed) in enumerate(df.iterrows()):
        if i == int(case["index"]):
            return typed
    return pd.Series(row)


def _flatten(value) -> list:
    import torch

    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out += _flatten(v)
        return out
    return []


def _np(t):
    import torch

    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16), "bfloat16"
    return t.numpy(), str(t.numpy().dtype)


def _save(tensors: list, folder: Path) -> list[dict]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, t in enumerate(tensors):
        arr, dtype = _np(t)
        arr.tofile(folder / f"{i}.bin")
        out.append({"file": f"{i}.bin", "dtype": dtype, "shape": list(t.shape)})
    return out


def _torch_dtype(name: str):
    import torch

    return {"bfloat16": torch.bfloat16, "bool": torch.bool}.get(name) or getattr(torch, name)


def _load_tensor(folder: Path, meta: dict):
    import torch

    raw = np.fromfile(folder / meta["file"], dtype=np.uint16 if meta["dtype"] == "bfloat16" else meta["dtype"])
    t = torch.from_numpy(raw.copy()).reshape(meta["shape"])
    return t.view(torch.bfloat16) if meta["dtype"] == "bfloat16" else t


def _modules(validation: Path):
    module = _load("model_module", validation / "module.py")
    prepare = (
        module if hasattr(module, "get_init_inputs") else _load("prepare_inputs", validation / "prepare_inputs.py")
    )
    return module, prepare


def _rebuild(template, flat: list):
    """Put loaded tensors back where get_inputs() had tensors (other values stay as they were)."""
    import torch

    it = iter(flat)

    def walk(v):
        if isinstance(v, torch.Tensor):
            return next(it)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, tuple):
            return tuple(walk(x) for x in v)
        return v

    return walk(template)


class _NoKernel(types.ModuleType):
    """kernel_gen_ops in the reference step: importable (module.py imports it at the top), never callable."""

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)

        def refuse(*args, **kwargs):
            raise RuntimeError("the reference step does not run the kernel")

        return refuse


@contextlib.contextmanager
def _integer_sampling(torch):
    """torch on CPU has no uniform / normal kernels for integer or bool tensors ("check_uniform_bounds" not
    implemented for 'Int'); torch_npu, which the tasks' prepare_inputs were written for, takes
    `torch.rand(shape, dtype=torch.int32)`. While the inputs are drawn, such a draw is made in float32 and cast (toward
    zero, as any float -> int cast), the way a device without an integer sampler produces it. Floating-point draws are
    untouched (the same stream as before); the functions are restored afterwards."""

    def sampled_as_float(dtype) -> bool:
        return dtype is not None and not dtype.is_floating_point and not dtype.is_complex

    def factory(fn):
        def draw(*size, dtype=None, **kwargs):
            if sampled_as_float(dtype):
                return fn(*size, dtype=torch.float32, **kwargs).to(dtype)
            return fn(*size, dtype=dtype, **kwargs)

        return draw

    def in_place(fn):
        def draw(self, *args, **kwargs):
            if sampled_as_float(self.dtype):
                return self.copy_(fn(torch.empty(self.shape, dtype=torch.float32), *args, **kwargs).to(self.dtype))
            return fn(self, *args, **kwargs)

        return draw

    saved = {(torch, "rand"): torch.rand, (torch, "randn"): torch.randn}
    saved.update({(torch.Tensor, "uniform_"): torch.Tensor.uniform_, (torch.Tensor, "normal_"): torch.Tensor.normal_})
    wrap = {"rand": factory, "randn": factory, "uniform_": in_place, "normal_": in_place}
    try:
        for (owner, name), fn in saved.items():
            setattr(owner, name, wrap[name](fn))
        yield
    finally:
        for (owner, name), fn in saved.items():
            setattr(owner, name, fn)


def golden(validation: Path, case: dict, out: Path) -> None:
    import torch

    _stub_npu_modules()
    sys.modules["kernel_gen_ops"] = _NoKernel("kernel_gen_ops")
    torch.manual_seed(int(case.get("seed", 0)))
    np.random.seed(int(case.get("seed", 0)))
    module, prepare = _modules(validation)
    row = _row(case, validation)
    with _integer_sampling(torch):
        init = prepare.get_init_inputs(row, device="cpu")
        inputs = prepare.get_inputs(row, device="cpu")
    # each tensor with the Model argument it belongs to: a list of tensors (a foreach op's x) is one argument, one
    # dynamic param of the op, whose first tensor alone says the dtype the kernel variant must serve
    args = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    owned = [(t, i) for i, a in enumerate(args) for t in _flatten(a)]
    saved = _save([t for t, _ in owned], out / "inputs")
    for meta, (_, arg) in zip(saved, owned, strict=True):
        meta["arg"] = arg
    # the Model's own tensors (weights drawn in get_init_inputs) go to the kernel step as they are, saved before the
    # reference runs: drawn again there they would be other numbers, and the kernel judged on other weights
    init_saved = _save(_flatten(init), out / "init")
    model = module.Model(*init).to("cpu")
    # on clones, as the benchmark runs it; with grad mode on when an input requires grad (a reference computing its
    # output with torch.autograd.grad needs the clones to require it too: under no_grad it failed), else off - the
    # benchmark leaves it on, but a Model with parameters would then keep its activations for nothing
    wants_grad = any(t.requires_grad for t, _ in owned)
    with torch.set_grad_enabled(wants_grad):
        ref = model(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
    goldens = _save(_flatten(ref), out / "goldens")
    manifest = {
        "inputs": saved,
        "init": init_saved,
        "goldens": goldens,
        "custom_check": hasattr(prepare, "custom_check_precision"),
        "output_is_list": isinstance(ref, (list, tuple)),
    }
    (out / "manifest.json").write_text(json.dumps(manifest))


class _NoConversion(TypeError):
    """A value the stand-in binding cannot pass (any other error in an argument is ModelNew's). Its mark is read by
    harness_bench as a claim about the value's type: only a type torch's own binding converts is the harness's gap."""


class _Binding(types.ModuleType):
    """kernel_gen_ops: each attribute is a function that runs the compiled binding once."""

    def __init__(self, binary: str, workdir: Path):
        super().__init__("kernel_gen_ops")
        self._binary, self._dir, self._calls = binary, workdir, 0

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args: self._call(name, args)

    def _arg(self, v, folder: Path, n: list) -> dict:
        import torch

        if v is None:
            return {"kind": "none"}
        if isinstance(v, torch.Tensor):
            arr, dtype = _np(v)
            name = f"arg_{n[0]}.bin"
            n[0] += 1
            arr.tofile(folder / name)
            return {"kind": "tensor", "dtype": dtype, "shape": list(v.shape), "file": name}
        if isinstance(v, (bool, np.bool_)):
            return {"kind": "bool", "value": bool(v)}
        # numpy's scalars too (a case row's number read by pandas is a numpy int64): pybind11 converts them alike
        if isinstance(v, numbers.Integral):
            return {"kind": "int", "value": int(v)}
        if isinstance(v, numbers.Real):
            return {"kind": "float", "value": float(v)}
        if isinstance(v, str):
            return {"kind": "str", "value": v}
        if isinstance(v, (list, tuple)):
            if v and all(isinstance(x, torch.Tensor) for x in v):
                return {"kind": "tensor_list", "items": [self._arg(x, folder, n) for x in v]}
            if all(isinstance(x, bool) for x in v):
                return {"kind": "bool_list", "value": list(v)}
            if all(isinstance(x, int) for x in v):
                return {"kind": "int_list", "value": list(v)}
            return {"kind": "float_list", "value": [float(x) for x in v]}
        if isinstance(v, torch.dtype):
            return {"kind": "str", "value": str(v).removeprefix("torch.")}
        raise _NoConversion(f"cannot pass a {type(v).__name__}")

    def _result(self, r: dict, folder: Path):
        kind = r["kind"]
        if kind == "tensor":
            return _load_tensor(folder, r)
        if kind in ("tensor_list", "tuple"):
            items = [self._result(x, folder) for x in r["items"]]
            return items if kind == "tensor_list" else tuple(items)
        return r.get("value")

    def _call(self, name: str, args: tuple):
        folder = self._dir / f"call_{self._calls}"
        self._calls += 1
        folder.mkdir(parents=True)
        n = [0]
        try:
            call = {"function": name, "args": [self._arg(a, folder, n) for a in args]}
        except _NoConversion as exc:  # this stand-in for the compiled module lacks a conversion: the harness's gap
            raise TypeError(f"{SHIM_GAP} kernel_gen_ops.{name}: {exc}") from None
        (folder / "call.json").write_text(json.dumps(call))
        done = subprocess.run([self._binary], cwd=folder, capture_output=True, text=True)
        sys.stdout.write(done.stdout)
        sys.stderr.write(done.stderr)
        if done.returncode != 0:
            # the emulator's error exit after a finished kernel still leaves a result to judge
            if not (folder / "result.json").is_file():
                raise SystemExit(done.returncode if done.returncode > 0 else 70)
            print(f"COTBUILDER_BENCH_KERNEL_EXIT {done.returncode}", file=sys.stderr)
        return self._result(json.loads((folder / "result.json").read_text()), folder)


def kernel(validation: Path, case: dict, inputs_dir: Path, out: Path, binary: str) -> None:
    import torch

    _stub_npu_modules()
    sys.modules["kernel_gen_ops"] = _Binding(os.path.abspath(binary), out / "calls")
    module, prepare = _modules(validation)
    row = _row(case, validation)
    manifest = json.loads((inputs_dir / "manifest.json").read_text())
    with _integer_sampling(torch):  # the same draws as the golden step's: they must work here too
        template = prepare.get_inputs(row, device="cpu")  # only its structure: the tensors come from the golden step
        init = prepare.get_init_inputs(row, device="cpu")
    flat = [_load_tensor(inputs_dir / "inputs", m) for m in manifest["inputs"]]
    inputs = _rebuild(template, flat)
    own, drawn = manifest.get("init", []), len(_flatten(init))
    if len(own) != drawn:  # the benchmark's draws differ between two runs: nothing to say of the kernel
        print(
            f"{INIT_MISMATCH} get_init_inputs gave {drawn} tensors here, {len(own)} to the reference",
            file=sys.stderr,
        )
        raise SystemExit(3)
    init = _rebuild(init, [_load_tensor(inputs_dir / "init", m) for m in own])  # the reference's, not new draws
    model = module.ModelNew(*init)
    with torch.no_grad():
        got = model(*inputs)
    outputs = _save(_flatten(got), out / "outputs")
    (out / "manifest.json").write_text(json.dumps({"outputs": outputs}))


def check(validation: Path, case: dict, golden_dir: Path, output_dir: Path) -> None:
    _stub_npu_modules()
    sys.modules["kernel_gen_ops"] = _NoKernel("kernel_gen_ops")  # module.py imports it at the top; never run here
    calls: list[tuple] = []

    def recorded(outputs, outputs_new, max_abs_error, max_rel_error):
        result = _check_precision(outputs, outputs_new, max_abs_error, max_rel_error)
        calls.append((outputs, outputs_new, max_abs_error, max_rel_error, result))
        return result

    sys.modules["framework.utils"].check_precision = recorded  # before the task imports it
    _, prepare = _modules(validation)
    manifest = json.loads((golden_dir / "manifest.json").read_text())
    outs = json.loads((output_dir / "manifest.json").read_text())["outputs"]
    ref = [_load_tensor(golden_dir / "goldens", m) for m in manifest["goldens"]]
    got = [_load_tensor(output_dir / "outputs", m) for m in outs]
    many = manifest.get("output_is_list")
    ref_arg, got_arg = (ref, got) if many else (ref[0], got[0])
    row = _row(case, validation)
    result = prepare.custom_check_precision(row, ref_arg, got_arg)
    acc = _accepted(result)
    tolerance = _declared_tolerance(calls, ref_arg, got_arg, result)
    if acc and tolerance is None:
        tolerance = _measured_tolerance(prepare.custom_check_precision, row, len(ref) if many else None)
    print(json.dumps({"custom_check_precision": acc, "tolerance": tolerance}))


def _accepted(result) -> bool:
    return bool(result[0] if isinstance(result, (tuple, list)) else result)


# Where the element-wise threshold of a check is measured (see _measured_tolerance): reference values of these
# magnitudes, probes of this many elements, errors searched up to this multiple of max(1, magnitude).
_PROBE_MAGNITUDES = (0.0, 1.0, 8.0, 64.0, 1024.0)
_PROBE_SIZE = 64
_PROBE_CEILING = 1e6


def _measured_tolerance(check, row, n_outputs: int | None) -> dict | None:
    """The (atol, rtol) a check that is not a bare check_precision call applies, measured by calling it on probes:
    for reference values of each magnitude m, the largest error added to every element that it still accepts
    (bisection), t(m). The check is taken for the benchmark's element-wise rule - an element fails beyond both atol
    and rtol * |reference| - only if t(m) = max(atol, rtol * m) at every magnitude (within 2%, atol = t(0), rtol =
    t(1024) / 1024), it accepts every element off by half of t(m) and refuses one element off by twice t(m). Many
    NPUKernelBench checks are that rule written out (`abs_diff > rtol * max(1, |out|)`, one rtol per dtype or per
    problem size). A check of another shape (a share of elements allowed off, a bound on the mean, one that accepts
    anything) declares nothing. cotbuilder then compares with the measured numbers itself, its NaN/Inf rule included,
    and only where the check accepted the real outputs: what passes has passed both."""
    import torch

    def accepts(m: float, error: float, every: bool) -> bool:
        ref = torch.full((_PROBE_SIZE,), m, dtype=torch.float32)
        new = ref.clone()
        if every:
            new += error
        else:
            new[_PROBE_SIZE // 2] += error
        if n_outputs is None:
            return _accepted(check(row, ref, new))
        return _accepted(check(row, [ref.clone() for _ in range(n_outputs)], [new.clone() for _ in range(n_outputs)]))

    try:
        t = {}
        for m in _PROBE_MAGNITUDES:
            top = _PROBE_CEILING * max(1.0, m)
            if not accepts(m, 0.0, True) or accepts(m, top, True):
                return None  # refuses an exact answer, or accepts anything
            lo, hi = 0.0, top  # accepted, refused
            for _ in range(80):  # down by 16x until one is accepted, then halve the interval to 1e-4
                mid = (lo + hi) / 2 if lo > 0 else hi / 16
                lo, hi = (mid, hi) if accepts(m, mid, True) else (lo, mid)
                if lo > 0 and hi - lo <= 1e-4 * hi:
                    break
            t[m] = lo
        atol, rtol = t[0.0], t[_PROBE_MAGNITUDES[-1]] / _PROBE_MAGNITUDES[-1]
        for m, found in t.items():
            expected = max(atol, rtol * m)
            if (
                abs(found - expected) > 0.02 * expected
                or not accepts(m, found / 2, True)
                or accepts(m, 2 * found, False)
            ):
                return None
    except Exception:  # the check cannot take a probe (it reads shapes from the row, say): nothing measured
        return None
    if atol <= 0 or rtol < 0:
        return None
    return {"atol": atol, "rtol": rtol, "measured": True}


def _declared_tolerance(calls: list[tuple], ref, got, result) -> dict | None:
    """The (atol, rtol) of the benchmark's rule when the task's check is nothing but that rule with tolerances of its
    own: exactly one check_precision call, on the very reference and output it was handed, whose result it returned
    unchanged (most NPUKernelBench custom checks: a per-dtype `return check_precision(..., max_abs_error=...)`).
    cotbuilder then compares the outputs itself with those tolerances; a check that does anything else declares
    nothing. The numbers are the task's claim, like its reference: recorded with the verdict."""
    if len(calls) != 1:
        return None
    outputs, outputs_new, atol, rtol, returned = calls[0]
    if not (_same(outputs, ref) and _same(outputs_new, got) and result is returned):
        return None
    try:
        atol, rtol = float(atol), float(rtol)
    except (TypeError, ValueError):
        return None
    if not (0 <= atol < float("inf") and 0 <= rtol < float("inf")):
        return None
    return {"atol": atol, "rtol": rtol}


def _same(seen, given) -> bool:
    """`seen` is `given` (the objects themselves: `.to('cpu')` of a CPU tensor is the tensor), or a list of them."""
    if seen is given:
        return True
    pair = isinstance(seen, (list, tuple)) and isinstance(given, (list, tuple)) and len(seen) == len(given)
    return pair and all(a is b for a, b in zip(seen, given, strict=True))


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "golden":
        golden(Path(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text()), Path(sys.argv[4]))
    elif mode == "kernel":
        kernel(
            Path(sys.argv[2]),
            json.loads(Path(sys.argv[3]).read_text()),
            Path(sys.argv[4]),
            Path(sys.argv[5]),
            sys.argv[6],
        )
    elif mode == "check":
        check(Path(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text()), Path(sys.argv[4]), Path(sys.argv[5]))
    else:
        raise SystemExit(f"unknown mode {mode}")
