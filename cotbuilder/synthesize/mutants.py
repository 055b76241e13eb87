"""The seam to the mutation module (`cotbuilder/mutate/`: bug mutations of verified kernels): the static teacher's
wrong answers. Without that module (an install that leaves it out) the seam finds no mutator and returns no mutants,
so the static teacher writes only right answers.

What this package needs, and nothing more: `mutants_of(files, task) -> [(kind, files')]`, each mutant a whole answer
({path: text}) with the kind of bug it plants. The mutation module works on unit records (`make_mutants(unit)`, each
Mutant one changed file), so the answer is parsed into a unit first, as synthesize does with a kept answer. Whether a
mutant really fails is decided by verifying it like any other answer: a mutant that still passes is dropped (the
emulator is blind to its bug), never kept as a unit nor used as a repair sample.
"""

from __future__ import annotations

from typing import Any


def _make_mutants() -> Any:
    try:
        from ..mutate import make_mutants  # type: ignore[attr-defined]
    except ImportError:
        return None
    return make_mutants


def available() -> bool:
    return _make_mutants() is not None


def mutants_of(files: dict[str, str], task: Any) -> list[tuple[str, dict[str, str]]]:
    make_mutants = _make_mutants()
    if make_mutants is None:
        return []
    from ..parse.units import extract_units

    records = [{"path": p, "text": t, "file_id": None} for p, t in sorted(files.items())]
    units, _ = extract_units("0" * 64, records, time_limit=None)
    out = []
    for unit in units:
        for mutant in make_mutants(unit):
            path = f"{unit['root']}/{mutant.path}" if unit["root"] else mutant.path
            if path in files and mutant.text != files[path]:
                out.append((mutant.kind, {**files, path: mutant.text}))
    return out
