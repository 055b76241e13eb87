"""pipelines/synthesize-demo.toml is a valid recipe: synthesize first, then the kept units flow on like crawled ones.
(Running it is the offline demo, minutes of builds: measured in docs, not in the suite.)"""

from __future__ import annotations

from pathlib import Path

from cotbuilder.pipeline.recipe import load_recipe

REPO = Path(__file__).resolve().parents[2]


def test_synthesize_demo_recipe_runs_synthesize_then_the_publishing_stages(tmp_path):
    recipe = load_recipe(REPO / "pipelines/synthesize-demo.toml", tmp_path / "ws")
    assert [s.verb for s in recipe.steps] == ["synthesize", "annotate", "dedup", "decontaminate", "push"]
    synth = {s.verb: s.config for s in recipe.steps}["synthesize"]
    assert synth.teacher == "static"
    assert synth.task_dirs == [str(REPO / "examples/tasks")]
    assert synth.benchmarks == [f"npukernelbench-mini={REPO / 'examples/benchmarks/npukernelbench-mini'}"]
