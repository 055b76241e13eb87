"""push: local folder output, upload to a Hub stand-in on 127.0.0.1, and the refusals."""

from __future__ import annotations

import importlib.util
import io
import random
from pathlib import Path

import pytest

from cotbuilder.decontam.stage import DecontamConfig
from cotbuilder.decontam.stage import run as run_decontam
from cotbuilder.dedup import synthetic
from cotbuilder.dedup.stage import DedupConfig
from cotbuilder.dedup.stage import run as run_dedup
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
        ids["alpha_copy"] = rf.unit(
            store,
            "alpha_copy",
            synthetic.reformat(store.scalar("SELECT kernel_code FROM units WHERE unit_id = ?", [ids["alpha"]]), rng),
            harness=False,
        )
        ids["unverified"] = rf.unit(store, "unverified", synthetic.base_kernel(rng))
        ids["cann"] = rf.unit(
            store, "cann", synthetic.base_kernel(rng), license="LicenseRef-CANN-Open-Software-License-1.0"
        )
        ids["leak"] = rf.unit(
            store, "leak", (MINI / "tasks/level1/Activation/Softsign/answer/0/op_kernel/softsign.cpp").read_text()
        )
        for name, uid in ids.items():
            if name != "unverified":
                rf.verification(store, uid, "passed")
            rf.annotation(
                store,
                uid,
                task=f"Write the AscendC kernel {name}: an element-wise vector operator.",
                steps=[
                    "Operator analysis: inputs and outputs are float vectors.",
                    "Multi-core split: each core takes totalLength / blockDim elements.",
                ],
                lang="zh" if name == "gamma" else "en",
            )
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
    for text in (
        "duplicate: 1",
        "not verified: 1",
        "contaminated: 1",
        "CANN licence: 1",
        "static / static-v1",
        "mini",
        "3 rows published",
    ):
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
        proc = cli(
            "push",
            "--repo-id",
            "kernels-org/ascend-cot",
            "--private",
            workspace=ws,
            env={
                "HF_ENDPOINT": hub.url,
                "HF_TOKEN": "hf_testtoken0000000000",
                "HF_HUB_DISABLE_XET": "1",
                "HF_HUB_DISABLE_TELEMETRY": "1",
            },
        )
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
        rf.unit(store, "late", 'extern "C" __global__ __aicore__ void late(GM_ADDR x) {}')
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


def _hub_env(url: str) -> dict[str, str]:
    return {
        "HF_ENDPOINT": url,
        "HF_TOKEN": "hf_testtoken0000000000",
        "HF_HUB_DISABLE_XET": "1",
        "HF_HUB_DISABLE_TELEMETRY": "1",
    }


def test_local_dir_refuses_a_folder_with_user_files_and_keeps_them(cli, tmp_path):
    ws = tmp_path / "ws"
    _populate(ws)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("my own work")
    proc = cli("push", "--local-dir", str(mine), workspace=ws)
    assert proc.returncode == 2
    assert "not written by cotbuilder push" in proc.stderr and "Traceback" not in proc.stderr
    assert sorted(p.name for p in mine.iterdir()) == ["thesis.tex"]
    assert (mine / "thesis.tex").read_text() == "my own work"
    assert not list(tmp_path.glob(".push-*"))


def test_local_dir_replaces_a_previous_push_and_an_empty_folder_with_umask_permissions(cli, tmp_path):
    import os
    import stat

    ws = tmp_path / "ws"
    _populate(ws)
    out = tmp_path / "out"
    out.mkdir()  # empty: allowed
    proc = cli("push", "--local-dir", str(out), "--format", "alpaca", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    assert (out / ".cotbuilder-dataset").is_file() and (out / "data" / "alpaca").is_dir()
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o777 & ~umask
    proc = cli("push", "--local-dir", str(out), "--format", "messages", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (out / "data").iterdir()) == ["messages"]  # the old format's shards are gone
    assert not list(tmp_path.glob(".push-*"))


def test_hub_push_deletes_the_previous_pushs_stale_shards_in_the_same_commit(cli, tmp_path):
    """The Hub is replaced by tests/publish/hubmock.py (a local HTTP server that also keeps each branch's file tree);
    everything else is real."""
    ws = tmp_path / "ws"
    _populate(ws)
    with hubmock.HubMock() as hub:
        first = cli(
            "push", "--repo-id", "kernels-org/ascend-cot", "--rows-per-shard", "1", workspace=ws, env=_hub_env(hub.url)
        )
        assert first.returncode == 0, first.stderr
        second = cli(
            "push", "--repo-id", "kernels-org/ascend-cot", "--rows-per-shard", "2", workspace=ws, env=_hub_env(hub.url)
        )
        assert second.returncode == 0, second.stderr
        state = hub.state
    assert len(state.commits) == 2
    assert sorted(state.commits[0]["lfs"]) == [f"data/messages/train-0000{i}-of-00003.parquet" for i in range(3)]
    assert state.commits[0]["deleted"] == []  # a new repo: nothing to delete
    assert sorted(state.commits[1]["lfs"]) == [f"data/messages/train-0000{i}-of-00002.parquet" for i in range(2)]
    assert sorted(state.commits[1]["deleted"]) == sorted(state.commits[0]["lfs"])
    assert sorted(state.trees[("kernels-org/ascend-cot", "main")]) == ["README.md", *sorted(state.commits[1]["lfs"])]


def test_hub_push_to_an_unreachable_endpoint_is_one_line_and_exit_1(cli, tmp_path):
    import socket

    ws = tmp_path / "ws"
    _populate(ws)
    with socket.socket() as s:  # a port that was free a moment ago and now has nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = cli("push", "--repo-id", "kernels-org/ascend-cot", workspace=ws, env=_hub_env(f"http://127.0.0.1:{port}"))
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    failure = [line for line in proc.stderr.splitlines() if "push failed" in line]
    assert len(failure) == 1 and "kernels-org/ascend-cot" in failure[0]
    assert "hf_testtoken" not in proc.stderr + proc.stdout


def test_hub_push_http_error_names_the_status(cli, tmp_path):
    """The Hub is replaced by tests/publish/hubmock.py answering every commit with 412 (more than the retries)."""
    ws = tmp_path / "ws"
    _populate(ws)
    with hubmock.HubMock(conflicts=99) as hub:
        proc = cli("push", "--repo-id", "kernels-org/ascend-cot", workspace=ws, env=_hub_env(hub.url))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "HTTP 412" in proc.stderr
    assert "hf_testtoken" not in proc.stderr + proc.stdout


def test_push_publishes_the_cluster_member_its_licence_list_allows(cli, tmp_path):
    """Dedup ranks an Apache unit first (it has a harness); `push --licenses MIT` publishes its MIT duplicate."""
    import pyarrow.parquet as pq

    rng = random.Random(4)
    base = synthetic.base_kernel(rng)
    ws = tmp_path / "ws"
    with Store(ws) as store:
        rf.source(store)
        apache = rf.unit(store, "apache", base)
        mit = rf.unit(store, "mit", synthetic.reformat(base, rng), license="MIT", harness=False)
        for uid in (apache, mit):
            rf.verification(store, uid, "passed")
            rf.annotation(store, uid)
        run_dedup(store, DedupConfig())
        run_decontam(store, DecontamConfig(benchmarks=[f"mini={MINI}"]))
        reps = {r["unit_id"]: r["is_representative"] for r in store.rows("SELECT * FROM dedup")}
    assert reps == {apache: True, mit: False}
    out = tmp_path / "out"
    proc = cli("push", "--local-dir", str(out), "--licenses", "MIT", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    table = pq.read_table(next((out / "data" / "messages").glob("*.parquet")))
    assert table.column("id").to_pylist() == [mit]
    proc = cli("push", "--local-dir", str(out), workspace=ws)  # both allowed: dedup's choice again, one row
    assert proc.returncode == 0, proc.stderr
    assert pq.read_table(next((out / "data" / "messages").glob("*.parquet"))).column("id").to_pylist() == [apache]


def test_a_unit_whose_latest_verification_failed_is_not_published(cli, tmp_path):
    import pyarrow.parquet as pq

    ws = tmp_path / "ws"
    ids = _populate(ws)
    with Store(ws) as store:
        rf.verification(store, ids["beta"], "failed_run")  # e.g. a newer emulator now fails it
        store.execute(
            "UPDATE verifications SET created_at = created_at - INTERVAL 1 HOUR "
            "WHERE unit_id = ? AND status = 'passed'",
            [ids["beta"]],
        )  # the pass is clearly older
        run_dedup(store, DedupConfig())
        run_decontam(store, DecontamConfig(benchmarks=[f"mini={MINI}"]))
    out = tmp_path / "out"
    proc = cli("push", "--local-dir", str(out), workspace=ws)
    assert proc.returncode == 0, proc.stderr
    published = pq.read_table(next((out / "data" / "messages").glob("*.parquet"))).column("id").to_pylist()
    assert sorted(published) == sorted([ids["alpha"], ids["gamma"]])
    assert "not verified: 2" in (out / "README.md").read_text()


def _near_kernel() -> str:
    """The mini benchmark's GreaterEqual answer with about twice as much code of its own as the answer has beyond the
    standard skeleton: it shares a kernel body with the answer without being a copy of it (decontaminate's `near`)."""
    ge = (MINI / "tasks/level1/Comparison/GreaterEqual/answer/0/op_kernel/greater_equal.cpp").read_text()
    own = "\n".join(
        f"__aicore__ inline float blend_{i}(float a, float b) {{ return a * {i}.25f + b / {i + 3}.0f - {i * 7}; }}"
        for i in range(6)
    )
    return ge + "\n" + own + "\n"


def test_near_units_are_left_out_unless_allowed_and_contaminated_ones_always(cli, tmp_path):
    import pyarrow.parquet as pq

    ws = tmp_path / "ws"
    ids = _populate(ws, dedup=False, decontam=False)
    with Store(ws) as store:
        ids["near"] = rf.unit(store, "near", _near_kernel())
        rf.verification(store, ids["near"], "passed")
        rf.annotation(store, ids["near"], task="Write the AscendC kernel near: a blended comparison operator.")
        run_dedup(store, DedupConfig())
        run_decontam(store, DecontamConfig(benchmarks=[f"mini={MINI}"]))
        verdicts = {r["unit_id"]: r["verdict"] for r in store.rows("SELECT unit_id, verdict FROM contamination")}
    assert verdicts[ids["near"]] == "near" and verdicts[ids["leak"]] == "contaminated"

    out = tmp_path / "out"
    assert cli("push", "--local-dir", str(out), workspace=ws).returncode == 0
    published = pq.read_table(next((out / "data" / "messages").glob("*.parquet"))).column("id").to_pylist()
    assert ids["near"] not in published and ids["leak"] not in published
    card = (out / "README.md").read_text()
    assert "near benchmark: 1" in card and "contaminated: 1" in card

    proc = cli("push", "--local-dir", str(out), "--allow-near", workspace=ws)
    assert proc.returncode == 0, proc.stderr
    table = pq.read_table(next((out / "data" / "messages").glob("*.parquet")))
    rows = {r["id"]: r for r in table.to_pylist()}
    assert ids["near"] in rows and ids["leak"] not in rows  # a copy of an answer is never published
    assert rows[ids["near"]]["contamination"]["verdict"] == "near"
    assert "1 rows share a kernel body with a benchmark answer" in (out / "README.md").read_text()
