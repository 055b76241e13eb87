"""decontam stage: units against NPU kernel benchmarks -> `contamination` (clean | near | contaminated).

from cotbuilder.decontam import benchmark_matched   # True: keep this unit out of synthesis / training tasks
"""

from .matched import benchmark_matched, is_match

__all__ = ["benchmark_matched", "is_match"]
