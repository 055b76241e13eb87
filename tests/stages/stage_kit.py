"""Small real stages for the executor and driver tests (importable by name, so pool processes can unpickle them)."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from cotbuilder.stages.base import ASYNC, DRIVER, Stage


@dataclass
class KitConfig:
    jobs: int = 2
    pid_dir: str | None = None  # work writes a file named after its pid here before it sleeps
    sleep_s: float = 0.0
    die_on: list[str] = field(default_factory=list)  # items whose worker process exits without a word
    raise_on: list[str] = field(default_factory=list)  # items whose work raises
    # items whose first attempt kills its worker (a file in marker_dir records the attempt); a retry completes them
    die_once_on: list[str] = field(default_factory=list)
    marker_dir: str | None = None
    resources: dict[str, float] | None = None  # what one work call asks an executor that places by resources


class PoolStage(Stage[KitConfig, str, dict]):
    """Echoes each item with the pid that did it; can sleep, die or raise on command."""

    name = "kit"
    config_type = KitConfig
    batch_size = 2

    def __init__(self, config: KitConfig):
        super().__init__(config)
        self.batches: list[list[str]] = []
        self.events: list[str] = []

    def plan(self, store, stats) -> list[str]:
        raise NotImplementedError  # the executor tests hand items in directly

    def work(self, item: str) -> dict:
        if self.config.pid_dir:
            Path(self.config.pid_dir, str(os.getpid())).touch()
        if item in self.config.die_on:
            os._exit(3)
        if item in self.config.die_once_on:
            marker = Path(self.config.marker_dir, item)
            first = not marker.exists()
            with marker.open("a") as f:
                f.write(f"{os.getpid()}\n")
            if first:
                os._exit(3)
        if item in self.config.raise_on:
            raise ValueError(f"bad item {item}")
        time.sleep(self.config.sleep_s)
        return {"item": item, "pid": os.getpid()}

    def task_resources(self) -> dict[str, float]:
        return self.config.resources if self.config.resources is not None else super().task_resources()

    def commit(self, store, results, stats) -> None:
        self.batches.append([r["item"] for r in results])
        self.events.append("commit")
        stats.kept(len(results))


class ListedStage(PoolStage):
    """PoolStage with a plan: the items are a, b, c, d, e + the config's `die_on`, `raise_on` and `die_once_on`."""

    def plan(self, store, stats) -> list[str]:
        items = ["a", "b", "c", "d", "e", *self.config.die_on, *self.config.raise_on, *self.config.die_once_on]
        return list(dict.fromkeys(items))


class InDriverStage(ListedStage):
    mode = DRIVER


class AsyncKit(Stage[KitConfig, str, str]):
    """An I/O-bound stage: each item waits; counts how many wait at once; teardown reports a count."""

    name = "asynckit"
    config_type = KitConfig
    mode = ASYNC

    def __init__(self, config: KitConfig):
        super().__init__(config)
        self.in_flight = 0
        self.most_in_flight = 0
        self.thread_ids: set[int] = set()

    def plan(self, store, stats) -> list[str]:
        return [f"req{i}" for i in range(12)]

    async def setup(self) -> None:
        self.opened = True
        self.pid = os.getpid()

    async def work(self, item: str) -> str:
        import threading

        self.thread_ids.add(threading.get_ident())
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(self.config.sleep_s)
        self.in_flight -= 1
        if item in self.config.raise_on:
            raise ConnectionError(f"server hung up on {item}")
        return f"{item}@{self.pid}:{self.most_in_flight}"

    async def teardown(self) -> dict[str, float]:
        return {"requests_sent": 12}

    def commit(self, store, results, stats) -> None:
        stats.kept(len(results))
