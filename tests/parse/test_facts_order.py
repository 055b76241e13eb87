"""Facts come out in source order: tree-sitter returns a query's captures in an order that changes from run to run
(with ASLR), and the first tiling struct of a header decides a unit's tiling fields."""

from __future__ import annotations

from cotbuilder.parse import cst
from cotbuilder.parse.facts import extract_facts

_HEADER = "\n".join(
    f"struct Tiling{i}Data {{ uint32_t len{i}; uint32_t tile{i}; }};\nclass Kernel{i} {{ public: void Init(); }};"
    for i in range(12)
).encode()


def test_captures_come_in_source_order():
    _, tree = cst.parse_bytes(_HEADER)
    for name, nodes in cst.captures("facts", tree.root_node).items():
        starts = [(n.start_byte, n.end_byte) for n in nodes]
        assert starts == sorted(starts), name


def test_structs_and_classes_are_listed_in_source_order_every_time():
    for _ in range(5):
        facts = extract_facts(_HEADER)
        assert list(facts.structs) == [f"Tiling{i}Data" for i in range(12)]
        assert list(facts.classes) == [f"Kernel{i}" for i in range(12)]


# initialised variables and class-member defaults, interleaved (the query captures the two kinds apart)
_CONSTANTS = b"""constexpr int32_t A0 = 1;
struct Cfg { static constexpr int32_t B0 = 2; static constexpr int32_t B1 = 3; };
constexpr int32_t A1 = B0 * 4;
class K { static constexpr int32_t B2 = 5; void f() { uint32_t a2 = 6; int a3 = a2 + 1; } };
"""


def test_constants_of_variables_and_class_members_are_listed_in_source_order_every_time():
    for _ in range(5):
        consts = extract_facts(_CONSTANTS).const_exprs
        assert list(consts.items()) == [
            ("A0", "1"),
            ("B0", "2"),
            ("B1", "3"),
            ("A1", "B0 * 4"),
            ("B2", "5"),
            ("a2", "6"),
            ("a3", "a2 + 1"),
        ]
