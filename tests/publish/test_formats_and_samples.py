"""push's export formats (each loads back with `datasets`; `reasoning` parses back to the unit's own files by our parser
of NPUKernelBench's answer rules), which samples become rows (--samples, --lang), the train/test split by cluster, and
the one-line-per-reason report of what was left out."""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import pytest

from cotbuilder.decontam.stage import DecontamConfig
from cotbuilder.decontam.stage import run as run_decontam
from cotbuilder.dedup import synthetic
from cotbuilder.dedup.stage import DedupConfig
from cotbuilder.dedup.stage import run as run_dedup
from cotbuilder.publish import reasoning_format as rf_fmt
from cotbuilder.publish.config import PushConfig
from cotbuilder.publish.rows import reasoning_answer
from cotbuilder.publish.stage import run as run_push
from cotbuilder.store import Store

HERE = Path(__file__).resolve().parent
MINI = HERE.parents[1] / "examples" / "benchmarks" / "npukernelbench-mini"

_spec = importlib.util.spec_from_file_location("cb_records_factory_formats", HERE / "records_factory.py")
rf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rf)


def _load(out: Path, fmt: str, split: str = "train"):
    from datasets import load_dataset

    files = sorted(str(p) for p in (out / "data" / fmt).glob(f"{split}-*.parquet"))
    assert files, f"no {split} shard for {fmt}"
    return load_dataset("parquet", data_files=files, split="train")


def _assistant(row: dict) -> str:
    return row["messages"][1]["content"]


# -- the reasoning layout, on strings written here ------------------------------------------------------------------


def test_render_then_parse_gives_back_a_kernel_only_answer_and_an_op_projects_files():
    kernel = '\n#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n\n'
    reasoning, files = rf_fmt.parse(rf_fmt.render("Split by core.\n\nTile by 256.", {rf_fmt.KERNEL_IMPL: kernel}))
    assert reasoning == "Split by core.\n\nTile by 256."
    assert files == {rf_fmt.KERNEL_IMPL: kernel.strip()}

    project = {
        "op_host/scale_tiling.h": "#pragma once\nstruct ScaleTiling { uint32_t n; };\n",
        "op_host/scale.cpp": '#include "scale_tiling.h"\nnamespace optiling { int f() { return 0; } }\n',
        "op_kernel/scale.cpp": 'extern "C" __global__ __aicore__ void scale(GM_ADDR x) {}\n',
    }
    text = rf_fmt.render("Host tiling first.", project)
    assert rf_fmt.parse(text) == ("Host tiling first.", {p: c.strip() for p, c in project.items()})
    # what NPUKernelBench asks for by name in full mode: its three files
    wanted = ["op_host/scale_tiling.h", "op_host/scale.cpp", "op_kernel/scale.cpp"]
    assert rf_fmt.parse_files(text, wanted) == {p: project[p].strip() for p in wanted}


def test_parser_follows_the_benchmarks_rules_on_answers_it_did_not_render():
    # a kernel_impl block without a fence is taken as is; with text around a fence, the fence's inside
    assert rf_fmt.parse_kernel_impl("x <kernel_impl>\n int a; \n</kernel_impl>") == "int a;"
    assert rf_fmt.parse_kernel_impl("<kernel_impl>here:\n```cpp\nint b;\n```\nend</kernel_impl>") == "int b;"
    # the first block wins, also when it sits in the reasoning
    assert rf_fmt.parse_kernel_impl("<kernel_impl>int c;</kernel_impl><kernel_impl>int d;</kernel_impl>") == "int c;"
    with pytest.raises(rf_fmt.FormatError, match="no <kernel_impl>"):
        rf_fmt.parse_kernel_impl("```cpp\nint e;\n```")
    with pytest.raises(rf_fmt.FormatError, match="empty"):
        rf_fmt.parse_kernel_impl("<kernel_impl>\n```cpp\n\n```\n</kernel_impl>")
    # full mode: a header must be followed by a ```cpp fence on the next line; a file runs to the next fence line
    with pytest.raises(rf_fmt.FormatError, match="op_kernel/a.cpp"):
        rf_fmt.parse_file("================== op_kernel/a.cpp ==================\nint f;\n", "op_kernel/a.cpp")
    cut = "================== op_kernel/a.cpp ==================\n```cpp\nint g;\n```text\nint h;\n```\n"
    assert rf_fmt.parse_file(cut, "op_kernel/a.cpp") == "int g;"


def test_a_row_whose_code_would_not_parse_back_intact_is_not_rendered():
    unit = {"layout": "kernel_launch", "kernel_code": "int k;\n", "files": []}
    assert reasoning_answer("Plain reasoning.", unit) is not None
    # the reasoning names the tag: the benchmark would read the reasoning as the kernel
    assert reasoning_answer("The answer goes in <kernel_impl></kernel_impl>.", unit) is None
    op = {
        "layout": "op_project",
        "kernel_code": "",
        "files": [{"path": "op_kernel/a.cpp", "role": "kernel", "text": "// a fence line\n```\nint k;\n"}],
    }
    assert reasoning_answer("Plain reasoning.", op) is None  # a line starting with ``` ends the file early


# -- every format from a real push of the demo workspace ------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["messages", "alpaca", "sharegpt", "reasoning"])
def test_each_format_round_trips_through_load_dataset(demo_workspace, tmp_path, fmt):
    from cotbuilder.publish.stage import select_rows
    from cotbuilder.stats import StageStats

    out = tmp_path / "out"
    config = PushConfig(local_dir=str(out), format=fmt)
    with Store(demo_workspace) as store:
        stats = run_push(store, config)
        built, _, _ = select_rows(store, config, StageStats("push", {}))
    loaded = _load(out, fmt).to_list()
    assert stats.counts["kept"] == len(loaded) == len(built) > 0

    def key(r):
        return (r["id"], r["teacher"]["annotation_id"])

    assert sorted(loaded, key=key) == sorted(built, key=key)


def test_reasoning_rows_parse_back_to_the_units_own_files(demo_workspace, tmp_path):
    out = tmp_path / "out"
    with Store(demo_workspace) as store:
        run_push(store, PushConfig(local_dir=str(out), format="reasoning"))
        units = {u["unit_id"]: u for u in store.rows("SELECT * FROM units")}
    rows = _load(out, "reasoning").to_list()
    layouts = {r["layout"] for r in rows}
    assert {"kernel_launch", "op_project"} <= layouts
    for row in rows:
        unit = units[row["id"]]
        text = _assistant(row)
        assert text.startswith("<think>\n") and "</think>" in text
        reasoning, files = rf_fmt.parse(text)
        assert reasoning and "### 1." in reasoning
        if row["layout"] == "op_project":
            own = {f["path"]: f["text"].strip() for f in unit["files"] if f["path"] in files}
            assert files == own and any(p.startswith("op_kernel/") for p in files), row["name"]
            kernel = next(p for p in files if p.startswith("op_kernel/")).split("/")[-1].removesuffix(".cpp")
            three = [f"op_host/{kernel}_tiling.h", f"op_host/{kernel}.cpp", f"op_kernel/{kernel}.cpp"]
            if all(p in own for p in three):  # the files NPUKernelBench's full mode asks for by name
                assert rf_fmt.parse_files(text, three) == {p: own[p] for p in three}
            assert "================== <path> ==================" in row["messages"][0]["content"]
        else:
            assert files == {rf_fmt.KERNEL_IMPL: unit["kernel_code"].strip()}, row["name"]
            assert "<kernel_impl>" in row["messages"][0]["content"]


# -- which samples become rows -------------------------------------------------------------------------------------


def _samples_workspace(ws: Path, n_units: int = 2) -> dict[str, str]:
    """Units with several accepted annotations: the first has en samples 0 (short) and 1 (longer) and a zh sample;
    the others one en sample; plus an unverified unit."""
    rng = random.Random(7)
    ids = {}
    with Store(ws) as store:
        rf.source(store)
        for i in range(n_units):
            name = f"unit{i}"
            ids[name] = rf.unit(store, name, synthetic.base_kernel(rng))
            rf.verification(store, ids[name], "passed")
            rf.annotation(store, ids[name], task=f"Write the AscendC kernel {name}: an element-wise operator.")
        rf.annotation(
            store,
            ids["unit0"],
            task="Write the AscendC kernel unit0: an element-wise operator.",
            steps=["Split the data across cores by block index, one contiguous slice per core.", "Tile by 256."],
            sample_index=1,
        )
        rf.annotation(store, ids["unit0"], task="写一个 AscendC 逐元素算子 unit0。", lang="zh")
        ids["unverified"] = rf.unit(store, "unverified", synthetic.base_kernel(rng))
        rf.annotation(store, ids["unverified"])
        run_dedup(store, DedupConfig())
        run_decontam(store, DecontamConfig(benchmarks=[f"mini={MINI}"]))
    return ids


def test_every_language_and_sample_is_published_by_default_and_best_keeps_one_per_language(cli, tmp_path):
    ws = tmp_path / "ws"
    ids = _samples_workspace(ws)
    out = tmp_path / "out"
    proc = cli("push", "--local-dir", str(out), "--format", "alpaca", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    rows = _load(out, "alpaca").to_list()
    by_unit = sorted((r["id"], r["lang"], r["teacher"]["annotation_id"]) for r in rows)
    assert len(rows) == 4 and sorted({r["id"] for r in rows}) == sorted([ids["unit0"], ids["unit1"]])
    assert sorted(lang for uid, lang, _ in by_unit if uid == ids["unit0"]) == ["en", "en", "zh"]
    assert "left out 1 unit(s): not verified" in proc.stderr + proc.stdout

    proc = cli("push", "--local-dir", str(out), "--format", "alpaca", "--samples", "best", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    rows = _load(out, "alpaca").to_list()
    unit0_en = [r for r in rows if r["id"] == ids["unit0"] and r["lang"] == "en"]
    assert len(rows) == 3 and len(unit0_en) == 1
    assert "one contiguous slice per core" in unit0_en[0]["reasoning"]  # the longer rationale won
    assert "left out 1 sample(s): not the best sample" in proc.stderr + proc.stdout
    assert "not the best sample: 1" in (out / "README.md").read_text()

    proc = cli("push", "--local-dir", str(out), "--lang", "zh", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    rows = _load(out, "messages").to_list()
    assert [(r["id"], r["lang"]) for r in rows] == [(ids["unit0"], "zh")]
    assert "left out 1 unit(s): no annotation in --lang" in proc.stderr + proc.stdout


def test_bad_samples_or_lang_is_refused_with_one_line(cli, tmp_path):
    ws = tmp_path / "ws"
    _samples_workspace(ws)
    for args, words in ((["--samples", "longest"], "--samples must be one of"), (["--lang", "fr"], "--lang must be")):
        proc = cli("push", "--local-dir", str(tmp_path / "out"), *args, workspace=ws)
        assert proc.returncode == 2 and words in proc.stderr and "Traceback" not in proc.stderr
        assert not (tmp_path / "out").exists()


def test_test_split_keeps_all_samples_of_a_unit_together(cli, tmp_path):
    ws = tmp_path / "ws"
    ids = _samples_workspace(ws, n_units=8)
    out = tmp_path / "out"
    proc = cli("push", "--local-dir", str(out), "--test-fraction", "0.5", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    train, test = _load(out, "messages", "train").to_list(), _load(out, "messages", "test").to_list()
    assert train and test
    assert {r["id"] for r in train}.isdisjoint({r["id"] for r in test})
    unit0 = [r for r in train + test if r["id"] == ids["unit0"]]
    assert len(unit0) == 3  # its two en samples and the zh one, all in one split
    card = (out / "README.md").read_text()
    assert f"`train` {len(train)} rows" in card and f"`test` {len(test)} rows" in card
    assert "data/messages/test-*.parquet" in card


def test_nothing_to_publish_still_says_why_one_line_per_reason(cli, tmp_path):
    ws = tmp_path / "ws"
    rng = random.Random(3)
    with Store(ws) as store:
        rf.source(store)
        a = rf.unit(store, "never_verified", synthetic.base_kernel(rng))
        b = rf.unit(store, "cann", synthetic.base_kernel(rng), license="LicenseRef-CANN-Open-Software-License-1.0")
        rf.verification(store, b, "passed")
        for uid in (a, b):
            rf.annotation(store, uid)
        run_dedup(store, DedupConfig())
        run_decontam(store, DecontamConfig(benchmarks=[f"mini={MINI}"]))
    proc = cli("push", "--local-dir", str(tmp_path / "out"), workspace=ws)
    assert proc.returncode == 2, proc.stderr
    lines = [line.strip() for line in proc.stderr.splitlines() if re.match(r"\s*left out \d", line)]
    assert lines == [
        "left out 1 unit(s): not verified (its deciding verification did not pass)",
        "left out 1 unit(s): CANN licence (CANN Open Software License; --allow-cann-license publishes it)",
    ], proc.stderr
    assert "nothing to publish" in proc.stderr and not (tmp_path / "out").exists()

    proc = cli("push", "--local-dir", str(tmp_path / "out"), "--allow-cann-license", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    card = (tmp_path / "out" / "README.md").read_text()
    body = card.split("---", 2)[2]
    assert body.index("Licence warning: 1 of 1 rows") < body.index("## Contents")  # up front
