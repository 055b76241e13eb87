"""Cost of a response from the price table (data/prices.toml, USD per million tokens), or a user's own table."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from ..paths import package_data


@cache
def _table(path: str | None) -> dict:
    p = Path(path) if path else package_data("annotate/data/prices.toml")
    return tomllib.loads(p.read_text(encoding="utf-8"))


def price_of(model: str, table_path: str | None = None) -> tuple[float, float]:
    """(input, output) USD per million tokens: exact model name, else the longest matching prefix, else default."""
    table = _table(table_path)
    models = table.get("models", {})
    entry = models.get(model)
    if entry is None:
        prefixes = [m for m in models if model.startswith(m)]
        entry = models[max(prefixes, key=len)] if prefixes else table.get("default", {})
    return float(entry.get("input", 0.0)), float(entry.get("output", 0.0))


def cost_usd(model: str, usage: dict[str, int], table_path: str | None = None) -> float:
    pin, pout = price_of(model, table_path)
    return (usage.get("prompt_tokens", 0) * pin + usage.get("completion_tokens", 0) * pout) / 1_000_000
