"""How much of a docs tree the extractor reads: the share of API pages with a signature, parameters and constraints,
and which pages miss what (the data-value issue's doc-grounded records need >= 90%)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .extract import ApiRecord, extract_tree


@dataclass
class Coverage:
    pages: int = 0  # API reference pages (with a prototype section)
    complete: int = 0
    with_signature: int = 0
    with_params: int = 0  # a parameter table, or a stated "none"
    with_constraints: int = 0
    with_dtypes: int = 0
    with_products: int = 0
    with_examples: int = 0
    misses: dict[str, list[str]] = field(default_factory=dict)  # what is missing -> pages
    by_top: Counter = field(default_factory=Counter)  # incomplete pages per top folder

    @property
    def share(self) -> float:
        return self.complete / self.pages if self.pages else 0.0


def measure(docs_root: Path) -> Coverage:
    cov = Coverage()
    for record in extract_tree(docs_root):
        _count(cov, record)
    return cov


def _count(cov: Coverage, r: ApiRecord) -> None:
    cov.pages += 1
    has_params = bool(r.params or r.template_params) or r.params_none
    cov.with_signature += bool(r.signatures)
    cov.with_params += has_params
    cov.with_constraints += r.has_constraints
    cov.with_dtypes += bool(r.dtypes or r.combinations)
    cov.with_products += bool(r.products)
    cov.with_examples += bool(r.examples)
    if r.complete:
        cov.complete += 1
        return
    missing = [
        what for what, ok in (("signature", r.signatures), ("parameters", has_params), ("constraints", r.has_constraints))
        if not ok
    ]  # fmt: skip
    cov.misses.setdefault("+".join(missing), []).append(r.path)
    cov.by_top["/".join(r.path.split("/")[:2])] += 1


def report(cov: Coverage, examples: int = 5) -> str:
    pct = lambda n: f"{n} ({100 * n / cov.pages:.1f}%)" if cov.pages else "0"  # noqa: E731
    lines = [
        f"API pages: {cov.pages}",
        f"complete (signature + parameters + constraints): {pct(cov.complete)}",
        f"  signature {pct(cov.with_signature)}, parameters {pct(cov.with_params)}, "
        f"constraints {pct(cov.with_constraints)}",
        f"  supported types {pct(cov.with_dtypes)}, products {pct(cov.with_products)}, examples {pct(cov.with_examples)}",
        "incomplete, by what is missing:",
    ]
    for what, pages in sorted(cov.misses.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"  {what}: {len(pages)}  e.g. " + "; ".join(pages[:examples]))
    lines.append("incomplete, by folder: " + ", ".join(f"{k} {v}" for k, v in cov.by_top.most_common()))
    return "\n".join(lines)
