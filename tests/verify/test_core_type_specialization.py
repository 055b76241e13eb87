"""A kernel that specialises a member template per core type inside its class (Catlass style: the primary's
argument defaults to g_coreType, `<AscendC::AIC>` / `<AscendC::AIV>` specialisations) is `unsupported`, naming
what a build needs (separate AIC and AIV builds, CWG 727) - also when g++ buries that first error under 20 kB of
follow-ups. The logs are real g++ runs against the emulator's headers, on code written here."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cotbuilder.paths import emulator_include_dirs
from cotbuilder.verify import diagnostics
from cotbuilder.verify.opproject import build as opbuild
from cotbuilder.verify.opproject.run import failed_build

_PER_CORE_KERNEL = """#include "kernel_operator.h"
struct Tile {
    template <int32_t CORE = g_coreType> void operator()(int n);
    template <> void operator()<AscendC::AIC>(int n) { (void)n; }
    template <> void operator()<AscendC::AIV>(int n) { (void)n; }
};
"""


def _gxx_log(tmp_path: Path, text: str) -> str:
    src = tmp_path / "k.cpp"
    src.write_text(text, encoding="utf-8")
    inc = [f"-I{d}" for d in emulator_include_dirs()]
    cmd = ["g++", "-std=c++17", "-fsyntax-only", "-DASCENDC_CPU_DEBUG", "-DCOTBUILDER_EMU_PREBUILT", *inc, str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    return done.stderr


def test_a_per_core_type_member_specialisation_names_the_separate_aic_and_aiv_builds(tmp_path):
    log = _gxx_log(tmp_path, _PER_CORE_KERNEL + "int main() { Tile()(1); }\n")
    kind, names = diagnostics.unsupported_gap(log)
    assert kind == "emulator gap", log
    assert names[0].startswith("member template specialised per core type") and "AIC and AIV builds" in names[0]


def test_a_member_specialisation_on_the_kernels_own_type_keeps_the_plain_cwg_727_name(tmp_path):
    own = (
        "struct K {\n    template <class T> void Run(T) {}\n    template <> void Run<int>(int) {}\n};\nint main() {}\n"
    )
    kind, names = diagnostics.unsupported_gap(_gxx_log(tmp_path, own))
    assert kind == "emulator gap" and names[0].startswith("explicit specialization in class scope"), names


def test_the_first_error_decides_the_status_when_the_log_is_longer_than_what_is_kept(tmp_path):
    # 400 later errors of the kernel's own (undeclared names) push the first one out of a tail-only cut
    tail = "".join(f"int helper_{i}() {{ return undeclared_value_{i} + Tile(); }}\n" for i in range(400))
    log = _gxx_log(tmp_path, _PER_CORE_KERNEL + tail)
    assert len(log) > 2 * opbuild.LOG_KEEP
    assert "in declaration of primary template" not in log[-opbuild.LOG_KEEP :]  # what the old cut kept

    builder = opbuild.Builder({"files": []}, tmp_path, None, opbuild.ObjectCache(tmp_path), "ascend910b", "-O1", None)
    result = builder._fail("kernel", log)
    assert len(result.log) < opbuild.LOG_KEEP + 100
    assert "characters of the log cut" in result.log and result.log.endswith(log[-1000:])
    verdict = failed_build(result, "benchmark", {})
    assert verdict.status == "unsupported", verdict.reason
    assert "member template specialised per core type" in verdict.reason


def test_a_short_log_is_kept_whole_and_a_kernels_own_error_stays_failed_compile(tmp_path):
    log = _gxx_log(tmp_path, "int main() { return undeclared_value; }\n")
    assert opbuild.kept_log(log) == log
    result = opbuild.OpBuild(False, stage="kernel", log=opbuild.kept_log(log), outcome="exit", reason="")
    assert failed_build(result, "benchmark", {}).status == "failed_compile"
