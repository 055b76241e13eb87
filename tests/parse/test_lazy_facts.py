"""Facts are read lazily: only the files grouping and the unit records ask about are read, the rest only parsed.
Lazy extraction must give what reading every file first gives: the same facts for each text it read, the same units
and notes; a file found past a limit late (after grouping) is left out and the source grouped again without it.
Real tree-sitter over the demo corpus and over a small source written here (macros, templates, an op project with a
shared registration file, a library header, a gtest file, a sample with its own main)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from cotbuilder.parse import extract_units
from cotbuilder.parse import facts as parsed_facts
from cotbuilder.parse.facts import extract_facts, file_facts
from cotbuilder.parse.grouping import is_cpp
from cotbuilder.paths import data_dir

_spec = importlib.util.spec_from_file_location("parse_test_fixtures", Path(__file__).parent / "fixtures.py")
fx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fx)

SRC = "c" * 64

_LIB_HEADER = """\
#pragma once
// a library header: units include it, nobody reads its facts
namespace mylib {
template <typename T, int N = 4>
struct Vec { T data[N]; };
#define MYLIB_CHECK(x) do { if (!(x)) { return; } } while (0)
template <typename T>
__aicore__ inline T Clamp(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }
}
"""

_OP_KERNEL = """\
#include "kernel_operator.h"
#include "../../../lib/mylib.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 8 * 256;
template <typename T, typename U = T>
class KernelClip {
public:
    __aicore__ inline KernelClip() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x + GetBlockIdx() * n, n);
        pipe.InitBuffer(inQ, BUFFER_NUM, TILE * sizeof(T));
        pipe.InitBuffer(tmp, TILE * sizeof(U));
    }
    __aicore__ inline void Process()
    {
#if defined(__DAV_C220_VEC__)
        LocalTensor<T> a = inQ.template AllocTensor<T>();
        Maxs(a, a, static_cast<T>(0), TILE);
#else
        LocalTensor<T> a = inQ.AllocTensor<T>();
        Mins(a, a, (T)1, TILE);
#endif
        inQ.FreeTensor(a);
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TBuf<TPosition::VECCALC> tmp;
    GlobalTensor<T> xGm;
};
#define CLIP_ENTRY(name, T) \\
    extern "C" __global__ __aicore__ void name(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) \\
    { KernelClip<T> op; op.Init(x, y, 64); op.Process(); }
extern "C" __global__ __aicore__ void clip_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if ASCEND_IS_AIV {
        KernelClip<half> op;
        op.Init(x, y, tilingData.totalLength);
        op.Process();
    }
}
"""

_REGISTRAR = """\
#include "register/op_impl_registry.h"
namespace optiling {
static ge::graphStatus ClipTiling(gert::TilingContext *ctx) { ctx->SetBlockDim(16); return ge::GRAPH_SUCCESS; }
IMPL_OP_OPTILING(ClipCustom).Tiling(ClipTiling);
}
"""

_GTEST = """\
#include <gtest/gtest.h>
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void probe(GM_ADDR x) { AscendC::GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x); }
TEST(Probe, Runs) { EXPECT_EQ(1, 1); }
"""

_STRAY = "// in no unit\nstatic int stray(int a) { return a * 2; }\n"


def tricky_files() -> list[dict]:
    op = "ops/ClipCustom"
    return [
        *fx.op_project_files(op),
        fx.record(f"{op}/op_kernel/clip_custom.cpp", _OP_KERNEL),
        fx.record("lib/mylib.h", _LIB_HEADER),
        fx.record("shared/tiling/clip_registry.cpp", _REGISTRAR),
        fx.record("tests/api/probe_test.cpp", _GTEST),
        fx.record("tools/stray.cpp", _STRAY),
        fx.record("samples/one/one.asc", fx.SINGLE_ASC.format(name="one_kernel")),
        fx.record("samples/one/data_utils.h", fx.DATA_UTILS),
        *fx.kernel_launch_files("samples/scale_relu"),
    ]


def demo_files() -> list[dict]:
    root = data_dir("examples")
    return [
        fx.record(p.relative_to(root).as_posix(), p.read_text(encoding="utf-8"))
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix in (".cpp", ".h", ".asc", ".py", ".sh", ".json", ".toml", ".txt")
    ]


def _without_time(units: list[dict]) -> list[dict]:
    return [{k: v for k, v in u.items() if k != "created_at"} for u in units]


def _lazy_against_eager(files: list[dict]) -> tuple[set[str], set[str]]:
    """Extract lazily from a cold cache, then eagerly (every C/C++ file's facts read before extraction); assert both
    agree and that every text the lazy run read has the facts a fresh read gives. Returns (texts read, texts only
    parsed) of the lazy run."""
    parsed_facts._CACHE.clear()
    lazy_units, lazy_notes = extract_units(SRC, files)
    entries = dict(parsed_facts._CACHE)
    read = {
        f["text"]
        for f in files
        if is_cpp(f["path"]) and entries.get(_key(f["text"])) not in (None, parsed_facts._PARSED)
    }
    only_parsed = {
        f["text"] for f in files if is_cpp(f["path"]) and entries.get(_key(f["text"])) is parsed_facts._PARSED
    }
    for text in read:
        assert entries[_key(text)] == extract_facts(text.encode()), text[:60]

    parsed_facts._CACHE.clear()
    for f in files:
        if is_cpp(f["path"]):
            file_facts(f["text"])  # eager: every file's facts first, as extraction did before
    eager_units, eager_notes = extract_units(SRC, files)
    assert _without_time(lazy_units) == _without_time(eager_units)
    assert lazy_notes == eager_notes
    return read, only_parsed


def _key(text: str) -> str:
    return parsed_facts.sha256_bytes(text.encode())


def test_lazily_read_facts_equal_eager_ones_on_the_demo_corpus():
    files = demo_files()
    read, only_parsed = _lazy_against_eager(files)
    cpp = {f["text"] for f in files if is_cpp(f["path"])}
    assert read | only_parsed == cpp  # every C/C++ text was at least parsed
    assert len(read) > len(cpp) // 2


def test_lazily_read_facts_equal_eager_ones_on_a_tricky_source():
    files = tricky_files()
    read, only_parsed = _lazy_against_eager(files)
    # dependencies, gtest harness and stray files are parsed, never read; kernels and host code are read
    assert {_LIB_HEADER, _REGISTRAR, _STRAY} <= only_parsed
    assert {_OP_KERNEL, fx.OP_HOST, fx.KERNEL, fx.MAIN, fx.DATA_UTILS, _GTEST} <= read
    units, _ = extract_units(SRC, files)
    clip = next(u for u in units if u["name"] == "ClipCustom" or u["root"] == "ops/ClipCustom")
    paths = {f["path"] for f in clip["files"]}
    assert {"_deps/lib/mylib.h", "_deps/shared/tiling/clip_registry.cpp"} <= paths
    assert clip["features"]["buffer_num"] == 2


def test_a_file_found_past_the_limit_after_grouping_is_left_out_and_the_source_grouped_again():
    files = tricky_files()
    parsed_facts._CACHE.clear()
    for f in files:  # the files read for facts are cached: only the parse-only ones meet the 1 ns limit
        if is_cpp(f["path"]) and f["text"] not in (_LIB_HEADER, _REGISTRAR, _STRAY):
            file_facts(f["text"])
    units, notes = extract_units(SRC, files, time_limit=1e-9)
    out = {"lib/mylib.h", "shared/tiling/clip_registry.cpp", "tools/stray.cpp"}
    late = [n for n in notes if n["reason"].startswith("not parsed: parse time limit exceeded")]
    assert {n["path"] for n in late} == out
    assert not {f["path"] for u in units for f in u["files"]} & {
        "_deps/lib/mylib.h",
        "_deps/shared/tiling/clip_registry.cpp",
    }

    # the same units as a source that never held those files
    rest = [f for f in files if f["path"] not in out]
    expected_units, expected_notes = extract_units(SRC, rest, time_limit=None)
    assert _without_time(units) == _without_time(expected_units)
    assert [n for n in notes if n not in late] == expected_notes


def test_a_too_deep_header_a_kernel_includes_is_left_out_before_grouping():
    deep = "#pragma once\nint deep = " + "(" * 1200 + "1" + ")" * 1200 + ";\n"
    files = fx.kernel_launch_files() + [fx.record("samples/scale_relu/deep.h", deep)]
    files[0] = dict(files[0], text='#include "deep.h"\n' + files[0]["text"])
    parsed_facts._CACHE.clear()
    units, notes = extract_units(SRC, files)
    assert {
        "path": "samples/scale_relu/deep.h",
        "reason": "not parsed: brackets nested 1200 deep (limit 1000); left out",
    } in notes
    assert [u["name"] for u in units] == ["scale_relu"]
    assert "deep.h" not in {f["path"] for f in units[0]["files"]}
