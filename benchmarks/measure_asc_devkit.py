"""How much real AscendC code the cpu backend verifies: the vector-only kernel-launch samples of a local asc-devkit
snapshot, each verified with its OWN harness (its gen_data.py, its main / .asc host code, its verify_result.py).

    python benchmarks/measure_asc_devkit.py [--git-dir /work/.mirror/mirror-cann+asc-devkit/repo] [--jobs 2]
    python benchmarks/measure_asc_devkit.py --cube     # the cube and mixed (AIC/AIV) samples instead (goal >= 70%)

The snapshot's examples/ are unpacked into a temp dir (nothing from it is kept or committed), verified in a throwaway
workspace, and the script prints the share that passes (goal >= 80%), the statuses, and the AscendC APIs the emulator
is missing, ranked by how many samples need them.

Architectures. The emulator models the Atlas A2 (dav-2201, --soc ascend910b) and Atlas inference (dav-2002, ascend310p)
vector units. A sample is built for the SoC's architecture when its CMake / README offer it, else for its own default
(`cmake_defines.unit_arch`). Samples that can only build for dav-3510 (Ascend 950: register-based Reg/SIMT API,
`asc_vf_call`) are still verified and counted, but reported on their own line: the headline share is over the samples
whose architecture the emulator models, and the all-samples share is printed next to it.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "verify"))

from unitdir import unit_from_dir  # noqa: E402

from cotbuilder.stages.driver import run_stage  # noqa: E402
from cotbuilder.store import Store  # noqa: E402
from cotbuilder.verify.cmake_defines import unit_arch  # noqa: E402
from cotbuilder.verify.stage import VerifyConfig, VerifyStage  # noqa: E402

DEFAULT_GIT_DIR = "/work/.mirror/mirror-cann+asc-devkit/repo"
# "Before the fidelity checks", approximated on today's emulator by the run-time switches it has (docs/emulator.md):
# the pipe-hazard model off, and memory nobody wrote reading as zeros instead of the poison byte. What has no switch
# (legality at compile time, queue depth / buffer count / scratch checks, the multi-core scheduler, documented
# numerics, the all-NaN output rule) stays on: see FIDELITY_ALWAYS_ON.
FIDELITY_OFF_ENV = {"COTBUILDER_HAZARDS": "0", "COTBUILDER_POISON_BYTE": "0"}
FIDELITY_ALWAYS_ON = (
    "legality table (compile time)",
    "queue depth / 64-buffer / scratch-size checks and src clobbering (clobber writes zeros with the byte at 0)",
    "seeded multi-core scheduler and SyncAll deadlock detection",
    "documented numerics (reduction order, float->half saturation)",
    "all-NaN/Inf output is wrong_answer (harness rule)",
    "UB reads as zeros, not 0xFF as before the fidelity merge (one poison byte for UB and GM)",
)


class SwitchedVerifyStage(VerifyStage):
    """The verify stage with extra environment for every sandboxed step (the emulator's run-time switches)."""

    def __init__(self, config: VerifyConfig, env: dict[str, str]):
        super().__init__(config)
        self.env = env

    def plan(self, store, stats):
        items = super().plan(store, stats)
        for item in items:
            item.job.ctx.extra_env.update(self.env)
        return items


def verify_store(store: Store, config: VerifyConfig, fidelity_off: bool) -> None:
    run_stage(SwitchedVerifyStage(config, FIDELITY_OFF_ENV if fidelity_off else {}), store)


# A sample that touches the cube unit (matmul, convolution, L0/L1 positions) is not a vector kernel.
CUBE = re.compile(
    r"Matmul|MatMul|Mmad|LoadData|Conv2D|Conv3D|TPosition::(?:A1|A2|B1|B2|C1|C2|CO1|CO2)|"
    r"lib/matmul|GEMM|Gemm"
)
HOST_LAUNCH = re.compile(r"<<<|ICPU_RUN_KF")
MODELLED_ARCHES = {"dav-2201", "dav-2002"}  # Atlas A2 (910B) and Atlas inference (310P) vector units
SOC = "ascend910b"


def unpack(git_dir: str, dest: Path) -> Path:
    archive = subprocess.run(
        ["git", "--git-dir", git_dir, "archive", "HEAD", "examples"], check=True, capture_output=True
    ).stdout
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


_MAIN = re.compile(r"\bint(?:32_t)?\s+main\s*\(")


def all_samples(examples: Path) -> list[Path]:
    """Every sample folder of the snapshot with a host main that launches a kernel (all API families: SIMD C++ and C,
    SIMT, hybrid; vector and cube; with or without a generator script)."""
    found = set()
    for path in sorted(examples.rglob("*")):
        if path.suffix in (".asc", ".cpp") and path.is_file():
            text = path.read_text(errors="replace")
            if HOST_LAUNCH.search(text) and _MAIN.search(text):
                found.add(path.parent)
    return sorted(found)


def _matches(wanted: str, path: str) -> bool:
    return path.endswith(wanted[:-1]) if wanted.endswith("$") else wanted in path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", default=DEFAULT_GIT_DIR)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument(
        "--all",
        action="store_true",
        help="every sample with a host main (all of examples/, cube and SIMT too), not only the vector samples",
    )
    parser.add_argument(
        "--cube",
        action="store_true",
        help="the cube and mixed samples (Matmul, Mmad, LoadData, L0/L1 positions, AIC/AIV kernels) instead",
    )
    parser.add_argument(
        "--only",
        default="",
        help="verify only samples whose path contains one of these comma-separated texts (a text ending in $ must "
        "end the path)",
    )
    parser.add_argument(
        "--show", type=int, default=15, help="how many dav-3510-only failure reasons to list (all others are listed)"
    )
    parser.add_argument(
        "--json", type=Path, help="also write one JSON line per sample (name, status, reason, cases, diagnostics) here"
    )
    parser.add_argument(
        "--workspace",
        type=Path,
        help="keep the verify workspace here (its store holds every diagnostic: `cotbuilder -w DIR query ...`); "
        "a re-run with the same workspace verifies only what is missing",
    )
    parser.add_argument(
        "--fidelity-off",
        action="store_true",
        help="approximate 'before the fidelity checks': "
        + ", ".join(f"{k}={v}" for k, v in FIDELITY_OFF_ENV.items())
        + " for every step (what cannot be switched off is printed)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ascdk-") as tmp:
        examples = unpack(args.git_dir, Path(tmp))
        vector, cube = samples(examples)
        kind, goal = "vector-only", 80
        if args.cube:
            vector, cube, kind, goal = cube, vector, "cube / mixed", 70
        if args.all:
            vector, cube = all_samples(examples), []
        if args.only:
            wanted = args.only.split(",")
            vector = [f for f in vector if any(_matches(w, str(f.relative_to(examples))) for w in wanted)]
        if args.limit:
            vector = vector[: args.limit]
        units, arch_of = [], {}
        for folder in vector:
            name = str(folder.relative_to(examples))
            units.append(unit_from_dir(folder, layout="kernel_launch", name=name))
            arch_of[name] = unit_arch(units[-1], SOC)
        ws = args.workspace or Path(tmp) / "ws"
        start = time.monotonic()
        with Store(ws) as store:
            store.insert("units", units)
            config = VerifyConfig(jobs=args.jobs, seeds=[0], soc=SOC, progress=sys.stderr.isatty())
            verify_store(store, config, args.fidelity_off)
            rows = store.rows(
                "SELECT u.name, v.status, v.reason, v.missing_apis, v.compile_ok, v.run_ok, v.harness, v.cases, v.diagnostics "
                "FROM verifications v "
                "JOIN units u USING (unit_id) ORDER BY u.name"
            )
        seconds = time.monotonic() - start
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps({**r, "arch": arch_of[r["name"]]}, default=str) + "\n")
    statuses = collections.Counter(r["status"] for r in rows)
    modelled = [r for r in rows if arch_of[r["name"]] in MODELLED_ARCHES]
    other = [r for r in rows if arch_of[r["name"]] not in MODELLED_ARCHES]

    def share(sub: list) -> str:
        ok = sum(r["status"] == "passed" for r in sub)
        return f"{ok}/{len(sub)} = {100 * ok / max(len(sub), 1):.1f}%"

    def counts(sub: list) -> str:
        compiled = sum(bool(r["compile_ok"]) for r in sub)
        ran = sum(bool(r["run_ok"]) for r in sub)
        return f"considered {len(sub)}, compiled {compiled}, ran {ran}, passed {share(sub)}"

    if args.fidelity_off:
        print(f"FIDELITY OFF: {FIDELITY_OFF_ENV}; still on: {'; '.join(FIDELITY_ALWAYS_ON)}")
    print(
        f"asc-devkit examples/01_simd_cpp_api: {len(vector)} {kind} kernel-launch samples "
        f"({len(cube)} others left out), verified in {seconds:.0f} s with --jobs {args.jobs}, --soc {SOC}"
    )
    archs = ", ".join(sorted(MODELLED_ARCHES))
    print(f"HEADLINE (archs the emulator models: {archs}): {counts(modelled)} (goal >= {goal}%)")
    print(f"  dav-3510-only samples (Ascend 950, not modelled), counted separately: {counts(other)}")
    print(f"  all samples together: {counts(rows)}")
    for arch in sorted(set(arch_of.values())):
        sub = [r for r in rows if arch_of[r["name"]] == arch]
        print(f"  arch {arch}: {counts(sub)}")
    for status, n in statuses.most_common():
        by_arch = collections.Counter(arch_of[r["name"]] for r in rows if r["status"] == status)
        print(f"  {status:18} {n:4}  ({', '.join(f'{a}: {c}' for a, c in sorted(by_arch.items()))})")
    for title, sub in (("archs the emulator models", modelled), ("dav-3510-only samples", other)):
        missing = collections.Counter(api for r in sub for api in set(r["missing_apis"] or []))
        print(f"missing APIs ({title}), by number of samples that need them:")
        for api, n in missing.most_common():
            print(f"  {n:4}  {api}")
    for title, sub, limit in (("archs the emulator models", modelled, None), ("dav-3510-only", other, args.show)):
        failed = [r for r in sub if r["status"] != "passed"]
        print(f"not passed, {title} ({len(failed)}; first reason):")
        for r in failed[:limit]:
            print(f"  {r['status']:17} {arch_of[r['name']]} {r['name']}: {(r['reason'] or '')[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
