"""The verifier as a reward for RL: `score(code, task) -> Score` (scoring.py), shaping per status
(data/shaping.toml), and `cotbuilder serve` (server.py). Format and shaping: docs/reward.md."""

from __future__ import annotations

from .extract import extract_code
from .scoring import Score, Scorer, default_scorer, score
from .shaping import reward_for

__all__ = ["Score", "Scorer", "default_scorer", "extract_code", "reward_for", "score"]
