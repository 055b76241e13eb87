"""notebooks/reward.ipynb executes: it starts `cotbuilder serve` on the demo tasks and its TRL-style reward_fn
returns 1.0 for the demo kernel and 0.0 for a copy with a typo."""

from __future__ import annotations

import os
from pathlib import Path

from .conftest import cache_root

REPO = Path(__file__).resolve().parents[2]


def test_reward_notebook_runs_its_reward_fn_against_a_real_server(tmp_path, shared_build_cache):
    import nbformat
    from nbclient import NotebookClient

    ws = tmp_path / "ws"
    cache_root(ws, shared_build_cache)
    nb = nbformat.read(REPO / "notebooks" / "reward.ipynb", as_version=4)
    env_before = dict(os.environ)
    os.environ["COTBUILDER_WORKSPACE"] = str(ws)
    os.environ.pop("COTBUILDER_REWARD_URL", None)
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}).execute()
    finally:
        os.environ.clear()
        os.environ.update(env_before)
    outputs = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "rewards: [1.0, 0.0]" in outputs
    assert "server exit: 0" in outputs
