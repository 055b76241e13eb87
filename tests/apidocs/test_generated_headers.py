"""The emulator's two generated data headers: the SoC size table (from cotbuilder/verify/data/socs.toml, the one
place sizes live) and the legality table (from emulator/legality.json) match their sources, and the SoC check reads
the toolkit's TOTAL_*_SIZE constants per architecture the way its header lays them out."""

from __future__ import annotations

from cotbuilder.apidocs import legality, socs

# A constants header in the toolkit's layout (written here): arch branches, a nested #ifndef inside one, an expression
# with the matmul framework's L1 reserve, and a size outside every branch.
CONSTANTS = """
#ifndef ASCENDC_CONSTANTS_H
const uint32_t TOTAL_L0A_SIZE = 64 * 1024;
const uint32_t TOTAL_L0B_SIZE = 64 * 1024;
#if defined(__NPU_ARCH__) && ((__NPU_ARCH__ == 1001) || (__NPU_ARCH__ == 2002))
const uint32_t TOTAL_UB_SIZE = 256 * 1024;
const uint32_t TOTAL_L1_SIZE = 1024 * 1024;
const uint32_t TOTAL_L0C_SIZE = 256 * 1024;
#elif (__NPU_ARCH__ == 2201)
const uint32_t TOTAL_UB_SIZE = 192 * 1024;
#ifndef KFC_L1_RESERVER_SIZE
#define KFC_L1_RESERVER_SIZE 128
#endif
const uint32_t TOTAL_L1_SIZE = 512 * 1024 - KFC_L1_RESERVER_SIZE;
const uint32_t TOTAL_L0C_SIZE = 128 * 1024;
#else
const uint32_t VECTOR_REG_WIDTH = 256;
#endif
#endif
"""


def test_the_committed_soc_header_matches_the_soc_table():
    assert socs.render_header(socs.load()) == socs.header_path().read_text(encoding="utf-8"), (
        "run: python -m cotbuilder.apidocs socs --write"
    )


def test_the_committed_legality_header_matches_the_legality_table():
    assert legality.render_header(legality.load()) == legality.header_path().read_text(encoding="utf-8"), (
        "run: python -m cotbuilder.apidocs legality-header --write"
    )


def test_toolkit_sizes_are_read_per_arch_through_nested_branches():
    sizes = socs.toolkit_sizes(CONSTANTS)
    assert sizes["2201"] == {"TOTAL_UB_SIZE": 196608, "TOTAL_L1_SIZE": 524288, "TOTAL_L0C_SIZE": 131072}
    assert sizes["2002"]["TOTAL_UB_SIZE"] == 262144 == sizes["1001"]["TOTAL_UB_SIZE"]
    assert sizes["*"] == {"TOTAL_L0A_SIZE": 65536, "TOTAL_L0B_SIZE": 65536}


def test_the_soc_check_names_every_size_that_differs_from_the_toolkit():
    table = {
        "ascend910b": {
            "npu_arch": "dav-2201",
            "ub_bytes": 196608,
            "l1_bytes": 524288,
            "l0a_bytes": 65536,
            "l0b_bytes": 65536,
            "l0c_bytes": 131072,
        },
        "ascend310b": {  # the old mistake: 192 KB for an arch the constants do not even list here
            "npu_arch": "dav-3002",
            "ub_bytes": 196608,
            "l1_bytes": 1048576,
            "l0a_bytes": 65536,
            "l0b_bytes": 65536,
            "l0c_bytes": 131072,
        },
    }
    bad = socs.check(table, CONSTANTS)
    assert {(m.soc, m.field) for m in bad} == {
        ("ascend310b", "ub_bytes"),
        ("ascend310b", "l1_bytes"),
        ("ascend310b", "l0c_bytes"),
    }
    assert "TOTAL_UB_SIZE: not defined" in str(next(m for m in bad if m.field == "ub_bytes"))


def test_the_soc_table_gives_310b_its_own_248_kb_of_ub():
    table = socs.load()
    assert table["ascend310b"]["ub_bytes"] == 248 * 1024
    assert table["ascend910b"]["ub_bytes"] == 192 * 1024 and table["ascend310p"]["ub_bytes"] == 256 * 1024


def test_the_legality_header_holds_the_docs_add_and_cast_rules():
    text = legality.header_path().read_text(encoding="utf-8")
    add = legality.rules(legality.load())[("Add", "T")][0]
    bits = {t for i, t in enumerate(legality.ELEMENT_TYPES) if add[0] >> i & 1}
    assert bits == {"half", "float", "int16_t", "int32_t"}  # ascend910b: no bfloat16_t, no int8_t (Add.md)
    assert "// half -> float" in text and "// half -> int32_t" in text
    pairs = {(s, d): m for s, d, m in legality.cast_rules(legality.load())}
    none = 1 << legality.ROUND_MODES.index("CAST_NONE")
    assert not pairs[("half", "int32_t")][0] & none  # CAST_NONE half -> int32_t is not listed for ascend910b
    assert ("float", "int8_t") not in pairs and ("half", "bfloat16_t") not in pairs
