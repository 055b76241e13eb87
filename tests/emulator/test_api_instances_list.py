"""The emulator's template instances compiled once into the runtime library (emulator/src/cbemu_api_instances.h):
what its generator (emulator/tools/api_instances.py) keeps from a compiled sample, and that the committed list names
the emulator's and the C++ library's entities only - never a kernel's own type or a lambda, which the library cannot
name and a kernel could not share."""

from __future__ import annotations

import importlib.util
import re

from cotbuilder.paths import emulator_dir

TOOL = emulator_dir() / "tools" / "api_instances.py"
_spec = importlib.util.spec_from_file_location("api_instances", TOOL)
api_instances = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_instances)

# weak definitions as `nm -C` prints them for a compiled kernel (the symbol names only)
NM_LINES = [
    "void AscendC::DataCopy<half>(AscendC::LocalTensor<half> const&, AscendC::GlobalTensor<half> const&, unsigned int, cbemu::SrcLoc)",
    "AscendC::LocalTensor<float> AscendC::TQueBind<(AscendC::TPosition)9, (AscendC::TPosition)9, 2, 0>::AllocTensor<float>(cbemu::SrcLoc)",
    "AscendC::TQue<(AscendC::TPosition)10, 2, 0>::TQue()",
    "AscendC::GlobalTensor<half>::SetGlobalBuffer(half*, unsigned long, cbemu::SrcLoc)",
    "KernelAdd::Compute(int)",  # the kernel's own class
    "void AscendC::DataCopy<MyTile>(AscendC::LocalTensor<MyTile> const&, AscendC::GlobalTensor<MyTile> const&, unsigned int, cbemu::SrcLoc)",
    "AscendC::GlobalTensor<MyTile>::SetGlobalBuffer(MyTile*, unsigned long, cbemu::SrcLoc)",
    "void cbemu::for_each_active<cbemu::rep_extent<half>(cbemu::Mask const&, unsigned int)::{lambda(unsigned int, unsigned int)#1}>(cbemu::Mask const&)",
    "cbemu::mask_from_count(unsigned long)",  # not a template: the runtime's, not an instance
    "std::vector<int, std::allocator<int> >::vector()",  # the C++ library's (cbemu_instances.h covers those)
]  # fmt: skip


def test_the_generator_keeps_emulator_template_instances_and_nothing_a_kernel_defines():
    kept = api_instances.instances(NM_LINES)
    assert kept == {
        ("function", NM_LINES[0]),
        ("function", NM_LINES[1]),
        ("class", "AscendC::TQue<(AscendC::TPosition)10, 2, 0>"),
        ("class", "AscendC::GlobalTensor<half>"),
    }


def test_the_committed_list_names_only_emulator_and_library_entities_and_each_once():
    text = (emulator_dir() / "src" / "cbemu_api_instances.h").read_text(encoding="utf-8")
    entries = re.findall(r"^(CBEMU_INSTANCE|CBEMU_FN_INSTANCE)\((.*)\)$", text, re.M)
    assert len(entries) > 100  # the list is there (an empty one would silently cost every kernel its compile time)
    assert len({body for _, body in entries}) == len(entries)
    for macro, body in entries:
        assert api_instances.acceptable(body), body
        assert body.startswith(("AscendC::", "cbemu::")) if macro == "CBEMU_INSTANCE" else "(" in body, body
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("//")]
    assert len(lines) == len(entries)  # nothing else in the file: it is included between two macro definitions
