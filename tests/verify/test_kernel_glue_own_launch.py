"""An op's kernel file may carry the op build's own launch stub (`void <op>_do(...) { <op><<<...>>>(...); }` outside
`__CCE_KT_TEST__`, as NPUKernelBench's RmsNormGrad does). The glue renames the entry, so the stub must launch the
renamed one, through the emulator's launch; before, g++ stopped on "'<op>' was not declared", which was recorded as
the kernel's own `failed_compile`."""

from __future__ import annotations

from cotbuilder.verify.launch_rewrite import LAUNCH_MACRO
from cotbuilder.verify.opproject.kernel_glue import ENTRY_MACRO, INNER_ENTRY_MACRO, rewrite_entry
from cotbuilder.verify.opproject.layout import Entry

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void my_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    (void)x;
}

#ifndef __CCE_KT_TEST__
void my_op_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y, uint8_t *ws, uint8_t *tiling)
{
    my_op<<<blockDim, l2ctrl, stream>>>(x, y, ws, tiling);
}
#endif
int my_op_count = 0;  // a name that starts like the entry is not the entry
"""


def test_the_files_own_launch_stub_launches_the_renamed_entry_through_the_emulator():
    out = rewrite_entry(KERNEL, Entry("my_op", "op_kernel/my_op.cpp", 4))
    assert f"void {ENTRY_MACRO}(GM_ADDR x" in out
    assert f"{LAUNCH_MACRO}({ENTRY_MACRO}, blockDim, x, y, ws, tiling);" in out
    assert "<<<" not in out and "my_op(" not in out.replace("my_op_do(", "")
    assert "int my_op_count = 0;" in out


def test_an_entry_in_an_unnamed_namespace_is_launched_by_its_inner_name_declared_before_the_stub():
    text = KERNEL.replace('extern "C" __global__', "namespace {\n__global__").replace("#ifndef", "}\n#ifndef")
    out = rewrite_entry(text, Entry("my_op", "op_kernel/my_op.cpp", 4))
    assert f"{LAUNCH_MACRO}({INNER_ENTRY_MACRO}, blockDim, x, y, ws, tiling);" in out


def test_a_kernel_without_a_launch_is_left_as_the_rename_makes_it():
    text = KERNEL.split("#ifndef")[0]
    assert rewrite_entry(text, Entry("my_op", "op_kernel/my_op.cpp", 4)) == text.replace(
        'extern "C" __global__ __aicore__ void my_op', f"__global__ __aicore__ void {ENTRY_MACRO}"
    )
