"""The stage registry drives everything: a toy stage added in one file (toy_stage.py) and registered with one line is a
CLI verb with its config's options and defaults, a recipe table, a row and a section of `status`, and a step of the
runner; it runs on the local process pool. Unregistered, it is none of these.

The CLI runs in-process here (typer's CliRunner on `build_app()`): a subprocess would not see a stage registered by
the test."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))  # toy_stage, importable by the pool's worker processes
import toy_stage  # noqa: E402

from cotbuilder.cli import build_app  # noqa: E402
from cotbuilder.pipeline.recipe import RecipeError, load_recipe  # noqa: E402
from cotbuilder.stages.registry import STAGES  # noqa: E402
from cotbuilder.store import Store  # noqa: E402


@pytest.fixture
def toy():
    with STAGES.registered(toy_stage.ENTRY):
        yield toy_stage.ENTRY


def invoke(workspace: Path, *args: str):
    result = CliRunner().invoke(build_app(), ["--workspace", str(workspace), *args], env={"COLUMNS": "200"})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def toy_rows(workspace: Path) -> list[dict]:
    with Store(workspace, read_only=True) as store:
        return store.rows("SELECT word, rounds, pid FROM toy_words ORDER BY word")


def test_a_registered_stage_is_a_verb_whose_options_and_defaults_come_from_its_config(toy, workspace):
    top = invoke(workspace, "--help")
    assert top.exit_code == 0 and "toy" in top.stdout.split("Commands:")[1]
    help_text = " ".join(invoke(workspace, "toy", "--help").stdout.split())
    assert "Hash words into the toy_words table" in help_text  # the config's docstring
    assert "--rounds <int range> sha256 rounds per word. [default: 3; x>=1]" in help_text
    assert "--word" in help_text and "--config" in help_text


def test_the_verb_runs_the_stage_on_the_process_pool_and_resumes_by_content_hash(toy, workspace):
    first = invoke(workspace, "toy", "--word", "alpha", "--word", "beta", "--rounds", "2", "--jobs", "2")
    assert first.exit_code == 0, first.stderr
    rows = toy_rows(workspace)
    assert [(r["word"], r["rounds"]) for r in rows] == [("alpha", 2), ("beta", 2)]
    assert all(r["pid"] != os.getpid() for r in rows)  # `work` ran in pool processes, the driver committed
    again = invoke(workspace, "toy", "--word", "alpha", "--word", "gamma", "--rounds", "2")
    assert again.exit_code == 0 and "skipped: already hashed" in again.stderr
    assert [r["word"] for r in toy_rows(workspace)] == ["alpha", "beta", "gamma"]
    with Store(workspace, read_only=True) as store:
        last = store.rows("SELECT counts, config FROM runs WHERE stage = 'toy' ORDER BY started_at")
    assert [r["counts"].get("kept", 0) for r in last] == [2, 1] and last[1]["config"]["rounds"] == 2


def test_the_verb_refuses_bad_settings_with_exit_2_before_a_store_exists(toy, workspace):
    res = invoke(workspace, "toy")
    assert res.exit_code == 2 and "toy refused: nothing to hash" in res.stderr
    assert not workspace.exists()
    bad = invoke(workspace, "toy", "--word", "a", "--rounds", "0")
    assert bad.exit_code == 2 and not workspace.exists()


def test_config_file_gives_the_verb_its_table_and_command_line_options_win(toy, workspace, tmp_path):
    cfg = tmp_path / "toy.toml"
    cfg.write_text('[toy]\nwords = ["from-file"]\nrounds = 5\n')
    res = invoke(workspace, "toy", "--config", str(cfg), "--rounds", "7")
    assert res.exit_code == 0, res.stderr
    assert [(r["word"], r["rounds"]) for r in toy_rows(workspace)] == [("from-file", 7)]
    cfg.write_text('[toy]\nwords = ["x"]\nrounds = "many"\n')
    bad = invoke(workspace, "toy", "--config", str(cfg))
    assert bad.exit_code == 2 and "[toy] rounds must be int" in bad.stderr
    missing = invoke(workspace, "toy", "--config", str(tmp_path / "nope.toml"))
    assert missing.exit_code == 2 and "no config file at" in missing.stderr


def test_a_recipe_table_runs_the_stage_in_the_pipeline_and_status_shows_it(toy, workspace, tmp_path):
    recipe = tmp_path / "recipe.toml"
    recipe.write_text('[pipeline]\nname = "toy-only"\n[toy]\nwords = ["one", "two", "three"]\njobs = 2\n')
    run = invoke(workspace, "run", str(recipe))
    assert run.exit_code == 0, run.stderr
    summary = run.stderr[run.stderr.index("pipeline toy-only") :]
    assert "toy" in summary and " 3 " in summary  # the runner's closing table: toy kept 3
    assert len(toy_rows(workspace)) == 3
    status = invoke(workspace, "status")
    assert status.exit_code == 0
    last_run = status.stdout[status.stdout.index("last run of each stage") :]
    assert any(
        line.split("│")[1].strip() == "toy" and "kept=3" in line for line in last_run.splitlines()[3:] if "│" in line
    )
    assert "toy words hashed: 3" in status.stdout


def test_recipe_keys_are_the_config_fields(toy, tmp_path):
    path = tmp_path / "r.toml"
    path.write_text("[toy]\nwords = ['a']\nround = 2\n")
    with pytest.raises(RecipeError, match=r"\[toy\] has unknown key\(s\) round; known: jobs, rounds, words"):
        load_recipe(path, tmp_path / "ws")


def test_without_its_registry_line_the_stage_is_nowhere(workspace, tmp_path):
    assert "toy" not in STAGES.verbs()
    assert invoke(workspace, "toy", "--word", "a").exit_code == 2  # no such verb
    path = tmp_path / "r.toml"
    path.write_text("[toy]\nwords = ['a']\n")
    with pytest.raises(RecipeError, match=r"unknown table\(s\) toy"):
        load_recipe(path, tmp_path / "ws")
