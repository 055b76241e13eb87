"""Fixtures for the emulator tests: a precompiled header and the emulator's runtime object built once per session
(as cotbuilder's verify builds them: impl/emu/rt.h), and a helper that compiles C++ test programs against the
emulator headers with real g++ - with both (what verify does) or, when macros change, header-only."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from cotbuilder.paths import emulator_dir, emulator_include_dirs
from cotbuilder.verify.build import KERNEL_OPT, RUNTIME_OPT

REPO = Path(__file__).resolve().parents[2]
INCLUDE = emulator_dir() / "include"
CPP = emulator_dir() / "tests"  # the C++ test programs live beside the emulator
# the levels verify builds at: programs (kernels) and the header at KERNEL_OPT, the runtime library at RUNTIME_OPT
FLAGS = ["-std=c++17", KERNEL_OPT, "-pthread", "-DASCENDC_CPU_DEBUG"]
RUNTIME_FLAGS = [RUNTIME_OPT if f == KERNEL_OPT else f for f in FLAGS]
PREBUILT = "-DCOTBUILDER_EMU_PREBUILT"  # the headers declare the runtime; the runtime object defines it
RUNTIME_SOURCES = [emulator_dir() / "src" / name for name in ("cbemu_runtime.cpp", "cbhost_runtime.cpp")]
NOT_LINKING = {"-c", "-fsyntax-only", "-S", "-E"}
INCLUDE_FLAGS = [f"-I{d}" for d in emulator_include_dirs()]


@dataclass
class Toolchain:
    pch_dir: Path
    cpp: Path = CPP
    include: Path = INCLUDE
    builds: Path | None = None  # the run's shared build folder (see build)

    def compile(
        self,
        source: Path,
        out: Path,
        extra: list[str] | None = None,
        use_pch: bool = True,
        after_pch: list[str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """`extra` flags may change macros, so they turn the PCH and the runtime object off (header-only build);
        `after_pch` flags (-c, -fsyntax-only, -include of a non-emulator header) keep them."""
        cmd = ["g++", *FLAGS, *(extra or []), *INCLUDE_FLAGS]
        prebuilt = use_pch and not extra  # the PCH is only valid for the exact flags it was built with
        if prebuilt:
            cmd += [
                PREBUILT,
                "-Winvalid-pch",
                "-Werror=invalid-pch",
                "-include",
                str(self.pch_dir / "kernel_operator.h"),
            ]
        cmd += [*(after_pch or []), str(source)]
        if prebuilt and not NOT_LINKING & set(after_pch or []):
            cmd.append(str(self.pch_dir / "libcbemu.a"))
        cmd += ["-o", str(out)]
        # LC_ALL=C: plain ASCII quotes in g++ messages ('Foo' is not a member of 'AscendC')
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={**os.environ, "LC_ALL": "C"})

    def build(self, source: Path, out: Path, extra: list[str] | None = None) -> Path:
        """Build once per test run: xdist spreads a module's tests over both workers, and each worker's module
        fixture would compile the same program again. Keyed by the source's bytes and the flags (the emulator headers
        do not change during a run); the first worker builds under a lock, the other copies the result."""
        if self.builds is None:
            proc = self.compile(source, out, extra)
            assert proc.returncode == 0, proc.stderr[-4000:]
            return out
        key = hashlib.sha256(repr((str(source), source.read_bytes(), extra, FLAGS, out.name)).encode()).hexdigest()[:24]
        entry = self.builds / key
        entry.mkdir(parents=True, exist_ok=True)
        with open(entry / "lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (entry / "exe").is_file():
                proc = self.compile(source, entry / "tmp-exe", extra)
                assert proc.returncode == 0, proc.stderr[-4000:]
                os.replace(entry / "tmp-exe", entry / "exe")
        shutil.copy2(entry / "exe", out)
        return out


@pytest.fixture(scope="session")
def toolchain(run_root: Path) -> Toolchain:
    """The PCH and runtime library, built once per test run by the first worker to get here (the others wait on the
    lock and reuse them), and the run's shared build folder."""
    if shutil.which("g++") is None:
        pytest.fail("g++ is required for the emulator tests")
    shared = run_root / "emulator-toolchain"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "pch" / "done").is_file():
            pch_dir = shared / "pch"
            shutil.rmtree(pch_dir, ignore_errors=True)  # half built by a worker that died
            pch_dir.mkdir()
            _build_pch(pch_dir)
            (pch_dir / "done").write_text("ok")
    return Toolchain(shared / "pch", builds=shared / "builds")


def _build_pch(pch_dir: Path) -> None:
    # fallback header next to the .gch: used only if the PCH is rejected
    (pch_dir / "kernel_operator.h").write_text(f'#include "{INCLUDE / "kernel_operator.h"}"\n')
    jobs = [(FLAGS, ["-x", "c++-header", str(INCLUDE / "kernel_operator.h")], "kernel_operator.h.gch")]
    jobs += [(RUNTIME_FLAGS, ["-c", str(src)], src.stem + ".o") for src in RUNTIME_SOURCES]
    # at once (independent compiles), as ensure_pch does: the other worker waits for them on the lock
    procs = [
        subprocess.Popen(
            ["g++", *flags, *INCLUDE_FLAGS, PREBUILT, *args, "-o", str(pch_dir / target)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for flags, args, target in jobs
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    objects = [str(pch_dir / (src.stem + ".o")) for src in RUNTIME_SOURCES]
    subprocess.run(["ar", "rcs", str(pch_dir / "libcbemu.a"), *objects], check=True, timeout=120)


def _parse_diags(stderr: str) -> list[dict]:
    """The emulator's diagnostics: one `COTBUILDER_DIAG {json}` line each."""
    out = []
    for line in stderr.splitlines():
        if line.startswith("COTBUILDER_DIAG "):
            out.append(json.loads(line[len("COTBUILDER_DIAG ") :]))
    return out


def _marker_line(source: Path, marker: str) -> int:
    """1-based line of the source line carrying `// @<marker>`."""
    for i, text in enumerate(source.read_text().splitlines(), start=1):
        if f"// @{marker}" in text:
            return i
    raise AssertionError(f"marker {marker} not in {source}")


Toolchain.parse_diags = staticmethod(_parse_diags)
Toolchain.marker_line = staticmethod(_marker_line)
