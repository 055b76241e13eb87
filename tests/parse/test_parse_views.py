"""The parse views behind the error share on real code: macro forms tree-sitter cannot read, one consistent `#if`
configuration, and files under an op project's tests/ that define their own entries (real tree-sitter; small
sources written here in the styles seen in public AscendC repositories)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from cotbuilder.parse import extract_units
from cotbuilder.parse.branches import consistent_branch_view
from cotbuilder.parse.cst import diagnostics, parse_bytes
from cotbuilder.parse.facts import extract_facts

_spec = importlib.util.spec_from_file_location("parse_test_fixtures", Path(__file__).parent / "fixtures.py")
fx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fx)

SRC = "a" * 64


def errors_of(src: bytes) -> list[dict]:
    masked, tree = parse_bytes(src)
    assert len(masked) == len(src)
    assert [i for i, b in enumerate(masked) if b == 0x0A] == [i for i, b in enumerate(src) if b == 0x0A]
    return [d for d in diagnostics(tree, "") if d["kind"] in ("error", "missing")]


def test_macro_forms_that_are_valid_after_preprocessing_parse_without_errors():
    sources = {
        "type-producing macro in an alias": b"template <typename T> struct Dag {\n  using One = MAKE_CONST(T, 1);\n"
        b"  using Zero = MAKE_CONST(float, 0.0f);\n};\n",
        "function pointer type in a mock": b"void t() {\n  MOCKER(raise, int (*)(int)).times(1).will(returnValue(0));\n}\n",
        "builtin type as macro argument": b"void t(int n) {\n  int k = static_cast<int>(ALIGN_UP_ELEMS(n->len, float));\n"
        b"  AscendC::CHECK_API(Sigmoid, (uint8_t, false), (dst, src, n));\n}\n",
        "statement macros without semicolons": b"void t() {\n  TENSOR_REGISTER(a, half, A1, 0, n)\n"
        b"  TENSOR_REGISTER(b, half, B1, 64, n)\n  Run(a, b);\n}\n",
        "file-local lowercase macro before a call": b"#define Sync(A, B) { Wait(A, B); }\nvoid t() {\n"
        b"  Sync(V, MTE3) CopyOut(y, 0, n);\n}\n",
        "statements as macro arguments": b'int t(int r) {\n  CHECK_RET(r == 0, LOG("bad %d", r); return r);\n'
        b'  OP_CHECK_IF(r < 0, LOGE(ctx, "neg"), return -1);\n  return 0;\n}\n',
        "qualifier named in a directive": b"#ifndef __aicore__\n#define __aicore__ [aicore]\n#endif\n"
        b"__aicore__ inline void f() {}\n",
        "__restrict and ->*": b"struct K {\n"
        b"  __aicore__ inline void Init(const T& __restrict t) { (this->*fn)(1); }\n};\n",
        "GNU named variadic macro": b'#define INFO_LOG(fmt, args...) fprintf(stdout, "[INFO] " fmt "\\n", ##args)\n',
        "macro base classes": b"class Impl : MATMUL_IMPORT_MODULE(CubeInA), MATMUL_IMPORT_MODULE_PRIVATE(Tiling) {\n"
        b"  int x;\n};\n",
        "declaration macros at namespace scope": b"void k(int a) {}\nINSTANTIATE_CASE(int8_t, 32);\n"
        b"INSTANTIATE_CASE(half, 64);\nvoid k2() {}\n",
    }
    for what, src in sources.items():
        assert errors_of(src) == [], what


def test_malformed_cpp_next_to_macros_is_still_reported_on_its_line():
    src = (
        b"void t() {\n  MOCKER(raise, int (*)(int)).times(1);\n  TENSOR_REGISTER(a, half, A1, 0, n)\n"
        b"  Run(a, b c);\n}\nusing One = MAKE_CONST(T, 1);\n"
        b"INSTANTIATE_CASE(Suite, Values(Entry<half, 0 true>));\nint x = (1 + ;\n"
    )
    lines = {d["line"] for d in errors_of(src)}
    assert {4, 7, 8} <= lines  # a macro's arguments are not a place to hide a missing comma
    assert not lines & {2, 3, 6}


def test_branch_view_follows_one_macro_configuration_across_the_file():
    src = (
        b"#ifdef __CCE_AICORE__\nint device_a;\n#else\nint host_a;\n#endif\n"
        b"#ifndef __CCE_AICORE__\nint host_b;\n#else\nint device_b;\n#endif\n"
        b"#if 0\nint never;\n#elif defined(__CCE_AICORE__)\nint device_c;\n#else\nint host_c;\n#endif\n"
    )
    view = consistent_branch_view(src)
    assert len(view) == len(src) and view.count(b"\n") == src.count(b"\n")
    kept = {w for w in (b"device_a", b"device_b", b"device_c", b"host_a", b"host_b", b"host_c", b"never") if w in view}
    assert kept == {b"device_a", b"device_b", b"device_c"}
    assert b"#" not in view


def test_declaration_split_by_conditional_branches_parses_and_keeps_its_entry():
    src = (
        b'#if SCENARIO == 2\nextern "C" __global__ __cube__ void mm(GM_ADDR a,\n    GM_ADDR b)\n#else\n'
        b'extern "C" __global__ __aicore__ void mm(GM_ADDR a,\n    GM_ADDR b)\n#endif\n{\n  Run(a, b);\n}\n'
    )
    assert errors_of(src) == []
    facts = extract_facts(src)
    assert [(f.name, f.line) for f in facts.entries] == [("mm", 2)]


def test_entry_defined_in_an_op_projects_tests_becomes_its_own_kernel_launch_unit():
    files = fx.op_project_files()
    wrapper = (
        '#include "../../../op_kernel/scale_custom.cpp"\n'
        'extern "C" __global__ __aicore__ void scale_ut_half(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)\n'
        "{\n    scale_custom(x, y, nullptr, tiling);\n}\n"
    )
    files.append(fx.record("ops/ScaleCustom/tests/ut/op_kernel/scale_ut_kernel.cpp", wrapper))
    units, notes = extract_units(SRC, files)
    assert sorted(u["layout"] for u in units) == ["kernel_launch", "op_project"]
    test_unit = next(u for u in units if u["layout"] == "kernel_launch")
    assert test_unit["root"] == "ops/ScaleCustom/tests/ut/op_kernel"
    assert [e["name"] for e in test_unit["entry"]] == ["scale_ut_half"]
    op_unit = next(u for u in units if u["layout"] == "op_project")
    assert all(not f["path"].startswith("tests/") for f in op_unit["files"])
    # the helper without an entry joins the test unit as harness, nothing is left over
    assert notes == []
    assert {f["path"]: f["role"] for f in test_unit["files"]}["test_scale.cpp"] == "other"
