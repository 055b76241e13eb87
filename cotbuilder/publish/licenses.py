"""The licence allowlist (data/licenses.toml): which unit licences may be published."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from typing import Any

from ..paths import package_data


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    return tomllib.loads(package_data("publish/data/licenses.toml").read_text(encoding="utf-8"))


def default_allowlist() -> list[str]:
    return list(_table()["default"])


def cann_licenses() -> list[str]:
    return list(_table()["cann"])


def allowlist(licenses: list[str] | None = None, allow_cann: bool = False) -> list[str]:
    """The licences to publish: the given ones (or the default permissive list), plus CANN's when asked."""
    chosen = list(licenses) if licenses else default_allowlist()
    if allow_cann:
        chosen += [c for c in cann_licenses() if c not in chosen]
    return chosen


def parts(expression: str) -> list[str]:
    """The licences of a unit's licence expression: a unit whose files carry different licences is "A AND B"."""
    return [p.strip() for p in expression.split(" AND ") if p.strip()]


def is_allowed(expression: str, allowed: list[str] | set[str]) -> bool:
    """A unit may be published only if every licence its code carries is allowed."""
    licences = parts(expression)
    return bool(licences) and all(p in allowed for p in licences)


def hub_license_id(spdx: str) -> str:
    """The Hub metadata id for an SPDX licence; licences the Hub does not list become `other`."""
    return _table()["hub_ids"].get(spdx, "other")
