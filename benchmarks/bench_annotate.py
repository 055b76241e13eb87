"""Throughput of `annotate` against a local OpenAI-compatible server with a fixed latency.

Prints, as medians over --repeat rounds (each round: a bare loop, then cotbuilder on a fresh workspace):
- requests/s of a bare `openai` loop (AsyncOpenAI + a semaphore of C, the same prompts and response_format, the same
  server) and of the annotate stage (the whole `run()`: planning, prompts, cache, gates, DB writes), each as a share of
  the ideal C/L, and their ratio (goal >= 0.9);
- a re-run with nothing changed (every row present: nothing to do) and a rebuild from the cache (rows deleted, every
  answer cached: zero requests, prompts + cache reads + gates + DB writes);
- the machine's load average and each side's CPU seconds, since other work on a shared machine moves every number.

The server runs in its own process, like a remote server (its threads must not share our GIL). Both sides are warmed
up once first (connections, imports, compiled schemas).

    python benchmarks/bench_annotate.py [--n 200] [--concurrency 16] [--latency 0.2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "annotate"))

from chat_server import serve_in_subprocess  # noqa: E402
from units import add_unit, many_add_units, put_units  # noqa: E402

from cotbuilder.annotate.config import AnnotateConfig  # noqa: E402
from cotbuilder.annotate.facts import unit_facts  # noqa: E402
from cotbuilder.annotate.stage import run  # noqa: E402
from cotbuilder.annotate.task import AnnotateTask, response_format  # noqa: E402
from cotbuilder.store import Store  # noqa: E402


async def bare_loop(url: str, prompts: list[list[dict]], concurrency: int) -> float:
    import openai

    client = openai.AsyncOpenAI(base_url=url, api_key="bench", max_retries=0)
    sem = asyncio.Semaphore(concurrency)
    fmt = response_format("cot", "json_schema")

    async def one(messages):
        async with sem:
            await client.chat.completions.create(
                model="bench", messages=messages, temperature=0.2, max_tokens=4096, response_format=fmt
            )

    start = time.perf_counter()
    await asyncio.gather(*(one(m) for m in prompts))
    elapsed = time.perf_counter() - start
    await client.close()
    return elapsed


def timed(fn, *args):
    """(wall seconds, CPU seconds of this process) of fn(*args)."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "bench")

    # The server runs in its own process, like a real remote server.
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    server = ctx.Process(target=serve_in_subprocess, args=(args.latency, queue), daemon=True)
    server.start()
    url = queue.get(timeout=30)
    try:
        _bench(url, args.n, args.concurrency, args.latency, args.repeat)
    finally:
        server.terminate()


def _bench(url: str, n: int, c: int, lat: float, repeat: int) -> None:
    import httpx

    def requests_seen() -> int:
        return httpx.get(url + "/stats").json()["requests"]

    units = many_add_units(n)
    task = AnnotateTask("en")
    prompts = [task.format_input(u, unit_facts(u)) for u in units]
    cfg = AnnotateConfig(teacher="bench-model", base_url=url, concurrency=c, progress=False)
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bare_loop(url, prompts[:c], c))  # warm-up: connections, imports
        with Store(Path(tmp) / "warm") as store:
            put_units(store, [add_unit(f"warm_{i}", suffix=f"warm{i}") for i in range(c)])
            run(store, cfg)
        for r in range(repeat):
            load = os.getloadavg()[0]
            bare, bare_cpu, _ = timed(lambda: asyncio.run(bare_loop(url, prompts, c)))
            with Store(Path(tmp) / f"ws{r}") as store:
                put_units(store, units)
                ours, ours_cpu, stats = timed(run, store, cfg)
                assert stats.counts["kept"] == n, stats.counts
                sent = requests_seen()
                unchanged, _, again = timed(run, store, cfg)
                assert again.counts["planned"] == 0
                store.execute("DELETE FROM annotations")
                rebuild, _, cached = timed(run, store, cfg)
                assert requests_seen() == sent and cached.counts["cache_hits"] == n
                assert store.count("annotations") == n
            rounds.append(
                {
                    "load": load,
                    "bare": bare,
                    "bare_cpu": bare_cpu,
                    "ours": ours,
                    "ours_cpu": ours_cpu,
                    "ratio": bare / ours,
                    "unchanged": unchanged,
                    "rebuild": rebuild,
                }
            )
            print(
                f"  round {r + 1}: load {load:4.1f}  bare {n / bare:5.1f} req/s  cotbuilder {n / ours:5.1f} req/s  "
                f"ratio {bare / ours:.2f}  re-run {unchanged:.2f} s  rebuild from cache {rebuild:.2f} s",
                flush=True,
            )

    def med(key: str) -> float:
        return statistics.median(x[key] for x in rounds)

    ideal = c / lat
    bare, ours = n / med("bare"), n / med("ours")
    loads = os.getloadavg()
    print(
        f"annotate bench: N={n} requests, concurrency C={c}, server latency L={lat:.2f}s, ideal C/L={ideal:.1f} req/s, "
        f"median of {repeat} round(s); load average now {loads[0]:.1f} / {loads[1]:.1f} / {loads[2]:.1f} "
        f"on {os.cpu_count()} CPUs"
    )
    print(
        f"  bare openai loop : {bare:7.1f} req/s  ({med('bare'):.2f} s, {bare / ideal:.0%} of ideal, "
        f"{med('bare_cpu') / n * 1000:.1f} ms CPU per request)"
    )
    print(
        f"  cotbuilder       : {ours:7.1f} req/s  ({med('ours'):.2f} s, {ours / ideal:.0%} of ideal, "
        f"{med('ours_cpu') / n * 1000:.1f} ms CPU per annotation incl. prompts, gates, cache and DB writes)"
    )
    print(f"  ratio cotbuilder / bare openai loop: {med('ratio'):.2f}  (goal >= 0.90)")
    print(f"  re-run, nothing changed   : {med('unchanged'):.2f} s for {n} annotations (0 requests, nothing to do)")
    print(f"  rebuild from cache (rows deleted): {med('rebuild'):.2f} s for {n} annotations (0 requests sent)")


if __name__ == "__main__":
    main()
