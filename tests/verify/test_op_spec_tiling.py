"""The demo op projects' verify_spec.toml files no longer type the tiling in: verify runs each op's own TilingFunc.
Before, the specs carried the values by hand (kept in data/old_spec_tiling.toml); the TilingFunc run by the demo
pipeline must give exactly those - block dim, tiling key, every field - so nothing was lost by deleting them."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest

from cotbuilder.store import Store

OLD = tomllib.loads((Path(__file__).parent / "data" / "old_spec_tiling.toml").read_text(encoding="utf-8"))
OPS = sorted(OLD)


@pytest.fixture(scope="module")
def op_spec_rows(demo_run):
    assert demo_run.returncode == 0, demo_run.stderr[-3000:]
    with Store(demo_run.workspace, read_only=True) as store:
        rows = store.rows(
            "SELECT u.name, v.* FROM verifications v JOIN units u USING (unit_id) WHERE v.harness = 'op_spec'"
        )
    return {r["name"]: r for r in rows}


def test_no_demo_spec_types_its_tiling_in_any_more():
    specs = (Path(__file__).resolve().parents[2] / "examples" / "op_project").glob("*/verify_spec.toml")
    for spec in specs:
        data = tomllib.loads(spec.read_text(encoding="utf-8"))
        assert "op" in data and "tiling" not in data and "block_dim" not in data, spec


@pytest.mark.parametrize("op", OPS)
def test_tiling_func_reproduces_what_the_old_spec_typed_in(op, op_spec_rows):
    row = op_spec_rows[op]
    assert row["status"] == "passed", row["reason"]
    old = OLD[op]
    for case in row["cases"]:
        (host,) = case["host"]
        assert host["block_dim"] == old["block_dim"]
        if "tiling_key" in old:
            assert host["tiling_key"] == old["tiling_key"]
        for field, want in old["tiling"].items():
            got = host["tiling"][field]
            if isinstance(want, float):
                assert math.isclose(got, want, rel_tol=1e-6), (field, got, want)
            else:
                assert got == want, (field, got, want)
