"""Decontamination precision: what two kernels share only because every AscendC kernel is written that way (a licence
header, the include block, the Init/Process/CopyIn/Compute/CopyOut skeleton) is not evidence; a copy of an answer is
`contaminated`, a kernel that shares an answer's body is `near`; and a bare git repository (a fetched mirror) is a
benchmark like any other. The benchmark here is written in the test (a folder per task); so are the units."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cotbuilder.decontam import benchmark_matched, benchmarks
from cotbuilder.decontam.stage import DecontamConfig, run
from cotbuilder.store import Store

REPO = Path(__file__).resolve().parents[2]
MINI = REPO / "examples" / "benchmarks" / "npukernelbench-mini"

LICENCE = """/*
 * Copyright (c) 2025 Example Kernel Authors. All rights reserved.
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in compliance with
 * the License. You may obtain a copy of the License at http://www.apache.org/licenses/LICENSE-2.0
 */
"""

# The standard skeleton (queues, copy-in/compute/copy-out, a per-core slice), around one op's compute lines.
SKELETON = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;

class Kernel{Name} {
public:
    __aicore__ inline Kernel{Name}() {}
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, uint32_t totalLength, uint32_t tileNum)
    {
        this->blockLength = totalLength / GetBlockNum();
        this->tileNum = tileNum;
        this->tileLength = this->blockLength / tileNum / BUFFER_NUM;
        srcGm.SetGlobalBuffer((__gm__ float *)src + this->blockLength * GetBlockIdx(), this->blockLength);
        dstGm.SetGlobalBuffer((__gm__ float *)dst + this->blockLength * GetBlockIdx(), this->blockLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, this->tileLength * sizeof(float));
        pipe.InitBuffer(workBuf, this->tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        int32_t loopCount = this->tileNum * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<float> srcLocal = inQueue.AllocTensor<float>();
        DataCopy(srcLocal, srcGm[progress * this->tileLength], this->tileLength);
        inQueue.EnQue(srcLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        LocalTensor<float> x = inQueue.DeQue<float>();
        LocalTensor<float> y = outQueue.AllocTensor<float>();
        LocalTensor<float> t = workBuf.Get<float>();
{compute}
        outQueue.EnQue<float>(y);
        inQueue.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<float> dstLocal = outQueue.DeQue<float>();
        DataCopy(dstGm[progress * this->tileLength], dstLocal, this->tileLength);
        outQueue.FreeTensor(dstLocal);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> workBuf;
    GlobalTensor<float> srcGm;
    GlobalTensor<float> dstGm;
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void {name}(GM_ADDR src, GM_ADDR dst, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    Kernel{Name} op;
    op.Init(src, dst, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
"""

COMPUTE = {
    # softplus(x) = ln(1 + exp(x)), computed as max(x, 0) + ln(1 + exp(-|x|)) to stay finite
    "softplus": """        Abs(t, x, this->tileLength);
        Muls(t, t, -1.0f, this->tileLength);
        Exp(t, t, this->tileLength);
        Adds(t, t, 1.0f, this->tileLength);
        Ln(t, t, this->tileLength);
        Maxs(y, x, 0.0f, this->tileLength);
        Add(y, y, t, this->tileLength);""",
    # hardswish(x) = x * min(max(x + 3, 0), 6) / 6
    "hardswish": """        Adds(t, x, 3.0f, this->tileLength);
        Maxs(t, t, 0.0f, this->tileLength);
        Mins(t, t, 6.0f, this->tileLength);
        Mul(y, x, t, this->tileLength);
        Muls(y, y, 0.16666667f, this->tileLength);""",
    # mish(x) = x * tanh(softplus(x)): not a task of the benchmark
    "mish": """        Exp(t, x, this->tileLength);
        Adds(t, t, 1.0f, this->tileLength);
        Ln(t, t, this->tileLength);
        Tanh(t, t, this->tileLength);
        Mul(y, x, t, this->tileLength);""",
}


def kernel(name: str, compute: str, header: str = "") -> str:
    camel = "".join(p.title() for p in name.split("_"))
    return header + SKELETON.replace("{Name}", camel).replace("{name}", name).replace("{compute}", compute)


def other_task(k: int) -> str:
    """A task written another way (a scalar reduction loop): the skeleton is in a minority of the benchmark's tasks,
    so frequency alone would not drop it."""
    ops = ["ReduceMax", "ReduceMin", "ReduceSum", "ReduceMax", "ReduceSum", "ReduceMin"]
    return f"""#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void row_op_{k}(GM_ADDR src, GM_ADDR dst, uint32_t rows, uint32_t cols)
{{
    TPipe pipe{k};
    TBuf<QuePosition::VECCALC> rowBuf{k}, workBuf{k}, resBuf{k};
    GlobalTensor<float> in{k}, out{k};
    in{k}.SetGlobalBuffer((__gm__ float *)src, rows * cols);
    out{k}.SetGlobalBuffer((__gm__ float *)dst, rows);
    pipe{k}.InitBuffer(rowBuf{k}, cols * sizeof(float) * {k + 1});
    pipe{k}.InitBuffer(workBuf{k}, cols * sizeof(float) + {32 * k});
    pipe{k}.InitBuffer(resBuf{k}, {32 + k * 32});
    LocalTensor<float> row = rowBuf{k}.Get<float>();
    for (uint32_t r = GetBlockIdx() * {k + 1}; r < rows; r += GetBlockNum() + {k}) {{
        DataCopy(row, in{k}[r * cols + {k}], cols);
        PipeBarrier<PIPE_ALL>();
        {ops[k]}(resBuf{k}.Get<float>(), row, workBuf{k}.Get<float>(), cols - {k}, false);
        out{k}.SetValue(r, resBuf{k}.Get<float>().GetValue(0) * {k + 2}.0f);
    }}
}}
"""


@pytest.fixture
def bench(tmp_path: Path) -> Path:
    root = tmp_path / "bench"
    for name in ("softplus", "hardswish"):
        (root / name).mkdir(parents=True)
        (root / name / f"{name}_kernel.cpp").write_text(kernel(name, COMPUTE[name], LICENCE))
    for k in range(6):
        (root / f"row_op_{k}").mkdir(parents=True)
        (root / f"row_op_{k}" / f"row_op_{k}_kernel.cpp").write_text(other_task(k))
    return root


def _factory():
    spec = importlib.util.spec_from_file_location("cb_rf", REPO / "tests" / "publish" / "records_factory.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rename(code: str) -> str:
    for old, new in {
        "srcGm": "inGlobal",
        "dstGm": "outGlobal",
        "inQueue": "qIn",
        "outQueue": "qOut",
        "t": "tmp",
    }.items():
        code = re.sub(rf"\b{old}\b", new, code)
    return code.replace("    ", "  ")


def _verdicts(ws: Path, bench: Path, units: dict[str, str]) -> dict[str, dict]:
    f = _factory()
    with Store(ws) as store:
        f.source(store)
        ids = {name: f.unit(store, name, code, harness=False) for name, code in units.items()}
        run(store, DecontamConfig(benchmarks=[f"mine={bench}"]))
        rows = {r["unit_id"]: r for r in store.rows("SELECT * FROM contamination")}
    return {name: rows[uid] for name, uid in ids.items()}


def test_a_kernel_sharing_only_licence_includes_and_skeleton_with_answers_is_clean(tmp_path, bench):
    got = _verdicts(
        tmp_path / "ws",
        bench,
        {
            "mish": kernel("mish", COMPUTE["mish"], LICENCE),  # same header, includes and skeleton as two answers
            "hardswish_copy": kernel("hardswish", COMPUTE["hardswish"]),  # the answer without its licence header
            "hardswish_renamed": _rename(kernel("hardswish", COMPUTE["hardswish"])),
        },
    )
    assert got["mish"]["verdict"] == "clean", got["mish"]["evidence"]
    # ... while the same skeleton around an answer's own compute lines is a copy of that answer
    for name, kinds in (("hardswish_copy", {"exact", "minhash", "code_ngram"}), ("hardswish_renamed", {"minhash"})):
        assert (got[name]["verdict"], got[name]["task"]) == ("contaminated", "hardswish"), name
        assert {c["kind"] for c in got[name]["evidence"]["hits"][0]["checks"]} == kinds, name


def test_a_kernel_sharing_an_answers_body_but_not_copying_it_is_near(tmp_path, bench):
    extra = "\n".join(
        f"        Axpy(y, t, {k}.5f, this->tileLength);\n        Relu(t, y, this->tileLength - {k});" for k in range(9)
    )
    got = _verdicts(
        tmp_path / "ws", bench, {"hardswish_axpy": kernel("hardswish_axpy", COMPUTE["hardswish"] + "\n" + extra)}
    )
    row = got["hardswish_axpy"]
    assert row["verdict"] == "near", row["evidence"]
    hit = row["evidence"]["hits"][0]
    assert (hit["task"], hit["verdict"]) == ("hardswish", "near")
    assert all(c["verdict"] == "near" for c in hit["checks"])


def test_benchmark_matched_is_true_for_contaminated_near_and_unchecked_units(tmp_path, bench):
    f = _factory()
    with Store(tmp_path / "ws") as store:
        f.source(store)
        clean = f.unit(store, "mish", kernel("mish", COMPUTE["mish"]), harness=False)
        copy = f.unit(store, "copy", kernel("hardswish", COMPUTE["hardswish"]), harness=False)
        run(store, DecontamConfig(benchmarks=[f"mine={bench}"]))
        unchecked = f.unit(store, "later", kernel("later", COMPUTE["mish"].replace("Tanh", "Sigmoid")), harness=False)
        assert benchmark_matched(store, clean) is False
        assert benchmark_matched(store, copy) is True
        assert benchmark_matched(store, unchecked) is True  # never checked: cannot be shown clean
        store.execute("UPDATE contamination SET verdict = 'near' WHERE unit_id = ?", [copy])
        assert benchmark_matched(store, copy) is True


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def test_a_bare_git_repository_is_read_from_its_head_with_its_history(tmp_path):
    work = tmp_path / "work"
    shutil.copytree(MINI, work)
    desc = work / "tasks/level1/Math/ClampScalar/api_desc.md"
    current = desc.read_text(encoding="utf-8")
    desc.write_text(
        "# ClampScalar\n\n将输入张量的每个元素限制在给定的最小值与最大值之间，输出与输入形状相同的张量。\n",
        encoding="utf-8",
    )
    _git(work, "init", "-q", "-b", "main")
    _git(work, "add", "-A")
    _git(work, "commit", "-q", "-m", "zh")
    desc.write_text(current, encoding="utf-8")
    _git(work, "commit", "-q", "-am", "en")
    bare = tmp_path / "mirror.git"
    _git(tmp_path, "clone", "-q", "--bare", str(work), str(bare))

    bench = benchmarks.load(f"mini={bare}", tmp_path / "cache")
    assert bench.layout == "npukernelbench" and len(bench.tasks) == 3
    assert bench.commit == _git(work, "rev-parse", "HEAD").strip()
    clamp = next(t for t in bench.tasks if t.task_id.endswith("ClampScalar"))
    assert any("@history" in p and "最小值与最大值" in text for p, text in clamp.prose)
    softsign = next(t for t in bench.tasks if t.task_id.endswith("Softsign"))
    assert any(p.endswith("op_kernel/softsign.cpp") for p, _ in softsign.answers)
    again = benchmarks.load(f"mini={bare}", tmp_path / "cache")  # written once per commit, then read from the cache
    assert again.content_hash() == bench.content_hash()
