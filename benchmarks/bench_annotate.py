"""Throughput of `annotate` against a local OpenAI-compatible server with a fixed latency.

Prints: requests/s of the annotate stage at concurrency C as a share of the ideal C/L, its ratio to a bare `openai`
AsyncOpenAI loop (semaphore C, same prompts, same server) measured in the same run (goal >= 0.9), and the time of a
fully cached re-run (zero requests).

    python benchmarks/bench_annotate.py [--n 200] [--concurrency 16] [--latency 0.2]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "annotate"))

from chat_server import serve_in_subprocess  # noqa: E402
from units import many_add_units, put_units  # noqa: E402

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
            await client.chat.completions.create(model="bench", messages=messages, temperature=0.2,
                                                 max_tokens=4096, response_format=fmt)

    start = time.perf_counter()
    await asyncio.gather(*(one(m) for m in prompts))
    elapsed = time.perf_counter() - start
    await client.close()
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--latency", type=float, default=0.2)
    args = ap.parse_args()
    n, c, lat = args.n, args.concurrency, args.latency
    os.environ.setdefault("OPENAI_API_KEY", "bench")
    units = many_add_units(n)
    task = AnnotateTask("en")
    prompts = [task.format_input(u, unit_facts(u)) for u in units]

    # The server runs in its own process, like a real remote server (its threads must not share our GIL).
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    server = ctx.Process(target=serve_in_subprocess, args=(lat, queue), daemon=True)
    server.start()
    url = queue.get(timeout=30)

    def requests_seen() -> int:
        import httpx

        return httpx.get(url + "/stats").json()["requests"]

    try:
        _run_all(url, units, prompts, n, c, lat, requests_seen)
    finally:
        server.terminate()


def _run_all(url, units, prompts, n, c, lat, requests_seen) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bare_loop(url, prompts[:c], c))  # warm-up: connections, imports
        bare = asyncio.run(bare_loop(url, prompts, c))
        with Store(Path(tmp) / "ws") as store:
            put_units(store, units)
            cfg = AnnotateConfig(teacher="bench-model", base_url=url, concurrency=c, progress=False)
            start = time.perf_counter()
            stats = run(store, cfg)
            ours = time.perf_counter() - start
            assert stats.counts["kept"] == n, stats.counts
            store.execute("DELETE FROM annotations")
            sent_before = requests_seen()
            start = time.perf_counter()
            cached = run(store, cfg)
            cached_s = time.perf_counter() - start
            assert requests_seen() == sent_before and cached.counts["cache_hits"] == n

    ideal = c / lat
    print(f"annotate bench: N={n} requests, concurrency C={c}, server latency L={lat:.2f}s, ideal C/L={ideal:.1f} req/s")
    print(f"  bare openai loop : {n / bare:7.1f} req/s  ({bare:.2f} s, {n / bare / ideal:.0%} of ideal)")
    print(f"  cotbuilder       : {n / ours:7.1f} req/s  ({ours:.2f} s, {n / ours / ideal:.0%} of ideal, "
          f"incl. prompt building, gates, cache and DB writes)")
    print(f"  ratio cotbuilder / bare openai loop: {bare / ours:.2f}  (goal >= 0.90)")
    print(f"  fully cached re-run: {cached_s:.2f} s for {n} annotations, 0 requests sent")


if __name__ == "__main__":
    main()
