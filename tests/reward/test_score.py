"""reward.score on real builds: the shaping of each outcome, the score cache, hostile answers, task-side failures."""

from __future__ import annotations

import dataclasses
import threading

from cotbuilder.reward import Scorer, reward_for
from cotbuilder.reward.shaping import table
from cotbuilder.verify.verdict import STATUSES

from .conftest import COMPILE_ERROR, HOSTILE, RIGHT, UNSUPPORTED, WRONG, cache_root


def test_every_status_of_the_verdict_vocabulary_has_a_shaping():
    rewards, none = table()
    assert set(STATUSES) | {"unparseable", "error"} == set(rewards) | none
    assert not set(rewards) & none


def test_right_answer_scores_one_and_a_repeat_is_read_from_the_cache(scorer, add_task):
    first = scorer.score(RIGHT, add_task)
    assert (first.status, first.reward, first.compiled, first.correct) == ("passed", 1.0, True, True)
    assert first.speed is None and not first.cached
    assert first.cases and all(c["ok"] is True and c["check"] == "golden" for c in first.cases)
    again = scorer.score(RIGHT, add_task)
    assert again.cached and (again.status, again.reward, again.cases) == (first.status, first.reward, first.cases)
    # the same answer to another task (another reference) is not the cached score
    other = dataclasses.replace(add_task, reference={"kind": "numpy", "code": "x - y"}, task_id="")
    assert not scorer.score(RIGHT, other).cached


def test_a_completion_with_a_fenced_block_is_scored_as_its_code(scorer, add_task):
    completion = f"The kernel tiles the data over 8 cores.\n```cpp\n{RIGHT}```\nDone."
    assert scorer.score(completion, add_task).reward == 1.0


def test_compile_error_scores_zero_and_names_the_error(scorer, add_task):
    s = scorer.score(COMPILE_ERROR, add_task)
    assert (s.status, s.reward, s.compiled, s.correct) == ("failed_compile", 0.0, False, None)
    assert "Addd" in s.errors[0] and "Addd" in s.compile_log


def test_wrong_answer_scores_point_one_with_per_case_errors(scorer, add_task):
    s = scorer.score(WRONG, add_task)
    assert (s.status, s.reward, s.compiled, s.correct) == ("wrong_answer", 0.1, True, False)
    assert s.errors[0].startswith("default seed 0: output/z.bin:") and "elements off" in s.errors[0]
    assert s.cases[0]["outputs"][0]["mismatches"] > 0


def test_an_api_the_emulator_lacks_gets_no_reward(scorer, add_task):
    s = scorer.score(UNSUPPORTED, add_task)
    assert (s.status, s.reward) == ("unsupported", None)
    assert any("MmadWithSparse" in api for api in s.missing_apis)


def test_unparseable_answers_score_zero_without_building(scorer, add_task):
    for code in ("", "I cannot write this kernel.\n```python\nprint(1)\n```", {"../x.cpp": RIGHT}):
        s = scorer.score(code, add_task)
        assert (s.status, s.reward, s.compiled) == ("unparseable", 0.0, None), code


def test_hostile_answer_is_not_rewarded_and_a_sibling_scored_beside_it_still_passes(
    tmp_path, shared_build_cache, add_task
):
    """The hostile kernel prints a pass, looks for the reference's golden and forges z.bin into every directory it
    can reach, while a right answer is scored at the same time by the same scorer (fresh score cache: both run)."""
    scorer = Scorer(cache_root(tmp_path, shared_build_cache))
    results = {}

    def run(name, code):
        results[name] = scorer.score(code, add_task)

    threads = [threading.Thread(target=run, args=a) for a in (("hostile", HOSTILE), ("sibling", RIGHT))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    hostile, sibling = results["hostile"], results["sibling"]
    assert (sibling.status, sibling.reward) == ("passed", 1.0)
    assert hostile.status != "passed" and hostile.reward is not None and hostile.reward < 1.0
    # it computed nothing: judged by what it wrote into GM, which is no better than a wrong answer
    assert hostile.reward <= reward_for("wrong_answer") and hostile.correct is not True


def test_a_reference_that_fails_is_the_tasks_fault_and_gets_no_reward(scorer, add_task):
    broken = dataclasses.replace(add_task, reference={"kind": "numpy", "code": "x + undefined_name"}, task_id="")
    s = scorer.score(RIGHT, broken)
    assert s.task_error and s.reward is None
    assert s.status == "failed_run" and s.reason.startswith("reference")


def test_a_kernel_only_answer_runs_the_given_host_for_each_case(scorer):
    """swish_custom gives op_host/ (OpDef + TilingFunc); the answer is op_kernel/ only. Both cases (two shapes, two
    values of beta) pass with the demo's kernel; the TilingFunc's record shows it ran per case."""
    from cotbuilder.tasks.toml_loader import load_file

    from .conftest import REPO

    task = load_file(REPO / "examples" / "tasks" / "swish_custom" / "task.toml")
    task = dataclasses.replace(task, cases=[{**c, "seeds": [0]} for c in task.cases], task_id="")
    s = scorer.score(task.answer()["op_kernel/swish_custom.cpp"], task)
    assert (s.status, s.reward) == ("passed", 1.0), s.reason
    assert [c["case"] for c in s.cases] == ["rows_7x7143_beta1.5", "flat_4096_beta0.5"]
