"""push: local folder output, upload to a Hub stand-in on 127.0.0.1, and the refusals."""

from __future__ import annotations

import importlib.util
import io
import random
from pathlib import Path

import pytest

from cotbuilder.dedup import synthetic
from cotbuilder.dedup.stage import DedupConfig
from cotbuilder.dedup.stage import run as run_dedup
from cotbuilder.decontam.stage import DecontamConfig
from cotbuilder.decontam.stage import run as run_decontam
from cotbuilder.store import Store

HERE = Path(__file__).resolve().parent
MINI = HERE.parents[1] / "examples" / "benchmarks" / "npukernelbench-mini"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"cb_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rf = _load("records_factory")
hubmock = _load("hubmock")


def _populate(ws: Path, *, dedup: bool = True, decontam: bool = True) -> dict[str, str]:
    """3 publishable units, a duplicate, an unverified unit, a CANN-licensed unit, a benchmark copy."""
    rng = random.Random(21)
    ids = {}
    with Store(ws) as store:
        rf.source(store)
        for name in ("alpha", "beta", "gamma"):
            ids[name] = rf.unit(store, name, synthetic.base_kernel(rng), host_code="// host\nint tiling = 8;\n")
        ids["alpha_copy"] = rf.unit(store, "alpha_copy", synthetic.reformat(
            store.scalar("SELECT kernel_code FROM units WHERE unit_id = ?", [ids["alpha"]]), rng), harness=False)
        ids["unverified"] = rf.unit(store, "unverified", synthetic.base_kernel(rng))
        ids["cann"] = rf.unit(store, "cann", synthetic.base_kernel(rng),
                              license="LicenseRef-CANN-Open-Software-License-1.0")
        ids["leak"] = rf.unit(store, "leak", (MINI / "tasks/level1/Activation/Softsign/answer/0/op_kernel/softsign.cpp")
                              .read_text())
        for name, uid in ids.items():
            if name != "unverified":
                rf.verification(store, uid, "passed")
            rf.annotation(store, uid, task=f"Write the AscendC kernel {name}: an element-wise vector operator.",
                          steps=["Operator analysis: inputs and outputs are float vectors.",
                                 "Multi-core split: each core takes totalLength / blockDim elements."],
                          lang="zh" if name == "gamma" else "en")
        if dedup:
            run_dedup(store, DedupConfig())
        if decontam:
            run_decontam(store, DecontamConfig(benchmarks=[f"mini={MINI}"]))
    return ids


def test_local_dir_loads_with_datasets_and_the_card_parses(cli, tmp_path):
    from datasets import load_dataset
    from huggingface_hub import DatasetCard

    ws = tmp_path / "ws"
    ids = _populate(ws)
    recipe = tmp_path / "recipe.toml"
    recipe.write_text("[dedup]\nthreshold = 0.7\n")
    out = tmp_path / "out"
    proc = cli("push", "--local-dir", str(out), "--format", "alpaca", "--recipe", str(recipe), workspace=ws)
    assert proc.returncode == 0, proc.stderr
    shards = sorted((out / "data" / "alpaca").glob("train-*.parquet"))
    assert shards
    ds = load_dataset("parquet", data_files=[str(s) for s in shards], split="train")
    assert sorted(ds["id"]) == sorted([ids["alpha"], ids["beta"], ids["gamma"]])
    row = ds[0]
    assert row["instruction"].startswith("Write the AscendC kernel") and "Multi-core split" in row["reasoning"]
    assert row["output"].startswith("```cpp") and row["provenance"]["license"] == "Apache-2.0"
    assert row["verification"]["status"] == "passed" and row["contamination"]["verdict"] == "clean"
    assert (out / "recipe.toml").read_text() == recipe.read_text()
    card = DatasetCard.load(out / "README.md")
    assert card.data.license == "apache-2.0"
    assert card.data.task_categories == ["text-generation"]
    assert card.data.size_categories == ["n<1K"]
    assert sorted(card.data.language) == ["en", "zh"]
    assert card.data.configs[0]["data_files"][0]["path"] == "data/alpaca/train-*.parquet"
    assert card.data.dataset_info["splits"][0]["num_examples"] == 3
    for text in ("duplicate: 1", "not verified: 1", "contaminated: 1", "license not allowed: 1", "static / static-v1",
                 "mini", "3 rows published"):
        assert text in card.text, text


def test_cann_licence_only_with_the_flag_and_then_stated_in_the_card(cli, tmp_path):
    from huggingface_hub import DatasetCard

    ws = tmp_path / "ws"
    ids = _populate(ws)
    out = tmp_path / "out"
    proc = cli("push", "--local-dir", str(out), "--allow-cann-license", "--format", "sharegpt", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    card = DatasetCard.load(out / "README.md")
    assert "CANN Open Software License" in card.text
    assert sorted(card.data.license) == ["apache-2.0", "other"]
    import pyarrow.parquet as pq

    table = pq.read_table(next((out / "data" / "sharegpt").glob("*.parquet")))
    assert ids["cann"] in table.column("id").to_pylist()
    assert table.column("conversations").to_pylist()[0][0]["from"] == "human"


@pytest.mark.parametrize("conflicts", [1])
def test_push_to_hub_creates_repo_uploads_lfs_shards_and_commits_once(cli, tmp_path, conflicts):
    """The Hub is replaced by tests/publish/hubmock.py (a local HTTP server); everything else is real."""
    ws = tmp_path / "ws"
    _populate(ws)
    with hubmock.HubMock(conflicts=conflicts) as hub:
        proc = cli("push", "--repo-id", "kernels-org/ascend-cot", "--private", workspace=ws,
                   env={"HF_ENDPOINT": hub.url, "HF_TOKEN": "hf_testtoken0000000000", "HF_HUB_DISABLE_XET": "1",
                        "HF_HUB_DISABLE_TELEMETRY": "1"})
        state = hub.state
    assert proc.returncode == 0, proc.stderr
    assert "hf_testtoken" not in proc.stderr + proc.stdout
    assert state.repos == {"kernels-org/ascend-cot": {"type": "dataset", "private": True}}
    assert len(state.commits) == 1  # one commit after one 412 conflict was retried
    commit = state.commits[0]
    assert commit["repo"] == "kernels-org/ascend-cot" and commit["revision"] == "main"
    assert set(commit["files"]) == {"README.md"}
    assert list(commit["lfs"]) == ["data/messages/train-00000-of-00001.parquet"]
    shard = state.lfs[commit["lfs"]["data/messages/train-00000-of-00001.parquet"]]
    import pyarrow.parquet as pq

    table = pq.read_table(io.BytesIO(shard))
    assert table.num_rows == 3
    assert table.column("messages").to_pylist()[0][1]["role"] == "assistant"
    card = commit["files"]["README.md"].decode()
    assert card.startswith("---\nlicense: apache-2.0") and "data/messages/train-*.parquet" in card
    assert "Bearer hf_testtoken0000000000" in state.auth
    posts = [p for m, p in state.calls if m == "POST"]
    assert posts.index("/api/repos/create") < next(i for i, p in enumerate(posts) if "/preupload/" in p)


def test_push_refuses_without_dedup(cli, tmp_path):
    ws = tmp_path / "ws"
    _populate(ws, dedup=False)
    proc = cli("push", "--local-dir", str(tmp_path / "out"), workspace=ws)
    assert proc.returncode == 2
    assert "dedup has not run" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_push_refuses_when_a_verification_is_newer_than_dedup_and_decontamination(cli, tmp_path):
    ws = tmp_path / "ws"
    ids = _populate(ws)
    with Store(ws) as store:
        rf.verification(store, ids["unverified"], "passed")
    proc = cli("push", "--local-dir", str(tmp_path / "out"), workspace=ws)
    assert proc.returncode == 2
    assert "verifications changed after the last dedup run" in proc.stderr


def test_push_refuses_a_unit_added_after_decontamination(cli, tmp_path):
    ws = tmp_path / "ws"
    _populate(ws)
    with Store(ws) as store:
        run_dedup(store, DedupConfig())
        rf.unit(store, "late", "extern \"C\" __global__ __aicore__ void late(GM_ADDR x) {}")
        run_dedup(store, DedupConfig())
    proc = cli("push", "--local-dir", str(tmp_path / "out"), workspace=ws)
    assert proc.returncode == 2
    assert "no contamination row" in proc.stderr


def test_push_refuses_a_row_that_fails_its_schema(cli, tmp_path):
    ws = tmp_path / "ws"
    ids = _populate(ws, dedup=False, decontam=False)
    with Store(ws) as store:
        store.execute("UPDATE annotations SET task = '' WHERE unit_id = ?", [ids["beta"]])
        run_dedup(store, DedupConfig())
        run_decontam(store, DecontamConfig(benchmarks=[f"mini={MINI}"]))
    proc = cli("push", "--local-dir", str(tmp_path / "out"), workspace=ws)
    assert proc.returncode == 2
    assert "fails schemas/dataset_row.schema.json" in proc.stderr and "beta" in proc.stderr
