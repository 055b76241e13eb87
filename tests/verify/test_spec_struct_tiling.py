"""verify_spec.toml tiling with a TILING_DATA_FIELD_DEF_STRUCT member (a TCubeTiling): its fields are set one by one
from a [tiling.<member>] table; a struct member left out is a gap of the generic harness (unsupported), not a zero
tiling run as if it were the op's."""

from __future__ import annotations

import pytest

from cotbuilder.verify.harness_spec import SpecError, SpecGap, generate_main

HEADER = """
namespace optiling {
BEGIN_TILING_DATA_DEF(MmTiling)
    TILING_DATA_FIELD_DEF(uint32_t, M);
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;
}
"""


def _spec(tiling):
    return {
        "kernel": "k.cpp",
        "entry": "k",
        "tiling_header": "t.h",
        "tiling_struct": "MmTiling",
        "inputs": [{"name": "a", "shape": [4], "dtype": "float16"}],
        "outputs": [{"name": "c", "shape": [4], "dtype": "float32"}],
        "tiling": tiling,
    }


def test_struct_member_fields_are_set_from_a_nested_table():
    main = generate_main(_spec({"M": 64, "cubeTilingData": {"usedCoreNum": 2, "baseM": 32}}), HEADER)
    assert "cb_tiling_data.set_M(64);" in main
    assert "cb_tiling_data.cubeTilingData.set_usedCoreNum(2);" in main
    assert "cb_tiling_data.cubeTilingData.set_baseM(32);" in main


def test_a_struct_member_without_values_is_a_harness_gap():
    with pytest.raises(SpecGap, match="cubeTilingData"):
        generate_main(_spec({"M": 64}), HEADER)


def test_struct_values_must_be_scalars():
    with pytest.raises(SpecError):
        generate_main(_spec({"M": 64, "cubeTilingData": {"baseM": [1, 2]}}), HEADER)
