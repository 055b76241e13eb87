"""The emulator's runtime compiled once (impl/emu/rt.h): real g++, the real sandbox. A kernel's build compiles its own
code only and links the runtime library built next to the precompiled header; that library is keyed by the emulator's
digest, so an edited emulator never links a stale one (nor reuses a binary built with it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cotbuilder.verify import build as buildmod
from cotbuilder.verify import sandbox

SOC = "ascend910b"

# One queue buffer freed twice: the runtime's queue protocol (QueueCore::free_buffer) reports it.
DOUBLE_FREE = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t VARIANT = {variant};
extern "C" __global__ __aicore__ void twice_free(GM_ADDR x) {{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.FreeTensor(t);
    q.FreeTensor(t);  // line 10
}}
int main() {{
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(256 + VARIANT);
    ICPU_RUN_KF(twice_free, 1, x);
    AscendC::GmFree(x);
    return 0;
}}
"""


def _build(workdir: Path, cache: Path, pch: buildmod.Pch, variant: int = 0) -> buildmod.BuildResult:
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "k.cpp").write_text(DOUBLE_FREE.format(variant=variant), encoding="utf-8")
    return buildmod.build(workdir, ["k.cpp"], ["."], SOC, cache, sources_digest=f"double-free-{variant}", pch=pch)


def _run(binary: bytes) -> sandbox.SandboxResult:
    rundir = sandbox.default_session().new_dir("prebuilt-run-")
    (rundir / "prog").write_bytes(binary)
    (rundir / "prog").chmod(0o755)
    try:
        return sandbox.run(["./prog"], rundir, sandbox.Limits(wall_s=60))
    finally:
        sandbox.remove_tree(rundir)


def test_a_kernel_build_links_the_runtime_library_built_once_and_compiles_none_of_it(tmp_path, shared_verify_cache):
    pch = buildmod.ensure_pch(shared_verify_cache, SOC)
    assert pch.header is not None and pch.runtime is not None and pch.runtime.is_file(), pch.error
    before = pch.runtime.stat()
    first = _build(tmp_path / "a", shared_verify_cache, pch, variant=1)
    second = _build(tmp_path / "b", shared_verify_cache, pch, variant=2)
    assert first.ok and second.ok, first.log + second.log
    assert not second.cached  # a distinct unit: its own compile
    again = buildmod.ensure_pch(shared_verify_cache, SOC)
    after = pch.runtime.stat()
    assert (again.runtime, again.seconds) == (pch.runtime, 0.0)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # not rebuilt by either unit
    # the kernel's own object only declares the runtime: its compile generated none of it
    argv = buildmod.compile_argv(["k.cpp"], ["."], "k.o", SOC, pch)
    argv = [a for a in argv if a != str(pch.runtime)] + ["-c"]
    done = subprocess.run(argv, cwd=tmp_path / "a", capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    symbols = subprocess.run(["nm", "-C", str(tmp_path / "a" / "k.o")], capture_output=True, text=True).stdout
    # (the queue protocol and the launch are reached through the library's template instances, cbemu_api_instances.h,
    # when the kernel's queue and entry types are among them: then the kernel does not even reference them)
    for name in ("cbemu::launch_cores(", "cbemu::gm_alloc(", "cbemu::QueueCore::free_buffer(", "TPipe::InitBuffer("):
        lines = [ln for ln in symbols.splitlines() if name in ln]
        assert all(ln.split()[0] == "U" for ln in lines), lines  # undefined here, defined once in the runtime library
        assert lines or name in ("cbemu::launch_cores(", "cbemu::QueueCore::free_buffer("), name
    defined = [ln for ln in symbols.splitlines() if len(ln.split()) > 2 and ln.split()[1] in "TtWw"]
    runtime_defs = [ln for ln in defined if any(ns in ln for ns in ("cbemu::report(", "cbemu::hz::", "Sched"))]
    assert not runtime_defs, runtime_defs
    # the kernel side of the library is linked in, its host side (op registry, aclnn layer) is not: nothing uses it
    (tmp_path / "prog").write_bytes(second.binary)
    linked = subprocess.run(["nm", "-C", str(tmp_path / "prog")], capture_output=True, text=True).stdout
    assert "cbemu::QueueCore::free_buffer(" in linked and "cbhost::" not in linked
    # and the diagnostics still fire, from the runtime library, at the kernel's line
    run = _run(second.binary)
    assert run.returncode == 3, run.stderr
    assert '"kind":"double_free"' in run.stderr and '"line":10' in run.stderr, run.stderr


def _copy_key(soc: str) -> str:
    """The key ensure_pch files the current emulator's PCH and runtime library under, at KERNEL_OPT."""
    return buildmod.pch_recipe(soc, buildmod.KERNEL_OPT, True).key


@pytest.fixture
def emulator_copy(tmp_path, monkeypatch, shared_verify_cache):
    """The build module pointed at a copy of the emulator (at one path for the whole test, so only its content can
    tell two states apart), and tmp_path/cache holding the unedited copy's PCH and runtime library: the run's
    (built from the same files), filed under the copy's key - what the test proves is what an edit does, and building
    the unedited state here too was a second PCH build (~12 CPU-s). Should ensure_pch's key recipe change, the seed
    is not found and the test builds the unedited state itself: slower, the same test."""
    unedited = buildmod.ensure_pch(shared_verify_cache, SOC)  # the run's, from the emulator itself
    assert unedited.header is not None and unedited.runtime is not None, unedited.error
    copy = tmp_path / "emulator"
    shutil.copytree(buildmod.EMULATOR_DIR, copy, ignore=shutil.ignore_patterns("tests"))
    monkeypatch.setattr(buildmod, "EMULATOR_DIR", copy)
    monkeypatch.setattr(buildmod, "INCLUDE_DIR", copy / "include")
    monkeypatch.setattr(buildmod, "HARNESS_INCLUDE_DIR", copy / "harness_include")
    monkeypatch.setattr(buildmod, "RUNTIME_SOURCES", tuple(copy / "src" / src.name for src in buildmod.RUNTIME_SOURCES))
    monkeypatch.setattr(buildmod, "INCLUDE_DIRS", (copy / "include", copy / "include" / "basic_api"))
    buildmod.emulator_digest.cache_clear()
    seeded = tmp_path / "cache" / "pch" / _copy_key(SOC)
    shutil.copytree(unedited.header.parent, seeded, ignore=shutil.ignore_patterns(".lock"))
    yield copy
    buildmod.emulator_digest.cache_clear()


def test_an_edited_emulator_never_links_the_stale_runtime_library_nor_reuses_a_binary_built_with_it(
    tmp_path, emulator_copy
):
    cache = tmp_path / "cache"
    original = buildmod.ensure_pch(cache, SOC)
    old = _build(tmp_path / "old", cache, original)
    assert old.ok, old.log
    assert "already free" in _run(old.binary).stderr
    # the runtime's double-free message edited in place, as in a checkout: same paths, same flags, new content
    pipe_h = emulator_copy / "include" / "impl" / "basic_api" / "pipe.h"
    text = pipe_h.read_text(encoding="utf-8")
    pipe_h.write_text(text.replace("FreeTensor on a tensor that is already free", "freed twice (edited)"), "utf-8")
    buildmod.emulator_digest.cache_clear()  # a new process (the next verify run) reads the headers again
    edited = buildmod.ensure_pch(cache, SOC)
    assert edited.runtime is not None and edited.runtime.is_file(), edited.error
    assert edited.runtime != original.runtime  # its own key: the emulator's digest changed
    new = _build(tmp_path / "new", cache, edited)
    assert new.ok and not new.cached, new.log  # same sources, same flags: still a new build
    said = _run(new.binary).stderr
    assert "freed twice (edited)" in said and "already free" not in said, said


# A kernel's host side using the C++ library class instances the runtime library holds (emulator/src/
# cbemu_instances.h): vector<int>::resize and deque<int>::push_back are members of those instances.
LIBRARY_USER = """#include "kernel_operator.h"
#include <deque>
#include <vector>
int main() {
    std::vector<int> sizes;
    sizes.resize(1000, 7);
    std::deque<int> order;
    for (int i = 0; i < 5000; ++i) order.push_back(i);  // past deque's first chunk
    long sum = 0;
    for (int v : sizes) sum += v;
    for (int v : order) sum += v;
    std::printf("sum %ld\\n", sum);
    return sum == 7000 + 4999L * 5000 / 2 ? 0 : 1;
}
"""


def _object_and_library_symbols(work: Path, source: str, pch: buildmod.Pch) -> tuple[list[str], list[str]]:
    """`nm -C` lines of `source` compiled (not linked) with the run's PCH as verify compiles a unit, and of the runtime
    library beside that PCH."""
    work.mkdir()
    (work / "k.cpp").write_text(source, encoding="utf-8")
    argv = buildmod.compile_argv(["k.cpp"], ["."], "k.o", SOC, pch)
    argv = [a for a in argv if a != str(pch.runtime) and a not in buildmod.linker_flags()] + ["-c"]
    done = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    kernel = subprocess.run(["nm", "-C", str(work / "k.o")], capture_output=True, text=True).stdout
    archive = subprocess.run(["nm", "-C", str(pch.runtime)], capture_output=True, text=True).stdout
    return kernel.splitlines(), archive.splitlines()


def test_a_kernel_compile_leaves_the_library_instances_to_the_runtime_library_and_still_runs(
    tmp_path, shared_verify_cache
):
    """The precompiled header declares those instances `extern template`: the kernel's object does not define their
    out-of-line members (the compile did not instantiate them), the runtime library does, and the program links and
    computes the same as any C++ program."""
    pch = buildmod.ensure_pch(shared_verify_cache, SOC)
    assert pch.header is not None and pch.runtime is not None, pch.error
    work = tmp_path / "lib-user"
    kernel, archive = _object_and_library_symbols(work, LIBRARY_USER, pch)
    for member in (
        "std::vector<int, std::allocator<int> >::resize(",
        "std::deque<int, std::allocator<int> >::push_back(",
    ):
        in_kernel = [ln for ln in kernel if member in ln]
        assert in_kernel and all(ln.split()[0] == "U" for ln in in_kernel), in_kernel  # used, not defined here
        assert any(ln.split()[1] in "TW" for ln in archive if member in ln and len(ln.split()) > 2)
    built = buildmod.build(work, ["k.cpp"], ["."], SOC, shared_verify_cache, "library-user", pch)
    assert built.ok, built.log
    run = _run(built.binary)
    assert run.ok and "sum 12504500" in run.stdout, run.stdout + run.stderr


# half goes through instances the library holds (emulator/src/cbemu_api_instances.h); bfloat16_t DataCopy does not:
# the kernel's compile instantiates that one itself, as before the list existed.
API_USER = """#include "kernel_operator.h"
#include <cstring>
using namespace AscendC;
constexpr int32_t N = 128;
template <typename T, typename Q>
__aicore__ inline void RoundTrip(Q& q, GM_ADDR src, GM_ADDR dst) {
    GlobalTensor<T> in, out;
    in.SetGlobalBuffer((__gm__ T*)src, N);
    out.SetGlobalBuffer((__gm__ T*)dst, N);
    LocalTensor<T> t = q.template AllocTensor<T>();
    DataCopy(t, in, N);
    q.EnQue(t);
    LocalTensor<T> u = q.template DeQue<T>();
    DataCopy(out, u, N);
    q.FreeTensor(u);
}
extern "C" __global__ __aicore__ void round_trip(GM_ADDR x, GM_ADDR y, GM_ADDR a, GM_ADDR b) {
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> q;  // copy-only: its EnQue/DeQue order MTE2 before MTE3
    pipe.InitBuffer(q, 2, N * sizeof(half));
    RoundTrip<half>(q, x, y);
    RoundTrip<bfloat16_t>(q, a, b);
}
int main() {
    size_t bytes = N * 2;
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes); uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* a = (uint8_t*)AscendC::GmAlloc(bytes); uint8_t* b = (uint8_t*)AscendC::GmAlloc(bytes);
    for (size_t i = 0; i < bytes; ++i) { x[i] = (uint8_t)(i * 7 + 1); a[i] = (uint8_t)(i * 13 + 5); }
    ICPU_RUN_KF(round_trip, 1, x, y, a, b);
    bool same = std::memcmp(x, y, bytes) == 0 && std::memcmp(a, b, bytes) == 0;
    std::printf(same ? "copied\\n" : "differs\\n");
    return same ? 0 : 1;
}
"""


def test_a_kernel_compile_leaves_the_common_api_instances_to_the_runtime_library_and_compiles_the_others(
    tmp_path, shared_verify_cache
):
    """The emulator's template instances in cbemu_api_instances.h are declared `extern template` in the precompiled
    header: the kernel's object uses DataCopy<half> and GlobalTensor<half> without defining them (the library does),
    still defines the bfloat16_t DataCopy the list leaves out, and the program moves both dtypes' bytes exactly."""
    listed = buildmod.API_INSTANCES.read_text(encoding="utf-8")
    assert (
        "void AscendC::DataCopy<half>(AscendC::LocalTensor<half> const&, AscendC::GlobalTensor<half> const&" in listed
    )
    assert "AscendC::DataCopy<bfloat16_t>(" not in listed  # the fallback this test needs
    pch = buildmod.ensure_pch(shared_verify_cache, SOC)
    assert pch.header is not None and pch.runtime is not None, pch.error
    work = tmp_path / "api-user"
    kernel, archive = _object_and_library_symbols(work, API_USER, pch)

    def kinds(lines: list[str], member: str) -> set[str]:
        """nm's symbol kinds of the lines naming `member` (U: used here, defined elsewhere; T/W: defined here)."""
        return {m.group(1) for ln in lines if member in ln and (m := re.match(r"[0-9a-f]*\s+([A-Za-z]) ", ln))}

    for member in (
        "void AscendC::DataCopy<half>(AscendC::LocalTensor<half> const&",  # a function template instance
        "AscendC::GlobalTensor<half>::SetGlobalBuffer(",  # a member of a class template instance
        "cbemu::QueueCore::alloc<half>(",  # the emulator's queue protocol under AllocTensor<half>
    ):
        assert kinds(kernel, member) == {"U"}, member  # used, not compiled here
        assert kinds(archive, member) & {"T", "W"}, member  # the library holds it
    assert "W" in kinds(kernel, "void AscendC::DataCopy<bfloat16_t>(AscendC::LocalTensor<bfloat16_t> const&")
    built = buildmod.build(work, ["k.cpp"], ["."], SOC, shared_verify_cache, "api-user", pch)
    assert built.ok, built.log
    run = _run(built.binary)
    assert run.ok and "copied" in run.stdout, run.stdout + run.stderr


def test_a_header_declaring_other_instances_is_filed_under_another_key(monkeypatch):
    """The PCH folder's key covers the header's text, not only the emulator's files and the flags: a cotbuilder that
    declares other `extern template` instances (or none, for clang) never takes a header an older one built - its
    units would reference instances the library beside that header does not hold."""
    recipe = buildmod.pch_recipe(SOC, buildmod.KERNEL_OPT, True)
    key, text = recipe.key, recipe.text
    assert "extern template" in text and buildmod.NO_API_INSTANCES in text
    real = buildmod.pch_text
    monkeypatch.setattr(buildmod, "pch_text", lambda headers, runtime: real(headers, runtime).replace("extern ", "", 1))
    assert buildmod.pch_recipe(SOC, buildmod.KERNEL_OPT, True).key != key
    monkeypatch.setattr(buildmod, "pch_text", real)
    assert buildmod.pch_recipe(SOC, buildmod.KERNEL_OPT, True).key == key  # and it is stable


def test_the_runtime_library_is_optimised_whatever_level_the_units_are_built_at(shared_verify_cache):
    """Units build at KERNEL_OPT with a header precompiled at that level; the library they link stays at -O1 (a
    kernel's run spends its time there). Another unit level is another header, never another library text. Both
    levels are the run's (in its shared build cache): -O1 is also the level test_stage verifies a unit at again."""
    unit_level = buildmod.ensure_pch(shared_verify_cache, SOC)
    assert unit_level.runtime is not None, unit_level.error
    header = unit_level.header.read_text(encoding="utf-8")
    assert "extern template class __VA_ARGS__" in header and "CBEMU_INSTANCE(std::vector<int>)" in header
    other = buildmod.ensure_pch(shared_verify_cache, SOC, opt="-O1")
    assert other.header.parent.name != unit_level.header.parent.name  # the level is part of the key
    assert buildmod.KERNEL_OPT != buildmod.RUNTIME_OPT == "-O1"

    # the same library code: -O1 objects in both folders (the header's level does not reach them)
    def text_of(library: Path) -> str:
        dump = subprocess.run(["objdump", "-d", str(library)], capture_output=True, text=True).stdout
        return "\n".join(line for line in dump.splitlines() if str(library) not in line)

    assert text_of(unit_level.runtime) == text_of(other.runtime)


def test_a_runtime_library_built_for_one_unit_level_is_copied_not_compiled_for_another(
    tmp_path, monkeypatch, emulator_copy
):
    """The library is compiled at RUNTIME_OPT whatever the units' level: a PCH build for a second level takes the
    first build's library (kept beside the PCH folders by emulator digest + library flags) instead of compiling the
    runtime again (~14 of a PCH build's 22 CPU-s). Here the runtime's sources cannot compile and the precompiled
    header is a small one: the build still has a library - the one that was kept - so nothing compiled it."""
    broken = emulator_copy / "src" / "broken_runtime.cpp"
    broken.write_text("#error the runtime was compiled again\n", encoding="utf-8")
    monkeypatch.setattr(buildmod, "RUNTIME_SOURCES", (broken,))
    buildmod.emulator_digest.cache_clear()
    monkeypatch.setattr(buildmod, "pch_text", lambda includes, runtime: '#include "acl/acl.h"\n')
    monkeypatch.setattr(buildmod, "HOST_PCH_INCLUDES", ())
    cache = tmp_path / "cache"
    recipe = buildmod.pch_recipe(SOC, "-O1", True)
    kept = buildmod._shared_runtime(cache, recipe.runtime_flags)
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"!<arch>\n")  # an empty archive: what the first level's build left
    pch = buildmod.ensure_pch(cache, SOC, "-O1")
    assert pch.runtime is not None and pch.runtime.read_bytes() == b"!<arch>\n", pch.error
    assert pch.runtime.parent == pch.header.parent  # a copy in the PCH's folder, which the sandbox can read
    kept.unlink()
    other = buildmod.ensure_pch(cache, SOC, "-O2")  # nothing kept: it compiles the runtime, which cannot build
    assert other.runtime is None and "the runtime was compiled again" in other.error


# A kernel calling a function nobody defines: a link error.
UNDEFINED = """#include "kernel_operator.h"
void cotbuilder_missing_helper(int);
int main() { cotbuilder_missing_helper(3); return 0; }
"""


def test_a_link_error_reads_the_same_on_every_run_and_names_the_symbol(tmp_path, shared_verify_cache):
    """The object of a compile-and-link is a temp file with a random name that the linker quotes: the log shows one
    fixed name instead, so the same code gets the same failure text (the verdict's reason) each time."""
    pch = buildmod.ensure_pch(shared_verify_cache, SOC)
    logs = []
    for name in ("one", "two"):
        work = tmp_path / name
        work.mkdir()
        (work / "k.cpp").write_text(UNDEFINED, encoding="utf-8")
        result = buildmod.build(work, ["k.cpp"], ["."], SOC, tmp_path / "cache", f"undefined-{name}", pch)
        assert not result.ok and result.outcome == "exit"
        logs.append(result.log)
    assert logs[0] == logs[1], logs
    assert "cotbuilder_missing_helper(int)" in logs[0] and "undefined reference" in logs[0]
    assert not re.search(r"\bcc[A-Za-z0-9]{6}\.o\b", logs[0]), logs[0]
