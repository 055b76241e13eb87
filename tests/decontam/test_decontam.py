"""Decontamination against a benchmark in NPUKernelBench's layout (a real git repo in a tmp dir, with an older Chinese
api_desc.md in its history), a MultiKernelBench-layout folder and a plain folder."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cotbuilder.decontam import benchmarks, index, ngrams
from cotbuilder.decontam.stage import DecontamConfig, run
from cotbuilder.store import Store

REPO = Path(__file__).resolve().parents[2]
MINI = REPO / "examples" / "benchmarks" / "npukernelbench-mini"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
TASKS = MINI / "tasks" / "level1"

APACHE_HEADER = """/*
 * Copyright 2024 Example Kernels Authors
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
"""

UNRELATED = """#include "kernel_operator.h"
using namespace AscendC;

class KernelRowMax {
public:
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        srcGm.SetGlobalBuffer((__gm__ float *)src, rows * cols);
        dstGm.SetGlobalBuffer((__gm__ float *)dst, rows);
        pipe.InitBuffer(rowBuf, cols * sizeof(float));
        pipe.InitBuffer(workBuf, cols * sizeof(float));
        pipe.InitBuffer(resBuf, 32);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> row = rowBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> res = resBuf.Get<float>();
        for (uint32_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {
            DataCopy(row, srcGm[r * cols], cols);
            PipeBarrier<PIPE_ALL>();
            ReduceMax(res, row, work, cols, false);
            dstGm.SetValue(r, res.GetValue(0));
        }
    }
private:
    TPipe pipe;
    TBuf<QuePosition::VECCALC> rowBuf, workBuf, resBuf;
    GlobalTensor<float> srcGm, dstGm;
    uint32_t rows, cols;
};

extern "C" __global__ __aicore__ void row_max(GM_ADDR src, GM_ADDR dst, uint32_t rows, uint32_t cols)
{
    KernelRowMax op;
    op.Init(src, dst, rows, cols);
    op.Process();
}
"""


def _factory():
    spec = importlib.util.spec_from_file_location(
        "cb_records_factory", REPO / "tests" / "publish" / "records_factory.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=cwd, check=True, capture_output=True
    )


@pytest.fixture
def bench_repo(tmp_path: Path) -> Path:
    """The mini benchmark as a git repo whose first commit had Chinese api_desc.md texts (as NPUKernelBench's did)."""
    repo = tmp_path / "bench"
    shutil.copytree(MINI, repo)
    _git(repo, "init", "-q", "-b", "main")
    current = {
        p: (repo / p).read_text(encoding="utf-8") for p in json.loads((FIXTURES / "api_desc_zh.json").read_text())
    }
    for path, text in json.loads((FIXTURES / "api_desc_zh.json").read_text(encoding="utf-8")).items():
        (repo / path).write_text(text, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "initial (Chinese descriptions)")
    for path, text in current.items():
        (repo / path).write_text(text, encoding="utf-8")
    _git(repo, "commit", "-q", "-am", "English descriptions")
    return repo


def _rename_and_reformat(code: str) -> str:
    names = {
        "KernelGreaterEqual": "GeKernelImpl",
        "aLocal": "lhsTile",
        "bLocal": "rhsTile",
        "yLocal": "resTile",
        "aQueue": "lhsQ",
        "bQueue": "rhsQ",
        "yQueue": "resQ",
        "aGm": "lhsGlobal",
        "bGm": "rhsGlobal",
        "yGm": "resGlobal",
        "blockLength": "perCore",
        "tileLength": "chunk",
        "tileNum": "chunks",
        "maskBuf": "cmpBuf",
        "oneBuf": "onesBuf",
        "zeroBuf": "zerosBuf",
        "selBuf": "pickBuf",
        "maskLocal": "cmpMask",
        "progress": "step",
        "loopCount": "iters",
        "greater_equal": "ge_kernel",
    }
    for old, new in names.items():
        code = re.sub(rf"\b{old}\b", new, code)
    out = []
    for line in code.splitlines():  # Allman -> K&R braces, 2-space indent, spaces around commas dropped
        s = line.strip()
        if s == "{" and out:
            out[-1] += " {"
        elif s:
            out.append("  " * ((len(line) - len(line.lstrip())) // 4) + s.replace(", ", ","))
    return "\n".join(out) + "\n"


def test_verbatim_and_renamed_copies_are_flagged_shared_boilerplate_and_unrelated_are_clean(bench_repo, tmp_path):
    f = _factory()
    softsign = (TASKS / "Activation/Softsign/answer/0/op_kernel/softsign.cpp").read_text()
    ge = (TASKS / "Comparison/GreaterEqual/answer/0/op_kernel/greater_equal.cpp").read_text()
    sample = (MINI / "kernel_generator/add_custom_sample.py").read_text()
    add_custom = sample.split("r'''", 1)[1].rsplit("'''", 1)[0]
    zh_clamp = json.loads((FIXTURES / "api_desc_zh.json").read_text())["tasks/level1/Math/ClampScalar/api_desc.md"]
    with Store(tmp_path / "ws") as store:
        f.source(store)
        verbatim = f.unit(store, "softsign_copy", APACHE_HEADER + softsign)
        renamed = f.unit(store, "ge_renamed", _rename_and_reformat(ge))
        boiler = f.unit(store, "add_custom", APACHE_HEADER + add_custom)
        unrelated = f.unit(store, "row_max", UNRELATED)
        zh_prose = f.unit(store, "row_max_zh", UNRELATED.replace("row_max", "row_max2"))
        f.annotation(store, zh_prose, task="实现一个算子：" + zh_clamp.split("### 算子功能", 1)[1].split("###")[0])
        f.annotation(store, unrelated, task="Write a kernel that takes the maximum of every row of a matrix.")
        stats = run(store, DecontamConfig(benchmarks=[f"mini={bench_repo}"]))
        rows = {r["unit_id"]: r for r in store.rows("SELECT * FROM contamination")}

    assert rows[verbatim]["verdict"] == "contaminated"
    assert (rows[verbatim]["benchmark"], rows[verbatim]["task"]) == ("mini", "level1/Activation/Softsign")
    kinds = {c["kind"] for c in rows[verbatim]["evidence"]["hits"][0]["checks"]}
    assert {"exact", "code_ngram", "minhash"} <= kinds
    code_hit = next(c for c in rows[verbatim]["evidence"]["hits"][0]["checks"] if c["kind"] == "code_ngram")
    assert code_hit["count"] >= 20 and code_hit["sample"]

    assert rows[renamed]["verdict"] == "contaminated"
    assert rows[renamed]["task"] == "level1/Comparison/GreaterEqual"
    minhash_hit = next(c for c in rows[renamed]["evidence"]["hits"][0]["checks"] if c["kind"] == "minhash")
    assert minhash_hit["similarity"] >= 0.9
    assert "exact" not in {c["kind"] for c in rows[renamed]["evidence"]["hits"][0]["checks"]}

    assert rows[boiler]["verdict"] == "clean", rows[boiler]["evidence"]
    assert rows[unrelated]["verdict"] == "clean", rows[unrelated]["evidence"]

    # the Chinese description only exists in the benchmark's git history
    assert rows[zh_prose]["verdict"] == "contaminated"
    zh_hit = rows[zh_prose]["evidence"]["hits"][0]
    assert zh_hit["task"] == "level1/Math/ClampScalar"
    assert [c["kind"] for c in zh_hit["checks"]] == ["zh_ngram"]
    assert stats.counts["contaminated"] == 3 and stats.counts["clean"] == 2

    report = json.loads((tmp_path / "ws" / "reports" / "contamination.json").read_text())
    hit_tasks = {h["task"] for h in report["benchmarks"][0]["hits"]}
    assert hit_tasks == {"level1/Activation/Softsign", "level1/Comparison/GreaterEqual", "level1/Math/ClampScalar"}
    md = (tmp_path / "ws" / "reports" / "contamination.md").read_text()
    assert "level1/Activation/Softsign" in md and "softsign_copy" in md


def test_rerun_uses_the_cached_index_and_checks_nothing_again(bench_repo, tmp_path):
    f = _factory()
    with Store(tmp_path / "ws") as store:
        f.source(store)
        f.unit(store, "row_max", UNRELATED)
        first = run(store, DecontamConfig(benchmarks=[f"mini={bench_repo}"]))
        second = run(store, DecontamConfig(benchmarks=[f"mini={bench_repo}"]))
    assert first.counts["benchmark_index_built"] == 1 and first.counts["clean"] == 1
    assert second.counts["benchmark_index_cached"] == 1 and second.counts["skipped"] == 1
    assert second.counts["clean"] == 0


def test_git_url_benchmark_is_cloned_into_the_workspace_cache(bench_repo, tmp_path):
    cache = tmp_path / "cache"
    bench = benchmarks.load(f"mini=file://{bench_repo}", cache)
    assert bench.layout == "npukernelbench" and len(bench.tasks) == 3
    assert (cache / "benchmarks" / "git").is_dir() and bench.commit
    clamp = next(t for t in bench.tasks if t.task_id.endswith("ClampScalar"))
    assert any("@history" in p and "算子功能" in text for p, text in clamp.prose)
    assert {p.split("/")[-1] for p, _ in clamp.prompt_code} >= {"module.py", "test_cases.csv", "clamp_scalar.cpp"}
    assert [p for p, _ in bench.shared] == ["kernel_generator/add_custom_sample.py"]


def test_text_in_most_tasks_is_dropped_by_the_frequency_filter(tmp_path):
    shared_block = "\n".join(f"int shared_{i} = compute_{i}(alpha, beta) + {i};" for i in range(10))
    for k in range(4):
        d = tmp_path / f"task{k}"
        d.mkdir()
        (d / "sol.cpp").write_text(
            shared_block + "\n" + "\n".join(f"float only{k}_{i} = special{k}(x{i}, {k * 100 + i});" for i in range(10))
        )
    bench = benchmarks.load(f"plain={tmp_path}", tmp_path / "cache")
    assert bench.layout == "folder" and len(bench.tasks) == 4
    idx = index.build(bench, index.IndexParams())
    shared_grams = ngrams.ngram_set("code", shared_block, 13)
    assert not shared_grams & set(idx.postings["code"])
    assert idx.dropped["code"] >= len(shared_grams)


def test_multikernelbench_layout_reads_reference_tasks_and_shares_the_prompt_examples(tmp_path):
    (tmp_path / "reference" / "activation").mkdir(parents=True)
    (tmp_path / "prompts").mkdir()
    (tmp_path / "reference" / "activation" / "softsign.py").write_text(
        "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x / (1 + x.abs())\n"
    )
    (tmp_path / "prompts" / "ascendc_new_model_add.py").write_text("example = 'add'\n")
    bench = benchmarks.load(f"mkb={tmp_path}", tmp_path / "cache")
    assert bench.layout == "multikernelbench"
    assert [t.task_id for t in bench.tasks] == ["activation/softsign"]
    assert bench.shared[0][0] == "prompts/ascendc_new_model_add.py"


def test_decontaminate_cli_without_benchmark_exits_2(cli, tmp_path):
    proc = cli("decontaminate", workspace=tmp_path / "ws")
    assert proc.returncode == 2
    assert "--benchmark" in proc.stderr
