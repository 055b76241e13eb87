"""How much real AscendC code the cpu backend verifies: the vector-only kernel-launch samples of a local asc-devkit
snapshot, each verified with its OWN harness (its gen_data.py, its main / .asc host code, its verify_result.py).

    python benchmarks/measure_asc_devkit.py [--git-dir /work/.mirror/mirror-cann+asc-devkit/repo] [--jobs 2]

The snapshot's examples/ are unpacked into a temp dir (nothing from it is kept or committed), verified in a throwaway
workspace, and the script prints the share that passes (goal >= 80%), the statuses, and the AscendC APIs the emulator
is missing, ranked by how many samples need them.
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "verify"))

from cotbuilder.store import Store  # noqa: E402
from cotbuilder.verify.stage import VerifyConfig, run  # noqa: E402
from unitdir import unit_from_dir  # noqa: E402

DEFAULT_GIT_DIR = "/work/.mirror/mirror-cann+asc-devkit/repo"
# A sample that touches the cube unit (matmul, convolution, L0/L1 positions) is not a vector kernel.
CUBE = re.compile(r"Matmul|MatMul|Mmad|LoadData|Conv2D|Conv3D|TPosition::(?:A1|A2|B1|B2|C1|C2|CO1|CO2)|"
                  r"lib/matmul|GEMM|Gemm")
HOST_LAUNCH = re.compile(r"<<<|ICPU_RUN_KF")
DEFAULT_ARCH = re.compile(r'set\(CMAKE_ASC_ARCHITECTURES\s+"(dav-\d+)"')


def default_arch(folder: Path) -> str:
    """The architecture a sample builds for by default (dav-2201 = Ascend 910B, dav-3510 = the newer regbase arch)."""
    cmake = folder / "CMakeLists.txt"
    m = DEFAULT_ARCH.search(cmake.read_text(errors="replace")) if cmake.is_file() else None
    return m.group(1) if m else "dav-2201"


def unpack(git_dir: str, dest: Path) -> Path:
    archive = subprocess.run(["git", "--git-dir", git_dir, "archive", "HEAD", "examples"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "examples"


def samples(examples: Path) -> tuple[list[Path], list[Path]]:
    """(vector-only kernel-launch samples, cube samples) under the C++ API examples."""
    vector, cube = [], []
    for gen in sorted(examples.glob("01_simd_cpp_api/**/scripts/gen_data.py")):
        folder = gen.parent.parent
        texts = [p.read_text(errors="replace") for p in folder.rglob("*") if p.suffix in (".asc", ".cpp", ".h")]
        if not any(HOST_LAUNCH.search(t) for t in texts):
            continue  # no host launch: not a kernel-launch sample
        (cube if any(CUBE.search(t) for t in texts) else vector).append(folder)
    return vector, cube


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", default=DEFAULT_GIT_DIR)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--show", type=int, default=25, help="how many failure reasons to list")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ascdk-") as tmp:
        examples = unpack(args.git_dir, Path(tmp))
        vector, cube = samples(examples)
        if args.limit:
            vector = vector[:args.limit]
        units, arch_of = [], {}
        for folder in vector:
            name = str(folder.relative_to(examples))
            units.append(unit_from_dir(folder, layout="kernel_launch", name=name))
            arch_of[name] = default_arch(folder)
        ws = Path(tmp) / "ws"
        start = time.monotonic()
        with Store(ws) as store:
            store.insert("units", units)
            run(store, VerifyConfig(jobs=args.jobs, seeds=[0], progress=sys.stderr.isatty()))
            rows = store.rows("SELECT u.name, v.status, v.reason, v.missing_apis FROM verifications v "
                              "JOIN units u USING (unit_id) ORDER BY u.name")
        seconds = time.monotonic() - start
    statuses = collections.Counter(r["status"] for r in rows)
    passed = statuses["passed"]
    print(f"asc-devkit examples/01_simd_cpp_api: {len(vector)} vector-only kernel-launch samples "
          f"({len(cube)} cube samples left out), verified in {seconds:.0f} s with --jobs {args.jobs}")
    print(f"passed with their own harness: {passed}/{len(rows)} = {100 * passed / max(len(rows), 1):.1f}% (goal >= 80%)")
    for arch in sorted(set(arch_of.values())):
        sub = [r for r in rows if arch_of[r["name"]] == arch]
        ok = sum(r["status"] == "passed" for r in sub)
        print(f"  default arch {arch}: {ok}/{len(sub)} = {100 * ok / max(len(sub), 1):.1f}% passed")
    for status, n in statuses.most_common():
        print(f"  {status:18} {n}")
    missing = collections.Counter(api for r in rows for api in set(r["missing_apis"] or []))
    print("missing APIs, by number of samples that need them:")
    for api, n in missing.most_common():
        print(f"  {n:4}  {api}")
    print("not passed (first reason):")
    for r in [r for r in rows if r["status"] != "passed"][:args.show]:
        print(f"  {r['status']:17} {r['name']}: {(r['reason'] or '')[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
