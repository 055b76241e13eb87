"""Recipes: bad recipes are refused with a message naming the problem, before any stage runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from cotbuilder.pipeline.recipe import RecipeError, load_recipe
from cotbuilder.store import Store

REPO = Path(__file__).resolve().parents[2]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "recipe.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "text, message",
    [
        ("[crawl]\nmanifests = ['x.toml']\n[publish]\nx = 1\n", "unknown table(s) publish"),
        ("[crawl]\nmanifests = ['x.toml']\nnot_a_field = 3\n", "[crawl] has unknown key(s) not_a_field"),
        ("[crawl\n", "not valid TOML"),
        ("[pipeline]\nname = 'empty'\n", "names no stage"),
        ("[crawl]\nmanifests = 'demo'\n", "[crawl] manifests must be list[str], not 'demo'"),
        ("[verify]\njobs = 'two'\n", "[verify] jobs must be int, not 'two'"),
        ("[dedup]\nthreshold = true\n", "[dedup] threshold must be float, not True"),
    ],
)
def test_bad_recipe_is_refused_with_its_reason(tmp_path, text, message):
    with pytest.raises(RecipeError) as err:
        load_recipe(_write(tmp_path, text), tmp_path / "ws")
    assert message in str(err.value)


def test_relative_paths_resolve_against_the_recipe_and_workspace_expands(tmp_path):
    recipe = load_recipe(REPO / "pipelines" / "demo.toml", tmp_path / "ws")
    by_verb = {s.verb: s.config for s in recipe.steps}
    assert [s.verb for s in recipe.steps] == ["crawl", "verify", "annotate", "dedup", "decontaminate", "push"]
    assert by_verb["crawl"].manifests == [str(REPO / "crawlers" / "demo.toml")]
    assert by_verb["push"].local_dir == str(tmp_path / "ws" / "dataset")


def test_run_with_a_bad_recipe_exits_2_and_stores_nothing(tmp_path, cli, workspace):
    path = _write(tmp_path, "[crawl]\nmanifests = ['x.toml']\nbogus = 1\n")
    res = cli("run", str(path), workspace=workspace)
    assert res.returncode == 2
    assert "bogus" in res.stderr
    assert not (workspace / "store.duckdb").exists() or Store(workspace).count("runs") == 0


def test_recipe_values_of_the_right_type_are_accepted(tmp_path):
    text = "[dedup]\nthreshold = 1\nnum_perm = 128\n[verify]\nlimit = 3\nseeds = [0, 5]\n"
    recipe = load_recipe(_write(tmp_path, text), tmp_path / "ws")
    by_verb = {s.verb: s.config for s in recipe.steps}
    assert by_verb["dedup"].threshold == 1 and by_verb["verify"].seeds == [0, 5]


def test_a_stage_refusing_its_settings_makes_run_exit_2_not_crash(tmp_path, cli, workspace):
    path = _write(tmp_path, "[crawl]\nsources = ['./no/such/folder']\n[verify]\nsoc = 'ascend999'\n")
    res = cli("run", str(path), workspace=workspace)
    assert res.returncode == 2, res.stderr[-2000:]
    assert "refused" in res.stderr and "crashed" not in res.stderr


def test_decontaminate_benchmarks_may_be_a_table_and_become_name_path_specs(tmp_path):
    recipe = load_recipe(_write(tmp_path, "[decontaminate]\nbenchmarks = { mini = './bench' }\n"), tmp_path / "ws")
    assert recipe.steps[0].config.benchmarks == [f"mini={(tmp_path / 'bench').resolve()}"]
