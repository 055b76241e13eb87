"""Code out of a model's reply, by the benchmarks' rules, and replies that try to place files where they must not:
these are `unparseable` before anything is built or run."""

from __future__ import annotations

from pathlib import Path

import pytest

from cotbuilder.eval.answers import parse_answer
from cotbuilder.eval.sampling import verdict_row
from cotbuilder.eval.teachers import Reply
from cotbuilder.tasks.toml_loader import load_file

REPO = Path(__file__).resolve().parents[2]


class NeverScore:
    """Stands where the Scorer would: a reply that cannot be placed must never reach the build."""

    def score(self, *args, **kwargs):
        raise AssertionError("an unplaceable answer was sent to the verifier")


def test_kernel_impl_tag_is_taken_before_any_other_block():
    reply = "Reasoning...\n```cpp\nint decoy;\n```\n<kernel_impl>\n```cpp\nint kernel;\n```\n</kernel_impl>"
    assert parse_answer(reply) == "int kernel;"


def test_per_file_headers_give_one_file_each():
    reply = (
        "================== op_host/add.cpp ==================\n```cpp\nhost\n```\n\n"
        "### op_kernel/add.cpp\n```cpp\nkernel\n```\n"
    )
    assert parse_answer(reply) == {"op_host/add.cpp": "host\n", "op_kernel/add.cpp": "kernel\n"}


def test_the_largest_cpp_block_is_the_answer_and_python_blocks_are_not_code():
    reply = "```python\nprint('x' * 500)\n```\n```cpp\nshort\n```\n```cpp\nthe longer kernel\n```"
    assert parse_answer(reply) == "the longer kernel\n"


@pytest.mark.parametrize("reply", ["Use Add on each tile.", "```python\nimport numpy\n```", "```cpp\n   \n```"])
def test_prose_or_no_cpp_is_unparseable(reply):
    assert parse_answer(reply) is None


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("==== ../../escape.cpp ====\n```cpp\nint x;\n```", "leaves the answer folder"),
        ("==== op_kernel/cotbuilder_main.cpp ====\n```cpp\nint main(){}\n```", "reserved for cotbuilder's harness"),
        ("Sure.", "no code in the reply"),
    ],
)
def test_a_reply_that_cannot_be_placed_is_unparseable_and_never_built(reply, why):
    task = load_file(REPO / "examples/tasks/add_fp16/task.toml")
    row = verdict_row(Reply(reply), task, NeverScore())
    assert (row["status"], row["parse_ok"], row["code"], row["reward"]) == ("unparseable", False, None, 0.0)
    assert why in row["reason"]


def test_a_teacher_that_gave_no_answer_is_unparseable_with_its_reason():
    task = load_file(REPO / "examples/tasks/add_fp16/task.toml")
    row = verdict_row(Reply("", failure="refused: policy"), task, NeverScore())
    assert (row["status"], row["reason"]) == ("unparseable", "refused: policy")
