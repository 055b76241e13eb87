"""Which tiling headers the kernel prelude includes (kernel_glue.variants): those the kernel's own includes do not
bring. An include is matched to the file it finds first - next to the kernel - not by file name alone: cann-ops
strided_slice_assign_v2's kernel includes its own op_kernel/strided_slice_assign_v2.h, and op_host's tiling header of
the same name was left out of the prelude, so GET_TILING_DATA named a struct nothing declared (unsupported before;
the op passes with it)."""

from __future__ import annotations

from cotbuilder.verify.opproject import kernel_glue

OP = {"type": "SliceAssign", "inputs": [{"name": "x", "dtypes": [1]}], "outputs": [{"name": "y", "dtypes": [1]}]}
TILING = "op_host/slice_assign.h"
HEADER = '#include "register/tilingdata_base.h"\nnamespace optiling {\nBEGIN_TILING_DATA_DEF(SliceAssignTilingData)\n'
HEADER += "TILING_DATA_FIELD_DEF(uint32_t, n);\nEND_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(SliceAssign, "
HEADER += "SliceAssignTilingData)\n}\n"


def _included(kernel: str, paths: set[str]) -> bool:
    (v,) = kernel_glue.variants(OP, [kernel], {TILING: HEADER}, kernel, "op_kernel/slice_assign.cpp", frozenset(paths))
    return f'#include "{TILING}"' in v.prelude


def test_an_include_of_the_kernels_own_header_of_the_same_name_does_not_bring_the_tiling_header():
    kernel = '#include "slice_assign.h"\n'
    assert _included(kernel, {TILING, "op_kernel/slice_assign.h", "op_kernel/slice_assign.cpp"})


def test_an_include_that_finds_the_tiling_header_brings_it_once():
    beside_none = {TILING, "op_kernel/slice_assign.cpp"}  # found through the include folders: op_host's
    assert not _included('#include "slice_assign.h"\n', beside_none)
    spelled = {TILING, "op_kernel/slice_assign.h", "op_kernel/slice_assign.cpp"}
    assert not _included('#include "../op_host/slice_assign.h"\n', spelled)
    assert not _included("#include <slice_assign.h>\n", spelled)


def test_a_kernel_header_spelling_the_tiling_headers_guard_is_not_skipped_for_the_preludes_copy():
    guarded = "#ifndef SLICE_ASSIGN_H_\n#define SLICE_ASSIGN_H_\n" + HEADER + "#endif\n"
    own = "#ifndef SLICE_ASSIGN_H_\n#define SLICE_ASSIGN_H_\nnamespace SliceNS { struct Op {}; }\n#endif\n"
    kernel = '#include "slice_assign.h"\nusing namespace SliceNS;\n'
    paths = frozenset({TILING, "op_kernel/slice_assign.h", "op_kernel/slice_assign.cpp"})
    (v,) = kernel_glue.variants(OP, [kernel, own], {TILING: guarded}, kernel, "op_kernel/slice_assign.cpp", paths)
    assert v.prelude.index(f'#include "{TILING}"') < v.prelude.index("#undef SLICE_ASSIGN_H_")
    other = own.replace("SLICE_ASSIGN_H_", "SLICE_KERNEL_H_")  # no clash: the guard is left alone
    (v,) = kernel_glue.variants(OP, [kernel, other], {TILING: guarded}, kernel, "op_kernel/slice_assign.cpp", paths)
    assert "#undef SLICE_ASSIGN_H_" not in v.prelude
