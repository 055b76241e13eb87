"""The host shims' precompiled header (build.HOST_PCH_NAME): an op project's host sources are compiled with it, and
it never changes what a source builds to - a source it breaks (a name of its own that the forced shims make
ambiguous) is built again without it, and a unit that ships its own copy of a header the PCH holds is built without
it (its quote include must find that copy). Real g++, the real sandbox, the run's PCH."""

from __future__ import annotations

import sys

from cotbuilder.verify import build as buildmod
from cotbuilder.verify import steps
from cotbuilder.verify.opproject import run as oprun

from .test_op_shared_objects import op_unit

# a host helper that includes nothing of the toolkit: its own global `count` is fine alone, and ambiguous beside the
# shims' `using namespace std` (std::count), as the real toolkit headers would make it too had it included them
OWN_COUNT = """static int count = 3;
int CountHelper() { return count; }
"""

# the unit's own copy of the tiling header: its quote include in op_host/*_tiling.h finds this file first
OWN_TILING_HEADER = """#pragma once
#define UNIT_OWN_TILINGDATA_BASE 1
#include_next "register/tilingdata_base.h"
"""


def _describe(unit: dict, ctx: steps.Context):
    build_dir = steps.fresh_dir(ctx.sandbox_session().new_dir("host-pch-"), "build")
    builder = oprun._builder(unit, build_dir, ctx)
    ops = builder.describe()
    assert ops is not None, builder.result.reason + builder.result.log[-2000:]
    return [op["type"] for op in ops], builder.result


def test_host_sources_build_with_the_host_pch_and_one_it_breaks_is_built_without_it(fresh_verify_cache):
    ctx = steps.Context(cache_dir=fresh_verify_cache, python=sys.executable, seeds=(0,))
    ctx.pch = buildmod.ensure_pch(fresh_verify_cache, ctx.soc, ctx.opt)
    assert ctx.pch.host_header is not None, ctx.pch.error

    types, result = _describe(op_unit("MulAddCustom"), ctx)
    assert types == ["MulAddCustom"]
    assert (result.host_pch_objects, result.host_pch_fallbacks) == (1, 0)

    types, result = _describe(op_unit("MulAddCustom", {"op_host/count_helper.cpp": OWN_COUNT}), ctx)
    assert types == ["MulAddCustom"]  # the helper built after all: the PCH is never the reason a source fails
    # the op's source with it (again: a new host file is a new key), the helper without
    assert oprun.pch_timings(result) == {"host_pch_objects": 1, "host_pch_fallbacks": 1}


def test_a_unit_with_its_own_copy_of_a_header_the_host_pch_holds_is_built_without_it(fresh_verify_cache):
    ctx = steps.Context(cache_dir=fresh_verify_cache, python=sys.executable, seeds=(0,))
    ctx.pch = buildmod.ensure_pch(fresh_verify_cache, ctx.soc, ctx.opt)
    unit = op_unit("MulAddCustom", {"op_host/register/tilingdata_base.h": OWN_TILING_HEADER})
    paths = [f["path"] for f in unit["files"]]
    assert ctx.pch.host_flags(paths) == []
    assert ctx.pch.host_flags([p for p in paths if not p.endswith("tilingdata_base.h")])  # only that copy decides
    types, result = _describe(unit, ctx)
    assert types == ["MulAddCustom"]
    assert (result.host_pch_objects, result.host_pch_fallbacks) == (0, 0)
