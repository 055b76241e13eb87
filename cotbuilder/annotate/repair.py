"""Repair samples: a unit whose latest verification failed, the teacher's corrected kernel, stored as a new candidate
unit (the parent's files with the kernel file replaced) that then goes through verify like any other unit."""

from __future__ import annotations

import copy
import re
from typing import Any

from ..hashing import sha256_text
from ..store import Store, utcnow
from ..verify.current import deciding_verifications

# Verification outcomes worth repairing: the code is wrong (not the backend's limits or a sandbox refusal).
REPAIRABLE = ("failed_compile", "failed_run", "wrong_answer", "timeout")


def latest_verifications(store: Store) -> dict[str, dict[str, Any]]:
    """unit_id -> the verification that counts for it (verify.current: the same one publishing uses)."""
    return {unit_id: row for unit_id, (_, row) in deciding_verifications(store).items()}


def kernel_file(unit: dict[str, Any]) -> dict[str, Any] | None:
    """The kernel file that holds the entry (the one a fix replaces)."""
    kernels = [f for f in unit.get("files") or [] if f.get("role") == "kernel"]
    entry = (unit.get("entry") or [{}])[0].get("name")
    for f in kernels:
        if entry and re.search(rf"\b{re.escape(entry)}\s*\(", f.get("text") or ""):
            return f
    return kernels[0] if kernels else None


def make_repaired_unit(parent: dict[str, Any], fixed_kernel: str) -> tuple[dict[str, Any] | None, str | None]:
    """(new unit, None) or (None, why the fix cannot become a unit)."""
    target = kernel_file(parent)
    if target is None:
        return None, "repair: the unit has no kernel file to replace"
    if fixed_kernel.strip() == (target.get("text") or "").strip():
        return None, "repair: the corrected kernel is identical to the failing one"
    unit = copy.deepcopy(parent)
    for f in unit["files"]:
        if f["path"] == target["path"]:
            f["text"] = fixed_kernel if fixed_kernel.endswith("\n") else fixed_kernel + "\n"
            f["file_id"] = None  # not a crawled file: it has no files-table row
    old = target.get("text") or ""
    new_text = next(f["text"] for f in unit["files"] if f["path"] == target["path"])
    if old and old in parent.get("kernel_code", ""):
        unit["kernel_code"] = parent["kernel_code"].replace(old, new_text, 1)
    else:
        unit["kernel_code"] = "\n".join(f["text"] for f in unit["files"] if f["role"] == "kernel")
    unit["unit_id"] = sha256_text(f"repair:{parent['unit_id']}:{unit['kernel_code']}")
    unit["parent_unit_id"] = parent["unit_id"]
    unit["created_at"] = utcnow()
    unit["features"], note = _features(unit, parent)
    unit["diagnostics"] = list(parent.get("diagnostics") or [])
    if note:
        unit["diagnostics"].append({"file": target["path"], "kind": "repair", "message": note})
    return unit, None


def _features(unit: dict[str, Any], parent: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """Re-parse the fixed unit with the parse stage's feature extractor; if that is not available (or fails), keep
    the parent's features (a fix is usually local) and say so in the unit's diagnostics."""
    try:
        from ..parse.facts import file_facts
        from ..parse.features import unit_features

        cpp = (".cpp", ".cc", ".h", ".hpp", ".cce")
        kernel = [file_facts(f["text"]) for f in unit["files"] if f["role"] == "kernel"]
        others = [file_facts(f["text"]) for f in unit["files"] if f["role"] != "kernel" and f["path"].endswith(cpp)]
        features = unit_features(kernel, others)
        if features.get("block_dim") is None:
            features["block_dim"] = parent["features"].get("block_dim")
        return features, None
    except Exception as exc:  # the parser is another stage's code: a failure there must not lose the repair
        return copy.deepcopy(parent["features"]), f"features copied from the parent unit ({type(exc).__name__})"
