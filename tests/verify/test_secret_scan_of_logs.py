"""Logs are the unit's own output: a credential in them is redacted before it is stored or sent to a teacher."""

from __future__ import annotations

from cotbuilder.annotate.task import RepairTask
from cotbuilder.verify.verdict import Verdict

TOKEN = "hf_" + "Ab3d" * 8 + "xy"


def test_a_token_in_logs_checker_output_and_reason_is_redacted_before_it_is_stored():
    verdict = Verdict(
        "wrong_answer",
        reason=f"seed 0: checker said {TOKEN}",
        compile_log=f"warning: HF_TOKEN={TOKEN}",
        run_log=f"export HF_TOKEN={TOKEN}\nrun ok",
        cases=[{"seed": 0, "ok": False, "checker_output": TOKEN, "evidence": {"said": f"token {TOKEN}"}}],
    )
    columns = verdict.as_columns()
    assert TOKEN not in repr(columns)
    assert "<REDACTED:Hugging_Face_Token>" in columns["run_log"] and "run ok" in columns["run_log"]
    assert columns["cases"][0]["evidence"]["said"] == "token <REDACTED:Hugging_Face_Token>"


def test_the_repair_prompt_never_carries_a_token_from_an_old_unscanned_verification():
    verification = {
        "status": "failed_run",
        "run_log": f"HF_TOKEN={TOKEN}",
        "compile_log": "",
        "diagnostics": [{"kind": "k", "message": f"key {TOKEN}"}],
    }
    messages = RepairTask().format_input({"name": "x"}, {}, verification=verification)
    text = "\n".join(m["content"] for m in messages)
    assert TOKEN not in text and text.count("<REDACTED:Hugging_Face_Token>") == 2
