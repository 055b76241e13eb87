"""Start-up time of `cotbuilder --help` against its floor measured in the same run: a bare interpreter that imports
typer (what any typer CLI pays). Medians over --repeat runs of each, interleaved so machine load hits both alike.

    python benchmarks/bench_cli_startup.py [--repeat 15] [--verb verify]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--verb", default=None, help="also time `cotbuilder VERB --help`")
    args = parser.parse_args()
    commands = {
        "python -c 'import typer' (floor)": [sys.executable, "-c", "import typer"],
        "cotbuilder --help": [sys.executable, "-m", "cotbuilder.cli", "--help"],
    }
    if args.verb:
        commands[f"cotbuilder {args.verb} --help"] = [sys.executable, "-m", "cotbuilder.cli", args.verb, "--help"]
    for cmd in commands.values():  # warm the file cache
        timed(cmd)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.repeat):
        for name, cmd in commands.items():
            times[name].append(timed(cmd))
    floor = statistics.median(next(iter(times.values())))
    print(f"load average {os.getloadavg()[0]:.1f}, {args.repeat} runs each")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:40s} median {median:.3f} s   ratio to floor {median / floor:.2f}")


if __name__ == "__main__":
    main()
