"""decontam stage: units against NPU kernel benchmarks -> `contamination` (clean | near | contaminated).

    from cotbuilder.decontam import benchmark_matched   # True: keep this unit out of synthesis / training tasks

(Imported lazily: `cotbuilder --help` loads this package for the verb's config and must not load the store.)
"""

from __future__ import annotations

from typing import Any

__all__ = ["benchmark_matched", "is_match"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import matched

        return getattr(matched, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
