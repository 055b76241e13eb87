"""Quality gates: the static teacher's output passes them all; a made-up API, a wrong tile size, a pasted kernel, code
in the task, the wrong language and a too-short answer are each caught by the gate named for it."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from units import ADD_KERNEL, add_unit, leaky_relu_op_unit  # noqa: E402

from cotbuilder.annotate.facts import unit_facts  # noqa: E402
from cotbuilder.annotate.gates import run_gates  # noqa: E402
from cotbuilder.annotate.static_teacher import write_annotation  # noqa: E402


def _static(unit, lang="en"):
    facts = unit_facts(unit)
    return write_annotation(facts, lang), facts


def _gates(answer, unit, facts, lang="en"):
    return run_gates(answer["task"], answer["rationale"], unit, facts, lang)


def _edit_step(answer, step, text):
    answer = copy.deepcopy(answer)
    for s in answer["rationale"]:
        if s["step"] == step:
            s["text"] = text
    return answer


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("make", [add_unit, leaky_relu_op_unit])
def test_static_teacher_output_passes_every_gate(make, lang):
    unit = make()
    answer, facts = _static(unit, lang)
    results, passed = _gates(answer, unit, facts, lang)
    assert passed, {k: v for k, v in results.items() if not v["passed"]}


def test_made_up_api_is_caught():
    unit = add_unit()
    answer, facts = _static(unit)
    bad = _edit_step(
        answer, "api_choice", "The sum uses `AscendC::VecAddFast` on each tile, then `DataCopy` writes it back."
    )
    results, passed = _gates(bad, unit, facts)
    assert not passed
    assert not results["api_names_exist_and_used"]["passed"]
    assert "VecAddFast" in results["api_names_exist_and_used"]["detail"]


def test_real_api_the_kernel_does_not_call_is_caught():
    unit = add_unit()
    answer, facts = _static(unit)
    bad = _edit_step(answer, "api_choice", "The sum is computed with `Mul` and `ReduceSum` over each tile of data.")
    results, _ = _gates(bad, unit, facts)
    detail = results["api_names_exist_and_used"]["detail"]
    assert not results["api_names_exist_and_used"]["passed"] and "ReduceSum" in detail and "Mul" in detail


@pytest.mark.parametrize(
    "claim",
    [
        "The tile length is 256 elements, which fits the buffer.",
        "TILE_LENGTH = 64 keeps every copy aligned and small enough.",
    ],
)
def test_wrong_tile_size_is_caught(claim):
    unit = add_unit()  # tile length 128
    answer, facts = _static(unit)
    bad = _edit_step(answer, "ub_budget_and_tile", claim)
    results, passed = _gates(bad, unit, facts)
    assert not passed and not results["numbers_match_facts"]["passed"]
    assert "the code has 128" in results["numbers_match_facts"]["detail"]


def test_wrong_block_dim_buffer_num_and_ub_bytes_are_caught():
    unit = add_unit()
    answer, facts = _static(unit)
    bad = _edit_step(
        answer,
        "multi_core_split",
        "blockDim = 16 cores each take a slice; BUFFER_NUM is 3; the queues take 4096 bytes of UB.",
    )
    detail = _gates(bad, unit, facts)[0]["numbers_match_facts"]["detail"]
    assert "block_dim = 16" in detail and "buffer_num = 3" in detail and "ub_bytes = 4096" in detail


def test_number_for_a_fact_the_code_does_not_fix_is_caught():
    unit = leaky_relu_op_unit()  # tile length comes from the tiling at run time
    answer, facts = _static(unit)
    bad = _edit_step(answer, "ub_budget_and_tile", "The tile length is 512 elements per loop iteration here.")
    detail = _gates(bad, unit, facts)[0]["numbers_match_facts"]["detail"]
    assert "which the code does not fix" in detail


def test_pasted_kernel_is_caught():
    unit = add_unit()
    answer, facts = _static(unit)
    pasted = "\n".join(ADD_KERNEL.splitlines()[40:52])
    bad = _edit_step(answer, "pipeline", "Compute looks like this:\n" + pasted)
    results, passed = _gates(bad, unit, facts)
    assert not passed and not results["no_code_paste"]["passed"]


def test_pasted_kernel_on_one_line_is_caught_by_the_token_run():
    unit = add_unit()
    answer, facts = _static(unit)
    one_line = " ".join(ADD_KERNEL.split())[1200:1500]
    bad = _edit_step(answer, "pipeline", "The code reads: " + one_line)
    assert not _gates(bad, unit, facts)[0]["no_code_paste"]["passed"]


def test_code_in_the_task_is_caught():
    unit = add_unit()
    answer, facts = _static(unit)
    bad = dict(answer, task=answer["task"] + " Start from: AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);")
    results, _ = _gates(bad, unit, facts)
    assert not results["task_has_no_code"]["passed"]


def test_wrong_language_is_caught_both_ways():
    unit = add_unit()
    en, facts = _static(unit, "en")
    zh, _ = _static(unit, "zh")
    assert not run_gates(en["task"], en["rationale"], unit, facts, "zh")[0]["language_matches"]["passed"]
    assert not run_gates(zh["task"], zh["rationale"], unit, facts, "en")[0]["language_matches"]["passed"]


def test_too_short_an_answer_is_caught():
    unit = add_unit()
    facts = unit_facts(unit)
    results, passed = run_gates(
        "Add two tensors.", [{"step": "pipeline", "title": "p", "text": "copy, add"}], unit, facts, "en"
    )
    assert not passed and not results["length_bounds"]["passed"]
