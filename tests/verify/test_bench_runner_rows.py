"""A benchmark task's test_cases.csv row reaches get_inputs / get_init_inputs typed as the benchmark's framework types
it (pandas, `;`, whole-number numeric columns as int) - not as the CSV's text, which made tasks computing with
`param.get('epsilon')` fail in the reference step (a harness gap, charged to the task)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cotbuilder.verify


def _runner():
    path = Path(cotbuilder.verify.__file__).parent / "data" / "bench_runner.py"
    spec = importlib.util.spec_from_file_location("bench_runner_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_row_values_are_typed_like_the_benchmark_reads_them(tmp_path):
    (tmp_path / "test_cases.csv").write_text(
        "case_id;shape;dtype;epsilon;scale\n0;[4, 8];float16;1e-6;2\n1;[3];float32;0.5;3\n"
    )
    runner = _runner()
    row = runner._row({"row": {"case_id": "1"}, "index": 1}, tmp_path)
    assert row["epsilon"] == 0.5 and isinstance(row["epsilon"], float)
    assert row["scale"] == 3 and not isinstance(row["scale"], str)
    assert row["case_id"] == 1 and row["shape"] == "[3]" and row["dtype"] == "float32"
    assert json.dumps(int(row["scale"])) == "3"


PREPARE_INTEGER_DRAWS = """
import torch

def get_inputs(param, device=None):
    shape = eval(param.get("shape"))
    dtype = getattr(torch, param.get("dtype"))
    x = (torch.rand(shape, dtype=dtype, device=device) * 9) + 1
    y = torch.randn(shape, device=device, dtype=torch.int8)
    z = torch.empty(shape, dtype=torch.int64).uniform_(-5, 5)
    f = torch.randn(shape, dtype=torch.float32)
    return (x, y, z, f)

def get_init_inputs(param, device=None):
    return []
"""

MODULE_SUM = """
import torch

class Model(torch.nn.Module):
    def forward(self, x, y, z, f):
        return x + y.to(x.dtype) + z.to(x.dtype)


class ModelNew(Model):  # the kernel step's model (here without a kernel: the step's own draws are what is tested)
    pass
"""


def test_integer_draws_that_cpu_torch_refuses_are_drawn_in_float_and_cast_floats_untouched(tmp_path):
    """NPUKernelBench tasks draw integer inputs with torch.rand / randn / uniform_ (ClipByValue, Equal,
    ForeachAddScalar ...), which CPU torch refuses: the reference step failed and the task was `unsupported`. The
    runner draws them in float32 and casts; a float draw is the one torch makes with the same seed; torch's own
    functions are back afterwards."""
    import torch  # the torch extra (.ci/run installs it)

    validation = tmp_path / "validation"
    validation.mkdir()
    (validation / "test_cases.csv").write_text("case_id;shape;dtype\n0;[64];int32\n")
    (validation / "prepare_inputs.py").write_text(PREPARE_INTEGER_DRAWS)
    (validation / "module.py").write_text(MODULE_SUM)
    runner = _runner()
    real = (torch.rand, torch.randn, torch.Tensor.uniform_, torch.Tensor.normal_)
    runner.golden(validation, {"row": {"case_id": "0"}, "index": 0, "seed": 3}, tmp_path / "out")
    assert (torch.rand, torch.randn, torch.Tensor.uniform_, torch.Tensor.normal_) == real
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    dtypes = [m["dtype"] for m in manifest["inputs"]]
    assert dtypes[:3] == ["int32", "int8", "int64"] and dtypes[3] == "float32", manifest
    x, y, z, f = (runner._load_tensor(tmp_path / "out" / "inputs", m) for m in manifest["inputs"])
    assert int(x.min()) >= 1 and int(x.max()) <= 9 and int(z.min()) >= -5 and int(z.max()) <= 4
    assert int(y.abs().max()) <= 6  # normal draws cast toward zero
    torch.manual_seed(3)
    torch.rand([64]), torch.randn([64]), torch.rand([64])  # the three integer draws consume the same stream
    assert torch.equal(f, torch.randn([64], dtype=torch.float32))
    assert len(manifest["goldens"]) == 1
    # the kernel step draws get_inputs() again for its structure: the same integer draws must work there (they
    # failed it, and the verdict blamed the answer: failed_run)
    runner.kernel(validation, {"row": {"case_id": "0"}, "index": 0}, tmp_path / "out", tmp_path / "k", "/bin/false")
    assert (torch.rand, torch.randn, torch.Tensor.uniform_, torch.Tensor.normal_) == real
    got = json.loads((tmp_path / "k" / "manifest.json").read_text())["outputs"]
    assert got[0]["dtype"] == "int32" and got[0]["shape"] == [64]


def test_numpy_scalars_from_a_row_pass_to_the_binding_as_pybind11_converts_them(tmp_path):
    """`self.n` of a ModelNew built from a pandas row is a numpy int64 (NPUKernelBench's Sscal passes it to an
    `int64_t` parameter, and an int row value 10 to a `double` one): the stand-in for the compiled module converts
    them as pybind11 does. A value it cannot convert names itself as cotbuilder's gap."""
    import numpy as np
    import pytest

    runner = _runner()
    binding = runner._Binding("/nonexistent", tmp_path)
    args = [np.int64(2048), np.float32(0.5), np.bool_(True), 10]
    got = [binding._arg(v, tmp_path, [0]) for v in args]
    assert got == [
        {"kind": "int", "value": 2048},
        {"kind": "float", "value": 0.5},
        {"kind": "bool", "value": True},
        {"kind": "int", "value": 10},
    ]
    assert json.dumps(got)  # plain Python values: the call file is JSON
    with pytest.raises(TypeError, match=runner.SHIM_GAP + ".*cannot pass a complex"):
        binding.sscal(1j)  # refused before the binary would run


def test_a_bad_value_inside_an_argument_is_modelnews_error_not_the_bindings_gap(tmp_path):
    """Only a type the stand-in has no conversion for is cotbuilder's gap (`unsupported`). A list holding a value that
    does not convert (a None among floats) is ModelNew's own error, which pybind11 would refuse as well: the
    TypeError carries no gap mark, so the harness keeps it a `failed_run` of the answer."""
    import pytest

    runner = _runner()
    binding = runner._Binding("/nonexistent", tmp_path)
    with pytest.raises(TypeError) as raised:
        binding.foreach_mul([0.5, None])
    assert runner.SHIM_GAP not in str(raised.value)
