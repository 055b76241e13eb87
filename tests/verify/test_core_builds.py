"""A mixed kernel built once per core type (cotbuilder/verify/core_builds.py): a Catlass-style kernel whose entry
calls a member template specialised per core type (`template <int32_t CORE = g_coreType> void Run(...)`, with
`<AscendC::AIC>` / `<AscendC::AIV>` specialisations) runs its cube build on the AIC cores and its vector build on
the AIV cores, sharing GM, the workspace and the CrossCore flags, and passes; its broken twin without the AIVs'
CrossCoreWaitFlag is not passed and names the unpaired flag; a hostile vector build that ends the program claiming
success is never passed; a kernel whose vector build calls a specialisation it never defines runs as the
cube build's alone.

The kernel is examples/op_project/MatmulLeakyReluCustom (written here) turned into that form by edits; real g++
(or clang++) builds against the emulator, real sandboxed runs, the build cache shared by the run's tests.
"""

from __future__ import annotations

from cotbuilder.verify import core_builds, harness_op, steps
from cotbuilder.verify.opproject import kernel_glue

from .test_op_project_harnesses import unit_of

KERNEL = "op_kernel/matmul_leaky_relu_custom.cpp"
SPEC = "verify_spec.toml"

# The entry of the example types itself and branches at run time; the split form below does neither.
_ENTRY_BODY = """    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(tilingData, tiling);"""
_BRANCHES = """    if ASCEND_IS_AIC {
        CubeStage op;
        op.Init(a, b, userWorkspace, t);
        op.Process();
    }
    if ASCEND_IS_AIV {
        VectorStage op;
        op.Init(y, userWorkspace, t);
        op.Process();
    }"""
_SPLIT_CALL = "    PerCore kernel;\n    kernel.Run(a, b, y, userWorkspace, t);"

# The per-core-type member, its specialisations at namespace scope (g++ takes these: no CWG 727), and a flag id
# chosen by a template on g_coreType (a constant only in a per-core build).
_PER_CORE = """
template <int32_t CORE> struct ReadyFlag { static constexpr uint16_t ID = CORE == AscendC::AIC ? 4 : 4; };

struct PerCore {
    template <int32_t CORE = g_coreType>
    __aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR ws, const MmTiling& t);
};

template <>
__aicore__ inline void PerCore::Run<AscendC::AIC>(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR ws, const MmTiling& t)
{
    static_assert(ReadyFlag<g_coreType>::ID == FLAG_TILE_READY, "one flag both ways");
    CubeStage op;
    op.Init(a, b, ws, t);
    op.Process();
}

template <>
__aicore__ inline void PerCore::Run<AscendC::AIV>(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR ws, const MmTiling& t)
{
    VectorStage op;
    op.Init(y, ws, t);
    op.Process();
}

extern "C" __global__ __aicore__ void matmul_leaky_relu_custom("""
_ENTRY_DECL = '\nextern "C" __global__ __aicore__ void matmul_leaky_relu_custom('

# a smaller case than the example's spec (8 C tiles, a K tail, an M tail), one seed
_SHAPES = [("shape = [1581, 200]", "shape = [150, 72]"), ("shape = [200, 176]", "shape = [72, 176]")]


def _split_kernel(extra: list[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """Edits turning the example into the per-core-type form, then `extra` (old, new) edits of the kernel."""
    return [
        (_ENTRY_BODY, "    GET_TILING_DATA(tilingData, tiling);"),
        (_BRANCHES, _SPLIT_CALL),
        (_ENTRY_DECL, _PER_CORE),
        *extra,
    ]


def _unit(kernel_edits: list[tuple[str, str]]) -> dict:
    """The example op project with the kernel edits applied in order, on a smaller case."""
    unit = unit_of("MatmulLeakyReluCustom")
    spec = [*_SHAPES, ("[1581, 176]", "[150, 176]"), ("seeds = [0, 1]", "seeds = [0]")]
    by_path = {f["path"].split("MatmulLeakyReluCustom/")[-1]: f for f in unit["files"]}
    for path, edits in ((KERNEL, kernel_edits), (SPEC, spec)):
        f = by_path[path]
        for old, new in edits:
            assert old in f["text"], (path, old)
            f["text"] = f["text"].replace(old, new)
    return unit


def _verify(unit: dict, ctx: steps.Context):
    which = harness_op.choose(unit)
    return harness_op.verify(unit, which, ctx.sandbox_session().new_dir("core-builds-"), ctx)


def test_the_per_core_type_form_is_recognised_and_the_run_time_branch_form_is_not():
    assert core_builds.needs_core_builds(["template <int32_t CORE = g_coreType> void Run();"])
    assert core_builds.needs_core_builds(["constexpr FlagID id = BarrierFlag<MODE, g_coreType>::ID;"])
    assert not core_builds.needs_core_builds(["if ASCEND_IS_AIC { Cube(); }\nif (g_coreType == AIV) return;"])
    assert not core_builds.needs_core_builds(["// template <int32_t CORE = g_coreType> in a comment"])
    assert core_builds.specialises_in_class(
        ["struct K {\n  template <> __aicore__ inline void Run<AscendC::AIV>(GM_ADDR x) {}\n};"]
    )


def test_a_kernel_specialised_per_core_type_runs_each_build_on_its_own_cores_and_passes(ctx):
    v = _verify(_unit(_split_kernel()), ctx)
    assert v.status == "passed", (v.reason, v.compile_log[-3000:], v.run_log[-2000:])
    assert v.cases and all(c["ok"] is True for c in v.cases)


def test_its_twin_without_the_vector_cores_wait_is_not_passed_and_names_the_flag(ctx):
    missing_wait = ("            AscendC::CrossCoreWaitFlag(FLAG_TILE_READY);\n", "")
    v = _verify(_unit(_split_kernel([missing_wait])), ctx)
    assert v.status in ("failed_run", "wrong_answer"), (v.status, v.reason)
    text = v.reason + v.run_log + str(v.diagnostics)
    assert "cross_core_unpaired" in text and "CrossCoreWaitFlag(4)" in text, text[-3000:]


def test_a_vector_build_that_exits_the_program_claiming_success_is_never_passed(ctx):
    """Hostile: the vector build knows it is the emulator's (`__DAV_C220_VEC__` is defined in it alone) and ends the
    whole program with status 0 before any epilogue runs; cotbuilder compares y with the golden fixed before the
    kernel ran, whatever the program's exit status says."""
    lie = (
        "    VectorStage op;\n    op.Init(y, ws, t);",
        "#if defined(__DAV_C220_VEC__)\n    std::exit(0);\n#endif\n    VectorStage op;\n    op.Init(y, ws, t);",
    )
    v = _verify(_unit(_split_kernel([lie])), ctx)
    assert v.status != "passed", (v.status, v.reason)


def test_a_vector_build_that_calls_an_undefined_specialisation_runs_as_the_cube_build_alone(ctx):
    """BasicMatmul-style: only `<AscendC::AIC>` is defined; the vector build's call has no definition, so the
    kernel is typed AIC-only (as the device compiler types a kernel with an empty vector side) and the AIC cores'
    results stand: here the cube stage alone writes nothing to y, so the case is a wrong answer, not a link error."""
    no_aiv = (
        "template <>\n__aicore__ inline void PerCore::Run<AscendC::AIV>(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR ws, "
        "const MmTiling& t)\n{\n    VectorStage op;\n    op.Init(y, ws, t);\n    op.Process();\n}\n",
        "",
    )
    # a cube-only kernel hands nothing to AIVs: no CrossCore flags
    no_flags = [
        ("        AscendC::CrossCoreSetFlag<2, PIPE_FIX>(FLAG_TILE_READY);\n", ""),
        ("            AscendC::CrossCoreWaitFlag(FLAG_SLOT_FREE);", ""),
    ]
    v = _verify(_unit(_split_kernel([no_aiv, *no_flags])), ctx)
    assert v.status == "wrong_answer", (v.status, v.reason, v.compile_log[-2000:])


def test_an_in_class_specialisation_without_clang_is_unsupported_naming_cwg_727(ctx, monkeypatch):
    """g++ refuses an explicit specialisation in class scope (CWG 727), the device compiler takes it: with no
    clang++ the verdict is `unsupported` naming the gap, never the kernel's `failed_compile`."""
    monkeypatch.setattr(core_builds, "CLANG", "cotbuilder-no-such-clang++")
    v = _verify(_unit(_in_class()), ctx)
    assert v.status == "unsupported", (v.status, v.reason)
    assert "CWG 727" in v.reason or "per core type" in v.reason, v.reason


def test_an_in_class_specialisation_passes_with_clang_and_is_the_named_gap_without_it(ctx):
    """clang++ compiles the kernel as the clang-based device compiler does, when it is on PATH (this machine's
    apt clang); without it the same unit is `unsupported` naming CWG 727. Either way the verdict is pinned."""
    v = _verify(_unit(_in_class()), ctx)
    if core_builds.clang_available():
        assert v.status == "passed", (v.reason, v.compile_log[-3000:], v.run_log[-2000:])
    else:
        assert v.status == "unsupported" and ("CWG 727" in v.reason or "per core type" in v.reason), v.reason


def _in_class() -> list[tuple[str, str]]:
    """The split form with the specialisations inside the struct, Catlass-style."""
    in_class = (
        """
struct PerCore {
    template <int32_t CORE = g_coreType>
    __aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR ws, const MmTiling& t);

    template <>
    __aicore__ inline void Run<AscendC::AIC>(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR ws, const MmTiling& t)
    {
        CubeStage op;
        op.Init(a, b, ws, t);
        op.Process();
    }

    template <>
    __aicore__ inline void Run<AscendC::AIV>(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR ws, const MmTiling& t)
    {
        VectorStage op;
        op.Init(y, ws, t);
        op.Process();
    }
};
"""
        + _ENTRY_DECL
    )
    return [
        (_ENTRY_BODY, "    GET_TILING_DATA(tilingData, tiling);"),
        (_BRANCHES, _SPLIT_CALL),
        (_ENTRY_DECL, in_class),
    ]


# A kernel of its own IsFinite (written for a toolkit without AscendC::IsFinite, like cann-ops' is_finite), used
# unqualified next to `using namespace AscendC` in the cube build's specialisation.
_OWN_ISFINITE = (
    "template <>\n__aicore__ inline void PerCore::Run<AscendC::AIC>",
    "using namespace AscendC;\ntemplate <typename T> struct IsFinite { static constexpr bool OK = true; };\n\n"
    "template <>\n__aicore__ inline void PerCore::Run<AscendC::AIC>",
)
_USES_OWN = (
    '    static_assert(ReadyFlag<g_coreType>::ID == FLAG_TILE_READY, "one flag both ways");',
    '    static_assert(ReadyFlag<g_coreType>::ID == FLAG_TILE_READY && IsFinite<float>::OK, "one flag both ways");',
)


def test_the_per_core_builds_hide_the_emulators_newer_name_the_kernel_defines_itself(ctx, monkeypatch):
    """The split builds get the kernel's header flags (the emulator's IsFinite hidden), as the ordinary kernel build
    does: the kernel builds and passes. Its twin, with the hiding switched off, is the ambiguous-name gap, never a
    pass nor the kernel's failed_compile."""
    unit = _unit(_split_kernel([_OWN_ISFINITE, _USES_OWN]))
    v = _verify(unit, ctx)
    assert v.status == "passed", (v.reason, v.compile_log[-3000:], v.run_log[-2000:])
    monkeypatch.setattr(kernel_glue, "own_newer_apis", lambda texts: [])
    v = _verify(unit, ctx)
    assert v.status == "unsupported" and "IsFinite" in v.reason, (v.status, v.reason)
