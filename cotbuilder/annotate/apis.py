"""The AscendC API name list the gates check against.

The parse stage owns the real list (`cotbuilder/parse/data/ascendc_apis.txt`: a name per line, optionally a tab and a
category). Until it exists a small fallback list ships here. Names missing a category get ours when we know it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..paths import package_data

_PARSER_LIST = "parse/data/ascendc_apis.txt"
_FALLBACK = "annotate/data/ascendc_apis_fallback.txt"


def _read(path: Path) -> dict[str, str]:
    names: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, category = line.partition("\t")
        name = name.strip().removeprefix("AscendC::")
        if name:
            names[name] = category.strip().lower()
    return names


@lru_cache(maxsize=1)
def known_apis() -> dict[str, str]:
    """{api_name: category}; the parser's list when present, our fallback otherwise (its categories fill gaps)."""
    fallback = _read(package_data(_FALLBACK))
    parser_path = package_data(_PARSER_LIST)
    if not parser_path.is_file():
        return fallback
    names = _read(parser_path)
    for name, cat in names.items():
        if not cat and name in fallback:
            names[name] = fallback[name]
    return names


def api_category(name: str) -> str:
    """vector | reduce | cube | copy | queue | memory | sync | core | scalar | '' (unknown)."""
    cat = known_apis().get(name, "")
    if cat:
        return _normalise_category(cat)
    return _normalise_category(_read(package_data(_FALLBACK)).get(name, ""))


def _normalise_category(cat: str) -> str:
    cat = cat.lower()
    for key, norm in (
        ("reduc", "reduce"),
        ("cube", "cube"),
        ("matmul", "cube"),
        ("conv", "cube"),
        ("copy", "copy"),
        ("move", "copy"),
        ("queue", "queue"),
        ("sync", "sync"),
        ("core", "core"),
        ("memory", "memory"),
        ("buffer", "memory"),
        ("vector", "vector"),
        ("math", "vector"),
        ("arith", "vector"),
        ("activ", "vector"),
        ("softmax", "vector"),
        ("normaliz", "vector"),
        ("sort", "vector"),
        ("select", "vector"),
        ("transform", "vector"),
        ("quantiz", "vector"),
        ("resource", "memory"),
        ("struct", "memory"),
        ("scalar", "scalar"),
    ):
        if key in cat:
            return norm
    return cat
