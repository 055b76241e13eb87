"""ModelNew may widen what the binding returned before returning it (NPUKernelBench's Equal:
`kernel_gen_ops.equal(a, b).to(dtype=torch.int)` of a bool result). A cast that keeps every value leaves the output
the kernel's work: the harness finds the call it came from and compares the replayed result cast the same way. A
cast that loses values (float32 to float16), or an output no result casts to, is still not the kernel's."""

from __future__ import annotations

import json

import numpy as np

from cotbuilder.verify import harness_bench


def _calls(result: np.ndarray, dtype: str) -> dict[str, dict[str, bytes]]:
    record = {"kind": "tensor", "dtype": dtype, "shape": list(result.shape), "file": "res_0.bin"}
    return {"call_0": {"result.json": json.dumps(record).encode(), "res_0.bin": result.tobytes()}}


def test_a_bool_result_widened_to_int32_is_the_bindings_output_cast():
    result = np.array([True, False, True, True])
    calls = _calls(result, "bool")
    out = result.astype(np.int32).tobytes()
    assert harness_bench._origin(out, "int32", calls) == ("call_0", 0, "bool")
    origins = harness_bench._origins({"output_0.bin": out}, {"output_0.bin": "int32"}, calls)
    assert harness_bench._provenance(origins, {}, calls, {}) is None
    assert harness_bench._cast(result.tobytes(), "bool", "int32") == out


def test_a_lossy_cast_or_a_changed_value_is_not_the_kernels_work():
    result = np.array([1.0001, 2.0, 3.0], np.float32)
    calls = _calls(result, "float32")
    assert harness_bench._origin(result.astype(np.float16).tobytes(), "float16", calls)[0] is None
    flags = np.array([True, False])
    changed = np.array([1, 1], np.int32).tobytes()  # not what the bool result widens to
    assert harness_bench._origin(changed, "int32", _calls(flags, "bool"))[0] is None
    calls = _calls(flags, "bool")
    why = harness_bench._provenance(
        harness_bench._origins({"output_0.bin": changed}, {"output_0.bin": "int32"}, calls), {}, calls, {}
    )
    assert why and "not a tensor the binding returned" in why
