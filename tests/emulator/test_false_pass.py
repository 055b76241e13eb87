"""The false-pass suite (emulator/tests/falsepass/): 46 small kernels, each wrong on hardware by a doc sentence or a
real implementation check, that the old emulator passed. Each must now be recorded with its expected non-passed
status and diagnostic, and its corrected twin must pass.

A case's status comes from cotbuilder's own verdict code: the build failure through `steps.compile_failure`, the run's
diagnostics through `diagnostics.parse_emulator_diagnostics`, the output against a golden computed here from the
input formulas (fixed before the kernel runs) through `compare.compare`, and `steps.judge`. Several kernels share one
binary, selected by an argument, so the suite costs five builds and nine syntax-only compiles."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import numpy as np
import pytest

from cotbuilder.verify import build as buildmod
from cotbuilder.verify import compare, diagnostics, steps
from cotbuilder.verify.verdict import Verdict

CASES_DIR = Path(__file__).resolve().parents[2] / "emulator" / "tests" / "falsepass"
CASES = tomllib.loads((CASES_DIR / "cases.toml").read_text(encoding="utf-8"))["case"]
N = 256


# ---- inputs (case.h's formulas) and goldens ----
def xval(n: int = 2048) -> np.ndarray:
    i = np.arange(n)
    return ((i % 17) - 8).astype(np.float32) * 0.25


def yval(n: int = 2048) -> np.ndarray:
    i = np.arange(n)
    return ((i % 5) + 1).astype(np.float32) * 0.5


def _f16(a) -> np.ndarray:
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        return np.asarray(a).astype(np.float16)


def _half_sum() -> np.ndarray:
    i = np.arange(4096)
    x = _f16(1.0 + (i % 3).astype(np.float32) * np.float32(0.07))
    return _f16([x.astype(np.float64).sum()])


def _neighbour() -> np.ndarray:
    x, s = xval(N), N // 8
    return np.concatenate(
        [2 * x[b * s : (b + 1) * s] + 2 * x[((b + 7) % 8) * s : ((b + 7) % 8 + 1) * s] for b in range(8)]
    )


# golden name -> (values, dtype name for compare, elements to compare)
GOLDEN = {
    "add_f32": lambda: (xval(N) + yval(N), "float32"),
    "add_i16": lambda: (np.trunc(xval(N)).astype(np.int16) + np.trunc(yval(N)).astype(np.int16), "int16"),
    "div_f32": lambda: (xval(N) / yval(N), "float32"),
    "abs_f32": lambda: (np.abs(xval(N)), "float32"),
    "exp_f32": lambda: (np.exp(xval(N)), "float32"),
    "dup_u16": lambda: (np.full(N, 3, np.uint16), "uint16"),
    "sum_f32": lambda: (xval(N)[:N].sum(keepdims=True), "float32"),
    "cast_f32_i8": lambda: (np.rint(xval(N)).astype(np.int8), "int8"),
    "cast_f16_bf16": lambda: (compare.float_to_bf16_bits(xval(N)), "bfloat16"),
    "rint_f16_i32": lambda: (np.rint(xval(N)).astype(np.int32), "int32"),
    "widen_f16": lambda: (xval(N), "float32"),
    "twice_f32": lambda: (2 * xval(N), "float32"),
    "max_2048": lambda: (xval(2048).max(keepdims=True), "float32"),
    "sum_1280": lambda: (xval(1280).sum(keepdims=True), "float32"),
    "sin_plus_x": lambda: (np.sin(xval(N)) + xval(N), "float32"),
    "twice_xy": lambda: (2 * np.concatenate([xval(N), yval(N)]), "float32"),
    "thrice_x": lambda: (3 * xval(N), "float32"),
    "twice_y": lambda: (2 * yval(N), "float32"),
    "copy_x": lambda: (xval(N), "float32"),
    "every_8th_x": lambda: (xval(N)[::8], "float32"),
    "copy_y": lambda: (yval(N), "float32"),
    "add_mul": lambda: ((xval(N) + yval(N)) * yval(N), "float32"),
    "plus_one": lambda: (xval(N) + 1, "float32"),
    "x_first_5": lambda: (np.concatenate([[5.0], xval(N)[1:]]).astype(np.float32), "float32"),
    "syncall_48": lambda: (2 * xval(48 * 8), "float32"),
    "neighbour": lambda: (_neighbour(), "float32"),
    "counter_800": lambda: (np.array([800], np.int32), "int32"),
    "slice_sum": lambda: (xval(N).reshape(8, N // 8).sum(axis=0), "float32"),
    "block_ids": lambda: (np.arange(8, dtype=np.int32), "int32"),
    "twice_250": lambda: (2 * xval(250), "float32"),
    "half_sum_4096": lambda: (_half_sum(), "float16"),
    "cast_40000_f16": lambda: (_f16(xval(N) * np.float32(40000)), "float16"),
    "times_40000_f32": lambda: (xval(N) * np.float32(40000), "float32"),
    "muls_40000_f16": lambda: (_f16(_f16(xval(N)).astype(np.float32) * np.float32(40000)), "float16"),
    "recip_f16": lambda: (_f16(_recip(_f16(xval(N)).astype(np.float32))), "float16"),
    "recip_f32": lambda: (_recip(xval(N)), "float32"),
    "muls_40000_f16_saturated": lambda: (
        np.clip(_f16(_f16(xval(N)).astype(np.float32) * np.float32(40000)), -65504, 65504).astype(np.float16),
        "float16",
    ),
}


def _recip(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.float32(1) / x


# ---- building and running ----
@pytest.fixture(scope="module")
def binaries(toolchain, tmp_path_factory):
    out = tmp_path_factory.mktemp("falsepass")
    return {tu: toolchain.build(CASES_DIR / f"{tu}.cpp", out / tu) for tu in sorted({c["tu"] for c in CASES})}


def verdict_of_run(binary: Path, name: str, workdir: Path, golden: str, env: dict[str, str]) -> Verdict:
    """Run one case and judge it the way the verify stage judges a unit: a run stopped by a fatal finding is
    failed_run, a wrong output wrong_answer, a right one with error diagnostics failed_run."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "out.bin").unlink(missing_ok=True)
    proc = subprocess.run(
        [str(binary), name], cwd=workdir, capture_output=True, text=True, timeout=120, env={**os.environ, **env}
    )
    diags, log = diagnostics.parse_emulator_diagnostics(proc.stderr)
    verdict = Verdict("passed", harness="falsepass", compile_ok=True, run_ok=proc.returncode == 0, diagnostics=diags)
    out = workdir / "out.bin"
    if proc.returncode not in (0, 3) or not out.is_file():
        first = diagnostics.errors(diags)[:1]
        verdict.status = "failed_run"
        verdict.reason = f"{first[0]['kind']}: {first[0]['message']}" if first else f"exit {proc.returncode}: {log}"
        return verdict
    want, dtype = GOLDEN[golden]()
    got = np.fromfile(out, dtype=compare.numpy_dtype(dtype))[: np.asarray(want).size]
    verdict.cases = [compare.compare(got, np.asarray(want), dtype)]
    verdict.correct = bool(verdict.cases[0]["ok"])
    return steps.judge(verdict)


def verdict_of_build(toolchain, name: str, out: Path) -> Verdict:
    """Compile a broken legality case alone (syntax only: the rejection is a compile-time one)."""
    flag = out / f"{name}.h"
    flag.write_text(f"#define FP_BROKEN_{name} 1\n")
    proc = toolchain.compile(
        CASES_DIR / "legality.cpp", out / f"{name}.o", after_pch=["-include", str(flag), "-fsyntax-only"]
    )
    result = buildmod.BuildResult(proc.returncode == 0, proc.stderr, 0.0, False, None)
    return Verdict("passed", "built") if result.ok else steps.compile_failure(result, {}, "falsepass")


def _ids(cases: list[dict]) -> list[str]:
    return [f"{c['class']}:{c['name']}" for c in cases]


def test_the_suite_covers_every_class_with_at_least_40_kernels():
    classes = {c["class"] for c in CASES}
    assert classes == {
        "legality",
        "queues-buffers-scratch",
        "pipe-hazards",
        "multi-core",
        "poisoned-memory",
        "numerics",
    }
    assert len(CASES) >= 40 and len({c["name"] for c in CASES}) == len(CASES)
    assert all(c.get("doc") for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_a_kernel_wrong_on_hardware_is_not_passed_and_says_why(toolchain, binaries, tmp_path, case):
    if case.get("compile"):
        verdict = verdict_of_build(toolchain, case["name"], tmp_path)
        assert verdict.status == case["expect"], verdict.reason
        # the reason names the rule, the API and the doc page it comes from
        assert "cotbuilder legality" in verdict.reason and case["diagnostic"] in verdict.reason, verdict.reason
        assert "docs: SIMD-API/" in verdict.reason
        return
    verdict = verdict_of_run(binaries[case["tu"]], case["name"], tmp_path, case["golden"], dict(case.get("env", {})))
    assert verdict.status == case["expect"], (verdict.reason, verdict.diagnostics[:3])
    kinds = {d["kind"] for d in verdict.diagnostics}
    if case["diagnostic"] != "none":
        assert case["diagnostic"] in kinds, verdict.diagnostics[:5]
    if case["expect"] == "wrong_answer" and case["diagnostic"] != "none":  # the reason says why the output is wrong
        assert f"emulator {case['diagnostic']}: " in verdict.reason, verdict.reason
    if case["diagnostic"] in ("race", "sync"):  # both source lines are named
        d = next(d for d in verdict.diagnostics if d["kind"] == case["diagnostic"])
        assert d["file"].endswith(f"{case['tu']}.cpp") and d["line"], d


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_its_corrected_twin_passes(binaries, tmp_path, case):
    golden = case.get("fixed_golden", case["golden"])
    verdict = verdict_of_run(
        binaries[case["tu"]], case["name"] + "__fixed", tmp_path, golden, dict(case.get("env", {}))
    )
    assert verdict.status == "passed", (verdict.reason, verdict.diagnostics[:3], verdict.cases)
    if case["class"] == "poisoned-memory":  # the twin writes what it reads: the check that named the bug is silent
        assert case["diagnostic"] not in {d["kind"] for d in verdict.diagnostics}, verdict.diagnostics[:3]


def test_a_queue_buffer_left_allocated_at_the_end_is_only_a_warning(binaries, tmp_path):
    verdict = verdict_of_run(binaries["memory"], "leak_at_end_is_a_warning__fixed", tmp_path, "twice_f32", {})
    assert verdict.status == "passed"
    assert [d["severity"] for d in verdict.diagnostics if d["kind"] == "tensor_leak"] == ["warning"]


def test_the_auto_sync_races_pass_when_the_unit_keeps_cce_auto_sync_on(binaries, tmp_path):
    # the same broken kernels are right with the compiler's syncs: the model honours the build flag, nothing more
    for name, golden in (("v_v_autosync_off", "add_mul"), ("s_v_autosync_off", "plus_one")):
        verdict = verdict_of_run(binaries["pipes"], name, tmp_path / name, golden, {})
        assert verdict.status == "passed", (name, verdict.reason)
