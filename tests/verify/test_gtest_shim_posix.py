"""The gtest-compatible header UTs build against (emulator/harness_include/gtest/gtest.h) brings the POSIX headers
googletest's port layer includes on Linux: hicann ops-math UTs call get_current_dir_name() / stat() with no include
of their own (strided_slice_assign_v2 was `failed_compile` for it). Built with the real g++."""

from __future__ import annotations

from .gxx import syntax_only

UT = r"""
#include <cstdlib>
#include <string>
#include "gtest/gtest.h"
std::string data_dir() {
    char* cwd = get_current_dir_name();
    struct stat st;
    std::string dir = std::string(cwd) + "/data";
    free(cwd);
    return stat(dir.c_str(), &st) == 0 ? dir : std::string();
}
"""


def test_a_ut_calling_posix_functions_it_never_included_builds_as_with_googletest(tmp_path):
    built = syntax_only(tmp_path / "ut.cpp", UT, includes=("harness_include",))
    assert built.returncode == 0, built.stderr[-2000:]
