"""An output nothing computed: every element NaN or Inf while the inputs hold finite numbers.

Unwritten UB and device memory hold the emulator's poison byte (0xFF: NaN in fp32, fp16 and bf16), so a kernel that
copies out a buffer it never filled, or computes from one, leaves an output that is NaN everywhere; a program that
checks itself with `abs(a - b) > tol` prints a pass for it. Without a golden to compare with, such a case is wrong,
not open (issue 12: "an all-NaN/Inf output from finite inputs is wrong_answer whatever the program printed")."""

from __future__ import annotations

import numpy as np


def _all_non_finite(data: bytes) -> bool:
    """NaN/Inf in every element, read as float32 when the size allows, else as float16 (the dtype is unknown; the
    poison byte is NaN in both views)."""
    if not data or len(data) % 2:
        return False
    view = np.frombuffer(data, np.float32 if len(data) % 4 == 0 else np.float16)
    return not np.isfinite(view).any()


def _has_finite(data: bytes) -> bool:
    """Some finite number in the input (read as float32 when its size allows, else as float16)."""
    if len(data) >= 4 and len(data) % 4 == 0:
        return bool(np.isfinite(np.frombuffer(data, np.float32)).any())
    return len(data) >= 2 and len(data) % 2 == 0 and bool(np.isfinite(np.frombuffer(data, np.float16)).any())


def non_finite_output(outputs: dict[str, bytes], inputs: dict[str, bytes]) -> str | None:
    """Why a case is wrong because an output is NaN/Inf throughout while the inputs are finite; None otherwise."""
    if inputs and not any(_has_finite(d) for d in inputs.values()):
        return None
    for name, data in sorted(outputs.items()):
        if name.endswith(".bin") and _all_non_finite(data):
            return f"{name} is NaN/Inf in every element while the inputs are finite: nothing computed it"
    return None
