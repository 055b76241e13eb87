"""Tolerances (one function of the dtype) and the element-wise comparison every harness uses."""

from __future__ import annotations

import functools
import tomllib
from typing import Any

import numpy as np

from ..paths import package_data

BF16 = "bfloat16"


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, dict[str, float]]:
    return tomllib.loads(package_data("verify/data/tolerances.toml").read_text(encoding="utf-8"))


def tolerance(dtype: str) -> tuple[float, float]:
    """(atol, rtol) for `dtype`: fp32 1e-4, fp16/bf16 1e-3, integers exact."""
    entry = _table().get(canonical_dtype(dtype))
    if entry is None:
        raise ValueError(f"no default tolerance for dtype {dtype!r}")
    return float(entry["atol"]), float(entry["rtol"])


_ALIASES = {
    "float": "float32",
    "half": "float16",
    "fp16": "float16",
    "fp32": "float32",
    "bf16": BF16,
    "double": "float64",
    "int": "int32",
    "bfloat16_t": BF16,
}


def canonical_dtype(dtype: str) -> str:
    return _ALIASES.get(dtype, dtype)


def numpy_dtype(dtype: str) -> np.dtype:
    """Storage dtype of `dtype` (bfloat16 is stored as its 16 raw bits)."""
    dtype = canonical_dtype(dtype)
    return np.dtype(np.uint16) if dtype == BF16 else np.dtype(dtype)


def to_float(values: np.ndarray, dtype: str) -> np.ndarray:
    """Values as float64 for comparison (bfloat16 raw bits widened to float32 first)."""
    if canonical_dtype(dtype) == BF16:
        return (values.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return values.astype(np.float64)


def compare(
    actual: np.ndarray, expected: np.ndarray, dtype: str, atol: float | None = None, rtol: float | None = None
) -> dict[str, Any]:
    """Element-wise check; returns {max_abs_err, max_rel_err, atol, rtol, mismatches, n, ok}."""
    default_atol, default_rtol = tolerance(dtype)
    atol = default_atol if atol is None else float(atol)
    rtol = default_rtol if rtol is None else float(rtol)
    a = to_float(np.asarray(actual).reshape(-1), dtype)
    e = to_float(np.asarray(expected).reshape(-1), dtype)
    result = {"dtype": canonical_dtype(dtype), "atol": atol, "rtol": rtol, "n": int(e.size)}
    if a.size != e.size:
        return {
            **result,
            "max_abs_err": None,
            "max_rel_err": None,
            "mismatches": int(max(a.size, e.size)),
            "ok": False,
            "error": f"size {a.size} != expected {e.size}",
        }
    finite_a, finite_e = np.isfinite(a), np.isfinite(e)
    # NaN must meet NaN and +-Inf the same Inf; any other non-finite pairing is a mismatch
    special_bad = (finite_a != finite_e) | (~finite_e & ~((np.isnan(a) & np.isnan(e)) | (a == e)))
    both = finite_a & finite_e
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(both, np.abs(a - e), 0.0)
        rel = np.where(both, diff / np.maximum(np.abs(e), np.finfo(np.float64).tiny), 0.0)
    with np.errstate(invalid="ignore", over="ignore"):
        bad = special_bad | (both & (diff > atol) & (diff > rtol * np.where(both, np.abs(e), 0.0)))
    mismatches = int(bad.sum())
    out = {
        **result,
        "max_abs_err": float(diff.max()) if diff.size else 0.0,
        "max_rel_err": float(rel.max()) if rel.size else 0.0,
        "mismatches": mismatches,
        "ok": mismatches == 0,
    }
    if mismatches:
        out["first_bad"] = int(np.argmax(bad))  # where it starts to differ
        out["nonfinite_bad"] = int((bad & ~finite_a & finite_e).sum())  # NaN/Inf where the golden is finite
        if canonical_dtype(dtype) in ("float16", BF16) and not special_bad.any():
            out["max_ulp"] = int(ulp_distance(a[bad], e[bad], dtype).max())
    return out


def _ordered_bits(values: np.ndarray, dtype: str) -> np.ndarray:
    """16-bit float values (exact in float64) as integers that count up by one per representable step."""
    bits = float_to_bf16_bits(values) if canonical_dtype(dtype) == BF16 else values.astype(np.float16).view(np.uint16)
    bits = bits.astype(np.int64)
    return np.where(bits & 0x8000, -(bits & 0x7FFF), bits)


def ulp_distance(actual: np.ndarray, expected: np.ndarray, dtype: str) -> np.ndarray:
    """How many float16 / bfloat16 steps apart each pair of finite values is (+0 and -0 are one value)."""
    return np.abs(_ordered_bits(actual, dtype) - _ordered_bits(expected, dtype))


def float_to_bf16_bits(values: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 raw bits, rounding to nearest even (NaN stays a quiet NaN)."""
    f = np.ascontiguousarray(values, dtype=np.float32).reshape(-1)
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    rounded[np.isnan(f)] = 0x7FC0
    return rounded.reshape(np.shape(values))
