"""Structural claims are read from code, never from comments or licence text, and the gate rejects a false one.

The kernels here are written for these tests (small, but shaped like real AscendC kernels)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from cotbuilder.annotate.code_facts import claims
from cotbuilder.annotate.gates import claims_match_code

LICENCE_AND_COMMENTS = """/**
 * Copyright (c) 2025. Licensed under the License; see the License for details about tail handling.
 */
// the tail is handled by the host (a comment, not code)
#include "kernel_operator.h"
class KernelCopy {
public:
    __aicore__ inline void Init(__gm__ uint8_t* x, __gm__ uint8_t* y) {
        xGm.SetGlobalBuffer((__gm__ half*)x, 256);
        yGm.SetGlobalBuffer((__gm__ half*)y, 256);
    }
    __aicore__ inline void Process() { CopyIn(); Compute(); CopyOut(); }
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
};
extern "C" __global__ __aicore__ void copy_custom(GM_ADDR x, GM_ADDR y) { KernelCopy op; op.Init(x, y); op.Process(); }
"""

TILED_MULTICORE = """#include "kernel_operator.h"
template <typename T> class KernelAdd {
public:
    __aicore__ inline void Init(__gm__ uint8_t* x, __gm__ uint8_t* z, uint32_t len, uint32_t tile) {
        uint32_t offset = len * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, len);
        zGm.SetGlobalBuffer((__gm__ T*)z + offset, len);
        tileNum = len / tile;
        tailLength = len % tile;
    }
    __aicore__ inline void Process() {
        for (uint32_t i = 0; i < tileNum; i++) { CopyIn(i, tile); Compute(tile); CopyOut(i, tile); }
        if (tailLength > 0) { CopyIn(tileNum, tailLength); Compute(tailLength); CopyOut(tileNum, tailLength); }
    }
    AscendC::GlobalTensor<T> xGm, zGm;
    AscendC::GlobalTensor<int32_t> syncGm;
};
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR z, uint32_t len) {
    KernelAdd<float> op; op.Init(x, z, len, 64); op.Process();
}
int32_t main() { if (remainLength % 2) { printf("host side"); } return 0; }
"""


def test_licence_header_and_comments_never_make_a_tail_claim():
    c = claims(LICENCE_AND_COMMENTS)
    assert c["tail_branch"] is None
    assert c["process_loop"] is None and c["core_slice"] is None and c["reads_block_idx"] is None


def test_gm_address_parameters_are_not_a_data_type():
    assert claims(LICENCE_AND_COMMENTS)["gm_dtypes"] == ["float16"]


def test_tail_loop_and_core_slice_are_found_with_their_lines():
    c = claims(TILED_MULTICORE)
    assert c["tail_branch"]["code"].startswith("if (tailLength > 0)")
    assert c["process_loop"]["code"].startswith("for (uint32_t i = 0; i < tileNum")
    assert c["core_slice"]["code"].startswith("xGm.SetGlobalBuffer") and c["core_slice"]["line"] == 6
    # a template parameter resolves through its instantiation; a sync tensor is bookkeeping, not operator data
    assert c["gm_dtypes"] == ["float32"]


def test_a_block_index_read_without_an_offset_is_not_a_per_core_slice():
    code = TILED_MULTICORE.replace(
        "uint32_t offset = len * AscendC::GetBlockIdx();", "uint32_t me = AscendC::GetBlockIdx();"
    )
    code = code.replace(" + offset", "")
    c = claims(code)
    assert c["reads_block_idx"] is not None and c["core_slice"] is None


def _gate(text: str, code: str) -> dict:
    facts = {"claims": {k: v for k, v in claims(code).items() if k != "gm_dtypes"}, "dtypes": claims(code)["gm_dtypes"]}
    return claims_match_code("", [{"step": "s", "title": "t", "text": text}], {}, facts, "en")


def test_gate_rejects_each_false_claim_class_and_passes_true_ones():
    false_claims = [
        "The kernel handles a tail explicitly: the branch at line 3 treats the remainder.",
        "Process() loops (line 2) and calls the three stages in order on each pass.",
        "The host launches 8 cores, and each core handles its own contiguous slice of the data.",
        "It works on uint8_t data.",
    ]
    for text in false_claims:
        assert _gate(text, LICENCE_AND_COMMENTS)["passed"] is False, text
    assert (
        _gate("The kernel does not read its core index, so it does not divide the data.", TILED_MULTICORE)["passed"]
        is False
    )
    true_text = " ".join(false_claims[:3])
    result = _gate(true_text, TILED_MULTICORE)
    assert result["passed"] is True and "tail_present" in result["detail"]


def test_hand_label_file_keeps_only_provenance_and_labels():
    data = tomllib.loads((Path(__file__).parents[1] / "data" / "claims_labels_asc_devkit.toml").read_text())
    allowed = {"repo", "commit", "path", "category", "dtypes", "tail", "process_loop", "core_slice", "reads_block_idx"}
    assert len(data["unit"]) == 50
    for unit in data["unit"]:
        assert set(unit) <= allowed and len(unit["commit"]) == 40
