"""Which harness verifies an op project, in the order its authors' own tests are worth most:

1. benchmark validation (a task's `validation/`: PyTorch reference, cases, binding) - `harness_bench.py`;
2. an aclnn example with a data generator (cann-ops `examples/AclNNInvocation*`) - `harness_aclnn.py`;
3. a kernel unit test (`tests/ut/op_kernel/test_*.cpp`, gtest) - `harness_kernel_ut.py`;
4. a `verify_spec.toml` (shapes, dtypes, attrs; the tiling from TilingFunc) - `harness_op_spec.py`;
5. an aclnn example that only prints (hicann `examples/test_aclnn_*.cpp`: `unchecked` at best) - `harness_aclnn.py`;
6. a `verify_spec.toml` without `op` (kernel, entry, tiling typed in) - the generic `harness_spec.py`.
Without any: `unsupported`, "op project without a harness".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import steps
from .verdict import Verdict

KINDS = ("benchmark", "aclnn", "kernel_ut", "op_spec")
NONE = "op project without a harness (no verify_spec.toml, aclnn example, kernel UT or benchmark validation)"


def choose(unit: dict[str, Any]) -> str:
    from . import harness_aclnn, harness_bench, harness_kernel_ut, harness_op_spec, harness_spec

    if harness_bench.validation_dir(unit) is not None:
        return "benchmark"
    found = harness_aclnn.examples(unit)
    if any(e["generator"] is not None for e in found):
        return "aclnn"
    if harness_kernel_ut.tests(unit):
        return "kernel_ut"
    if harness_op_spec.find_spec(unit) is not None:
        return "op_spec"
    if found:
        return "aclnn"
    if harness_spec.find_spec(unit) is not None:
        return "spec"  # a spec without `op`: kernel, entry and tiling by hand (harness_spec.py)
    return NONE


def verify(unit: dict[str, Any], which: str, unit_dir: Path, ctx: steps.Context) -> Verdict:
    from . import harness_aclnn, harness_bench, harness_kernel_ut, harness_op_spec, harness_spec

    if which == "benchmark":
        return harness_bench.verify_bench(unit, unit_dir, ctx)
    if which == "aclnn":
        found = harness_aclnn.examples(unit)
        return harness_aclnn.verify_aclnn(unit, unit_dir, ctx, next((e for e in found if e["generator"]), found[0]))
    if which == "kernel_ut":
        return harness_kernel_ut.verify_kernel_ut(unit, unit_dir, ctx)
    if which == "op_spec":
        return harness_op_spec.verify_op_spec(unit, unit_dir, ctx)
    if which == "spec":
        return harness_spec.verify_spec(unit, unit_dir, ctx)
    return Verdict("unsupported", which, "none")
