"""The two committed API lists: the emulated list and the forwarding headers match the emulator headers (regenerated
here with real g++ and tree-sitter: a test that fails when someone adds an API and forgets to regenerate), and the
documented list answers what parse, annotate and verify ask of it."""

from __future__ import annotations

import subprocess
import sys

from cotbuilder.apidocs import emulated, forwarders, lists, toolkit
from cotbuilder.paths import emulator_dir


def test_the_committed_emulated_list_matches_the_emulator_headers():
    rows = emulated.scan()
    committed = lists.emulated_path().read_text(encoding="utf-8")
    assert emulated.render(rows) == committed, "run: python -m cotbuilder.apidocs emulated --write"


def test_the_committed_forwarding_headers_match_what_the_lists_call_for():
    doc = lists.documented()
    headers = [toolkit.Header(p, n) for p, n in doc.headers.items()]
    headers += [toolkit.Header(p, (), w) for p, w in doc.wrappers.items()]
    include = emulator_dir() / "include"
    planned = forwarders.plan(headers, emulated.scan(), include)
    assert planned == forwarders.existing(include), "run: python -m cotbuilder.apidocs emulated --write"


def test_an_api_added_to_the_emulator_makes_the_drift_check_fail(tmp_path):
    # a copy of the emulator with one new public API: the scan sees it, so the committed list no longer matches
    include = tmp_path / "include"
    subprocess.run(["cp", "-r", str(emulator_dir() / "include"), str(include)], check=True)
    extra = include / "impl" / "basic_api" / "vec.h"
    extra.write_text(
        extra.read_text()
        + "\nnamespace AscendC {\ntemplate <typename T> void BrandNewOp(T) {}\n}  // namespace AscendC\n"
    )
    rows = emulated.scan((include, include / "basic_api"))
    assert ("BrandNewOp", "function", "impl/basic_api/vec.h") in {(r.name, r.kind, r.header) for r in rows}
    assert emulated.render(rows) != lists.emulated_path().read_text(encoding="utf-8")


def test_the_emulated_list_names_the_core_api_and_where_it_lives():
    emu = lists.emulated_apis()
    assert emu["Add"] == ("function", "impl/basic_api/vec.h")
    assert emu["TPipe"][1] == "impl/basic_api/pipe.h"
    assert emu["Tanh"][1] == "impl/adv_api/math.h"
    assert emu["GetTanhMaxMinTmpSize"][1] == "tiling/tiling_api.h"
    assert emu["ICPU_RUN_KF"][0] == "macro"
    assert "platform_ascendc::PlatformAscendC" in emu
    # emulator internals are not API
    assert not [n for n in emu if n.startswith(("cbemu", "CBEMU_", "COTBUILDER_", "detail_"))]
    assert emu["Mmad"][1] == "impl/basic_api/cube.h" and "Matmul" in emu  # the Cube unit
    assert "MmadWithSparse" not in emu


def test_documented_list_has_the_api_with_category_and_page():
    doc = lists.documented()
    assert doc.apis["Add"] == "vector"
    assert doc.pages["Add"].endswith("/Add.md")
    assert doc.apis["Matmul"] == "cube"
    assert doc.apis["MmadWithSparse"] == "cube"  # documented, not emulated: verify calls its absence `unsupported`
    assert "MmadWithSparse" not in lists.emulated_apis()
    assert "Tanh" in doc.headers["adv_api/math/tanh.h"]


def test_toolkit_headers_are_recognised_by_exact_path_and_by_prefix():
    assert lists.is_toolkit_header("basic_api/kernel_operator_vec_binary_intf.h")
    assert lists.is_toolkit_header("adv_api/math/kernel_operator_tanh_intf.h")  # a wrapper row
    assert lists.is_toolkit_header("kernel_operator_list_tensor_intf.h")  # bare basic_api spelling
    assert lists.is_toolkit_header("aclnn_add.h") and lists.is_toolkit_header("acl/acl_rt_compile.h")
    assert not lists.is_toolkit_header("data_utils.h")
    assert not lists.is_toolkit_header("add_custom_tiling.h")


def test_loading_the_lists_does_not_import_the_generators():
    code = (
        "import sys, cotbuilder.apidocs.lists as l; l.documented(); l.emulated_apis();"
        "print(sorted(m for m in sys.modules if m.startswith(('tree_sitter', 'cotbuilder.apidocs.emulated'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
