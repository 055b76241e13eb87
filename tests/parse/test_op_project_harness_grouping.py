"""An op project's unit holds what it needs to be built and tested as its authors do (issue 11, item 4): its
harnesses, its docs, the headers it includes from elsewhere in the source, the shared file registering its tiling,
a benchmark task's validation folder; a library's own test folder is not lumped into one unit."""

from __future__ import annotations

from cotbuilder import records
from cotbuilder.parse.units import extract_units

from . import fixtures as fx

SRC = "b" * 64


def _roles(unit: dict) -> dict[str, str]:
    return {f["path"]: f["role"] for f in unit["files"]}


def test_aclnn_example_tests_and_docs_join_the_op_unit_with_harness_roles():
    files = fx.op_project_files() + [
        fx.record("ops/ScaleCustom/examples/AclNNInvocationNaive/main.cpp", "int main() { return 0; }\n"),
        fx.record("ops/ScaleCustom/examples/AclNNInvocationNaive/gen_data.py", fx.GEN),
        fx.record("ops/ScaleCustom/examples/AclNNInvocationNaive/verify_result.py", fx.VERIFY),
        fx.record("ops/ScaleCustom/README.md", "# ScaleCustom\n"),
        fx.record("ops/ScaleCustom/docs/aclnnScaleCustom.md", "## aclnnScaleCustom\n"),
    ]
    (unit,), notes = extract_units(SRC, files)
    roles = _roles(unit)
    assert roles["examples/AclNNInvocationNaive/main.cpp"] == "example"
    assert roles["examples/AclNNInvocationNaive/gen_data.py"] == "example"
    assert roles["README.md"] == "doc" and roles["docs/aclnnScaleCustom.md"] == "doc"
    assert roles["tests/ut/op_kernel/test_scale.cpp"] == "test"
    assert notes == []
    # harness files are carried, not read: the kernel and host code are what they were
    assert "int main" not in unit["host_code"] and "int main" not in unit["kernel_code"]
    records.validate("unit", unit)


def test_a_header_included_from_elsewhere_in_the_source_joins_under_deps_with_its_source_file():
    kernel = fx.OP_KERNEL.replace(
        '#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "common/scale_helpers.h"'
    )
    files = [f for f in fx.op_project_files() if not f["path"].endswith("op_kernel/scale_custom.cpp")] + [
        fx.record("ops/ScaleCustom/op_kernel/scale_custom.cpp", kernel),
        fx.record("shared/inc/common/scale_helpers.h", '#pragma once\n#include "scale_math.h"\n'),
        fx.record("shared/inc/common/scale_math.h", "#pragma once\ninline int twice(int x);\n"),
        fx.record("shared/inc/common/scale_math.cpp", '#include "scale_math.h"\nint twice(int x) { return 2 * x; }\n'),
        fx.record("unrelated/other.h", "#pragma once\n"),
    ]
    (unit,), _ = extract_units(SRC, files)
    roles = _roles(unit)
    assert roles["_deps/shared/inc/common/scale_helpers.h"] == "dependency"
    assert roles["_deps/shared/inc/common/scale_math.h"] == "dependency"  # included by the dependency
    assert roles["_deps/shared/inc/common/scale_math.cpp"] == "dependency"  # the header's source: linked
    assert "_deps/unrelated/other.h" not in roles
    records.validate("unit", unit)


def test_a_shared_file_registering_the_op_tiling_joins_the_unit():
    shared = (
        '#include "register/op_def_registry.h"\n'
        "namespace optiling {\nstatic ge::graphStatus TilingScale(gert::TilingContext*) { return ge::GRAPH_SUCCESS; }\n"
        "IMPL_OP_OPTILING(ScaleCustom).Tiling(TilingScale);\nIMPL_OP_OPTILING(OtherOp).Tiling(TilingScale);\n}\n"
    )
    files = fx.op_project_files() + [fx.record("common/tiling/shared_tiling.cpp", shared)]
    (unit,), _ = extract_units(SRC, files)
    assert _roles(unit)["_deps/common/tiling/shared_tiling.cpp"] == "dependency"


def test_toolkit_headers_present_in_the_tree_are_never_taken_from_it():
    """A checkout of the toolkit itself (asc-devkit) has real kernel_operator.h / register/... headers: the emulator
    stands in for them, so they must not join a unit."""
    files = fx.op_project_files() + [
        fx.record("include/kernel_operator.h", "#pragma once\n// the real toolkit header\n"),
        fx.record("include/register/tilingdata_base.h", "#pragma once\n"),
    ]
    (unit,), _ = extract_units(SRC, files)
    assert not [p for p in _roles(unit) if p.startswith("_deps/")]


def test_benchmark_answer_takes_its_task_validation_folder_and_the_task_name():
    root = "tasks/level1/Math/ScaleCustom/answer/0"
    files = fx.op_project_files(root) + [
        fx.record("tasks/level1/Math/ScaleCustom/validation/module.py", "class Model: pass\n"),
        fx.record("tasks/level1/Math/ScaleCustom/validation/test_cases.csv", "case_id;shape\n0;[8]\n"),
        fx.record("tasks/level1/Math/ScaleCustom/validation/pybind.cpp", "// binding\n"),
    ]
    (unit,), _ = extract_units(SRC, files)
    assert unit["name"] == "ScaleCustom"
    roles = _roles(unit)
    assert roles["_deps/tasks/level1/Math/ScaleCustom/validation/module.py"] == "validation"
    assert roles["_deps/tasks/level1/Math/ScaleCustom/validation/test_cases.csv"] == "validation"


def test_a_folder_of_kernels_without_a_host_main_gives_one_unit_per_kernel():
    """asc-devkit tests/api/... folders hold dozens of independent test kernels: never one giant unit."""
    kernels = [
        fx.record(
            f"tests/api/basic_api/case_{i}/kernel_{i}.cpp",
            fx.KERNEL.replace("scale_relu", f"scale_{i}"),
        )
        for i in range(1)
    ]
    folder = [
        fx.record(f"tests/api/checker/check_{i}.cpp", fx.KERNEL.replace("scale_relu", f"check_{i}")) for i in range(4)
    ]
    gtest = fx.record(
        "tests/api/gtest_case/test_add.cpp",
        fx.KERNEL.replace("scale_relu", "gt_add") + "\nTEST_F(AddTest, Case1) { }\nTEST_F(AddTest, Case2) { }\n",
    )
    helper = fx.record("tests/api/gtest_case/helper.h", "#pragma once\n")
    units, _ = extract_units(SRC, kernels + folder + [gtest, helper])
    checker_units = [u for u in units if u["root"] == "tests/api/checker"]
    assert len(checker_units) == 4 and all(len(u["files"]) == 1 for u in checker_units)
    (gt,) = [u for u in units if u["root"] == "tests/api/gtest_case"]
    assert [f["path"] for f in gt["files"]] == ["test_add.cpp"]  # the helper it does not include stays out
