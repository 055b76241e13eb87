"""The AscendC API names the gates check against: the documented API list (`cotbuilder/apidocs/lists.py`)."""

from __future__ import annotations

from ..apidocs.lists import documented_apis


def known_apis() -> dict[str, str]:
    """{api_name: category} of every documented AscendC API."""
    return documented_apis()


def api_category(name: str) -> str:
    """vector | reduce | cube | copy | queue | memory | sync | core | scalar | '' (unknown)."""
    return _normalise_category(known_apis().get(name, ""))


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
