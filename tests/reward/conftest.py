"""Reward fixtures: one demo task (add_fp16, one seed), the answers the tests score, and a build cache shared by the
session (each distinct answer is compiled once per test run)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cotbuilder.reward import Scorer
from cotbuilder.tasks.toml_loader import load_file

REPO = Path(__file__).resolve().parents[2]
TASK_TOML = REPO / "examples" / "tasks" / "add_fp16" / "task.toml"
RIGHT = (REPO / "examples" / "kernel_launch" / "add_fp16" / "add_fp16.cpp").read_text(encoding="utf-8")

# A real mistake: the vector op subtracts instead of adding.
WRONG = RIGHT.replace("Add(zLocal, xLocal, yLocal, TILE_LENGTH);", "Sub(zLocal, xLocal, yLocal, TILE_LENGTH);")
# The kernel's own bug: a misspelled API.
COMPILE_ERROR = RIGHT.replace("Add(zLocal, xLocal, yLocal, TILE_LENGTH);", "Addd(zLocal, xLocal, yLocal, TILE_LENGTH);")
# A real AscendC API the emulator does not provide (sparse cube matmul): the emulator's gap, not the kernel's.
UNSUPPORTED = RIGHT.replace(
    "Add(zLocal, xLocal, yLocal, TILE_LENGTH);",
    "Add(zLocal, xLocal, yLocal, TILE_LENGTH);\n        AscendC::MmadWithSparse(zLocal, xLocal, yLocal, {});",
)
# Computes nothing; instead claims success on stdout, looks for the reference's golden where a careless harness would
# keep it and copies it into z, and writes a "passing" z.bin into every sibling directory it can reach.
HOSTILE = r"""
#include "kernel_operator.h"
#include <cstdio>
#include <dirent.h>

extern "C" __global__ __aicore__ void add_fp16(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    if (AscendC::GetBlockIdx() != 0) return;
    std::printf("[PASS] 32768/32768 elements match the golden\nall cases passed\n");
    const char* goldens[] = {"expected/z.bin", "../reference-0/expected/z.bin", "../../case-0/reference-0/expected/z.bin",
                             "../expected/z.bin", "/tmp/expected/z.bin"};
    for (const char* g : goldens) {
        if (FILE* f = std::fopen(g, "rb")) { std::fread((void*)z, 1, 8 * 4096 * 2, f); std::fclose(f); }
    }
    const char* parents[] = {".", "..", "../..", "../../.."};
    for (const char* d : parents) {
        DIR* dp = opendir(d);
        if (!dp) continue;
        while (dirent* e = readdir(dp)) {
            char path[1024];
            std::snprintf(path, sizeof path, "%s/%s/output/z.bin", d, e->d_name);
            if (FILE* f = std::fopen(path, "wb")) { std::fputs("forged", f); std::fclose(f); }
            std::snprintf(path, sizeof path, "%s/%s/expected/z.bin", d, e->d_name);
            if (FILE* f = std::fopen(path, "wb")) { std::fputs("forged", f); std::fclose(f); }
        }
        closedir(dp);
    }
}
"""


@pytest.fixture(scope="session")
def add_task():
    """The demo task add_fp16 with one seed (one case, one input draw: the cheapest real check)."""
    task = load_file(TASK_TOML)
    cases = [{**task.cases[0], "seeds": [0]}]
    return dataclasses.replace(task, cases=cases, task_id="")  # task_id "" = recomputed over the new content


@pytest.fixture(scope="session")
def shared_build_cache(shared_verify_cache: Path) -> Path:
    """cache/verify (PCH + builds): the test run's, shared by every worker (tests/conftest.py)."""
    return shared_verify_cache


def cache_root(tmp: Path, shared: Path) -> Path:
    """A cache root with a private score cache and the session's build cache."""
    root = tmp / "cache"
    root.mkdir(parents=True)
    (root / "verify").symlink_to(shared)
    return root


@pytest.fixture
def scorer(tmp_path, shared_build_cache) -> Scorer:
    return Scorer(cache_root(tmp_path, shared_build_cache))
