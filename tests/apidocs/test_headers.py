"""Reading API names out of headers: namespace-level declarations (not members, not forward declarations), a small
include tree in the real one's style (written here), and the forwarding headers planned from it."""

from __future__ import annotations

import re
from pathlib import Path

from cotbuilder.apidocs import forwarders, toolkit
from cotbuilder.apidocs.cpp_names import declared_names, defined_macros
from cotbuilder.apidocs.emulated import Emulated

SOURCE = b"""
#ifndef MY_INTF_H
#define MY_INTF_H
#define MY_MACRO(x) (x)
namespace AscendC {
template <typename T> class LocalTensor;
template <typename T, bool isSetMask = true>
__aicore__ inline void Scale(const LocalTensor<T>& dst, const T& s, const int32_t& count);
struct ScaleParams { uint8_t repeat; void Reset(); };
enum class ScaleMode { FAST, EXACT };
using ScaleAlias = ScaleParams;
constexpr uint32_t SCALE_LIMIT = 255;
class Scaler {
public:
    __aicore__ inline void Run() {}
};
namespace Std { template <typename T> struct tiny {}; }
}  // namespace AscendC
namespace other { void NotApi(); }
#endif
"""


def test_declared_names_are_the_namespace_level_ones_with_their_kind():
    found = {(d.namespace, d.name, d.kind) for d in declared_names(SOURCE)}
    assert ("AscendC", "Scale", "function") in found  # __aicore__ is masked, the template kept
    assert ("AscendC", "ScaleParams", "struct") in found
    assert ("AscendC", "ScaleMode", "enum") in found
    assert ("AscendC", "ScaleAlias", "alias") in found
    assert ("AscendC", "SCALE_LIMIT", "variable") in found
    assert ("AscendC", "Scaler", "class") in found
    assert ("AscendC::Std", "tiny", "struct") in found
    assert ("other", "NotApi", "function") in found
    names = {d.name for d in declared_names(SOURCE)}
    assert "Run" not in names and "Reset" not in names  # members are not namespace-level names
    assert "LocalTensor" not in names  # a forward declaration declares nothing new
    assert defined_macros(SOURCE.decode()) == ["MY_INTF_H", "MY_MACRO"]


def _tree(root: Path) -> Path:
    include = root / "include"
    files = {
        "basic_api/kernel_operator_scale_intf.h": SOURCE.decode(),
        "basic_api/kernel_operator_mm_intf.h": "namespace AscendC { void Fill(int); void LoadTile(int); }\n",
        "adv_api/conv/conv3d/conv3d_intf.h": "namespace AscendC { void Fill(int); void Conv3D(int); }\n",
        "adv_api/math/softclip.h": "namespace AscendC { template <typename T> void SoftClip(T); }\n",
        "adv_api/math/softclip_tiling.h": "namespace AscendC { void GetSoftClipMaxMinTmpSize(int&); }\n",
        "adv_api/math/kernel_operator_softclip_intf.h": '#include "softclip.h"\n'
        'namespace AscendC { [[deprecated(__FILE__ " is old")]] typedef void SoftClipDeprecatedHeader; }\n',
        "adv_api/kernel_api.h": '#include "math/softclip.h"\n#include "math/softclip_tiling.h"\n',
        "adv_api/matmul/matmul_intf.h": "namespace AscendC { template <class A> class Matmul {}; void Fill(int); }\n",
    }
    for rel, text in files.items():
        (include / rel).parent.mkdir(parents=True, exist_ok=True)
        (include / rel).write_text(text)
    return include


def test_the_include_tree_index_lists_declared_names_and_wrappers(tmp_path):
    index = {h.path: h for h in toolkit.index_include_tree(_tree(tmp_path))}
    assert index["adv_api/math/softclip.h"].declares == ("SoftClip",)
    deprecated = index["adv_api/math/kernel_operator_softclip_intf.h"]
    assert deprecated.declares == () and deprecated.wraps == ("adv_api/math/softclip.h",)
    assert index["adv_api/kernel_api.h"].wraps == ("adv_api/math/softclip.h", "adv_api/math/softclip_tiling.h")
    assert "Scale" in index["basic_api/kernel_operator_scale_intf.h"].declares
    assert toolkit.header_prefixes(list(index.values()))[:2] == ["acl/", "aclnn"]


def test_forwarders_cover_every_real_spelling_of_what_is_emulated_and_nothing_else(tmp_path):
    headers = toolkit.index_include_tree(_tree(tmp_path))
    emu_include = tmp_path / "emu"
    (emu_include / "tiling").mkdir(parents=True)
    (emu_include / "kernel_operator.h").write_text('#pragma once\n#include "impl.h"\n')
    (emu_include / "impl.h").write_text("#pragma once\n")
    (emu_include / "tiling" / "tiling_api.h").write_text("#pragma once\n")
    emulated = [
        Emulated("SoftClip", "function", "impl.h"),
        Emulated("Scale", "function", "impl.h"),
        Emulated("Fill", "function", "impl.h"),
        Emulated("GetSoftClipMaxMinTmpSize", "function", "tiling/tiling_api.h"),
    ]
    planned = forwarders.plan(headers, emulated, emu_include)
    assert set(planned) == {
        "adv_api/math/softclip.h",
        "lib/math/softclip.h",
        "adv_api/math/softclip_tiling.h",
        "lib/math/softclip_tiling.h",
        "adv_api/math/kernel_operator_softclip_intf.h",
        "lib/math/kernel_operator_softclip_intf.h",
        "adv_api/kernel_api.h",
        "lib/kernel_api.h",
        "basic_api/kernel_operator_scale_intf.h",
        "basic_api/kernel_operator_mm_intf.h",
        "adv_api/matmul/matmul_intf.h",
        "lib/matmul/matmul_intf.h",
        "lib/matmul_intf.h",
    }  # the cube header and matmul declare the emulated Fill (the Cube unit is modelled); conv/ shares the name but
    # is not modelled: no forwarder
    assert '#include "../../kernel_operator.h"' in planned["adv_api/math/softclip.h"]
    # a family in NOT_MODELLED gets no forwarder; once it is modelled, its legacy spellings come with it (the Cube
    # unit: lib/matmul_intf.h)
    headers_mm = [toolkit.Header("adv_api/matmul/matmul_intf.h", ("Matmul",))]
    saved = forwarders.NOT_MODELLED
    try:
        forwarders.NOT_MODELLED = re.compile(r"(^|/)matmul/")
        assert forwarders.plan(headers_mm, [Emulated("Matmul", "class", "impl.h")], emu_include) == {}
    finally:
        forwarders.NOT_MODELLED = saved
    with_matmul = forwarders.plan(headers_mm, [Emulated("Matmul", "class", "impl.h")], emu_include)
    assert set(with_matmul) == {"adv_api/matmul/matmul_intf.h", "lib/matmul/matmul_intf.h", "lib/matmul_intf.h"}
    assert '#include "../kernel_operator.h"' in with_matmul["lib/matmul_intf.h"]
    assert '#include "../../tiling/tiling_api.h"' in planned["lib/math/softclip_tiling.h"]
    kernel_api = planned["adv_api/kernel_api.h"]
    assert '#include "../kernel_operator.h"' in kernel_api and '#include "../tiling/tiling_api.h"' in kernel_api

    written, removed = forwarders.write(planned, emu_include)
    assert (written, removed) == (len(planned), 0)
    assert forwarders.existing(emu_include) == planned
    # a forwarder no longer planned is removed; a hand-written header at a real path is never touched
    (emu_include / "adv_api" / "hand.h").write_text("#pragma once\n")
    smaller = {k: v for k, v in planned.items() if not k.startswith("lib/")}
    assert forwarders.write(smaller, emu_include) == (0, 6)  # the lib/ spellings of softclip and matmul
    assert not (emu_include / "lib").exists()
    assert (emu_include / "adv_api" / "hand.h").is_file()
