"""The mutation finders on a kernel written here: each kind finds its site on the parse and changes only it."""

from __future__ import annotations

import pytest

from cotbuilder.mutate import make_mutants, mutant_unit, mutation_kinds
from cotbuilder.mutate.repair import feedback_text, rationale, really_fails

# A small two-input kernel in the usual CopyIn/Compute/CopyOut shape, with a widening and a narrowing Cast and a
# SetFlag/WaitFlag pair: every mutation kind has a site in it.
KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 256;

class ScaledAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t tile)
    {
        uint32_t perCore = total / GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ half *)x + perCore * GetBlockIdx(), perCore);
        yGm.SetGlobalBuffer((__gm__ half *)y + perCore * GetBlockIdx(), perCore);
        tileLength = tile;
        tileNum = (perCore + tile - 1) / tile;
        pipe.InitBuffer(inQ, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(outQ, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(work, TILE * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }
private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        LocalTensor<half> xLocal = inQ.AllocTensor<half>();
        DataCopy(xLocal, xGm[i * tileLength], tileLength);
        inQ.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQ.DeQue<half>();
        LocalTensor<half> yLocal = outQ.AllocTensor<half>();
        LocalTensor<float> acc = work.Get<float>();
        Cast(acc, xLocal, RoundMode::CAST_NONE, tileLength);
        Muls(acc, acc, 2.0f, tileLength);
        Cast(yLocal, acc, RoundMode::CAST_RINT, tileLength);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        outQ.EnQue(yLocal);
        inQ.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        LocalTensor<half> yLocal = outQ.DeQue<half>();
        DataCopy(yGm[i * tileLength], yLocal, tileLength);
        outQ.FreeTensor(yLocal);
    }
    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> work;
    GlobalTensor<half> xGm, yGm;
    uint32_t tileLength, tileNum;
};

extern "C" __global__ __aicore__ void scaled_add(GM_ADDR x, GM_ADDR y)
{
    ScaledAdd op;
    op.Init(x, y, 4096, 256);
    op.Process();
}
"""


def _unit(text: str = KERNEL) -> dict:
    return {
        "unit_id": "a" * 64,
        "name": "scaled_add",
        "files": [
            {"path": "scaled_add.cpp", "role": "kernel", "text": text, "file_id": "f"},
            {"path": "main.cpp", "role": "host_main", "text": "int main() { return 0; }\n", "file_id": "g"},
        ],
        "entry": [{"name": "scaled_add"}],
        "kernel_code": text,
    }


def _by_kind() -> dict:
    return {m.kind: m for m in make_mutants(_unit())}


def test_every_mutation_kind_finds_its_site_in_a_kernel_that_has_one() -> None:
    assert sorted(_by_kind()) == sorted(mutation_kinds())


@pytest.mark.parametrize(
    ("kind", "before", "after"),
    [
        ("gm_offset", "(__gm__ half *)x + perCore * GetBlockIdx()", "xGm.SetGlobalBuffer((__gm__ half *)x, perCore);"),
        ("dropped_tail", "tileNum = (perCore + tile - 1) / tile;", "tileNum = (perCore) / tile;"),
        ("tile_count_off_by_one", "i < tileNum", "for (uint32_t i = 0; i <= tileNum; i++) {"),
        ("misaligned_datacopy", "DataCopy(xLocal", "DataCopy(xLocal, xGm[i * tileLength], (tileLength) - 1);"),
        ("missing_free_tensor", "inQ.FreeTensor(xLocal);", ""),
        ("missing_enque", "inQ.EnQue(xLocal);", ""),
        ("cast_round_mode", "CAST_RINT", "Cast(yLocal, acc, RoundMode::CAST_TRUNC, tileLength);"),
        ("missing_sync", "WaitFlag<HardEvent::V_S>(0);", ""),
    ],
)
def test_a_mutation_changes_only_its_site(kind: str, before: str, after: str) -> None:
    m = _by_kind()[kind]
    assert before in m.before and m.after == after
    old, new = KERNEL.splitlines(), m.text.splitlines()
    changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    assert changed == [m.line - 1]  # one line, the reported one (deleted statements leave their line blank)


def test_ub_over_budget_raises_buffer_num_past_every_modelled_ub() -> None:
    m = _by_kind()["ub_over_budget"]
    depth = int(m.after.rsplit("=", 1)[1].strip(" ;"))
    queues, work = 2 * 256 * 2, 256 * 4  # two half queues of TILE per unit of depth; the float TBuf does not scale
    assert work + depth * queues > 262144 >= work + (depth - 1) * queues  # just past the largest modelled UB


def test_ub_over_budget_needs_constant_buffer_sizes() -> None:
    runtime = KERNEL.replace("TILE * sizeof(half)", "tile * sizeof(half)")
    assert "ub_over_budget" not in {m.kind for m in make_mutants(_unit(runtime))}


def test_half_accumulation_moves_the_work_tensor_to_half_and_the_casts_to_copies() -> None:
    text = _by_kind()["half_accumulation"].text
    assert "LocalTensor<float>" not in text and "Get<float>" not in text
    assert "Cast(" not in text and "DataCopy(acc, xLocal, tileLength)" in text


def test_a_kind_without_a_site_makes_no_mutant() -> None:
    single_core = KERNEL.replace(" + perCore * GetBlockIdx()", "").replace("GetBlockNum()", "1")
    kinds = {m.kind for m in make_mutants(_unit(single_core))}
    assert "gm_offset" not in kinds and "missing_sync" in kinds


def test_a_kernel_that_does_not_parse_gives_no_mutants() -> None:
    assert make_mutants(_unit(KERNEL.replace("class ScaledAdd {", "class ScaledAdd {{{ ((("))) == []


def test_unknown_kind_is_refused_with_the_known_ones_named() -> None:
    with pytest.raises(ValueError, match="unknown mutation kind.*gm_offset"):
        make_mutants(_unit(), ["no_such_bug"])


def test_mutant_unit_replaces_only_the_kernel_file_and_gets_its_own_id() -> None:
    unit = _unit()
    m = _by_kind()["missing_enque"]
    mu = mutant_unit(unit, m)
    assert mu["unit_id"] != unit["unit_id"] and mu["parent_unit_id"] == unit["unit_id"]
    assert mu["kernel_code"] == m.text and mu["files"][1] == unit["files"][1]
    assert unit["kernel_code"] == KERNEL  # the verified unit is left as it was
    assert mutant_unit(unit, m)["unit_id"] == mu["unit_id"]  # the same mutant is the same id


def test_only_the_failing_statuses_make_repair_samples() -> None:
    assert [s for s in ("passed", "wrong_answer", "failed_run", "failed_compile", "timeout", "unsupported",
                        "unchecked", "sandbox_violation") if really_fails({"status": s})] == [
        "wrong_answer", "failed_run", "failed_compile", "timeout"]  # fmt: skip


def test_the_repair_rationale_quotes_the_feedback_and_the_fixed_line() -> None:
    m = _by_kind()["missing_free_tensor"].as_dict()
    verdict = {
        "status": "failed_run",
        "reason": "queue inQ: AllocTensor with no free buffer",
        "diagnostics": [{"kind": "queue_misuse", "message": "AllocTensor on a full queue", "file": None, "line": None}],
    }
    steps = rationale(m, verdict)
    text = "\n".join(s["text"] for s in steps)
    assert "`failed_run`" in text and "AllocTensor with no free buffer" in text and "queue_misuse" in text
    assert f"line {m['line']}" in text and "inQ.FreeTensor(xLocal);" in text
    assert "queue_misuse" in feedback_text(verdict)


def test_the_feedback_names_the_kernel_file_as_the_sample_shows_it_not_as_the_harness_built_it() -> None:
    verdict = {
        "status": "failed_run",
        "reason": "emulator sync: SetFlag(0) is never consumed (op_kernel/cotbuilder_kernel_scaled_add.cpp:54)",
        "diagnostics": [
            {"kind": "sync", "message": "unpaired", "file": "op_kernel/cotbuilder_kernel_scaled_add.cpp", "line": 54}
        ],
    }
    text = feedback_text(verdict) + "".join(s["text"] for s in rationale(_by_kind()["missing_sync"].as_dict(), verdict))
    assert "cotbuilder_kernel_" not in text and "op_kernel/scaled_add.cpp:54" in text


def test_changed_site_names_the_one_file_a_fix_changed_and_refuses_a_multi_file_fix():
    from cotbuilder.mutate.repair import changed_site

    fixed = {"k.cpp": "a\nAdd(z, x, y);\nb\n", "h.h": "int n;\n"}
    site = changed_site({**fixed, "k.cpp": "a\nSub(z, x, y);\nb\n"}, fixed)
    assert site == {"path": "k.cpp", "line": 2, "before": "Add(z, x, y);", "after": "Sub(z, x, y);",
                    "broken_code": "a\nSub(z, x, y);\nb\n", "changed_lines": 1}  # fmt: skip
    missing = changed_site({**fixed, "k.cpp": "a\nb\n"}, fixed)
    assert (missing["line"], missing["before"], missing["after"]) == (2, "Add(z, x, y);", "")
    assert changed_site({"k.cpp": "x\n", "h.h": "long n;\n"}, fixed) is None  # two files changed
    assert changed_site(fixed, fixed) is None
