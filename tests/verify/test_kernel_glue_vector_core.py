"""A vector op kernel is built for the AIV cores, as the device compiler builds a kernel that uses no Cube API on the
split architecture: its prelude says so (CBEMU_PLAIN_CORE), so `if ASCEND_IS_AIV { ... }` runs its work; a kernel that
touches the Cube unit anywhere in its op_kernel sources keeps the plain launch (its `if ASCEND_IS_AIV return;` must
not end it). The emulator side is tests/emulator/test_device_sysvars.py."""

from __future__ import annotations

from cotbuilder.verify.opproject.kernel_glue import VECTOR_CORE, variants

OP = {"type": "MyOp", "inputs": [{"name": "x"}], "outputs": [{"name": "y"}]}
VECTOR = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void my_op(GM_ADDR x, GM_ADDR y) {}\n'
CUBE_HEADER = "// Mmad in a comment is not a use\nAscendC::Mmad(c, a, b, params);\n"


def test_a_kernel_using_no_cube_api_is_built_for_the_vector_cores():
    (v,) = variants(OP, [VECTOR, "// LoadData in a comment only\n"], {}, VECTOR)
    assert VECTOR_CORE in v.prelude


def test_a_kernel_whose_header_uses_the_cube_unit_keeps_the_plain_launch():
    (v,) = variants(OP, [VECTOR, CUBE_HEADER], {}, VECTOR)
    assert VECTOR_CORE not in v.prelude
