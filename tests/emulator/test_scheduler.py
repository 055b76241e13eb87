"""The emulator's multi-core scheduler: the blocks of a launch interleave in an order drawn from a seed (same seed,
same output), only the SoC's cores are resident at once, and `verify --schedules N` fails a kernel whose output
depends on the interleaving (steps.run_binary, the verify stage's own runner, under the real sandbox)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from cotbuilder.verify import steps


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory) -> Path:
    return toolchain.build(toolchain.cpp / "schedule_checks.cpp", tmp_path_factory.mktemp("sched") / "schedule_checks")


def _count(exe: Path, tmp: Path, seed: int) -> int:
    out = tmp / f"c{seed}.bin"
    env = {**os.environ, "COTBUILDER_SCHEDULE_SEED": str(seed)}
    proc = subprocess.run([str(exe), "lost_updates", str(out)], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    return int(np.fromfile(out, dtype=np.int32)[0])


def test_the_same_seed_gives_the_same_interleaving_and_other_seeds_other_ones(exe, tmp_path):
    counts = [_count(exe, tmp_path, seed) for seed in range(6)]
    assert counts == [_count(exe, tmp_path, seed) for seed in range(6)]  # deterministic per seed
    assert len(set(counts)) > 1 and max(counts) <= 400  # the interleaving really changes with the seed
    assert min(counts) < 400  # and updates get lost, as on hardware


def test_more_blocks_than_cores_run_in_rounds_and_all_finish(exe, tmp_path):
    out = tmp_path / "rounds.bin"
    proc = subprocess.run([str(exe), "rounds", str(out)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "COTBUILDER_DIAG" not in proc.stderr, proc.stderr
    assert np.array_equal(np.fromfile(out, dtype=np.int32).reshape(100, 8)[:, 0], np.arange(100))


def _run(workdir: Path, schedules: int):
    ctx = steps.Context(cache_dir=workdir / "cache", schedules=schedules)
    return steps.run_binary(ctx, workdir, "schedule_checks", ["lost_updates", "out.bin"])


def test_verify_with_several_schedules_fails_an_order_dependent_output(exe, tmp_path):
    (tmp_path / "schedule_checks").write_bytes(exe.read_bytes())
    (tmp_path / "schedule_checks").chmod(0o755)
    result, diags, _ = _run(tmp_path, schedules=1)
    assert result.outcome == "ok" and diags == []
    single = np.fromfile(tmp_path / "out.bin", dtype=np.int32)[0]
    result, diags, _ = _run(tmp_path, schedules=4)
    kinds = [d["kind"] for d in diags]
    assert kinds == ["schedule_dependent"], diags
    assert "out.bin differs between emulator schedule seeds 0 and" in diags[0]["message"]
    # the outputs left for judging are seed 0's, whatever the other seeds wrote
    assert np.fromfile(tmp_path / "out.bin", dtype=np.int32)[0] == single


def test_a_unit_built_with_cce_auto_sync_off_runs_without_the_compilers_syncs(toolchain, tmp_path):
    # pipes.cpp's V -> V kernel is right with auto-sync on; its CMake saying --cce-auto-sync=off makes it a race
    src = Path(toolchain.cpp) / "falsepass" / "pipes.cpp"
    binary = toolchain.build(src, tmp_path / "pipes")
    work = tmp_path / "unit"
    work.mkdir()
    (work / "pipes").write_bytes(binary.read_bytes())
    (work / "pipes").chmod(0o755)
    ctx = steps.Context(cache_dir=tmp_path / "cache")
    _, diags, _ = steps.run_binary(ctx, work, "pipes", ["v_v_autosync_off"])
    assert [d for d in diags if d["kind"] == "race"] == []
    (work / "CMakeLists.txt").write_text(
        "ascendc_compile_options(op PRIVATE --cce-auto-sync=off)\n# --cce-auto-sync=off in a comment does not count\n"
    )
    _, diags, _ = steps.run_binary(ctx, work, "pipes", ["v_v_autosync_off"])
    assert [d["kind"] for d in diags if d["severity"] == "error"] == ["race"]
