"""The host shims bring namespace std into the global scope, as the toolkit's host headers do (op host code uses
`vector`, `string` unqualified). A kernel reaches them through its op's tiling header: there only the containers and
streams may come in - cann-ops rms_norm_grad defines its own `false_type` / `IsSame` at global scope, which the whole
of std made ambiguous (`failed_compile`, our gap). Built with the real g++ (syntax only)."""

from __future__ import annotations

from pathlib import Path

from .gxx import syntax_only

CODE = r"""
#include "tiling/tiling_api.h"
vector<int> sizes;            // host code's unqualified container, in both modes
string name = "op";
template <typename Tp, Tp v> struct IntegralConstant { static constexpr Tp value = v; };
using false_type = IntegralConstant<bool, false>;   // the kernel's own, at global scope
template <typename, typename> struct IsSame : public false_type {};
static_assert(!IsSame<int, float>::value, "");
"""


def _syntax(tmp_path: Path, *defines: str):
    return syntax_only(tmp_path / "tu.cpp", CODE, "-w", "-DASCENDC_CPU_DEBUG", *defines)


def test_a_kernel_translation_unit_gets_the_containers_but_not_the_type_traits(tmp_path):
    kernel = _syntax(tmp_path, "-D__CCE_AICORE__=220")
    assert kernel.returncode == 0, kernel.stderr[-2000:]


def test_host_code_still_gets_the_whole_of_std(tmp_path):
    host = _syntax(tmp_path)
    # host code sees std::false_type too: the same global definition is ambiguous there, as with the toolkit
    assert host.returncode != 0 and "ambiguous" in host.stderr, host.stderr[-2000:]
