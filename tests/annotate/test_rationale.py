"""Reasoning that teaches (issue 13, item 2): the static rationale walks the kernel author's decisions with the unit's
own numbers and lines; every number a rationale states must be held by the facts (`numbers_supported`); the task is
the unit's exact statement, copied verbatim, or nothing (`exact_statement`); statements are derived once per unit and
then read from the workspace cache."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
from measure_template_share import sentences  # noqa: E402
from units import GEN_DATA, add_unit, leaky_relu_op_unit  # noqa: E402

from cotbuilder.annotate import statement as statement_mod  # noqa: E402
from cotbuilder.annotate.facts import unit_facts  # noqa: E402
from cotbuilder.annotate.gates import exact_statement, numbers_supported, run_gates  # noqa: E402
from cotbuilder.annotate.statement import from_spec  # noqa: E402
from cotbuilder.annotate.statement_store import statement_key, statements  # noqa: E402
from cotbuilder.annotate.static_teacher import write_annotation  # noqa: E402
from cotbuilder.annotate.task import AnnotateTask  # noqa: E402


def _leaky():
    unit = leaky_relu_op_unit()
    spec = next(f for f in unit["files"] if f["path"] == "verify_spec.toml")
    return unit, unit_facts(unit, statement={"form": from_spec(spec)["statement"]})


def _steps(answer):
    return {s["step"]: s["text"] for s in answer["rationale"]}


def _with_text(answer, step, old, new):
    answer = copy.deepcopy(answer)
    for s in answer["rationale"]:
        if s["step"] == step:
            assert old in s["text"]
            s["text"] = s["text"].replace(old, new)
    return answer


def test_add_kernel_rationale_shows_the_split_ub_budget_and_repeat_arithmetic():
    unit = add_unit()
    facts = unit_facts(unit)
    steps = _steps(write_annotation(facts))
    assert "the 16384 elements split into 8 × 2048 = 16384" in steps["multi_core_split"]
    assert "`inQueueX` (VECIN, 2 × 256 bytes, line 18)" in steps["ub_budget_and_tile"]
    # the SoC of the unit's CMake (Ascend310P3) -> its UB size from cotbuilder/verify/data/socs.toml
    assert "1536 bytes, 0.6% of the 262144-byte UB of one ascend310p core" in steps["ub_budget_and_tile"]
    assert "a tile could grow to 21840 elements" in steps["ub_budget_and_tile"]
    assert "Process() loops (line 25) over 16 tiles of 128 elements per core" in steps["pipeline"]
    assert "128 float16 elements fill a 256-byte repeat, so 1 repeat, within the limit of 255" in steps["api_choice"]
    assert "2048 = 16 × 128 divides exactly, so there is no tail branch" in steps["tail_and_alignment"]
    results, passed = run_gates("", write_annotation(facts)["rationale"], unit, facts, "en")
    assert passed, {k: v for k, v in results.items() if not v["passed"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_exact_statement_is_the_task_and_every_gate_passes(lang):
    unit, facts = _leaky()
    answer = write_annotation(facts, lang)
    # the task is the statement in the annotation's language (a Chinese row does not ask in English)
    assert answer["task"] == facts["statement"]["prose_zh" if lang == "zh" else "prose"]
    assert ("形状 [8, 1024]" if lang == "zh" else "shape [8, 1024]") in answer["task"]
    assert "atol = 0.0001" in answer["task"]
    results, passed = run_gates(answer["task"], answer["rationale"], unit, facts, lang)
    assert passed, {k: v for k, v in results.items() if not v["passed"]}
    assert results["exact_statement"]["detail"] == "exact statement from verify_spec.toml"


def test_unit_without_a_statement_gets_no_task_and_fails_only_that_gate():
    unit = leaky_relu_op_unit()
    facts = unit_facts(unit, statement={"reason": "generator: the golden is computed in a loop"})
    answer = write_annotation(facts)
    assert answer["task"] == ""
    results, passed = run_gates(answer["task"], answer["rationale"], unit, facts, "en")
    assert not passed
    assert [k for k, v in results.items() if not v["passed"]] == ["exact_statement"]
    assert results["exact_statement"]["detail"] == "no exact statement: generator: the golden is computed in a loop"


def test_a_task_that_is_not_the_statement_word_for_word_fails():
    unit, facts = _leaky()
    answer = write_annotation(facts)
    result = exact_statement(answer["task"] + " Use 8 cores.", answer["rationale"], unit, facts, "en")
    assert not result["passed"] and "verbatim" in result["detail"]


def test_a_number_the_facts_do_not_hold_fails_numbers_supported():
    unit = add_unit()
    facts = unit_facts(unit)
    answer = write_annotation(facts)
    assert numbers_supported("", answer["rationale"], unit, facts, "en")["passed"]
    wrong_share = _with_text(answer, "multi_core_split", "own slice of 2048 elements", "own slice of 3000 elements")
    result = numbers_supported("", wrong_share["rationale"], unit, facts, "en")
    assert not result["passed"] and "3000" in result["detail"]
    wrong_repeats = _with_text(answer, "api_choice", "so 1 repeat,", "so 77 repeats,")
    result = numbers_supported("", wrong_repeats["rationale"], unit, facts, "en")
    assert not result["passed"] and "77" in result["detail"]
    wrong_line = _with_text(answer, "pipeline", "(line 25)", "(line 912)")
    result = numbers_supported("", wrong_line["rationale"], unit, facts, "en")
    assert not result["passed"] and "line 912" in result["detail"]


def test_two_different_kernels_share_no_rationale_sentence():
    """The variation comes from the content: the add kernel and the leaky-relu op project differ in sizes, queues,
    lines and calls, so not one sentence of their rationales is the same."""
    texts = []
    for _unit, facts in ((add_unit(), unit_facts(add_unit())), _leaky()):
        texts.append({s for step in write_annotation(facts)["rationale"] for s in sentences(step["text"])})
    assert texts[0] and texts[1]
    assert texts[0] & texts[1] == set()


def test_llm_prompt_carries_the_statement_and_the_decision_numbers():
    unit, facts = _leaky()
    user = AnnotateTask("en").format_input(unit, facts)[1]["content"]
    assert facts["statement"]["prose"].splitlines()[0] in user
    assert '"decisions"' in user and '"max_repeat": 255' in user
    system = AnnotateTask("en").format_input(unit, facts)[0]["content"]
    assert "copy `statement.prose`" in system and "Every number you write must be one the facts hold" in system


def test_statement_is_derived_once_per_unit_then_read_from_the_cache(tmp_path, monkeypatch):
    """Runs the unit's generator and the reference in the real sandbox once; the second call must not derive."""
    unit = add_unit()
    gen = next(f for f in unit["files"] if f["role"] == "generator")
    gen["text"] = GEN_DATA + "\n\nif __name__ == '__main__':\n    gen_golden_data(1)\n"
    first = statements([(unit, None)], tmp_path / "cache", tmp_path)[unit["unit_id"]]
    assert first["form"]["inputs"][0]["shape"] == [8, 2048], first

    def no_derive(*a, **k):
        raise AssertionError("derived again although the cache holds the statement")

    monkeypatch.setattr(statement_mod, "derive", no_derive)
    assert statements([(unit, None)], tmp_path / "cache", tmp_path)[unit["unit_id"]] == first
    changed = copy.deepcopy(unit)
    next(f for f in changed["files"] if f["role"] == "generator")["text"] += "\n# edited\n"
    assert statement_key(changed, None) != statement_key(unit, None)
