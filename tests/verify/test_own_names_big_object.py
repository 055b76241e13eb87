"""own_names (core_builds: an extra dtype variant's or a vector build's names of its own) on an object whose symbol
table is longer than the sandbox's captured stdout (256 KB): every function-local static of an inline function is
still found and weakened, so two renamed builds and the unrenamed objects beside them link. The table used to be read
from readelf's captured stdout, cut at 256 KB: the statics past the cut stayed strong and the link failed with
duplicate definitions (cann-ops Gcd, Cast, FastGeluGrad once the emulator's headers grew). Real g++, readelf, objcopy
and ld in the sandbox the op build uses."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cotbuilder.verify import core_builds
from cotbuilder.verify.opproject import run as oprun

N = 2000  # inline functions with a static each: a readelf table of ~330 KB


def _source(tag: str) -> str:
    fns = "\n".join(f"inline int& counter_{i}() {{ static int n; return n; }}" for i in range(N))
    calls = " + ".join(f"counter_{i}()" for i in range(N))
    return f"{fns}\nint total_{tag}() {{ return {calls}; }}\n"


class _Builder:
    """What own_names needs of an op build: its folder, its sandboxed runner, a way to write a file there."""

    def __init__(self, workdir: Path, run):
        self.workdir, self.run = workdir, run

    def _write(self, rel: str, text: str) -> None:
        (self.workdir / rel).write_text(text)


def test_a_symbol_table_longer_than_captured_stdout_is_read_whole(ctx, tmp_path):
    objs = []
    for tag in ("a", "b"):
        (tmp_path / f"{tag}.cpp").write_text(_source(tag))
        subprocess.run(["g++", "-c", "-O0", f"{tag}.cpp", "-o", f"{tag}.o"], cwd=tmp_path, check=True, timeout=300)
        objs.append(f"{tag}.o")
    listing = subprocess.run(["readelf", "--syms", "--wide", "b.o"], capture_output=True, text=True, cwd=tmp_path)
    assert len(listing.stdout) > 256 * 1024  # longer than the sandbox reads back
    builder = _Builder(tmp_path, oprun.compile_runner(ctx))
    renamed, log, outcome = core_builds.own_names(builder, "b.o", "v1_")
    assert renamed is not None, (log, outcome)
    shared = (tmp_path / "b.o.shared").read_text().split()
    assert sum(1 for s in shared if s.startswith("_ZZ") and s.endswith("E1n")) == N
    (tmp_path / "main.cpp").write_text("int total_a(); int v1__Z7total_bv(); int main() { return total_a(); }\n")
    main = subprocess.run(["g++", "-c", "main.cpp", "-o", "main.o"], cwd=tmp_path, capture_output=True, text=True)
    assert main.returncode == 0, main.stderr
    linked = subprocess.run(
        ["g++", "main.o", "a.o", renamed, "-o", "prog"], cwd=tmp_path, capture_output=True, text=True
    )
    assert linked.returncode == 0, linked.stderr[-2000:]
