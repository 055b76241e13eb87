"""Regenerate emulator/src/cbemu_api_instances.h: the emulator's template instances real kernels use most, compiled
once into the runtime library (libcbemu.a) and declared `extern template` in verify's precompiled header, so a
kernel's compile stops instantiating and generating them (DataCopy<half>, LocalTensor<float>, a TQue's AllocTensor).

    python emulator/tools/api_instances.py [--git-dir /work/.mirror/mirror-cann+asc-devkit/repo] [--min-samples 2]

Which instances: every sample kernel-launch folder under the snapshot's examples/ is compiled (in the sandbox, to an
object only: nothing runs) without the precompiled header, and the template code the object defines is read back
with `nm -C`. Kept: class templates and function templates of the AscendC and cbemu namespaces whose arguments name
emulator / C++ types only (never a kernel's own type or a lambda), used by at least --min-samples samples (which also
leaves out a constant only one kernel chooses, e.g. its tile length as a template argument). The demo corpus (examples/ of this repository) is deliberately not a
source: the benchmark that measures this (bench_verify.py --only distinct) runs on it, so it stays held out.
Every line is compiled against the emulator's headers before it is written; a line that does not compile is
dropped (and printed). The file is written in a stable order: a re-run on the same snapshot changes nothing.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "verify"))
sys.path.insert(0, str(REPO / "benchmarks"))

OUT = REPO / "emulator" / "src" / "cbemu_api_instances.h"
NAMESPACES = ("AscendC::", "cbemu::")
# Type words a kept signature may use unqualified (C++ built-ins and the emulator's global dtypes).
PLAIN_WORDS = {
    "void", "bool", "char", "signed", "unsigned", "short", "int", "long", "float", "double", "const", "volatile",
    "half", "bfloat16_t", "int4b_t", "hifloat8_t", "fp8_e4m3fn_t", "fp8_e5m2_t", "fp4x2_e2m1_t", "fp4x2_e1m2_t",
}  # fmt: skip
_WORD = re.compile(r"(?<![\w:])([A-Za-z_]\w*)(?!\w)")


def acceptable(signature: str) -> bool:
    """Whether a demangled signature names only the emulator's and the C++ library's entities (never a kernel's own
    type or a lambda; a kernel-chosen constant, e.g. a tile length as a template argument, is left out by the
    --min-samples count, as nothing another kernel uses shares it)."""
    if any(bad in signature for bad in ("lambda", "{", "anonymous", "__cxx11", "operator")):
        return False
    for m in _WORD.finditer(signature):
        if m.group(1) not in PLAIN_WORDS and not signature.startswith(NAMESPACES + ("std::",), m.start()):
            return False
    return True


def _top_level(text: str, wanted: str) -> list[int]:
    """Positions of `wanted` outside <...> and (...) in a demangled name."""
    depth, found = 0, []
    for i, ch in enumerate(text):
        if ch in "<(":
            if ch == wanted and depth == 0:
                found.append(i)
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif ch == wanted and depth == 0:
            found.append(i)
    return found


def instances(demangled: list[str]) -> set[tuple[str, str]]:
    """(kind, text) pairs from `nm -C` lines of weak definitions: ("class", "AscendC::LocalTensor<half>") for a
    member of a class template instance, ("function", "void AscendC::DataCopy<half>(...)") for a function template."""
    found = set()
    for sig in demangled:
        params = _top_level(sig, "(")
        if not params:
            continue
        head = sig[: params[0]]
        spaces = _top_level(head, " ")
        name = head[spaces[-1] + 1 :] if spaces else head  # after the return type, when there is one
        if spaces and name.endswith(">") and name.startswith(NAMESPACES) and acceptable(sig):
            found.add(("function", sig))  # a function template: its return type is in the signature
            continue
        # the class is the qualifier before the member's name: AscendC::TQue<(AscendC::TPosition)9, 2, 0>::TQue
        owner = name[: name.rfind("::")] if "::" in name else ""
        if owner.endswith(">") and owner.startswith(NAMESPACES) and acceptable(owner):
            found.add(("class", owner))
    return found


def object_symbols(folder: Path, work: Path) -> list[str]:
    """The weak (inline / template) definitions of the sample's object, compiled in the sandbox without the PCH."""
    from unitdir import unit_from_dir

    from cotbuilder.verify import build as buildmod
    from cotbuilder.verify import harness_own, sandbox, steps

    real_run = sandbox.run

    def compile_only(argv, workdir, *args, **kwargs):
        if argv[0] == "g++":
            out = argv.index("-o")
            argv = [a for a in argv[:out] if not a.endswith(".a") and not a.startswith("-fuse-ld")]
            argv += ["-c", "-o", "cbemu_probe.o"]
        return real_run(argv, workdir, *args, **kwargs)

    buildmod.sandbox.run = compile_only
    try:
        ctx = steps.Context(cache_dir=work / "cache", use_cache=False, pch=buildmod.Pch(None))
        unit = unit_from_dir(folder, layout="kernel_launch")
        build_dir = work / "build"
        harness_own.build_unit(unit, build_dir, ctx)
    finally:
        buildmod.sandbox.run = real_run
    probe = build_dir / "cbemu_probe.o"
    if not probe.is_file():
        return []
    nm = subprocess.run(["nm", "-C", "--defined-only", str(probe)], capture_output=True, text=True).stdout
    return [line.split(" ", 2)[2] for line in nm.splitlines() if line.split(" ")[1:2] == ["W"]]


def _probe(folder: str) -> set[tuple[str, str]]:
    with tempfile.TemporaryDirectory(prefix="apiinst-") as tmp:
        return instances(object_symbols(Path(folder), Path(tmp)))


INSTANCE_MACROS = {"class": "CBEMU_INSTANCE", "function": "CBEMU_FN_INSTANCE"}


def render(lines: list[tuple[str, str]]) -> str:
    head = (
        "// Generated by emulator/tools/api_instances.py (its docstring says how and from what); do not edit by hand.\n"
        "// The emulator's template instances sample kernels use most: compiled once into libcbemu.a\n"
        "// (cbemu_api_instances.cpp) and declared `extern template` in verify's precompiled header, so a kernel's\n"
        "// compile leaves them to the library. A kernel using another instance compiles it itself, as before.\n"
    )
    return head + "".join(f"{INSTANCE_MACROS[kind]}({text})\n" for kind, text in lines)


def compile_check(lines: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The lines that compile as explicit instantiation definitions against the emulator's headers, with g++ and,
    when it is installed, clang++ (verify compiles the kernels that specialise a member per core type with clang++,
    under the same precompiled header text); drops the rest."""
    for compiler in ("g++", "clang++"):
        if shutil.which(compiler):
            lines = _compile_check(lines, compiler)
    return lines


def _compile_check(lines: list[tuple[str, str]], compiler: str) -> list[tuple[str, str]]:
    from cotbuilder.verify import build as buildmod

    while True:
        with tempfile.TemporaryDirectory(prefix="apiinst-check-") as tmp:
            src = Path(tmp) / "check.cpp"
            text = '#include "kernel_operator.h"\n#include "tikicpulib.h"\n'
            text += "#define CBEMU_INSTANCE(...) template class __VA_ARGS__;\n"
            text += "#define CBEMU_FN_INSTANCE(...) template __VA_ARGS__;\n"
            first = text.count("\n") + 1
            src.write_text(text + "".join(f"{INSTANCE_MACROS[k]}({t})\n" for k, t in lines))
            flags = [f for f in buildmod.base_flags("ascend910b", "-O0") if f != "-w"]
            argv = [compiler, *flags, buildmod.PREBUILT_DEFINE, "-c", str(src), "-o", os.devnull]
            done = subprocess.run(argv, capture_output=True, text=True)
        if done.returncode == 0:
            return lines
        bad = {int(n) - first for n in re.findall(r"check\.cpp:(\d+):\d+: (?:fatal )?error", done.stderr)}
        bad = {i for i in bad if 0 <= i < len(lines)}
        if not bad:
            raise SystemExit(
                f"the instances do not compile with {compiler}, and no error names a line:\n" + done.stderr[-3000:]
            )
        for i in sorted(bad):
            print(f"dropped ({compiler}: does not compile): {lines[i][1]}", file=sys.stderr)
        lines = [line for i, line in enumerate(lines) if i not in bad]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", default="/work/.mirror/mirror-cann+asc-devkit/repo")
    parser.add_argument("--min-samples", type=int, default=2, help="keep an instance used by at least this many")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    import measure_asc_devkit

    with tempfile.TemporaryDirectory(prefix="apiinst-src-") as tmp:
        examples = measure_asc_devkit.unpack(args.git_dir, Path(tmp))
        folders = [str(f) for f in measure_asc_devkit.all_samples(examples)]
        print(f"{len(folders)} sample folders; compiling each once (no PCH, object only)", file=sys.stderr)
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            found = pool.map(_probe, folders, chunksize=1)
    used = collections.Counter(item for per_sample in found for item in per_sample)
    kept = sorted((item for item, n in used.items() if n >= args.min_samples), key=lambda kt: (kt[0], kt[1]))
    kept = compile_check(kept)
    OUT.write_text(render(kept), encoding="utf-8")
    classes = sum(k == "class" for k, _ in kept)
    print(
        f"wrote {OUT.relative_to(REPO)}: {classes} class and {len(kept) - classes} function instances", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    shutil.which("nm") or sys.exit("nm (binutils) is needed")
    raise SystemExit(main())
