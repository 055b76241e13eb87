"""The device compiler's scalar builtins min / max (cotbuilder/verify/device_builtins.py): a kernel that calls them
undeclared fails g++ with the log `missing` recognises, and builds once impl/emu/device_builtins.h is forced in; a
kernel with a global min of its own never needs them. Real g++ runs against the emulator's headers."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cotbuilder.paths import emulator_include_dirs
from cotbuilder.verify import device_builtins

_CALLS_BUILTIN = """#include "kernel_operator.h"
namespace Tile { template <int V> struct C {}; template <int A, int B> C<A> min(C<A>, C<B>); }
using namespace Tile;
__aicore__ inline uint32_t Chunk(uint32_t k, uint32_t tile) { return min(k, tile) + max(k, tile); }
"""
_OWN_MIN = """#include "kernel_operator.h"
__aicore__ inline uint32_t min(uint32_t a, uint32_t b) { return a < b ? a : b; }
__aicore__ inline uint32_t Chunk(uint32_t k, uint32_t tile) { return min(k, tile); }
"""


def _gxx(tmp_path: Path, text: str, extra: list[str] = ()) -> subprocess.CompletedProcess:
    src = tmp_path / "k.cpp"
    src.write_text(text, encoding="utf-8")
    inc = [f"-I{d}" for d in emulator_include_dirs()]
    argv = ["g++", "-std=c++17", "-DASCENDC_CPU_DEBUG", *inc, "-c", str(src), "-o", str(tmp_path / "k.o")]
    argv = device_builtins.with_builtins(argv) if extra else argv
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


def test_a_kernel_calling_the_builtin_min_is_recognised_and_builds_with_the_builtins(tmp_path):
    plain = _gxx(tmp_path, _CALLS_BUILTIN)
    assert plain.returncode != 0 and device_builtins.missing(plain.stderr), plain.stderr[-2000:]
    assert _gxx(tmp_path, _CALLS_BUILTIN, extra=["builtins"]).returncode == 0


def test_a_kernel_with_a_min_of_its_own_needs_no_builtin_and_a_plain_error_is_not_taken_for_one(tmp_path):
    own = _gxx(tmp_path, _OWN_MIN)
    assert own.returncode == 0, own.stderr[-2000:]
    other = _gxx(tmp_path, '#include "kernel_operator.h"\nint f() { return undeclared_value; }\n')
    assert other.returncode != 0 and not device_builtins.missing(other.stderr)
