"""An op project's objects that read no file of the unit (cotbuilder's own: the describe main, the aclnn layer, the
benchmark binding and its main) are compiled apart from the unit and shared by every unit that generates the same
text: real g++, the real sandbox, the real object cache. Shared means a hostile unit must not be able to slip anything
into them - a header beside the describe main or the aclnn layer that its `#include` would pick up is never seen."""

from __future__ import annotations

import sys
from pathlib import Path

from cotbuilder.parse.units import extract_units
from cotbuilder.verify import build as buildmod
from cotbuilder.verify import steps
from cotbuilder.verify.opproject import build as opbuild
from cotbuilder.verify.opproject import run as oprun

OPS = Path(__file__).resolve().parents[2] / "examples" / "op_project"

# beside the describe main (cotbuilder_gen/), where its `#include "impl/host/aclnn_runtime.h"` looks first: the real
# header, then a static initializer that prints an empty op list and exits before main describes anything
SHADOW = """#include_next "impl/host/aclnn_runtime.h"
#include <cstdio>
#include <cstdlib>
static int cotbuilder_poison = (std::printf("{\\"ops\\": []}"), std::fflush(stdout), std::_Exit(0), 0);
"""


def op_unit(folder: str, extra: dict[str, str] | None = None) -> dict:
    """examples/op_project/<folder> as a repository whose root is the op, as the crawl groups it, plus `extra` files
    (a unit is any set of files: crawled, model-written, a task's answer)."""
    root = OPS / folder
    files = [
        {"path": str(p.relative_to(root)), "text": p.read_text(encoding="utf-8"), "file_id": None, "license": None}
        for p in sorted(root.rglob("*"))
        if p.is_file()
    ]
    units, _ = extract_units("d" * 64, files)
    (unit,) = [u for u in units if u["layout"] == "op_project"]
    unit["files"] += [{"path": path, "text": text, "role": None} for path, text in (extra or {}).items()]
    return unit


def describe(unit: dict, ctx: steps.Context) -> tuple[list[str], int, int]:
    build_dir = steps.fresh_dir(ctx.sandbox_session().new_dir("shared-obj-"), "build")
    builder = oprun._builder(unit, build_dir, ctx)
    ops = builder.describe()
    assert ops is not None, builder.result.reason + builder.result.log[-2000:]
    return [op["type"] for op in ops], builder.result.compiled_objects, builder.result.cached_objects


def test_the_describe_main_is_compiled_once_for_every_op_and_a_unit_cannot_slip_a_header_into_it(fresh_verify_cache):
    cache = fresh_verify_cache
    ctx = steps.Context(cache_dir=cache, python=sys.executable, seeds=(0,))
    ctx.pch = buildmod.ensure_pch(cache, ctx.soc, ctx.opt)
    hostile = op_unit("SwishCustom", {"cotbuilder_gen/impl/host/aclnn_runtime.h": SHADOW})
    assert any(f["path"] == "cotbuilder_gen/impl/host/aclnn_runtime.h" for f in hostile["files"])
    types, compiled, cached = describe(hostile, ctx)
    assert types == ["SwishCustom"]  # the shadow header was not compiled into its describe main
    assert (compiled, cached) == (2, 0)  # its host TU and the describe main
    types, compiled, cached = describe(op_unit("MulAddCustom"), ctx)
    assert types == ["MulAddCustom"]
    assert (compiled, cached) == (1, 1)  # its own host TU; the describe main from the cache


def build(unit: dict, ctx: steps.Context) -> tuple[int, int]:
    """(objects compiled, kernel variants) of one build of the unit's aclnn example."""
    spec = opbuild.Spec(sources=[MAIN])
    result = oprun.build(unit, ctx.sandbox_session().new_dir("scoped-obj-"), ctx, spec, "example")
    assert result.ok, result.reason + result.log[-2000:]
    return result.compiled_objects, len(result.variants)


MAIN = "examples/AclNNInvocationNaive/main.cpp"
KERNEL = "op_kernel/hard_swish_custom.cpp"


def edited(unit: dict, path: str, text: str) -> dict:
    """`unit` with `text` appended to the file at `path` (a real edit: the file's text, and so its digest, changes)."""
    files = [dict(f, text=f["text"] + text) if f["path"] == path else f for f in unit["files"]]
    assert files != unit["files"], path
    return dict(unit, files=files)


def test_an_objects_cache_key_is_the_files_it_can_include_so_a_kernel_fix_rebuilds_the_kernel_not_the_example(
    fresh_verify_cache,
):
    """Objects: the host TU (and the describe main, first build only), one per kernel variant, the generated aclnn
    TU, the example's main. A kernel edit rebuilds only the kernel variants; a main that `#include`s the kernel TU
    rebuilds with it; a header edit rebuilds everything that could include it - not the aclnn TU, which includes no
    file of the unit (its object is keyed by its own text and the OpDef's header: the same op, the same object)."""
    cache = fresh_verify_cache
    ctx = steps.Context(cache_dir=cache, python=sys.executable, seeds=(0,))
    ctx.pch = buildmod.ensure_pch(cache, ctx.soc, ctx.opt)
    unit = op_unit("HardSwishCustom")
    first, variants = build(unit, ctx)
    assert variants >= 1 and first == 1 + 1 + variants + 2  # host, describe main, kernels, aclnn, main
    kernel_fix = "\n// a kernel fix\n"
    assert build(edited(unit, KERNEL, kernel_fix), ctx) == (variants, variants)
    # the main now names the kernel source in an #include: the kernel TU is includable, so the main is rebuilt,
    # and from then on a kernel edit rebuilds it with the kernels
    including = edited(unit, MAIN, '\n#if 0\n#include "../../op_kernel/hard_swish_custom.cpp"\n#endif\n')
    assert build(including, ctx)[0] == 1
    assert build(edited(including, KERNEL, "\n// another fix\n"), ctx)[0] == variants + 1
    # the tiling header: read by the host and the kernels, and includable by the main (the describe main and the
    # aclnn TU are shared)
    assert build(edited(unit, "op_host/hard_swish_custom_tiling.h", "\n// a header edit\n"), ctx)[0] == first - 2


def test_a_unit_cannot_slip_a_header_into_the_aclnn_layer_it_shares(fresh_verify_cache):
    """The aclnn TU (cotbuilder_gen/aclnn_impl.cpp) includes "impl/host/aclnn_runtime.h": a unit file at
    cotbuilder_gen/impl/host/aclnn_runtime.h would be found first beside it, and its static initializer would end
    the program before the kernel runs. The layer is compiled where the unit is not: the hostile unit's example
    builds with the clean unit's aclnn object and runs its kernel to a passing verdict."""
    from cotbuilder.verify import harness_op

    cache = fresh_verify_cache
    ctx = steps.Context(cache_dir=cache, python=sys.executable, seeds=(0,))
    ctx.pch = buildmod.ensure_pch(cache, ctx.soc, ctx.opt)
    clean = op_unit("HardSwishCustom")
    hostile = op_unit("HardSwishCustom", {"cotbuilder_gen/impl/host/aclnn_runtime.h": SHADOW})
    verdicts = []
    for unit in (clean, hostile):
        which = harness_op.choose(unit)
        verdicts.append(harness_op.verify(unit, which, ctx.sandbox_session().new_dir("shadow-"), ctx))
    assert [v.status for v in verdicts] == ["passed", "passed"], [(v.status, v.reason) for v in verdicts]
    assert all(c["check"] == "golden" and c["ok"] is True for c in verdicts[1].cases)
    # the second build recompiled what sees the unit's include folders (the new file's folder is one): the host
    # TU, the kernel and the example's main - not the aclnn layer (nor the describe main), which the first built
    assert verdicts[0].timings["build_objects_compiled"] == 5, verdicts[0].timings
    assert verdicts[1].timings["build_objects_compiled"] == 3, verdicts[1].timings
