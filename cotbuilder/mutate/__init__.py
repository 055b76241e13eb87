"""Error-correction data without an LLM: bug mutations of verified kernels, verified to really fail, turned into
repair samples. `make_mutants` / `mutant_unit` (mutations.py) are the API other stages use (synthesize: wrong
answers); `cotbuilder mutate` (stage.py) verifies the mutants and stores them in `mutants`."""

from .mutations import Mutant, make_mutants, mutant_unit, mutation_kinds
from .repair import FAILING, feedback_text, rationale, really_fails, repair_request

__all__ = [
    "FAILING",
    "Mutant",
    "feedback_text",
    "make_mutants",
    "mutant_unit",
    "mutation_kinds",
    "rationale",
    "really_fails",
    "repair_request",
]
