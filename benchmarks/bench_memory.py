"""Peak memory of crawl, dedup and verify's driver as the corpus grows (1k, 5k, 10k synthetic units by default).

    python benchmarks/bench_memory.py [--sizes 1000 5000 10000] [--stages crawl dedup verify] [--jobs 2]

Each stage runs as the CLI, in its own process tree, on a corpus of generated AscendC kernels
(cotbuilder.dedup.synthetic: ~5 KB, ~1000 tokens each, with duplicates):
- crawl: one local folder source holding N kernel folders (one source is one work item: the worst case);
- dedup: `cotbuilder dedup --jobs 2` over N units (the store is filled directly, not timed);
- verify: `cotbuilder verify --jobs 2` over N units that fail fast: every unit goes the whole way (plan, a worker's
  `work`, the driver's commit of its `verifications` row), but a generated kernel has no harness, so each is decided
  `unsupported` before anything is built: no g++ runs (building 10k kernels takes hours here). What this measures is
  what grows with N - the driver's plan, results and commits, the workers' share; a build's own memory (g++, the
  kernel) is per job, bounded by --jobs, whatever N is.
Printed per stage and size: the largest single process (ru_maxrss of the driver or a worker), the peak of the whole
tree's RSS sampled every 0.1 s, the input size in MiB, and the growth of each from the smallest size, so "flat" and
"no faster than the data" can be read off the ratios.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cotbuilder.dedup import synthetic  # noqa: E402


def _tree_rss_kib(root: int) -> int:
    """Sum of VmRSS over `root` and its descendants (read from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        pid, ppid = int(entry), int(fields.get("PPid", "0").strip())
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0]) if "VmRSS" in fields else 0
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += children.get(pid, [])
    return total


_WRAPPER = (
    "import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
    "print('MAXRSS', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(code)"
)


def measure(cmd: list[str]) -> tuple[float, float, float]:
    """(largest process MiB, peak tree MiB, seconds) of running `cmd` to its end. The largest process comes from a
    fresh wrapper process's RUSAGE_CHILDREN (a running maximum over every descendant waited for), so one
    measurement never inherits another's."""
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRAPPER, *cmd],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss_kib(proc.pid))
        time.sleep(0.1)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {err[-2000:]}")
    largest = int(err.rsplit("MAXRSS", 1)[1].split()[0])
    return largest / 1024, peak / 1024, time.monotonic() - start


def cli(workspace: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "cotbuilder.cli", "--workspace", str(workspace), *args]


def run_crawl(n: int, codes: list[str], tmp: Path) -> tuple[float, float, float]:
    src = tmp / f"src-{n}"
    for i, code in enumerate(codes):
        d = src / f"k{i:06d}"
        d.mkdir(parents=True)
        (d / f"k{i:06d}.cpp").write_text(code)
    return measure(cli(tmp / f"crawl-{n}", "crawl", "--source", str(src)))


def filled_workspace(n: int, codes: list[str], tmp: Path, name: str) -> Path:
    from cotbuilder.store import Store

    ws = tmp / f"{name}-{n}"
    rows = synthetic.unit_rows(codes)
    with Store(ws) as store:
        store.insert("sources", [synthetic.source_row()])
        for i in range(0, len(rows), 10_000):
            store.insert("units", rows[i : i + 10_000], validate=False)
    return ws


def run_dedup(n: int, codes: list[str], tmp: Path, jobs: int) -> tuple[float, float, float]:
    ws = filled_workspace(n, codes, tmp, "dedup")
    return measure(cli(ws, "dedup", "--jobs", str(jobs)))


def run_verify(n: int, codes: list[str], tmp: Path, jobs: int) -> tuple[float, float, float]:
    ws = filled_workspace(n, codes, tmp, "verify")
    return measure(cli(ws, "verify", "--jobs", str(jobs), "--no-progress"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    ap.add_argument("--stages", nargs="+", default=["crawl", "dedup", "verify"])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    for stage in args.stages:
        base: tuple[float, float, float] | None = None
        print(f"\n== {stage}")
        print(
            f"  {'units':>7} {'data MiB':>9} {'largest process MiB':>20} {'tree peak MiB':>14} {'seconds':>8}   growth vs first"
        )
        for n in args.sizes:
            codes = synthetic.kernels(n, max_variants=2)
            data = sum(len(c) for c in codes) / 2**20
            with tempfile.TemporaryDirectory(prefix=f"bench-mem-{stage}-") as tmp:
                if stage == "crawl":
                    largest, tree, secs = run_crawl(n, codes, Path(tmp))
                elif stage == "dedup":
                    largest, tree, secs = run_dedup(n, codes, Path(tmp), args.jobs)
                else:
                    largest, tree, secs = run_verify(n, codes, Path(tmp), args.jobs)
            growth = ""
            if base is None:
                base = (data, largest, tree)
            else:
                growth = f"data x{data / base[0]:.1f}, largest x{largest / base[1]:.2f}, tree x{tree / base[2]:.2f}"
            print(f"  {n:>7,} {data:>9.1f} {largest:>20,.0f} {tree:>14,.0f} {secs:>8.1f}   {growth}")


if __name__ == "__main__":
    main()
