"""The parser: masking, grouping files into units, features, diagnostics and stable ids (real tree-sitter, real
DuckDB store; the AscendC sources are small ones written in tests/parse/fixtures.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cotbuilder import records
from cotbuilder.parse import extract_doc_units, extract_units
from cotbuilder.parse import facts as parsed_facts
from cotbuilder.parse.cst import parse_bytes
from cotbuilder.parse.facts import extract_facts
from cotbuilder.parse.features import api_table
from cotbuilder.parse.mask import mask_source
from cotbuilder.paths import data_dir
from cotbuilder.store import Store

_spec = importlib.util.spec_from_file_location("parse_test_fixtures", Path(__file__).parent / "fixtures.py")
fx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fx)

SRC = "a" * 64


def by_layout(units: list[dict], layout: str) -> list[dict]:
    return [u for u in units if u["layout"] == layout]


def roles(unit: dict) -> dict[str, str]:
    return {f["path"]: f["role"] for f in unit["files"]}


# -- masking --------------------------------------------------------------------------------------------------------


def test_masking_blanks_qualifiers_and_keeps_every_byte_offset_and_newline():
    src = (
        '// 注释 with UTF-8\nextern "C" __global__ __aicore__ void k(__gm__ uint8_t* x,\n'
        "    __ubuf__ half* y) __launch_bounds__(256)\n{ }\n"
    ).encode()
    masked = mask_source(src)
    assert len(masked) == len(src)
    assert [i for i, b in enumerate(masked) if b == 0x0A] == [i for i, b in enumerate(src) if b == 0x0A]
    for word in (b"__global__", b"__aicore__", b"__gm__", b"__ubuf__", b"__launch_bounds__", b"(256)"):
        assert word not in masked
    pos = src.index(b"void k(")
    assert masked[pos : pos + 7] == b"void k("
    _, tree = parse_bytes(src)
    assert not tree.root_node.has_error


def test_triple_chevron_launch_parses_without_error_and_gives_block_dim():
    src = (
        b"void host() {\n  uint32_t blockDim = 8;\n"
        b"  add_custom<<<blockDim, nullptr, stream>>>(x, y, z);\n"
        b"  copy<512, 8><<<4, 0, stream>>>(a, b);\n"
        b"  using T = A<B<C<int>>>;\n}\n"
    )
    masked, tree = parse_bytes(src)
    assert not tree.root_node.has_error
    assert b"<<<" not in masked and b"A<B<C<int>>>" in masked  # nested templates are not launches
    facts = extract_facts(src)
    assert facts.block_dim_exprs[:2] == ["blockDim", "4"]


# -- grouping -------------------------------------------------------------------------------------------------------


def test_kernel_launch_folder_becomes_one_unit_with_its_harness_roles():
    units, notes = extract_units(SRC, fx.kernel_launch_files())
    assert len(units) == 1 and notes == []
    unit = units[0]
    assert unit["layout"] == "kernel_launch" and unit["root"] == "samples/scale_relu" and unit["name"] == "scale_relu"
    assert roles(unit) == {
        "scale_relu.cpp": "kernel",
        "main.cpp": "host_main",
        "data_utils.h": "data_utils",
        "scripts/gen_data.py": "generator",
        "scripts/verify_result.py": "checker",
        "CMakeLists.txt": "build",
        "run.sh": "build",
    }
    assert unit["kernel_code"] == fx.KERNEL
    assert "ICPU_RUN_KF" in unit["host_code"]
    records.validate("unit", unit)


def test_op_project_takes_kernel_host_json_spec_and_its_tests_as_harness():
    units, notes = extract_units(SRC, fx.op_project_files())
    assert len(units) == 1
    unit = units[0]
    assert unit["layout"] == "op_project" and unit["root"] == "ops/ScaleCustom" and unit["name"] == "ScaleCustom"
    assert roles(unit) == {
        "op_host/scale_custom_tiling.h": "tiling",
        "op_host/scale_custom.cpp": "tiling_func",
        "op_kernel/scale_custom.cpp": "kernel",
        "scale_custom.json": "op_json",
        "verify_spec.toml": "spec",
        "tests/ut/op_kernel/test_scale.cpp": "test",
    }
    assert notes == []
    feats = unit["features"]
    assert feats["tiling_fields"] == [
        {"name": "totalLength", "type": "uint32_t"},
        {"name": "tileNum", "type": "uint32_t"},
        {"name": "offsets", "type": "uint32_t", "array_len": "4"},
    ]
    assert feats["tiling_funcs"] == ["TilingFunc"]
    assert feats["op_def"]["name"] == "ScaleCustom"
    assert feats["op_def"]["inputs"] == [{"name": "x", "dtypes": ["DT_FLOAT16", "DT_FLOAT"]}]
    assert feats["op_def"]["attrs"] == ["alpha"]
    assert feats["block_dim"] == 8
    assert "BEGIN_TILING_DATA_DEF" in unit["host_code"] and "GET_TILING_DATA" in unit["kernel_code"]
    assert not [d for d in unit["diagnostics"] if d["kind"] != "note"]
    records.validate("unit", unit)


def test_single_file_asc_samples_in_one_folder_are_separate_units_sharing_the_scripts():
    files = [
        fx.record("ex/two/first.asc", fx.SINGLE_ASC.format(name="first_kernel")),
        fx.record("ex/two/second.asc", fx.SINGLE_ASC.format(name="second_kernel")),
        fx.record("ex/two/data_utils.h", fx.DATA_UTILS),
        fx.record("ex/two/scripts/gen_data.py", fx.GEN),
    ]
    units, _ = extract_units(SRC, files)
    assert sorted(u["name"] for u in units) == ["first", "second"]
    for unit in units:
        assert unit["layout"] == "kernel_launch"
        assert "int32_t main" not in unit["kernel_code"] and "__global__" in unit["kernel_code"]
        assert unit["host_code"].startswith("int32_t main") and "<<<numBlocks" in unit["host_code"]
        assert roles(unit)["data_utils.h"] == "data_utils" and roles(unit)["scripts/gen_data.py"] == "generator"
        assert unit["features"]["block_dim"] == 4
        assert unit["entry"][0]["params"] == [
            {"name": "x", "type": "__gm__ uint8_t *"},
            {"name": "z", "type": "__gm__ uint8_t *"},
        ]
    assert units[0]["unit_id"] != units[1]["unit_id"]


def test_doc_blocks_complete_kernel_becomes_kernel_launch_and_fragment_becomes_snippet():
    page = {
        "path": "docs/guide.html",
        "url": "https://docs.example/guide.html",
        "text": "",
        "file_id": "e" * 64,
        "license": "CC-BY-4.0",
        "language": "html",
    }
    blocks = [
        {
            "code": fx.SINGLE_ASC.format(name="doc_kernel"),
            "heading": "Add Kernel Example",
            "language": "cpp",
            "index": 0,
        },
        {
            "code": "AscendC::DataCopy(xLocal, xGm[offset], tileLength);\n",
            "heading": "Data Copy",
            "language": "cpp",
            "index": 3,
        },
    ]
    units = extract_doc_units(SRC, page, blocks)
    assert [u["layout"] for u in units] == ["kernel_launch", "snippet"]
    kernel, snippet = units
    assert kernel["root"] == "https://docs.example/guide.html#add-kernel-example-0"
    assert kernel["name"] == "doc_kernel" and "main(" not in kernel["kernel_code"]
    assert kernel["entry"][0]["name"] == "doc_kernel"
    assert snippet["root"] == "https://docs.example/guide.html#data-copy-3"
    assert snippet["files"][0]["role"] == "snippet" and snippet["features"]["apis"] == {"DataCopy": 1}
    assert kernel["license"] == "CC-BY-4.0"
    for u in units:
        records.validate("unit", u)


# -- features -------------------------------------------------------------------------------------------------------


def test_features_count_apis_and_fold_constants_of_a_kernel_launch_unit():
    unit = extract_units(SRC, fx.kernel_launch_files())[0][0]
    f = unit["features"]
    assert f["apis"]["DataCopy"] == 2 and f["apis"]["AllocTensor"] == 2 and f["apis"]["Muls"] == 1
    assert f["apis"]["InitBuffer"] == 2 and f["apis"]["TQue"] == 2 and f["apis"]["GetBlockIdx"] == 2
    assert "Init" not in f["apis"] and "Process" not in f["apis"]  # the kernel class's own methods
    assert f["buffer_num"] == 2 and f["tile_length"] == 128 and f["block_dim"] == 8
    assert f["ub_bytes"] == 2 * 2 * 128 * 2
    assert f["dtypes"] == ["half"] and f["positions"] == ["VECIN", "VECOUT"]
    assert f["multi_core"] is True and f["uses_cube"] is False
    assert f["kernel_class"] == "KernelScale"
    assert f["methods"] == ["KernelScale", "Init", "Process", "CopyIn", "Compute", "CopyOut"]
    assert unit["entry"] == [
        {
            "name": "scale_relu",
            "params": [{"name": "x", "type": "GM_ADDR"}, {"name": "z", "type": "GM_ADDR"}],
            "file": "scale_relu.cpp",
            "line": fx.KERNEL.splitlines().index(
                'extern "C" __global__ __aicore__ void scale_relu(GM_ADDR x, GM_ADDR z)'
            )
            + 1,
        }
    ]
    assert unit["category"] == "activation"  # by name: scale_relu
    # data/complexity.toml: 1 + (14 distinct APIs >= 8) + (multi-core AND double-buffered); not cube, no tiling struct
    assert len(f["apis"]) == 14 and unit["complexity"] == 3


def test_category_falls_back_to_apis_when_the_name_says_nothing():
    files = fx.kernel_launch_files("k/op7")
    files[0] = fx.record("k/op7/op7.cpp", fx.KERNEL.replace("scale_relu", "op7").replace("Relu(", "Duplicate("))
    unit = extract_units(SRC, files)[0][0]
    assert unit["name"] == "op7" and unit["category"] == "broadcast"  # Duplicate -> broadcast beats Muls


def test_api_list_is_names_with_categories_and_knows_the_core_apis():
    table = api_table()
    assert len(table) > 500
    for name in ("DataCopy", "TPipe", "TQue", "AllocTensor", "Matmul", "SoftMax", "SetFlag", "GetBlockIdx"):
        assert name in table
    assert table["DataCopy"] == "data_movement" and table["Matmul"] == "cube"


# -- diagnostics ----------------------------------------------------------------------------------------------------


def test_malformed_cpp_is_kept_with_error_diagnostics_and_line_numbers():
    broken = fx.KERNEL.replace(
        "        AscendC::Relu(zLocal, zLocal, TILE_LENGTH);\n", "        AscendC::Relu(zLocal, zLocal TILE_LENGTH;\n"
    )
    files = fx.kernel_launch_files()
    files[0] = fx.record("samples/scale_relu/scale_relu.cpp", broken)
    unit = extract_units(SRC, files)[0][0]
    errors = [d for d in unit["diagnostics"] if d["kind"] in ("error", "missing")]
    bad_line = broken.splitlines().index("        AscendC::Relu(zLocal, zLocal TILE_LENGTH;") + 1
    assert errors and all(d["file"] == "scale_relu.cpp" for d in errors)
    assert any(abs(d["line"] - bad_line) <= 1 for d in errors)
    assert unit["entry"][0]["name"] == "scale_relu"  # the rest of the file is still read


# -- hostile input ---------------------------------------------------------------------------------------------------


def test_a_file_nested_absurdly_deep_is_left_out_at_once_with_a_note_and_the_rest_still_parses():
    import time

    files = fx.kernel_launch_files() + [
        fx.record("samples/evil/evil.cpp", '#include "kernel_operator.h"\n' + "(" * 100_000)
    ]
    start = time.monotonic()
    units, notes = extract_units(SRC, files)
    assert time.monotonic() - start < 5  # the tree-sitter query alone took 51 s on this file
    assert {
        "path": "samples/evil/evil.cpp",
        "reason": "not parsed: brackets nested 100000 deep (limit 1000); left out",
    } in notes
    assert [u["name"] for u in units] == ["scale_relu"]


def test_a_file_past_the_parse_time_limit_is_left_out_with_a_note():
    files = fx.kernel_launch_files()
    parsed_facts._CACHE.clear()  # parse for real: cached facts would cost no time
    units, notes = extract_units(SRC, files, time_limit=1e-9)
    kernel = "samples/scale_relu/scale_relu.cpp"
    assert {"path": kernel, "reason": "not parsed: parse time limit exceeded (1e-09 s); left out"} in notes
    assert not any(f["path"] == "scale_relu.cpp" for u in units for f in u["files"])
    parsed_facts._CACHE.clear()
    assert extract_units(SRC, files, time_limit=30)[0][0]["name"] == "scale_relu"


# -- ids and the store ----------------------------------------------------------------------------------------------


def test_unit_id_is_stable_across_runs_file_order_and_line_endings_but_not_content_or_source():
    files = fx.kernel_launch_files()
    first = extract_units(SRC, files)[0][0]["unit_id"]
    reordered = list(reversed(files))
    crlf = [dict(f, text=f["text"].replace("\n", "\r\n")) for f in files]
    assert extract_units(SRC, reordered)[0][0]["unit_id"] == first
    assert extract_units(SRC, crlf)[0][0]["unit_id"] == first
    changed = [dict(f, text=f["text"].replace("TILE_NUM = 8", "TILE_NUM = 4")) for f in files]
    assert extract_units(SRC, changed)[0][0]["unit_id"] != first
    assert extract_units("b" * 64, files)[0][0]["unit_id"] != first


def test_units_insert_into_a_real_store_and_read_back(tmp_path):
    units, _ = extract_units(SRC, fx.kernel_launch_files() + fx.op_project_files())
    with Store(tmp_path / "ws") as store:
        store.insert("units", units)
        store.insert("units", units)  # same ids: replaced, not duplicated
        rows = store.rows("SELECT layout, name, features, entry FROM units ORDER BY layout")
    assert [(r["layout"], r["name"]) for r in rows] == [("kernel_launch", "scale_relu"), ("op_project", "ScaleCustom")]
    assert rows[0]["features"]["buffer_num"] == 2 and rows[1]["entry"][0]["name"] == "scale_custom"


# -- the project's own corpus ---------------------------------------------------------------------------------------


def _example_files() -> list[dict]:
    root = data_dir("examples")
    out = []
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.suffix in (".cpp", ".h", ".asc", ".py", ".sh", ".json", ".toml", ".txt"):
            out.append(fx.record(p.relative_to(root).as_posix(), p.read_text(encoding="utf-8")))
    return out


def test_demo_corpus_yields_enough_units_of_both_layouts_without_errors_in_eight_categories():
    files = _example_files()
    if not files:
        pytest.fail("examples/ is empty: the demo corpus is missing")
    units, _ = extract_units(SRC, files)
    assert len(by_layout(units, "kernel_launch")) >= 16
    assert len(by_layout(units, "op_project")) >= 6
    errors = [(u["name"], d) for u in units for d in u["diagnostics"] if d["kind"] in ("error", "missing")]
    assert errors == []
    assert len({u["category"] for u in units}) >= 8
    assert all(u["entry"] for u in units)
    for u in units:
        records.validate("unit", u)


def test_dtypes_come_from_tensor_templates_not_from_casts_of_event_ids():
    source = (
        '#include "kernel_operator.h"\n'
        "using namespace AscendC;\n"
        'extern "C" __global__ __aicore__ void k(GM_ADDR x) {\n'
        "    GlobalTensor<half> xGm;\n"
        "    int32_t ev = static_cast<int32_t>(pipe.FetchEventID(HardEvent::V_S));\n"
        "    LocalTensor<float> t = q.AllocTensor<float>();\n"
        "}\n"
    )
    units, _ = extract_units(
        SRC, [{"path": "k/k.cpp", "text": source, "file_id": None, "license": "MIT", "language": "cpp"}]
    )
    assert units[0]["features"]["dtypes"] == ["float", "half"]


# -- licence --------------------------------------------------------------------------------------------------------


def _relicensed(files: list[dict], licences: dict[str, str]) -> list[dict]:
    """The same files with the licence of some (by file name) replaced."""
    return [{**f, "license": licences.get(f["path"].rsplit("/", 1)[-1], f["license"])} for f in files]


def test_unlicensed_code_is_noassertion_even_when_the_cmakelists_carries_a_licence():
    files = _relicensed(
        fx.kernel_launch_files(),
        {
            "scale_relu.cpp": "NOASSERTION",
            "main.cpp": "NOASSERTION",
            "data_utils.h": "NOASSERTION",
            "run.sh": "NOASSERTION",
            "gen_data.py": "NOASSERTION",
            "verify_result.py": "NOASSERTION",
            "CMakeLists.txt": "MIT",
        },
    )
    (unit,), _ = extract_units(SRC, files)
    assert unit["license"] == "NOASSERTION"


def test_one_unlicensed_host_file_makes_a_licensed_kernel_unit_noassertion():
    (unit,), _ = extract_units(SRC, _relicensed(fx.kernel_launch_files(), {"main.cpp": "NOASSERTION"}))
    assert unit["license"] == "NOASSERTION"


def test_code_files_under_different_licences_give_a_sorted_and_expression_ignoring_build_files():
    files = _relicensed(fx.op_project_files(), {"scale_custom_tiling.h": "MIT", "verify_spec.toml": "GPL-3.0-only"})
    (unit,), _ = extract_units(SRC, files)
    assert unit["license"] == "Apache-2.0 AND MIT"
    (same,), _ = extract_units(SRC, fx.op_project_files())
    assert same["license"] == "Apache-2.0"


def test_units_extracted_from_several_threads_at_once_match_a_serial_extraction():
    """The crawler parses sources from threads: each thread gets its own tree-sitter parser."""
    from concurrent.futures import ThreadPoolExecutor

    files = _example_files()
    groups = [
        [f for f in files if f["path"].startswith(f"kernel_launch/{name}/")]
        for name in sorted({f["path"].split("/")[1] for f in files if f["path"].startswith("kernel_launch/")})
    ]
    ids = lambda units: sorted((u["unit_id"], len(u["diagnostics"])) for u in units)  # noqa: E731
    from cotbuilder.parse import facts as parsed_facts

    serial = [ids(extract_units(SRC, g)[0]) for g in groups]
    parsed_facts._CACHE.clear()  # make the threads really parse, not read the serial run's cached facts
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda g: ids(extract_units(SRC, g)[0]), groups))
    assert threaded == serial and all(serial)
