"""Doc pages -> records, on a small doc tree in the docs' style written here (doc_tree.py): each field comes out of
the variations the real pages use, the coverage count is right, and the legality rows say what the pages say."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cotbuilder.apidocs import legality
from cotbuilder.apidocs.coverage import measure, report
from cotbuilder.apidocs.extract import extract_page, extract_tree

from .doc_tree import PAGES, write_tree

SCALE = "SIMD-API/基础API/Memory矢量计算/基础算术/Scale.md"
SOFTCLIP = "SIMD-API/高阶API/数学计算/SoftClip接口/SoftClip.md"
CONVERT = "SIMD-API/基础API/Memory矢量计算/类型转换/Convert.md"
WIDEN = "SIMD-API/基础API/Memory矢量计算/类型转换/Widen.md"


def test_a_basic_api_page_gives_every_field():
    r = extract_page(PAGES[SCALE], SCALE)
    assert r.title == "Scale" and r.names == ["Scale"] and r.category == "vector"
    assert r.header == "basic_api/kernel_operator_vec_scale_intf.h"
    assert r.products == {
        "ascend950": True,
        "ascend910b": True,
        "ascend310b": False,
        "ascend310p": True,
        "ascend310p_vector": False,
    }
    assert len(r.signatures) == 2 and all("Scale(" in s for s in r.signatures)
    assert [p.name for p in r.template_params] == ["T", "isSetMask"]  # the caption says 模板参数
    assert [(p.name, p.direction) for p in r.params][:3] == [("dst", "out"), ("src", "in"), ("factor", "in")]
    assert r.params[0].description == "目的操作数。\n类型为LocalTensor。"  # <br> kept as a line break, link as text
    assert r.dtypes == {
        "T": {
            "ascend950": ["half", "bfloat16_t", "float", "int32_t"],
            "ascend910b": ["half", "float"],
            "ascend310p": ["half"],
        }
    }  # the 310p bullet names the product and its nested item the types
    assert r.constraints == [
        "操作数地址需要32字节对齐。",
        "当count为0时：\n不执行计算。",
        "repeatTime取值范围为[0, 255]。",
    ]
    assert r.examples == ["AscendC::Scale(dstLocal, srcLocal, static_cast<half>(2.0), 256);"]
    assert r.returns == "无" and r.complete


def test_a_library_page_with_html_tables_and_per_variant_products():
    r = extract_page(PAGES[SOFTCLIP], SOFTCLIP)
    # a product is supported when any prototype variant supports it
    assert r.products == {"ascend910b": True, "ascend310p": True}
    assert [p.name for p in r.template_params] == ["T", "isReuseSource"]  # the names of the template line
    assert [(p.name, p.direction) for p in r.params] == [
        ("dstTensor", "out"),
        ("srcTensor", "in"),
        ("sharedTmpBuffer", "in"),
        ("calCount", "in"),
    ]
    assert r.params[0].description == "目的操作数。<br>与源操作数同类型。".replace("<br>", "\n")
    assert r.dtypes == {"T": {"*": ["half", "float"]}, "sharedTmpBuffer": {"*": ["uint8_t"]}}
    assert r.header == "" and r.complete


def test_a_combination_table_per_product_gives_round_modes_and_notes():
    r = extract_page(PAGES[CONVERT], CONVERT)
    combos = [(c.socs, c.types, c.round_modes, c.note) for c in r.combinations]
    assert combos == [
        (["ascend910b"], {"src": "half", "dst": "float"}, ["CAST_NONE"], ""),
        (["ascend910b"], {"src": "float", "dst": "half"}, ["CAST_RINT", "CAST_ODD", "CAST_NONE"], ""),
        (["ascend910b"], {"src": "int32_t", "dst": "half"}, [], "roundMode不生效，需要先设置缩放系数。"),
        (["ascend310p"], {"src": "half", "dst": "float"}, ["CAST_NONE"], ""),
    ]
    assert r.dtypes == {}


def test_pages_without_parameters_and_types_listed_under_constraints():
    none_by_prototype = extract_page(PAGES["SIMD-API/基础API/工具接口/GetCoreCount.md"], "x/GetCoreCount.md")
    assert none_by_prototype.params == [] and none_by_prototype.params_none and none_by_prototype.complete
    assert none_by_prototype.constraints == [] and none_by_prototype.has_constraints  # "无" is a stated none
    stated = extract_page(PAGES["SIMD-API/基础API/资源管理/Reset.md"], "x/Reset.md")
    assert stated.params_none and stated.complete
    widen = extract_page(PAGES[WIDEN], WIDEN)
    assert widen.dtypes == {
        "T": {"ascend910b": ["int16_t", "int32_t"], "ascend310b": ["int16_t"]},
        "U": {"ascend910b": ["int16_t", "int32_t"], "ascend310b": ["int16_t"]},
    }


def test_the_tree_yields_api_pages_only_and_coverage_counts_them(tmp_path):
    docs = write_tree(tmp_path)
    paths = [r.path for r in extract_tree(docs)]
    assert "SIMD-API/基础API/Memory矢量计算/指南/TileGuide.md" not in paths  # a concept page: no prototypes
    assert not [p for p in paths if p.startswith("附录/")]
    assert len(paths) == 6
    cov = measure(docs)
    assert (cov.pages, cov.complete, cov.with_dtypes) == (6, 6, 4)
    assert "complete (signature + parameters + constraints): 6 (100.0%)" in report(cov)


def test_a_page_missing_its_constraints_is_reported_by_name(tmp_path):
    docs = write_tree(tmp_path)
    page = docs / SCALE
    page.write_text(page.read_text(encoding="utf-8").split("## 约束说明")[0], encoding="utf-8")
    cov = measure(docs)
    assert cov.complete == 5 and cov.misses == {"constraints": [SCALE]}


def test_legality_rows_say_what_the_pages_say(tmp_path):
    rows = legality.build(write_tree(tmp_path))
    by = {(r["api"], r["soc"]): r for r in rows}
    assert by[("Scale", "ascend910b")] == {
        "api": "Scale",
        "family": "basic_api",
        "soc": "ascend910b",
        "supported": True,
        "dtypes": {"T": ["half", "float"]},
        "doc": SCALE,
    }
    assert by[("Scale", "ascend310p")]["dtypes"] == {"T": ["half"]}
    assert by[("Scale", "ascend310b")] == {**by[("Scale", "ascend310b")], "supported": False, "dtypes": {}}
    # a statement naming no product holds for each supported one; the library family is kept apart
    assert by[("SoftClip", "ascend310p")]["dtypes"] == {"T": ["half", "float"], "sharedTmpBuffer": ["uint8_t"]}
    assert by[("SoftClip", "ascend310p")]["family"] == "adv_api"
    assert ("SoftClip", "ascend310b") not in by  # the page says nothing about it
    assert by[("Convert", "ascend910b")]["combinations"][1] == {
        "src": "float",
        "dst": "half",
        "round_modes": ["CAST_RINT", "CAST_ODD", "CAST_NONE"],
    }
    assert by[("Convert", "ascend310p")]["combinations"] == [
        {"src": "half", "dst": "float", "round_modes": ["CAST_NONE"]}
    ]
    ignored = by[("Convert", "ascend910b")]["combinations"][2]
    assert ignored == {"src": "int32_t", "dst": "half", "round_mode_ignored": True}  # facts, not the docs' sentence
    assert "GetCoreCount" not in {r["api"] for r in rows}  # no type table: constrains nothing
    text = legality.render(rows)
    assert json.loads(text)["rows"] == rows


def test_the_command_line_extracts_measures_and_refuses_a_folder_without_docs(tmp_path):
    write_tree(tmp_path)
    docs = tmp_path / "docs" / "zh" / "api"
    run = lambda *a: subprocess.run([sys.executable, "-m", "cotbuilder.apidocs", *a], capture_output=True, text=True)  # noqa: E731
    out = run("extract", str(docs))
    assert out.returncode == 0
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert {r["title"] for r in records} == {"Scale", "SoftClip", "Convert", "GetCoreCount", "Reset", "Widen"}
    assert "API pages: 6" in run("measure", str(docs)).stdout
    bad = run("legality", str(tmp_path / "nowhere"))
    assert bad.returncode == 2 and "no docs/zh/api folder" in bad.stderr


@pytest.mark.parametrize("command", ["lists", "legality"])
def test_a_generator_without_write_reports_drift_and_leaves_the_committed_file(tmp_path, command):
    write_tree(tmp_path)
    (tmp_path / "include").mkdir()
    target = legality.table_path() if command == "legality" else None
    from cotbuilder.apidocs import lists

    target = target or lists.documented_path()
    before = target.read_bytes()
    out = subprocess.run(
        [sys.executable, "-m", "cotbuilder.apidocs", command, str(tmp_path)], capture_output=True, text=True
    )
    assert out.returncode == 1 and "out of date" in out.stdout
    assert target.read_bytes() == before


def test_the_committed_legality_table_holds_the_docs_cast_and_add_rules():
    rows = legality.load()
    assert {r["soc"] for r in rows} == set(legality.MODELLED_SOCS)
    assert all(r["doc"].endswith(".md") for r in rows)
    add = next(r for r in rows if (r["api"], r["family"], r["soc"]) == ("Add", "basic_api", "ascend910b"))
    assert add["dtypes"]["T"] == ["int16_t", "half", "int32_t", "float"]  # no bfloat16_t, no int8_t
    cast = next(
        r for r in rows if (r["api"], r["soc"]) == ("Cast", "ascend910b") and r["doc"].endswith("类型转换/Cast.md")
    )
    half_to_int32 = next(c for c in cast["combinations"] if (c["src"], c["dst"]) == ("half", "int32_t"))
    assert "CAST_NONE" not in half_to_int32["round_modes"]
    assert not [c for c in cast["combinations"] if (c["src"], c["dst"]) == ("float", "int8_t")]
