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


# -- data types of templated kernels: read from their instantiations ------------------------------------------------

TEMPLATED_ENTRY = """#include "kernel_operator.h"
template <typename T, typename M, uint32_t LEN, uint32_t MASK_LEN>
__global__ __vector__ void pick_custom(__gm__ uint8_t* a, __gm__ uint8_t* m, __gm__ uint8_t* out)
{
    AscendC::GlobalTensor<T> aGm;
    AscendC::GlobalTensor<M> maskGm;
    AscendC::GlobalTensor<T> outGm;
    aGm.SetGlobalBuffer((__gm__ T*)a);
    maskGm.SetGlobalBuffer((__gm__ M*)m);
    outGm.SetGlobalBuffer((__gm__ T*)out);
}
"""
TEMPLATED_HOST = """int32_t main() {
    uint8_t *a, *m, *out;
    pick_custom<half, uint8_t, 512, 64><<<8, nullptr, stream>>>(a, m, out);
    return 0;
}
"""

MEMBER_ALIAS = """#include "kernel_operator.h"
template <typename ELEM, int32_t EXTENT> struct Desc { using T = ELEM; };
template <class X_TYPE, class Y_TYPE, uint32_t MODE> class KernelMaxRows {
    using XT = typename X_TYPE::T;
    using YT = typename Y_TYPE::T;
public:
    AscendC::GlobalTensor<XT> xGm;
    AscendC::GlobalTensor<YT> yGm;
};
extern "C" __global__ __vector__ void max_rows(GM_ADDR x, GM_ADDR y) {
    typedef Desc<bfloat16_t, 2048> xDesc;
    typedef Desc<float, 32> yDesc;
    KernelMaxRows<xDesc, yDesc, 1> op;
}
"""

CONDITIONAL = """#include "kernel_operator.h"
template <uint32_t N, bool WIDE>
__global__ __vector__ void sum_rows(__gm__ uint8_t* x, __gm__ uint8_t* z) {
    using T = typename AscendC::Conditional<WIDE, float, half>::type;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> zGm;
}
"""

MACRO_AND_MATMUL_TYPE = """#include "kernel_operator.h"
#define DTYPE_X int16_t
typedef AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false> A_TYPE;
template <class A_TYPE> class KernelMm {
    using aType = typename A_TYPE::T;
public:
    AscendC::GlobalTensor<aType> aGlobal;
    AscendC::GlobalTensor<DTYPE_X> xGm;
};
extern "C" __global__ __aicore__ void mm_custom(GM_ADDR a, GM_ADDR x) { KernelMm<A_TYPE> op; }
"""

CYCLE = """#include "kernel_operator.h"
template <typename T> class Inner { public: AscendC::GlobalTensor<T> xGm; };
template <typename T> class Outer { Inner<T> inner; Outer<T>* self; };
extern "C" __global__ __aicore__ void k(GM_ADDR x) { Outer<int32_t> op; }
"""


def test_a_templated_entry_gets_its_types_by_position_from_the_host_launch():
    assert claims(TEMPLATED_ENTRY)["gm_dtypes"] == []  # nothing in the kernel text fixes T or M
    # T <- half, M <- uint8_t (the mask's element type); 512 and 64 are sizes, GM_ADDR's uint8_t* is no data type
    assert claims(TEMPLATED_ENTRY, TEMPLATED_HOST)["gm_dtypes"] == ["float16", "uint8"]
    other_host = TEMPLATED_HOST.replace("<half, uint8_t, 512, 64>", "<float, int32_t, 512, 64>")
    assert claims(TEMPLATED_ENTRY, other_host)["gm_dtypes"] == ["float32", "int32"]


def test_a_member_type_of_an_instantiated_descriptor_template_is_followed_through_typedefs():
    # X_TYPE = xDesc = Desc<bfloat16_t, 2048>, whose T is its first argument; Y_TYPE's is float
    assert claims(MEMBER_ALIAS)["gm_dtypes"] == ["bfloat16", "float32"]


def test_a_conditional_type_counts_both_branches():
    assert claims(CONDITIONAL)["gm_dtypes"] == ["float16", "float32"]


def test_a_dtype_macro_and_the_element_type_of_a_matmul_type_are_data_types():
    assert claims(MACRO_AND_MATMUL_TYPE)["gm_dtypes"] == ["float16", "int16"]


def test_a_template_instantiated_with_its_own_parameter_resolves_without_looping():
    assert claims(CYCLE)["gm_dtypes"] == ["int32"]


def test_unit_facts_read_the_template_arguments_of_the_host_launch():
    from cotbuilder.annotate.facts import unit_facts

    unit = {"name": "pick", "kernel_code": TEMPLATED_ENTRY, "host_code": TEMPLATED_HOST, "files": [], "features": {}}
    assert unit_facts(unit)["dtypes"] == ["float16", "uint8"]
