"""Every kernel_launch unit of the demo corpus (examples/kernel_launch/*) passes on the cpu backend, and every op
project (examples/op_project/*) passes through the harness its layout is tested with (a verify_spec.toml with the
tiling from its TilingFunc or typed in, an aclnn example, a kernel UT, a benchmark validation), cube (matmul, mixed
AIC/AIV) units included. Every pass is cotbuilder's own comparison with goldens fixed before the kernel ran
(`check = golden` in every case)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cotbuilder.store import Store

DEMO = Path(__file__).resolve().parents[2] / "examples" / "kernel_launch"
OPS = DEMO.parent / "op_project"
NAMES = sorted(p.name for p in DEMO.iterdir() if p.is_dir() and any(p.iterdir())) if DEMO.is_dir() else []
# every op project: a folder with op_kernel/ (a benchmark task's is answer/0/op_kernel: it is named after its task)
OP_DIRS = (
    {
        (k.parent.parent.parent.name if k.parent.parent.name == "answer" else k.parent.name): k.parent
        for k in sorted(OPS.rglob("op_kernel"))
        if (k.parent / "op_host").is_dir()  # not a kernel UT's tests/ut/op_kernel
    }
    if OPS.is_dir()
    else {}
)
OP_NAMES = sorted(OP_DIRS)


@pytest.fixture(scope="module")
def demo_results(demo_run):
    """The demo pipeline's verification of the corpus, as crawled (jobs=2, seeds 0 and 1): run once per test run and
    shared by every worker (tests/conftest.py), so the corpus is not verified again here."""
    assert demo_run.returncode == 0, demo_run.stderr[-3000:]
    with Store(demo_run.workspace, read_only=True) as store:
        rows = store.rows("SELECT u.name, v.* FROM verifications v JOIN units u USING (unit_id)")
    return {r["name"]: r for r in rows}


def test_demo_corpus_is_present():
    assert len(NAMES) >= 10, f"expected the demo kernel_launch corpus under {DEMO}"


def test_demo_corpus_has_cube_and_mixed_units():
    def text(folder):
        return "".join(p.read_text() for p in folder.rglob("*.cpp"))

    units = [DEMO / n for n in NAMES] + [OPS / n for n in OP_NAMES]
    assert sum("Mmad(" in text(u) for u in units) >= 2  # basic cube API
    assert sum("Matmul<" in text(u) for u in units) >= 3  # high-level Matmul
    assert any("KERNEL_TYPE_MIX_AIC_1_2" in text(u) and "CrossCoreWaitFlag" in text(u) for u in units)


@pytest.mark.parametrize("name", NAMES)
def test_demo_kernel_launch_unit_passes_on_cpu(name, demo_results):
    row = demo_results[name]
    assert row["status"] == "passed", (row["reason"], (row["compile_log"] or "")[:1500], row["diagnostics"][:3])
    assert row["harness"] == "own" and row["cases"] and row["cases_run"] == len(row["cases"])
    # judged by cotbuilder's own comparison with goldens sealed before the kernel ran, not by the sample's checker
    assert all(c["check"] == "golden" and c["ok"] is True and c["goldens"] for c in row["cases"]), row["cases"]


def test_demo_has_an_op_project_of_every_harness_layout(demo_results):
    assert {demo_results[n]["harness"] for n in OP_NAMES} >= {"op_spec", "aclnn", "kernel_ut", "benchmark"}


@pytest.mark.parametrize("name", OP_NAMES)
def test_demo_op_project_passes_its_own_harness(name, demo_results):
    row = demo_results[name]
    assert row["status"] == "passed", (row["reason"], (row["compile_log"] or "")[:1500], row["diagnostics"][:3])
    assert row["harness"] in ("spec", "op_spec", "aclnn", "kernel_ut", "benchmark") and row["cases"]
    assert all(c["check"] == "golden" and c["ok"] is True and c["goldens"] for c in row["cases"]), row["cases"]


def test_only_cotbuilders_generated_sources_get_the_harness_pch(demo_results):
    """An aclnn example's own main.cpp is the unit's code: it meets only the headers it includes (after the emulator's
    PCH, as every unit source), never the harness PCH's host runtime; the generated aclnn layer beside it gets it."""
    rows = [demo_results[n] for n in OP_NAMES if demo_results[n]["harness"] in ("aclnn", "op_spec")]
    for row in rows:
        generated = 1 if row["harness"] == "aclnn" else 2  # the layer; an op_spec's main is generated too
        assert row["timings"].get("harness_pch_objects") == generated, (row["harness"], row["timings"])
    assert {r["harness"] for r in rows} == {"aclnn", "op_spec"}


def test_demo_benchmark_task_passes_every_case_of_its_validation_through_one_call_of_its_op(demo_results):
    """HardSigmoidCustom's three test_cases.csv rows (two float16, one float32: both kernel variants): each case's
    ModelNew made one call of the op through the binding, and the host side ran the op's own tiling."""
    row = demo_results["HardSigmoidCustom"]
    assert row["status"] == "passed" and row["harness"] == "benchmark", row["reason"]
    assert [c["case"]["dtype"] for c in row["cases"]] == ["float16", "float32", "float16"]
    assert all(c["check"] == "golden" and c["ok"] is True for c in row["cases"])
    assert all(c["calls"] == 1 and c["host"][0]["op"] == "HardSigmoidCustom" for c in row["cases"])
    assert row["timings"]["kernel_variants"] == 2


def test_demo_foreach_task_with_a_scalar_list_passes_every_case(demo_results):
    """x and y are DYNAMIC lists, `scalars` a ScalarList param that the framework hands the kernel as one tensor of
    the list's values. Every case passes, the int32 one too: its rows all have two tensors, and the kernel variant is
    chosen by Model's arguments (a list of tensors is one argument, one param), not by the flattened tensors. Its
    binding includes <ATen/Scalar.h> on its own, as NPUKernelBench bindings do (the shim lacked it before)."""
    row = demo_results["ForeachMulScalarListCustom"]
    assert row["status"] == "passed" and row["harness"] == "benchmark", row["reason"]
    assert [c["case"]["dtype"] for c in row["cases"]] == ["float16", "int32"]
    assert all(c["check"] == "golden" and c["ok"] is True for c in row["cases"])
    assert row["timings"]["kernel_variants"] == 2  # the cases' dtypes only, of the OpDef's three
