"""Cast float -> float with CAST_RINT / FLOOR / CEIL / ROUND / TRUNC (Cast.md's type table) rounds each element to an
integral value and keeps it float - cann-ops' Cos reduces its argument this way. (CAST_NONE is illegal for the pair: illegal_cast.)"""

from __future__ import annotations

import subprocess

import pytest

IN = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 1.25, -1.75]
WANT = {
    "rint": [-2, -2, -0, 0, 2, 2, 1, -2],  # ties to even
    "floor": [-3, -2, -1, 0, 1, 2, 1, -2],
    "ceil": [-2, -1, -0, 1, 2, 3, 2, -1],
    "round": [-3, -2, -1, 1, 2, 3, 1, -2],  # ties away from zero
    "trunc": [-2, -1, -0, 0, 1, 2, 1, -1],
}


@pytest.fixture(scope="module")
def exe(toolchain, tmp_path_factory):
    return toolchain.build(toolchain.cpp / "cast_float_round.cpp", tmp_path_factory.mktemp("castf") / "cast_float")


@pytest.mark.parametrize("mode", sorted(WANT))
def test_float_to_float_cast_rounds_to_an_integral_value_in_the_mode(exe, mode):
    proc = subprocess.run([str(exe), mode], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert [float(v) for v in proc.stdout.split()] == [float(v) for v in WANT[mode]]
