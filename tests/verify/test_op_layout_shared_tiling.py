"""An op whose tiling struct lives in a header shared by a family (cann-ops' foreach ops: `_deps/.../foreach_tiling_
def.h`, one struct registered for every op) gets that header as a tiling header - the op build gives the kernel its
copy of the struct - but a shared header whose structs the kernel never names is left out of the kernel build."""

from __future__ import annotations

from cotbuilder.verify.opproject.layout import layout

SHARED = (
    '#include "register/tilingdata_base.h"\nnamespace optiling {\nBEGIN_TILING_DATA_DEF(FamilyTilingData)\n'
    "TILING_DATA_FIELD_DEF(uint64_t, n);\nEND_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(FamilyAbs, FamilyTilingData)\n}\n"
)
OTHER = "namespace optiling {\nBEGIN_TILING_DATA_DEF(UnrelatedTiling)\nTILING_DATA_FIELD_DEF(uint32_t, m);\nEND_TILING_DATA_DEF;\n}\n"
KERNEL_BASE = "template <typename T> class Base { void Init(const FamilyTilingData* t); };\n"
KERNEL = (
    '#include "kernel_operator.h"\n#include "family_base.h"\n'
    'extern "C" __global__ __aicore__ void family_abs(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {}\n'
)


def _unit(files: dict[str, str]) -> dict:
    return {"files": [{"path": p, "text": t} for p, t in files.items()]}


def test_a_family_tiling_header_the_kernel_names_is_a_tiling_header_and_an_unrelated_one_is_not():
    lay = layout(
        _unit(
            {
                "op_host/family_abs.cpp": '#include "family/proto.h"\n',
                "op_kernel/family_abs.cpp": KERNEL,
                "_deps/src/common/inc/family/op_kernel/family_base.h": KERNEL_BASE,
                "_deps/src/common/inc/family/op_tiling/family_tiling_def.h": SHARED,
                "_deps/src/common/inc/other/other_tiling_def.h": OTHER,
            }
        )
    )
    assert "_deps/src/common/inc/family/op_tiling/family_tiling_def.h" in lay.tiling_headers
    assert "_deps/src/common/inc/other/other_tiling_def.h" not in lay.tiling_headers


def test_a_host_source_the_ops_cmake_does_not_build_beside_its_built_twin_is_skipped():
    """cann-ops multi_scale_deformable_attn_function: its CMakeLists builds op_host/X.cpp; an X.cc beside it (which
    does not even compile with the repo's headers) is never built, so it is not the op's code either."""
    cmake = "target_sources(optiling PRIVATE\n        op_host/x.cpp\n)\n"
    lay = layout(
        _unit(
            {
                "CMakeLists.txt": cmake,
                "op_host/x.cpp": "namespace optiling {}\n",
                "op_host/x.cc": "namespace optiling {}\n",
                "op_host/x_def.cpp": "namespace ops {}\n",
                "op_kernel/x.cpp": KERNEL,
            }
        )
    )
    assert "op_host/x.cpp" in lay.host_sources and "op_host/x_def.cpp" in lay.host_sources
    assert "op_host/x.cc" not in lay.host_sources and "it builds x.cpp" in lay.skipped_host["op_host/x.cc"]
