"""Where a stage's work runs is chosen outside the stage: `--executor`/`--ray-address` on every verb and on `run`, or a
recipe's `[pipeline] executor` (one for all stages, or per stage) and `ray_address`."""

from __future__ import annotations

from pathlib import Path

import pytest

from cotbuilder.dedup import synthetic
from cotbuilder.pipeline.recipe import RecipeError, load_recipe
from cotbuilder.store import Store

from ..dedup_store import dedup_rows, fill


def _recipe(tmp_path: Path, pipeline: str, stages: str = "[dedup]\nshard_size = 16\n") -> Path:
    path = tmp_path / "recipe.toml"
    path.write_text(f"[pipeline]\nname = 'x'\n{pipeline}\n{stages}", encoding="utf-8")
    return path


def test_a_recipe_names_one_executor_for_every_stage_or_one_per_stage(tmp_path):
    stages = "[crawl]\nmanifests = ['demo']\n[dedup]\nthreshold = 0.8\n"
    every = load_recipe(_recipe(tmp_path, 'executor = "ray"\nray_address = "10.0.0.1:6379"', stages), tmp_path)
    assert every.executor_kind("crawl") == every.executor_kind("dedup") == "ray"
    assert every.ray_address == "10.0.0.1:6379"
    some = load_recipe(_recipe(tmp_path, 'executor = { dedup = "ray" }', stages), tmp_path)
    assert some.executor_kind("dedup") == "ray" and some.executor_kind("crawl") == "local"
    plain = load_recipe(_recipe(tmp_path, "", stages), tmp_path)
    assert plain.executor_kind("dedup") == "local" and plain.ray_address is None


@pytest.mark.parametrize(
    "pipeline, message",
    [
        ('executor = "slurm"', "[pipeline] executor must be one of local, ray, not 'slurm'"),
        ('executor = { dedup = "dask" }', "executor for dedup must be one of local, ray, not 'dask'"),
        ('executor = { dedupe = "ray" }', "executor names no stage dedupe"),
        ("executor = 3", 'executor must be "local", "ray" or a table'),
        ("ray_address = 6379", "ray_address must be a string"),
        ('executer = "ray"', "[pipeline] has unknown key(s) executer"),
    ],
)
def test_a_bad_executor_choice_in_a_recipe_is_refused(tmp_path, pipeline, message):
    with pytest.raises(RecipeError) as err:
        load_recipe(_recipe(tmp_path, pipeline), tmp_path)
    assert message in str(err.value)


def _units(workspace: Path) -> None:
    fill(workspace, synthetic.corpus(30, dup_fraction=0.6, seed=2)[0])


def _dedup_table(workspace: Path) -> list[tuple]:
    return dedup_rows(workspace, "unit_id, cluster_id, is_representative, method, similarity")


def test_a_recipe_that_puts_dedup_on_ray_gives_the_local_clusters(tmp_path, cli, ray_address):
    local_ws, ray_ws = tmp_path / "local", tmp_path / "ray"
    _units(local_ws)
    _units(ray_ws)
    (tmp_path / "l").mkdir()
    (tmp_path / "r").mkdir()
    local = cli("run", str(_recipe(tmp_path / "l", "")), workspace=local_ws)
    assert local.returncode == 0, local.stderr[-3000:]
    recipe = _recipe(tmp_path / "r", f'executor = {{ dedup = "ray" }}\nray_address = "{ray_address}"')
    on_ray = cli("run", str(recipe), workspace=ray_ws)
    assert on_ray.returncode == 0, on_ray.stderr[-3000:]
    assert "Ray: 1 node(s), 2 CPUs" in on_ray.stderr  # it did connect to the cluster
    with Store(ray_ws, read_only=True) as store:
        counts = store.rows("SELECT counts FROM runs WHERE stage = 'dedup'")[0]["counts"]
    assert counts["shards_signed"] > 1  # several shards, each a Ray task
    assert _dedup_table(ray_ws) == _dedup_table(local_ws) != []
