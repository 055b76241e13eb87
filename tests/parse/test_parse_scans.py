"""Faster scans that must find exactly what the plain ones find: the macro-call scan run over the reversed bytes, the
bracket-depth guard that looks at brackets only, includes found from their '#', include resolution cached per folder,
queue positions and op registrations looked for one literal at a time (sources written here, with the awkward spellings
real code has)."""

from __future__ import annotations

import itertools
import re

import pytest

from cotbuilder.parse import budget
from cotbuilder.parse.facts import extract_facts
from cotbuilder.parse.grouping import _REGISTERS_RES
from cotbuilder.parse.includes import Tree, includes_of
from cotbuilder.parse.literal_scan import leftmost_matches
from cotbuilder.parse.macro_calls import _CAPS_CALL_RE, _CAPS_CALL_REVERSED_RE, _calls

_TRICKY = (
    b"LOG(x); ns::CHECK(y); a::b::CHECK_OK (z);\tMAX\t(1, 2); obj.NOT_ME(1); p->NOT_ME_EITHER(2);\n"
    b"a:::B2(3); ::GLOBAL_X(4); _X_(5); X(6); XY(7); 9A(8); lowerCASE(9); CASEend(10); A_b::C1(11);\n"
    b"x.ns::SKIP_Q(12); p->ns::y::AFTER_ARROW(13); q-> ns::OK_SPACED(14); T<A>::IN_TEMPLATE(15); (A1)(16);\n"
    b"#define WRAP(a) INNER_CALL(a)\nENDS_FILE("
)


def _forward(data: bytes) -> list[tuple[int, int]]:
    return [(m.start(1), m.end() - 1) for m in _CAPS_CALL_RE.finditer(data)]


def test_reversed_macro_call_scan_finds_the_forward_patterns_matches_name_for_name():
    found = _calls(_CAPS_CALL_REVERSED_RE, _TRICKY[::-1])
    assert found == _forward(_TRICKY)
    names = [_TRICKY[start:open_at].rstrip(b" \t") for start, open_at in found]
    assert b"ns::CHECK" in names and b"a::b::CHECK_OK" in names and b"MAX" in names  # the scan is not empty
    assert not any(b"NOT_ME" in n for n in names)  # member calls are not macro calls
    assert b"SKIP_Q" in names and b"ns::SKIP_Q" not in names  # after `x.ns::` only the last name is one
    # every short string over the characters that decide a match (word, scope, member access, blanks)
    for n in range(1, 6):
        for chars in itertools.product(b"aB9_:.->( \t", repeat=n):
            data = bytes(chars)
            assert _calls(_CAPS_CALL_REVERSED_RE, data[::-1]) == _forward(data), data


def test_reversed_scan_of_file_local_macro_names_matches_the_forward_one():
    names = [b"Sync", b"Syn", b"PipeBarrier", b"x"]
    forward = re.compile(rb"(?<![\w.>:])(" + b"|".join(re.escape(n) for n in names) + rb")[ \t]*\(")
    reverse = re.compile(rb"\([ \t]*(" + b"|".join(re.escape(n[::-1]) for n in names) + rb")(?![\w.>:])")
    data = b"Sync(V, M) Syn (a); obj.Sync(1); p->x(2); ::Syn(3); ASync(4); PipeBarrier\t(); x(); xx();"
    expected = [(m.start(1), m.end() - 1) for m in forward.finditer(data)]
    assert len(expected) == 4  # Sync, Syn, PipeBarrier, x: not after '.', '->', '::' or inside a word
    assert _calls(reverse, data[::-1]) == expected


@pytest.mark.parametrize(
    "data, deepest",
    [
        (b"f(" * 600 + b")" * 600 + b"g[" * 600 + b"]" * 600, None),  # 1200 openers, never deeper than 600
        (b"x" * 5000 + b"{(" * 500 + b"[" + b")}" * 500, 1001),  # one bracket too deep, after plain text
        (b"(" * 1001 + b")" * 2000, 1001),  # closing more than was opened does not hide the depth
    ],
)
def test_depth_guard_reports_the_true_depth_whatever_the_text_around_the_brackets(data, deepest):
    if deepest is None:
        budget.check_depth(data)
        return
    with pytest.raises(budget.Unparseable, match=f"brackets nested {deepest} deep"):
        budget.check_depth(data)


def test_an_include_counts_only_at_the_start_of_its_line():
    text = (
        '#include "a.h"\n   #  include <b/c.h>\n\t#include "d.h" // note\n'
        'const char* s = "#include \\"not_me.h\\"";\nint x; #include "nor_me.h"\n/* #include "hidden.h" */\n'
    )
    assert includes_of(text) == [("a.h", False), ("b/c.h", True), ("d.h", False)]


def test_one_include_resolves_against_each_units_own_folders_from_a_shared_folder():
    tree = Tree.of(["shared/k.cpp", "opA/op_kernel/t.h", "opB/op_kernel/t.h", "lib/inc/u.h", "shared/n.h"])
    assert tree.resolve("shared/k.cpp", "t.h", ("opA", "opA/op_kernel")) == "opA/op_kernel/t.h"
    assert tree.resolve("shared/k.cpp", "t.h", ("opB", "opB/op_kernel")) == "opB/op_kernel/t.h"  # not A's answer
    assert tree.resolve("shared/other.cpp", "t.h", ()) in ("opA/op_kernel/t.h", "opB/op_kernel/t.h")  # by suffix
    assert tree.resolve("shared/k.cpp", "n.h", ("opA",)) == "shared/n.h"  # next to the includer first
    assert tree.resolve("shared/k.cpp", "inc/u.h", ("opB",)) == "lib/inc/u.h"
    assert tree.resolve("shared/k.cpp", "/abs/u.h", ("lib",)) is None


_ONE_POSITION_PATTERN = re.compile(
    rb"\b(?:TPosition|QuePosition)\s*::\s*([A-Z][A-Z0-9_]*)"
    rb"|\bT(?:Que|QueBind|Buf|BufPool)\s*<\s*(?:AscendC\s*::\s*)?(?:(?:TPosition|QuePosition)\s*::\s*)?([A-Z][A-Z0-9_]*)"
)


@pytest.mark.parametrize(
    "src",
    [
        b"TQue<TPosition::VECIN, 1> q; TBuf<AscendC::TPosition::VECCALC> b; TQueBind<VECIN, VECOUT, 2> x;",
        b"pipe.InitBuffer(q, 2, n); TBufPool<QuePosition :: A1> p; xTQue<VECIN> no; TPosition::vecin;",
        b"QuePosition :: TBufPool< Z_9TQue<VEC> w;",  # a match that swallows the start of the next one
        b"TQue<TPosition::vecout> odd; TPosition::TQUE_X; QuePosition::TQue<B1>;",
    ],
)
def test_queue_positions_split_by_literal_are_what_one_alternation_finds(src):
    expected = {(m.group(1) or m.group(2)).decode() for m in _ONE_POSITION_PATTERN.finditer(src)}
    assert expected  # the source names positions
    assert extract_facts(src).positions == expected


@pytest.mark.parametrize(
    "text",
    [
        "OP_ADD(AddCustom); IMPL_OP_OPTILING(AddCustom).Tiling(f); IMPL_OP_CT (Mul) xOP_ADD(No) IMPL_OPX(No)",
        "OP_ADD(IMPL_OP(IMPL_OP(z)))",  # a match of one pattern inside another's: found again after it
        "IMPL_OP(OP_ADD(x)) OP_ADD( \n Sub ) IMPL_OP_INFERSHAPE(Div)",
    ],
)
def test_literal_first_patterns_run_as_their_alternation(text):
    alternation = re.compile(r"\b(?:IMPL_OP(?:_OPTILING|_INFERSHAPE|_CT)?|OP_ADD)\s*\(\s*(\w+)")
    expected = alternation.findall(text)
    assert expected
    assert [m.group(1) for m in leftmost_matches(_REGISTERS_RES, text)] == expected
