"""The seam to the mutation module (issue 13, "error-correction samples": mutants of verified kernels, each verified
to really fail). That module is being written in another branch; until it lands on main this seam finds no mutator and
returns no mutants, so the static teacher writes only right answers and the offline demo's repair path has nothing
to repair (an LLM teacher's failures still go through it).

The interface this package needs, and nothing more:

    mutate(files: dict[str, str], task) -> list[tuple[kind, dict[str, str]]]

each mutant a whole answer ({path: text}) with the kind of bug it plants. Whether a mutant really fails is decided
here by verifying it like any other answer (a mutant that still passes is never a wrong answer nor a repair sample).
Wiring the module in is one entry in MUTATORS below.
"""

from __future__ import annotations

import importlib
from typing import Any

# "module:function" candidates, tried in order; the first that imports is used.
MUTATORS = ("cotbuilder.mutate:mutate_answer",)


def _mutator() -> Any:
    for ref in MUTATORS:
        module, _, name = ref.partition(":")
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    return None


def available() -> bool:
    return _mutator() is not None


def mutants_of(files: dict[str, str], task: Any) -> list[tuple[str, dict[str, str]]]:
    fn = _mutator()
    return list(fn(files, task)) if fn is not None else []
