"""Building a unit against the CPU emulator: flags, the precompiled header, the build cache keyed by source + flags."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..paths import emulator_dir, emulator_include_dirs
from . import files, sandbox
from .config import KERNEL_OPT

EMULATOR_DIR = emulator_dir()
INCLUDE_DIR = EMULATOR_DIR / "include"
# Test-harness stand-ins (a gtest-compatible runner, a JSON value, the torch-extension surface of benchmark
# bindings): not AscendC, so not in the emulator's API tree; on the include path of op-project harness builds only.
HARNESS_INCLUDE_DIR = EMULATOR_DIR / "harness_include"
# The emulator's runtime, kernel and host side (impl/emu/rt.h): compiled once per emulator version + flags.
# cbemu_instances.cpp: the C++ library class instances the precompiled header declares `extern template` (INSTANCES).
RUNTIME_SOURCES = tuple(
    EMULATOR_DIR / "src" / name for name in ("cbemu_runtime.cpp", "cbhost_runtime.cpp", "cbemu_instances.cpp")
)
INSTANCES = EMULATOR_DIR / "src" / "cbemu_instances.h"
INCLUDE_DIRS = emulator_include_dirs()  # -I roots: include/ and include/basic_api/ (bare `kernel_tpipe.h`)
PCH_NAME = "cotbuilder_pch.h"
RUNTIME_NAME = "libcbemu.a"  # an archive: a program links the host part only when it uses the host shims
# A translation unit compiled with this define declares the runtime and links the prebuilt object.
PREBUILT_DEFINE = "-DCOTBUILDER_EMU_PREBUILT"
# The emulator headers every kernel/host TU includes; precompiled once per emulator version + flags.
PCH_INCLUDES = ("kernel_operator.h", "tikicpulib.h")
# The runtime library is compiled optimised whatever level the units are built at: a kernel's run spends its time in
# it (hazard model, scheduler, queues, GM checks), and it is compiled once, not per kernel. A unit's own translation
# unit is built at KERNEL_OPT (config.py: -O0, a third less compiler time than -O1 per kernel) with a precompiled
# header of the same level (g++ takes a header precompiled at another level but then compiles its inline functions
# with that level's options, so the two never mix).
RUNTIME_OPT = "-O1"
SOC_DEFINES = {"ascend910b": "COTBUILDER_SOC_ASCEND910B", "ascend310p": "COTBUILDER_SOC_ASCEND310P"}
# The device compiler's core-version macro, which kernels test (`#if __CCE_AICORE__ == 220`: the Atlas A2 path; 200:
# Atlas inference / 310P). Defined for kernel code only, as ccec does; host code compiled by g++ never sees it.
DEVICE_CORE_MACRO = (
    "#ifndef __CCE_AICORE__\n#if defined(COTBUILDER_SOC_ASCEND910B)\n#define __CCE_AICORE__ 220\n"
    "#elif defined(COTBUILDER_SOC_ASCEND310P)\n#define __CCE_AICORE__ 200\n#endif\n#endif"
)


def emulator_version() -> str:
    path = EMULATOR_DIR / "VERSION"
    return path.read_text(encoding="utf-8").strip() if path.is_file() else "0-unversioned"


@lru_cache(maxsize=1)
def emulator_digest() -> str:
    """Hash of every emulator header: a header edited without a VERSION bump still invalidates PCH and builds.
    Read once per process (the build key of every unit needs it; the headers do not change under a running stage)."""
    h = hashlib.sha256(emulator_version().encode())
    for folder in (INCLUDE_DIR, HARNESS_INCLUDE_DIR, RUNTIME_SOURCES[0].parent):  # all of them end up in binaries
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                h.update(str(path.relative_to(EMULATOR_DIR)).encode())
                h.update(path.read_bytes())
    return h.hexdigest()[:16]


def base_flags(soc: str, opt: str = KERNEL_OPT) -> list[str]:
    return [
        "-std=c++17",
        opt,
        "-g0",
        "-pthread",
        "-DASCENDC_CPU_DEBUG",
        f"-D{SOC_DEFINES[soc]}",
        f'-DCOTBUILDER_SOC="{soc}"',
        "-w",
        "-fno-diagnostics-color",
        *(flag for d in INCLUDE_DIRS for flag in ("-I", str(d))),
    ]


@dataclass
class Pch:
    """The precompiled emulator: its header (pass as `-include header`; None = build without a precompiled header)
    and, with it, the emulator's runtime compiled once (`runtime`, the library every build links; None = the runtime
    is compiled into each unit, header-only)."""

    header: Path | None
    seconds: float = 0.0
    error: str = ""
    runtime: Path | None = None

    def flags(self) -> list[str]:
        """What a translation unit needs to use it: the define that makes the headers declare the runtime only (the
        header was precompiled with it, so it must match), then the header, first of the forced includes."""
        if self.header is None:
            return []
        return [*([PREBUILT_DEFINE] if self.runtime is not None else []), "-include", str(self.header)]

    def objects(self) -> list[str]:
        """What a link of such translation units adds: the runtime library."""
        return [str(self.runtime)] if self.header is not None and self.runtime is not None else []

    def folder(self) -> Path | None:
        """The folder a compile step must be able to read (read-only in the sandbox): header and runtime library."""
        return self.header.parent if self.header is not None else None


def pch_text(headers: list[str], runtime: bool) -> str:
    """The precompiled header's text: the emulator's headers and the C++ library headers samples include; with the
    runtime library, its class instances declared `extern template` (emulator/src/cbemu_instances.h), so a unit's
    compile leaves their members to the library."""
    text = "".join(f'#include "{h}"\n' for h in headers) + "#include <cstdio>\n#include <cstdlib>\n"
    text += "#include <cstring>\n#include <cstdint>\n#include <string>\n#include <vector>\n"
    if runtime and INSTANCES.is_file():
        text += "#define CBEMU_INSTANCE(...) extern template class __VA_ARGS__;\n"
        text += INSTANCES.read_text(encoding="utf-8") + "\n#undef CBEMU_INSTANCE\n"
    return text


def ensure_pch(cache_dir: Path, soc: str, opt: str = KERNEL_OPT, runtime: bool = True) -> Pch:
    """Build (once, under a file lock so parallel workers wait instead of racing) the precompiled emulator header
    (at `opt`, the level units are built at) and the emulator's runtime library (at RUNTIME_OPT), both from the
    emulator's own files, keyed by the emulator's digest and both sets of flags. `runtime=False`, or a runtime that
    does not build: header-only (each unit compiles the runtime itself, as before the runtime library existed)."""
    if runtime and all(src.is_file() for src in RUNTIME_SOURCES):
        pch = _ensure_pch(cache_dir, soc, opt, True)
        if pch.header is not None:
            return pch
        fallback = _ensure_pch(cache_dir, soc, opt, False)
        fallback.error = f"prebuilt runtime: {pch.error}".strip()
        return fallback
    return _ensure_pch(cache_dir, soc, opt, False)


def _ensure_pch(cache_dir: Path, soc: str, opt: str, runtime: bool) -> Pch:
    flags = base_flags(soc, opt) + ([PREBUILT_DEFINE] if runtime else [])
    runtime_flags = base_flags(soc, RUNTIME_OPT) + [PREBUILT_DEFINE] if runtime else []
    available = [h for h in PCH_INCLUDES if (INCLUDE_DIR / h).is_file()]
    if not available:
        return Pch(None, error="emulator headers not found")
    keyed = emulator_digest() + "\0".join(flags) + "\1" + "\0".join(runtime_flags)
    key = hashlib.sha256(keyed.encode()).hexdigest()[:16]
    folder = (cache_dir / "pch" / key).resolve()  # the sandbox shows the real path (not a symlinked cache dir)
    header = folder / PCH_NAME
    gch = folder / (PCH_NAME + ".gch")
    library = folder / RUNTIME_NAME if runtime else None
    if gch.is_file():  # written last: the runtime library is there too
        return Pch(header, runtime=library)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if gch.is_file():
            return Pch(header, runtime=library)
        header.write_text(pch_text(available, runtime), encoding="utf-8")
        start = time.monotonic()
        tag = f".tmp{os.getpid()}"  # written under this name, renamed when complete (readers check the .gch only)
        gch_tmp = folder / (gch.name + tag)
        # the header and the runtime's objects at once (independent compiles), then the archive, then the .gch
        sources = RUNTIME_SOURCES if library is not None else ()
        objects = [folder / (src.stem + ".o") for src in sources]
        jobs = [([*flags, "-x", "c++-header", str(header)], gch_tmp)]
        jobs += [([*runtime_flags, "-c", str(src)], obj) for src, obj in zip(sources, objects, strict=True)]
        procs = [
            subprocess.Popen(["g++", *args, "-o", str(out)], stderr=subprocess.PIPE, text=True) for args, out in jobs
        ]
        errors = [proc.communicate(timeout=600)[1] for proc in procs]
        failed = [err for proc, err in zip(procs, errors, strict=True) if proc.returncode != 0]
        if library is not None and not failed:
            done = subprocess.run(["ar", "rcs", str(library) + tag, *map(str, objects)], capture_output=True, text=True)
            failed += [done.stderr or "ar failed"] if done.returncode else []
            if not failed:
                os.replace(str(library) + tag, library)
        for path in objects:
            path.unlink(missing_ok=True)
        if failed:
            gch_tmp.unlink(missing_ok=True)
            return Pch(None, time.monotonic() - start, failed[0][-2000:])
        os.replace(gch_tmp, gch)
        return Pch(header, time.monotonic() - start, runtime=library)


@lru_cache(maxsize=1)
def linker_flags() -> tuple[str, ...]:
    """gold when binutils has it: a unit's link costs a third of what GNU ld's does (0.02 vs 0.06 CPU-s, mostly
    reading libstdc++'s symbols), the same program for what verify builds; else the driver's default linker."""
    return ("-fuse-ld=gold",) if shutil.which("ld.gold") else ()


# A compile-and-link's object is a temp file with a random name (ccAb12Cd.o in TMPDIR, the step's dir); gold names it
# in every message, GNU ld in some. Shown as one fixed name, so a link error reads the same on every run.
_TEMP_OBJECT = re.compile(r"(?:/[^\s:'`]*/)?\bcc[A-Za-z0-9]{6}\.o\b")


def stable_log(log: str) -> str:
    return _TEMP_OBJECT.sub("<object>", log)


def compile_argv(
    sources: list[str],
    include_dirs: list[str],
    output: str,
    soc: str,
    pch: Pch | None,
    opt: str = KERNEL_OPT,
    forced_includes: tuple[str, ...] = (),
) -> list[str]:
    """g++ command building `sources` (relative to the work dir) into `output`; `.asc` and friends are C++.
    The PCH must be the first forced include; per-unit macros come after it (so one PCH serves every unit)."""
    argv = ["g++", *base_flags(soc, opt), *(pch.flags() if pch is not None else [])]
    for header in forced_includes:
        argv += ["-include", header]
    for inc in include_dirs:
        argv += ["-I", inc]
    for src in sources:
        if src.endswith((".asc", ".cce")):
            argv += ["-x", "c++", src, "-x", "none"]
        else:
            argv.append(src)
    return argv + (pch.objects() if pch is not None else []) + [*linker_flags(), "-o", output]


def portable_args(argv: list[str]) -> list[str]:
    """argv as a cache key sees it: the PCH and the runtime library are named by their key (their folder: emulator
    digest + flags), not by where the workspace lives, so a moved or copied workspace keeps its builds."""
    named = {"/" + PCH_NAME: "pch", "/" + RUNTIME_NAME: "runtime"}
    return [next((f"{k}:{Path(a).parent.name}" for end, k in named.items() if a.endswith(end)), a) for a in argv]


def build_key(workdir: Path, sources_digest: str, argv: list[str]) -> str:
    flags = [a for a in portable_args(argv) if not a.startswith(str(workdir))]
    return hashlib.sha256((emulator_digest() + sources_digest + "\0".join(flags)).encode()).hexdigest()[:24]


@dataclass
class BuildResult:
    ok: bool
    log: str
    seconds: float
    cached: bool
    binary: bytes | None  # the built program, copied out of the sandbox (never read through a path the unit controls)
    outcome: str = "ok"  # sandbox outcome of the compiler run (timeout, limit, violation...)
    reason: str = ""
    cpu_s: float = 0.0  # CPU seconds of the compiler and its children (0 when cached)


COMPILE_LIMITS = sandbox.Limits(cpu_s=120, wall_s=180, memory_mb=4096, file_mb=512, nproc=64)


def build(
    workdir: Path,
    sources: list[str],
    include_dirs: list[str],
    soc: str,
    cache_dir: Path,
    sources_digest: str,
    pch: Pch | None,
    binary_name: str = "cotbuilder_kernel",
    opt: str = KERNEL_OPT,
    use_cache: bool = True,
    forced_includes: tuple[str, ...] = (),
    session: sandbox.Session | None = None,
) -> BuildResult:
    """Compile in the sandbox (the compiler reads crawled code); reuse a cached binary for the same key. The compiler
    sees the work dir, the toolchain and the emulator headers (and the PCH) only."""
    argv = compile_argv(sources, include_dirs, binary_name, soc, pch, opt, forced_includes)
    key = build_key(workdir, sources_digest, argv)
    entry = cache_dir / "builds" / key
    if use_cache and (entry / "done").is_file():
        log = (entry / "log").read_text(encoding="utf-8", errors="replace")
        if (entry / "bin").is_file():
            return BuildResult(True, log, 0.0, True, (entry / "bin").read_bytes())
        return BuildResult(False, log, 0.0, True, None)
    ro = [str(d) for d in INCLUDE_DIRS] + ([str(pch.folder())] if pch is not None and pch.folder() else [])
    result = sandbox.run(argv, workdir, COMPILE_LIMITS, env={"LC_ALL": "C"}, session=session, ro_paths=ro)
    log = stable_log((result.stderr + result.stdout).strip())
    binary = None
    if result.ok:
        try:
            binary = files.read_file(workdir, binary_name)
        except files.Unsafe as exc:
            log += f"\n[built binary not usable: {exc}]"
    if result.outcome not in ("ok", "exit"):
        log = f"{log}\n[compiler stopped: {result.reason}]".strip()
    if use_cache and result.outcome in ("ok", "exit"):  # never cache a compile that a limit cut short
        store_entry(entry, log, binary)
    return BuildResult(
        binary is not None, log, result.wall_s, False, binary, result.outcome, result.reason, result.cpu_s
    )


def store_entry(entry: Path, log: str, binary: bytes | None) -> None:
    """Publish a build into the cache so a concurrent reader (two units with the same key under --jobs) never sees a
    half-written file: each file is written under a name private to this process and thread, then renamed into
    place; `done`, the only thing readers trust, is renamed last."""
    entry.mkdir(parents=True, exist_ok=True)
    tag = f".tmp{os.getpid()}.{threading.get_ident()}"
    if binary is not None:
        (entry / f"bin{tag}").write_bytes(binary)
        os.replace(entry / f"bin{tag}", entry / "bin")
    (entry / f"log{tag}").write_text(log, encoding="utf-8")
    os.replace(entry / f"log{tag}", entry / "log")
    (entry / f"done{tag}").write_text("1")
    os.replace(entry / f"done{tag}", entry / "done")
