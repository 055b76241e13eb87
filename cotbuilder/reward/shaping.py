"""The reward for a status: one table (data/shaping.toml), read once."""

from __future__ import annotations

import functools
import tomllib

from ..paths import package_data


@functools.lru_cache(maxsize=1)
def table() -> tuple[dict[str, float], frozenset[str]]:
    data = tomllib.loads(package_data("reward/data/shaping.toml").read_text(encoding="utf-8"))
    return {k: float(v) for k, v in data["reward"].items()}, frozenset(data["no_reward"])


def reward_for(status: str) -> float | None:
    rewards, none = table()
    if status in none:
        return None
    if status not in rewards:
        raise KeyError(f"no reward shaping for status {status!r} (reward/data/shaping.toml)")
    return rewards[status]
