"""The verify stage end to end on real g++, the real emulator headers, real DuckDB and the real sandbox."""

from __future__ import annotations

from pathlib import Path

from cotbuilder.store import Store
from cotbuilder.verify.stage import VerifyConfig, run

from .conftest import copy_fixture
from .unitdir import add_units, unit_from_dir

KERNEL = "tiny_add.cpp"

# Broken copies of the fixture kernel: (name, edits, expected status, diagnostic kind that must be reported or None)
MUTATIONS = [
    (
        "wrong_gm_offset",
        [(KERNEL, "const uint32_t offset = blockLength * AscendC::GetBlockIdx();", "const uint32_t offset = 0;")],
        "wrong_answer",
        None,
    ),
    (
        "missing_tail",
        [
            (
                KERNEL,
                "tileNum = (blockLength + TILE_LENGTH - 1) / TILE_LENGTH;",
                "tileNum = blockLength / TILE_LENGTH;",
            ),
            (KERNEL, "tailLength = blockLength - (tileNum - 1) * TILE_LENGTH;", "tailLength = TILE_LENGTH;"),
        ],
        "wrong_answer",
        None,
    ),
    (
        "one_tile_too_few",
        [(KERNEL, "for (uint32_t i = 0; i < tileNum; i++)", "for (uint32_t i = 0; i + 1 < tileNum; i++)")],
        "wrong_answer",
        None,
    ),
    (
        "ub_overflow",
        [
            (
                KERNEL,
                # the y buffers fill the UB, so the z buffers the kernel writes lie past it (a buffer past the
                # UB that nothing touches is only a warning)
                "pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));",
                "pipe.InitBuffer(inQueueY, BUFFER_NUM, 96 * TILE_LENGTH * sizeof(float));",
            )
        ],
        "failed_run",
        "ub_overflow",
    ),
    ("missing_free_tensor", [(KERNEL, "        inQueueY.FreeTensor(yLocal);\n", "")], "failed_run", None),
    (
        "misaligned_datacopy",
        [
            (
                KERNEL,
                "AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], len);",
                "AscendC::DataCopy(xLocal[3], xGm[i * TILE_LENGTH], len - 8);",
            )
        ],
        "wrong_answer",
        "misaligned_ub",
    ),
]


def _verify(ws: Path, **kw) -> tuple[dict, list[dict]]:
    with Store(ws) as store:
        stats = run(store, VerifyConfig(progress=False, **kw))
        rows = store.rows("SELECT u.name, v.* FROM verifications v JOIN units u USING (unit_id) ORDER BY u.name")
    return stats, rows


def test_fixture_kernel_passes_with_its_own_harness_over_seeds(verify_workspace, tmp_path):
    add_units(verify_workspace, unit_from_dir(copy_fixture("tiny_add", tmp_path / "tiny_add")))
    stats, rows = _verify(verify_workspace)
    [row] = rows
    assert row["status"] == "passed", (row["reason"], row["compile_log"], row["run_log"])
    assert row["compile_ok"] and row["run_ok"] and row["correct"]
    assert row["backend"] == "cpu-emulator" and row["soc"] == "ascend910b" and row["harness"] == "own"
    assert [c["seed"] for c in row["cases"]] == [0, 1] and all(c["checker_output"] == "test pass" for c in row["cases"])
    out = row["cases"][0]["outputs"][0]
    assert out["n"] == 16000 and out["max_abs_err"] == 0.0 and out["atol"] == 1e-4
    assert stats.counts["passed"] == 1


def test_broken_copies_fail_with_the_right_status_and_diagnostic(verify_workspace, tmp_path):
    units = [
        unit_from_dir(copy_fixture("tiny_add", tmp_path / name, edits), name=name) for name, edits, _, _ in MUTATIONS
    ]
    add_units(verify_workspace, *units)
    stats, rows = _verify(verify_workspace, jobs=2, seeds=[0])
    by_name = {r["name"]: r for r in rows}
    problems = []
    for name, _, status, diag in MUTATIONS:
        row = by_name[name]
        kinds = {d["kind"] for d in row["diagnostics"]}
        if row["status"] != status or (diag and diag not in kinds):
            problems.append((name, row["status"], row["reason"], sorted(kinds)))
    assert not problems
    assert by_name["missing_free_tensor"]["diagnostics"], "a leaked tensor must be reported"
    assert stats.counts["failed"] == 0  # wrong answers are data, not errors


def test_rerun_skips_verified_units_and_a_changed_source_is_verified_again(verify_workspace, tmp_path):
    unit = unit_from_dir(copy_fixture("tiny_add", tmp_path / "tiny_add"))
    add_units(verify_workspace, unit)
    _verify(verify_workspace, seeds=[0])
    stats, rows = _verify(verify_workspace, seeds=[0])
    assert stats.counts["skipped"] == 1 and stats.counts["kept"] == 0 and len(rows) == 1
    # the same unit id with an edited kernel: a new source hash, so a new verification
    unit["files"] = [dict(f, text=f["text"].replace("z = x + y", "z = y + x")) for f in unit["files"]]
    add_units(verify_workspace, unit)
    stats, rows = _verify(verify_workspace, seeds=[0])
    assert stats.counts["kept"] == 1 and len(rows) == 2 and len({r["source_hash"] for r in rows}) == 2
    # another SoC is another verification of the same source. Built without the precompiled header: a 310P PCH
    # would be built for this one unit (~12 CPU-s, no other test uses one), the header-only build takes ~2 s, and the
    # PCH is no part of a verification's identity (verification_id)
    stats, rows = _verify(verify_workspace, seeds=[0], soc="ascend310p", pch=False)
    assert stats.counts["kept"] == 1 and {r["soc"] for r in rows} == {"ascend910b", "ascend310p"}


def test_missing_api_is_unsupported_with_the_api_named_and_syntax_error_is_failed_compile(verify_workspace, tmp_path):
    """A real toolkit API the emulator lacks is the emulator's gap; an API spelled nowhere in the toolkit is the
    kernel's bug, like a syntax error."""
    add_call = "AscendC::Add(zLocal, xLocal, yLocal, len);"
    missing = copy_fixture(
        "tiny_add",
        tmp_path / "missing_api",
        [(KERNEL, add_call, "AscendC::BilinearInterpolation(zLocal, xLocal, yLocal, len);")],
    )
    invented = copy_fixture(
        "tiny_add", tmp_path / "invented_api", [(KERNEL, add_call, "AscendC::FancyNewOp(zLocal, xLocal, yLocal, len);")]
    )
    broken = copy_fixture("tiny_add", tmp_path / "syntax_error", [(KERNEL, "op.Process();", "op.Process()")])
    header = copy_fixture(
        "tiny_add",
        tmp_path / "missing_header",
        [(KERNEL, '#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "tensor_api/tensor.h"')],
    )
    add_units(verify_workspace, *(unit_from_dir(p) for p in (missing, invented, broken, header)))
    _, rows = _verify(verify_workspace, seeds=[0])
    by_name = {r["name"]: r for r in rows}
    assert by_name["missing_api"]["status"] == "unsupported"
    assert by_name["missing_api"]["missing_apis"] == ["AscendC::BilinearInterpolation"]
    assert by_name["invented_api"]["status"] == "failed_compile" and not by_name["invented_api"]["missing_apis"]
    assert "FancyNewOp" in by_name["invented_api"]["reason"]
    assert by_name["missing_header"]["status"] == "unsupported"
    assert by_name["missing_header"]["missing_apis"] == ["<tensor_api/tensor.h>"]
    assert by_name["syntax_error"]["status"] == "failed_compile" and not by_name["syntax_error"]["compile_ok"]
    assert "error" in by_name["syntax_error"]["reason"]


def test_snippets_are_recorded_unsupported_without_a_harness(verify_workspace, tmp_path):
    folder = tmp_path / "snip"
    folder.mkdir()
    (folder / "snippet.cpp").write_text("AscendC::Add(z, x, y, 256);\n")
    add_units(verify_workspace, unit_from_dir(folder, layout="snippet"))
    _, [row] = _verify(verify_workspace)
    assert row["status"] == "unsupported" and row["reason"] == "snippet: no harness" and row["harness"] == "none"


def test_single_file_asc_sample_with_acl_host_and_triple_chevron_launch_passes(verify_workspace, tmp_path):
    add_units(verify_workspace, unit_from_dir(copy_fixture("tiny_asc", tmp_path / "tiny_asc")))
    _, [row] = _verify(verify_workspace, seeds=[0])
    assert row["status"] == "passed", (row["reason"], (row["compile_log"] or "")[:2000], row["run_log"])
    assert row["timings"]["launches_rewritten"] == 1


def test_generic_spec_harness_verifies_a_tiling_kernel_against_numpy(verify_workspace, tmp_path):
    good = copy_fixture("tiny_spec", tmp_path / "tiny_spec")
    wrong = copy_fixture(
        "tiny_spec",
        tmp_path / "tiny_spec_wrong",
        [("verify_spec.toml", "return (x * 2.0 + y).astype(np.float32)", "return (x * 2.0 - y).astype(np.float32)")],
    )
    add_units(verify_workspace, unit_from_dir(good, layout="op_project"), unit_from_dir(wrong, layout="op_project"))
    _, rows = _verify(verify_workspace)
    by_name = {r["name"]: r for r in rows}
    row = by_name["tiny_spec"]
    assert row["status"] == "passed", (row["reason"], (row["compile_log"] or "")[:2000], row["run_log"])
    assert row["harness"] == "spec" and [c["seed"] for c in row["cases"]] == [3, 4]
    bad = by_name["tiny_spec_wrong"]
    assert bad["status"] == "wrong_answer" and bad["correct"] is False
    out = bad["cases"][0]["outputs"][0]
    assert out["mismatches"] > 0 and out["max_abs_err"] > 1e-4 and out["atol"] == 1e-4


def test_without_a_checker_output_and_golden_are_compared_with_the_dtype_tolerance(verify_workspace, tmp_path):
    good = copy_fixture("tiny_add", tmp_path / "no_checker")
    bad = copy_fixture(
        "tiny_add",
        tmp_path / "no_checker_wrong",
        [(KERNEL, "AscendC::Add(zLocal, xLocal, yLocal, len);", "AscendC::Sub(zLocal, xLocal, yLocal, len);")],
    )
    for folder in (good, bad):
        (folder / "scripts" / "verify_result.py").unlink()
    add_units(verify_workspace, unit_from_dir(good), unit_from_dir(bad))
    _, rows = _verify(verify_workspace, seeds=[0])
    by_name = {r["name"]: r for r in rows}
    ok, wrong = by_name["no_checker"], by_name["no_checker_wrong"]
    assert ok["status"] == "passed", ok["reason"]
    out = ok["cases"][0]["outputs"][0]
    assert out["name"] == "output/output_z.bin" and out["dtype"] == "float32" and out["atol"] == 1e-4
    assert wrong["status"] == "wrong_answer"
    assert wrong["cases"][0]["outputs"][0]["mismatches"] > 1000


def test_more_seeds_or_another_opt_level_verifies_a_verified_unit_again(verify_workspace, tmp_path):
    add_units(verify_workspace, unit_from_dir(copy_fixture("tiny_add", tmp_path / "tiny_add")))
    _verify(verify_workspace, seeds=[0, 1])
    stats, rows = _verify(verify_workspace, seeds=[1, 0])  # the same seeds in another order: nothing new to check
    assert stats.counts["skipped"] == 1 and len(rows) == 1
    stats, rows = _verify(verify_workspace, seeds=[0, 1, 2])
    assert stats.counts["kept"] == 1 and len(rows) == 2
    assert sorted(len(r["cases"]) for r in rows) == [2, 3] and all(r["status"] == "passed" for r in rows)
    stats, rows = _verify(verify_workspace, seeds=[0, 1, 2], opt="-O1")  # not the default level (KERNEL_OPT)
    assert stats.counts["kept"] == 1 and len(rows) == 3


def test_a_main_that_fails_only_because_the_golden_is_withheld_is_judged_by_the_comparison(verify_workspace, tmp_path):
    """Many samples' mains write their output, then read output/golden.bin to compare themselves and exit 1 when they
    cannot: the kernel never sees the golden, so that exit is evidence, and the written output is compared."""
    read_golden = (
        '    { FILE* g = std::fopen("./output/golden.bin", "rb"); if (!g) { std::puts("test failed!"); return 1; }'
        " std::fclose(g); }\n"
    )
    unit_dir = copy_fixture(
        "tiny_add",
        tmp_path / "self_compare",
        [
            (
                "main.cpp",
                '    WriteFile("./output/output_z.bin", z, bytes);\n',
                '    WriteFile("./output/output_z.bin", z, bytes);\n' + read_golden,
            )
        ],
    )
    add_units(verify_workspace, unit_from_dir(unit_dir))
    _, [row] = _verify(verify_workspace, seeds=[0])
    assert row["status"] == "passed", row["reason"]
    [case] = row["cases"]
    assert (
        case["check"] == "golden" and case["evidence"]["exit_status"] == 1 and case["evidence"]["self_check"] is False
    )


def test_every_part_of_a_verification_changes_its_id():
    """A verification's id names what was checked: the unit, the backend, the emulator version, the SoC, the sources,
    the seeds, the optimisation level and the scheduler seeds. Dropping any one of them from the id would let two
    different verifications share a row (the stage's per-SoC plan query alone does not catch a dropped SoC)."""
    from cotbuilder.verify.stage import verification_id

    base = dict(unit_id="u1", backend="cpu", version="0.4.1", soc="ascend910b", src_hash="s1")
    ref = verification_id(**base)
    assert verification_id(**base) == ref  # the same verification: the same id
    others = [
        verification_id(**{**base, "unit_id": "u2"}),
        verification_id(**{**base, "backend": "npu"}),
        verification_id(**{**base, "version": "0.4.2"}),
        verification_id(**{**base, "soc": "ascend310p"}),
        verification_id(**{**base, "src_hash": "s2"}),
        verification_id(**base, seeds=(0, 1, 2)),
        verification_id(**base, opt="-O2"),
        verification_id(**base, schedules=4),
    ]
    assert ref not in others and len(set(others)) == len(others)
    assert verification_id(**base, seeds=(1, 0)) == ref  # the set of seeds, not their order


def test_a_run_steps_largest_file_grows_with_its_memory():
    """NPUKernelBench references writing 512 MB outputs were `unsupported` (output size limit 256 MB) under 4 GB."""
    from cotbuilder.verify.stage import VerifyConfig, run_limits

    assert run_limits(VerifyConfig(memory_mb=4096)).file_mb == 1024
    assert run_limits(VerifyConfig(memory_mb=512)).file_mb == 256  # never below the old limit
    limits = run_limits(VerifyConfig(memory_mb=8192, cpu_s=7, wall_s=9.0))
    assert (limits.file_mb, limits.memory_mb, limits.cpu_s, limits.wall_s) == (2048, 8192, 7, 9.0)
