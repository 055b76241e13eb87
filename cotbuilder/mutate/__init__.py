"""Error-correction data without an LLM: bug mutations of verified kernels, verified to really fail, turned into
repair samples. `make_mutants` / `mutant_unit` (mutations.py) are the API other stages use (synthesize: wrong
answers); `cotbuilder mutate` (stage.py) verifies the mutants and stores them in `mutants`.

The names below are imported on first use: `cotbuilder --help` imports this package for the verb's config and must
not load the parser (tree-sitter) with it."""

from __future__ import annotations

from importlib import import_module
from typing import Any

_API = {
    "Mutant": "mutations",
    "make_mutants": "mutations",
    "mutant_unit": "mutations",
    "mutation_kinds": "mutations",
    "FAILING": "repair",
    "feedback_text": "repair",
    "rationale": "repair",
    "really_fails": "repair",
    "repair_request": "repair",
}
__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    if name not in _API:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_API[name]}", __name__), name)
