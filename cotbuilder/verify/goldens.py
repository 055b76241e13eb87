"""The one rule for `passed`: cotbuilder compares each output the kernel wrote with a golden fixed before it ran.

A harness produces the goldens in a step of its own (the unit's generator, or the spec's reference), copies them out
of that sandbox and seals them here (bytes + sha256 + dtype) before the kernel runs in a fresh directory that never
contains them. After the run it copies the kernel's outputs out, pairs each with its golden, checks the seal, and
compares with the dtype's tolerance (`compare.py`). A case it cannot compare - no golden, an output it cannot pair, a
golden whose dtype it was not told - is left open (`ok = None`, `check = "none"`): `unchecked`, never passed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

import numpy as np

from . import compare, files

POISON_BYTE = 0xFF  # what the emulator fills unwritten device memory and UB with (impl/emu/runtime.h poison_byte)


@dataclass
class Golden:
    data: bytes
    dtype: str | None  # as the generator / spec declared it; None = not known (never guessed)
    sha256: str = ""

    def __post_init__(self) -> None:
        self.sha256 = self.sha256 or files.sha256(self.data)


@dataclass
class Sealed:
    """Goldens by relative path, hashed when they left their sandbox."""

    goldens: dict[str, Golden] = field(default_factory=dict)

    def intact(self) -> list[str]:
        """Goldens whose bytes no longer match their seal (none, unless something is badly wrong)."""
        return [p for p, g in self.goldens.items() if files.sha256(g.data) != g.sha256]


_NARROWER = {"float64": ("float32", "float16", compare.BF16), "float32": ("float16", compare.BF16)}


def promoted(
    sealed: Sealed, outputs: dict[str, bytes], pairs: list[tuple[str, str]], out_dtypes: dict[str, str]
) -> tuple[Sealed, dict[str, bytes]]:
    """Goldens and outputs as a benchmark's check compares them (`out - out_new` in PyTorch: the narrower float of
    the two promoted to the wider), each widened exactly: an output narrower than its golden (a PyTorch Model doing a
    half matmul in float32, the answer returning half), or a golden narrower than the output the op returns (a
    float16 reference, the op's float32 mean and rstd, as NPUKernelBench's DeepNorm binding declares them) - then
    into a copy sealed anew, the sealed golden is not changed. Outputs of another kind stay as written (and are
    compared, or refused, as before)."""
    outs, compared = dict(outputs), dict(sealed.goldens)
    for name, gold in pairs:
        g, have = sealed.goldens.get(gold), compare.canonical_dtype(out_dtypes.get(name) or "")
        if name not in outputs or g is None or g.dtype is None:
            continue
        want = compare.canonical_dtype(g.dtype)
        if have in _NARROWER.get(want, ()):
            if (wide := _widened(outputs[name], have, want)) is not None:
                outs[name] = wide
        elif want in _NARROWER.get(have, ()) and (wide := _widened(g.data, want, have)) is not None:
            compared[gold] = Golden(wide, have)
    return Sealed(compared), outs


def widened_outputs(
    sealed: Sealed, outputs: dict[str, bytes], pairs: list[tuple[str, str]], out_dtypes: dict[str, str]
) -> dict[str, bytes]:
    """The outputs half of `promoted`: the golden itself is never touched."""
    return promoted(sealed, outputs, pairs, out_dtypes)[1]


def _widened(data: bytes, dtype: str, to: str) -> bytes | None:
    """`data` of a narrower float dtype as the wider `to`, exactly (None: not a whole number of elements)."""
    narrow = compare.numpy_dtype(dtype)
    if len(data) % narrow.itemsize:
        return None
    return compare.to_float(np.frombuffer(data, dtype=narrow), dtype).astype(compare.numpy_dtype(to)).tobytes()


def _stem_key(path: str, word: str) -> str | None:
    """What names a file apart from its role: 'output/golden_output_mean.bin' -> 'mean.bin' for word 'golden',
    'output/output_mean.bin' -> 'mean.bin' for word 'output' (None when the name does not start with the word)."""
    name = PurePosixPath(path).name
    if not name.startswith(word):
        return None
    rest = name[len(word) :].lstrip("_")
    if word == "golden" and rest.startswith("output"):
        rest = rest[len("output") :].lstrip("_")
    return rest


def _resolve(token: str, golden_paths: list[str]) -> str | None:
    """A golden named by a host main: its path, or a name the main builds the path from ('result' ->
    output/golden_output_result.bin); None unless exactly one golden fits."""
    if token in golden_paths:
        return token
    stem = PurePosixPath(token).stem
    hits = [g for g in golden_paths if PurePosixPath(g).stem == stem or PurePosixPath(g).stem.endswith("_" + stem)]
    return hits[0] if len(hits) == 1 else None


def pair(
    golden_paths: list[str],
    output_paths: list[str],
    checker_bins: list[str],
    hints: list[tuple[str, str]] = (),
) -> tuple[list, list[str]]:
    """[(output, golden)] and the goldens left unpaired. The checker's own command line (from the unit's docs) says
    which files it compares; else the host code does (`hints`: the buffer a main writes to a file is the one it
    compares with a golden); else names (golden_z.bin <-> output_z.bin, or one golden and one output). Which file
    is a golden and which an output is known by who wrote it, never by the order of arguments."""
    output_paths = [p for p in output_paths if p not in golden_paths]  # a file named like a golden is not an output
    goldens = [b for b in checker_bins if b in golden_paths] or sorted(golden_paths)
    outputs = [b for b in checker_bins if b in output_paths] or sorted(output_paths)
    pairs: list[tuple[str, str]] = []
    if not [b for b in checker_bins if b in golden_paths]:
        for out, token in hints:
            gold = _resolve(token, golden_paths)
            if out in output_paths and gold is not None and gold not in {g for _, g in pairs}:
                pairs.append((out, gold))
    by_key = {}
    for out in outputs:
        key = _stem_key(out, "output")
        if key is not None:
            by_key.setdefault(key, out)
    for gold in goldens:
        key = _stem_key(gold, "golden")
        if gold not in {g for _, g in pairs} and key is not None and key in by_key:
            pairs.append((by_key[key], gold))
    if len(pairs) != len(goldens) and len(goldens) == len(outputs) and (checker_bins or len(goldens) == 1):
        pairs = list(zip(outputs, goldens, strict=True))  # the checker's order: outputs ... goldens
    paired = {g for _, g in pairs}
    return pairs, [g for g in goldens if g not in paired]


def _open_output(name: str, why: str, dtype: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "ok": None, "why": why}
    if dtype is not None:
        out["dtype"] = dtype
    return out


def compare_pair(
    out_name: str, actual: bytes, golden: Golden, atol: float | None = None, rtol: float | None = None
) -> dict[str, Any]:
    """One output against its golden: the comparison's record, or an open record saying why it cannot be made."""
    if golden.dtype is None:
        return _open_output(out_name, "the golden's dtype is unknown (not written by numpy tofile)")
    try:
        dtype = compare.canonical_dtype(golden.dtype)
        np_dtype = compare.numpy_dtype(dtype)
        compare.tolerance(dtype)
    except (TypeError, ValueError):
        return _open_output(out_name, f"no tolerance rule for the golden's dtype {golden.dtype}", golden.dtype)
    if len(actual) != len(golden.data):
        return _open_output(
            out_name, f"{len(actual)} bytes written, the golden has {len(golden.data)}: cannot line them up", dtype
        )
    if len(golden.data) % np_dtype.itemsize:
        return _open_output(out_name, f"golden size is not a whole number of {dtype}", dtype)
    got, want = np.frombuffer(actual, dtype=np_dtype), np.frombuffer(golden.data, dtype=np_dtype)
    result = compare.compare(got, want, dtype, atol, rtol)
    if result["ok"] is False and "error" not in result:
        if (unwritten := _unwritten_where_golden_is_zero(actual, golden.data, np_dtype.itemsize)) is not None:
            rest = compare.compare(got[~unwritten], want[~unwritten], dtype, atol, rtol)
            if rest["ok"]:
                return {
                    "name": out_name,
                    **result,
                    "ok": None,
                    "unwritten": int(unwritten.sum()),
                    "why": (
                        f"{int(unwritten.sum())} of {result['n']} elements were never written by the kernel (they "
                        "hold the emulator's poison bytes) where the golden expects 0, which only zero-initialised "
                        "device memory gives (aclrtMalloc does not initialise memory); every element it wrote matches"
                    ),
                }
    return {"name": out_name, **result}


def _unwritten_where_golden_is_zero(actual: bytes, golden: bytes, itemsize: int) -> np.ndarray | None:
    """Mask of elements still holding the poison byte (0xFF, what unwritten device memory holds in the emulator)
    where the golden is all-zero bytes; None when there is none. A harness whose golden counts on zeroed memory
    makes those elements differ whatever the kernel did: they cannot be judged (the case stays open, never passed)."""
    raw_got = np.frombuffer(actual, dtype=np.uint8).reshape(-1, itemsize)
    raw_want = np.frombuffer(golden, dtype=np.uint8).reshape(-1, itemsize)
    mask = (raw_got == POISON_BYTE).all(axis=1) & (raw_want == 0).all(axis=1)
    return mask if mask.any() else None


NZ_MAX_ELEMENTS = 1 << 24  # past this the layout search is not worth its time; the case stays as the compare left it


def _golden_in_nz(actual: bytes, golden: Golden, atol: float | None, rtol: float | None) -> str | None:
    """The fractal Nz layout (16-row fractals of C0 columns, column-fractal major: what Fixpipe / DataCopy write for a
    CubeFormat::NZ matrix) in which `actual` holds the golden's ND matrix, or None. Cube samples write C in Nz and
    their checker converts it back before comparing (asc-devkit fixpipe_l0c2l1: nz_to_nd), so an element-wise compare
    with the ND golden fails on a right kernel. Only a kernel that computed every element right can match a
    permutation of the golden, so this is called only when the sample's own checker passed."""
    dtype = compare.canonical_dtype(golden.dtype)
    np_dtype = compare.numpy_dtype(dtype)
    got, want = np.frombuffer(actual, dtype=np_dtype), np.frombuffer(golden.data, dtype=np_dtype)
    n = got.size
    if n != want.size or n > NZ_MAX_ELEMENTS or n < 2 * 16 * 8:
        return None
    for c0 in sorted({16, 32 // np_dtype.itemsize}):
        for cols in range(2 * c0, n // 16 + 1, c0):  # at least two column fractals: else Nz is ND already
            if n % cols or (n // cols) % 16:
                continue
            rows = n // cols
            nd = got.reshape(cols // c0, rows // 16, 16, c0).transpose(1, 2, 0, 3).reshape(-1)
            if compare.compare(nd, want, dtype, atol, rtol)["ok"]:
                return f"Nz: the golden's {rows} x {cols} matrix in 16 x {c0} fractals"
    return None


def judge_case(
    sealed: Sealed,
    outputs: dict[str, bytes],
    checker_bins: list[str] = (),
    atol: float | None = None,
    rtol: float | None = None,
    pairs: list[tuple[str, str]] | None = None,
    hints: list[tuple[str, str]] = (),
    checker_passed: bool | None = None,
) -> dict[str, Any]:
    """A case's judgement: {check, ok, outputs, why}. ok is True (every golden compared and matched), False (an
    output differs) or None (nothing, or not everything, could be compared). `pairs`: (output, golden) known in
    advance (the spec harness); else they are found by `pair` (with the host code's `hints`).

    The unit's own checker never passes a case. It only keeps one kind of difference from being called wrong: an
    output that matches its golden up to some element and differs only after it, all values finite, while the
    checker passed - samples write placeholders past the part they compare (a gather filling half its buffer), so
    that case is left open rather than labelled wrong."""
    if not sealed.goldens:
        return {"check": "none", "ok": None, "outputs": [], "why": "no golden was produced before the kernel ran"}
    tampered = sealed.intact()
    if tampered:
        return {"check": "none", "ok": None, "outputs": [], "why": f"golden {tampered[0]} changed after sealing"}
    if pairs is None:
        pairs, unpaired = pair(list(sealed.goldens), list(outputs), list(checker_bins), list(hints))
    else:
        unpaired = []
    results = [
        compare_pair(out, outputs[out], sealed.goldens[gold], atol, rtol)
        if out in outputs
        else {"name": out, "ok": False, "error": "not written", "mismatches": 0, "n": 0}
        for out, gold in pairs
    ]
    overwritten = sorted(set(outputs) & set(sealed.goldens))
    for gold in unpaired:
        results.append(_open_output(gold, f"no output file could be paired with the golden {gold}"))
    if checker_passed:
        golden_of = dict(pairs)
        for r in results:
            if r["ok"] is False and "error" not in r and not r.get("nonfinite_bad") and r["name"] in outputs:
                layout = _golden_in_nz(outputs[r["name"]], sealed.goldens[golden_of[r["name"]]], atol, rtol)
                if layout:
                    r.update(ok=True, layout=layout)
                    continue
            if r["ok"] is False and r.get("first_bad", 0) > 0 and not r.get("nonfinite_bad") and "error" not in r:
                r["ok"] = None
                r["why"] = (
                    f"matches the golden for its first {r['first_bad']} of {r['n']} elements and differs after; the "
                    "sample's own checker passed (it may compare only that part)"
                )
    wrong = [r for r in results if r["ok"] is False]
    open_ = [r for r in results if r["ok"] is None]
    case: dict[str, Any] = {"check": "golden" if any(r["ok"] is not None for r in results) else "none"}
    case["outputs"] = results
    if wrong:
        r = wrong[0]
        detail = r.get("error") or (
            f"{r['mismatches']}/{r['n']} elements off (max abs {r['max_abs_err']}, atol {r['atol']}, rtol {r['rtol']})"
            + (f"; {r['nonfinite_bad']} NaN/Inf where the golden is finite" if r.get("nonfinite_bad") else "")
        )
        case.update(ok=False, why=f"{r['name']}: {detail}")
    elif open_:
        case.update(ok=None, why=f"{open_[0]['name']}: {open_[0]['why']}")
    else:
        case["ok"] = True
    if overwritten:  # the kernel wrote a file under a golden's name: never read as a golden, noted as evidence
        case["wrote_golden_names"] = overwritten
    return case
