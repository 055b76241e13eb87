"""Category and complexity of a unit, by the rules in data/categories.toml and data/complexity.toml."""

from __future__ import annotations

import re
import tomllib
from functools import cache, lru_cache

from ..paths import package_data

CATEGORIES = (
    "elementwise",
    "activation",
    "reduction",
    "normalization",
    "softmax",
    "cast",
    "broadcast",
    "index",
    "sort",
    "matmul",
    "attention",
    "other",
)


@cache
def _rules() -> list[tuple[str, re.Pattern[str] | None, frozenset[str]]]:
    data = tomllib.loads(package_data("parse/data/categories.toml").read_text(encoding="utf-8"))
    rules = []
    for rule in data["rule"]:
        if rule["category"] not in CATEGORIES:
            raise ValueError(f"categories.toml: unknown category {rule['category']!r}")
        names = rule.get("name", [])
        # a pattern matches a whole word of the snake_case name: "max" finds reduce_max, not maximum
        pattern = re.compile(r"(?<![a-z])(?:" + "|".join(names) + r")(?![a-z])") if names else None
        rules.append((rule["category"], pattern, frozenset(rule.get("apis", []))))
    return rules


@cache
def _mechanism_words() -> re.Pattern[str] | None:
    data = tomllib.loads(package_data("parse/data/categories.toml").read_text(encoding="utf-8"))
    words = data.get("mechanism_words", [])
    return re.compile(r"(?<![a-z])(?:" + "|".join(words) + r")(?![a-z])") if words else None


@cache
def _complexity() -> dict[str, int]:
    return tomllib.loads(package_data("parse/data/complexity.toml").read_text(encoding="utf-8"))


_ACRONYM_END_RE = re.compile(r"([A-Z]+)([A-Z][a-z])")
_WORD_END_RE = re.compile(r"([a-z0-9])([A-Z])")


@lru_cache(maxsize=8192)
def snake(name: str) -> str:
    """AddCustom -> add_custom, LayerNormV2 -> layer_norm_v2, RMSNorm -> rms_norm."""
    s = _ACRONYM_END_RE.sub(r"\1_\2", name)
    s = _WORD_END_RE.sub(r"\1_\2", s)
    return s.replace("-", "_").lower()


@cache
def _helper_apis() -> frozenset[str]:
    data = tomllib.loads(package_data("parse/data/categories.toml").read_text(encoding="utf-8"))
    return frozenset(data.get("helper_apis", []))


def categorize(names: list[str], apis: dict[str, int]) -> str:
    """By the first of `names` (in priority order: op name, folder, entry names) that a rule's name pattern matches,
    else by the APIs called (helper APIs only when nothing else decides), else "other"."""
    mechanism = _mechanism_words()
    words = [snake(n) for n in names if n]
    if mechanism is not None:  # `set_atomic_add_custom` names how results are accumulated, not what is computed
        words = [mechanism.sub("", w) for w in words]
    for w in words:
        for category, pattern, _ in _rules():
            if pattern is not None and pattern.search(w):
                return category
    used = set(apis)
    for calls in (used - _helper_apis(), used):
        for category, _, api_set in _rules():
            if api_set & calls:
                return category
    return "other"


def complexity(features: dict, category: str, kernel_lines: int) -> int:
    c = _complexity()
    points = 0
    n_apis = len(features.get("apis", {}))
    points += n_apis >= c["distinct_apis_medium"]
    points += n_apis >= c["distinct_apis_high"]
    points += kernel_lines > c["kernel_lines_high"]
    if features.get("tiling_fields"):
        points += c["points_tiling"]
    if features.get("multi_core") and (features.get("buffer_num") or 0) >= 2:
        points += c["points_pipeline"]
    if features.get("uses_cube"):
        points += c["points_cube"]
    if category == "attention":
        points += c["points_attention"]
    return max(1, min(5, 1 + int(points)))
