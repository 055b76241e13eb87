"""Fixtures for the emulator tests: the precompiled header and the emulator's runtime library verify builds
(buildmod.ensure_pch in the run's build cache: built once per test run, shared with the verify tests), and a helper
that compiles C++ test programs against the emulator headers with real g++ - with both (what verify does) or, when
macros change, header-only."""

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
from cotbuilder.verify import build as buildmod
from cotbuilder.verify import diagnostics

from ..conftest import run_verify_cache

REPO = Path(__file__).resolve().parents[2]
INCLUDE = emulator_dir() / "include"
CPP = emulator_dir() / "tests"  # the C++ test programs live beside the emulator
SOC = "ascend910b"
# verify's flags for a unit's own code (KERNEL_OPT; the include roots come from INCLUDE_FLAGS)
FLAGS = [f for f in buildmod.base_flags(SOC) if f != "-I" and not f.startswith(str(emulator_dir()))]
PREBUILT = buildmod.PREBUILT_DEFINE  # the headers declare the runtime; the runtime library defines it
NOT_LINKING = {"-c", "-fsyntax-only", "-S", "-E"}
INCLUDE_FLAGS = [f"-I{d}" for d in emulator_include_dirs()]


@dataclass
class Toolchain:
    pch: buildmod.Pch
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
            cmd += [PREBUILT, "-Winvalid-pch", "-Werror=invalid-pch", "-include", str(self.pch.header)]
        cmd += [*(after_pch or []), str(source)]
        if prebuilt and not NOT_LINKING & set(after_pch or []):
            cmd.append(str(self.pch.runtime))
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
    """verify's PCH and runtime library for the 910B at KERNEL_OPT, in the run's build cache (ensure_pch holds a file
    lock: the first worker to get here builds them, the others wait and reuse them), and the run's shared build
    folder for test programs."""
    if shutil.which("g++") is None:
        pytest.fail("g++ is required for the emulator tests")
    pch = buildmod.ensure_pch(run_verify_cache(run_root), SOC)
    assert pch.header is not None and pch.runtime is not None, pch.error
    shared = run_root / "emulator-toolchain"
    shared.mkdir(exist_ok=True)
    return Toolchain(pch, builds=shared / "builds")


def _legality_refusal(self, source: Path, tmp_path: Path, define: str) -> tuple[str | None, str]:
    """`source` compiled (syntax only, after the PCH) with -D<define>, which must fail: the legality table's refusal
    as diagnostics.legality_error reads it (None when the failure is not one), and the compiler's log's tail."""
    proc = self.compile(source, tmp_path / "x.o", after_pch=["-fsyntax-only", f"-D{define}"])
    assert proc.returncode != 0, f"{source.name} with -D{define} compiled"
    return diagnostics.legality_error(proc.stderr), proc.stderr[-2000:]


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
Toolchain.legality_refusal = _legality_refusal
Toolchain.marker_line = staticmethod(_marker_line)
