"""A compiler run that the sandbox's memory cap stops says nothing about the code: the verdict is `unsupported`,
naming the limit, never `failed_compile` (a label a model would learn as "this code is wrong"). Real g++ in the real
sandbox; only the cap is lowered, so that a translation unit of ~100 MB (a large constant table) reaches it quickly,
while an ordinary one still builds under the same cap."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from cotbuilder.verify import build as buildmod
from cotbuilder.verify import steps
from cotbuilder.verify.opproject import build as opbuild
from cotbuilder.verify.opproject import run as oprun

# 2 x 8^6 initialisers: g++ needs ~100 MB for them
TABLE = "\n".join(
    [
        "#define A0 1,2,3,4,5,6,7,8",
        *(f"#define A{i} " + ",".join([f"A{i - 1}"] * 8) for i in range(1, 6)),
        "const int table[] = {A5, A5};",
        "int main() { return table[3]; }",
    ]
)
SMALL = "int main() { return 0; }\n"
CAP_MB = 80


def compile_under_cap(tmp_path: Path, monkeypatch, text: str) -> buildmod.BuildResult:
    monkeypatch.setattr(buildmod, "COMPILE_LIMITS", dataclasses.replace(buildmod.COMPILE_LIMITS, memory_mb=CAP_MB))
    work = tmp_path / "unit"
    work.mkdir(exist_ok=True)
    (work / "main.cpp").write_text(text, encoding="utf-8")
    soc = steps.Context(cache_dir=tmp_path / "cache").soc
    return buildmod.build(work, ["main.cpp"], [], soc, tmp_path / "cache", text, None, use_cache=False)


def test_a_compile_stopped_by_the_sandbox_memory_cap_is_unsupported_naming_it_not_failed_compile(tmp_path, monkeypatch):
    result = compile_under_cap(tmp_path, monkeypatch, TABLE)
    assert not result.ok and result.outcome == "limit", (result.outcome, result.log[-500:])
    verdict = steps.compile_failure(result, {}, "own")
    assert verdict.status == "unsupported"
    assert "memory limit" in verdict.reason and "sandbox" in verdict.reason


def test_the_same_cap_builds_an_ordinary_unit_and_a_real_syntax_error_is_still_failed_compile(tmp_path, monkeypatch):
    assert compile_under_cap(tmp_path, monkeypatch, SMALL).ok
    broken = compile_under_cap(tmp_path, monkeypatch, "int main() { return 0 }\n")
    assert broken.outcome == "exit"
    assert steps.compile_failure(broken, {}, "own").status == "failed_compile"


def test_an_op_project_object_the_cap_stops_is_unsupported_naming_the_stage_and_the_limit():
    stopped = opbuild.OpBuild(False, stage="kernel", outcome="limit", reason="memory limit (80 MB)")
    verdict = oprun.failed_build(stopped, "aclnn", {})
    assert verdict.status == "unsupported"
    assert verdict.reason.startswith("kernel:") and "memory limit" in verdict.reason
