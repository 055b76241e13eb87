"""The dataset card (README.md): Hub metadata YAML + how the data was built, from the store's own counts."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import yaml

from ..paths import package_data
from ..store import Store
from .licenses import cann_licenses, hub_license_id, parts


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "n>1M"


def stage_counts(store: Store) -> list[tuple[str, str]]:
    out = [("units crawled and parsed", str(store.count("units")))]
    if store.has_table("verifications"):
        from ..verify.current import deciding_verifications

        # each unit once, by the verification that decides it (docs/statuses.md: what each status means)
        counts = Counter(row["status"] for _, row in deciding_verifications(store).values())
        for status, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append((f"units whose verification is `{status}`", str(n)))
        weak = store.scalar("SELECT count(DISTINCT unit_id) FROM verifications WHERE isolation IS NOT NULL")
        if weak:
            out.append(("units verified without full sandbox isolation (`--allow-weak-sandbox`)", str(weak)))
    if store.has_table("annotations"):
        n_ok = store.scalar("SELECT count(DISTINCT unit_id) FROM annotations WHERE status='ok' AND gates_passed")
        out.append(("units with an annotation that passed the quality gates", str(n_ok)))
    out.append(("dedup clusters", str(store.scalar("SELECT count(DISTINCT cluster_id) FROM dedup"))))
    out.append(
        ("units flagged as benchmark-contaminated", str(store.count("contamination", "verdict = 'contaminated'")))
    )
    out.append(
        ("units near a benchmark answer (shared kernel body)", str(store.count("contamination", "verdict = 'near'")))
    )
    return out


def provenance(store: Store) -> dict[str, Any]:
    """The crawled sources (public location, commit) and the benchmarks decontamination checked (name, commit)."""
    from .rows import public_location

    sources = [
        {"location": public_location(s), "commit": s["commit"] or "", "units": s["n_units"] or 0}
        for s in store.rows("SELECT kind, url, commit, n_units FROM sources WHERE status = 'ok' ORDER BY url, commit")
    ]
    benchmarks: dict[str, str] = {}
    if store.has_table("contamination"):
        for r in store.rows("SELECT DISTINCT CAST(evidence->'checked' AS VARCHAR) AS checked FROM contamination"):
            for c in json.loads(r["checked"] or "[]"):
                benchmarks.setdefault(c["benchmark"], c.get("commit") or "")
    return {"sources": sources, "benchmarks": benchmarks}


def metadata(
    rows: list[dict[str, Any]],
    config_name: str,
    split_rows: dict[str, int],
    features: dict[str, Any],
    num_bytes: dict[str, int],
) -> dict[str, Any]:
    licenses = sorted({r["provenance"]["license"] for r in rows})
    hub_ids = sorted({hub_license_id(x) for expr in licenses for x in parts(expr)}) or ["other"]
    meta: dict[str, Any] = {
        "license": hub_ids[0] if len(hub_ids) == 1 else hub_ids,
        "task_categories": ["text-generation"],
        "language": sorted({r["lang"] for r in rows}) or ["en"],
        "tags": ["code", "ascendc", "npu", "chain-of-thought", "kernels"],
        "size_categories": [size_category(len(rows))],
        "pretty_name": "AscendC kernels with verified chain-of-thought",
        "configs": [
            {
                "config_name": config_name,
                "default": True,
                "data_files": [
                    {"split": split, "path": f"data/{config_name}/{split}-*.parquet"} for split in split_rows
                ],
            }
        ],
        "dataset_info": {
            "config_name": config_name,
            "features": features,
            "splits": [
                {"name": split, "num_bytes": num_bytes[split], "num_examples": n} for split, n in split_rows.items()
            ],
        },
    }
    if "other" in hub_ids:
        meta["license_name"] = "cann-open-software-license" if set(licenses) & set(cann_licenses()) else "other"
    return meta


def _count_table(title: str, counts: Counter) -> list[str]:
    lines = [f"| {title} | rows |", "|---|---|"]
    lines += [f"| {k} | {n} |" for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))]
    return lines + [""]


def _task_of(r: dict[str, Any]) -> str:
    if r.get("instruction"):
        return r["instruction"]
    if r.get("messages"):
        return r["messages"][0]["content"]
    return r["conversations"][0]["value"]


def _is_static(teacher: dict[str, Any]) -> bool:
    return teacher["provider"] == "static"


def render(
    stage_counts: list[tuple[str, str]],
    rows: list[dict[str, Any]],
    meta: dict[str, Any],
    dropped: dict[str, int],
    fmt: str,
    recipe_name: str | None,
    *,
    dropped_samples: dict[str, int] | None = None,
    provenance: dict[str, Any] | None = None,
    split_rows: dict[str, int] | None = None,
) -> str:
    from .select import REASONS

    provenance = provenance or {"sources": [], "benchmarks": {}}
    split_rows = split_rows or {"train": len(rows)}
    cann = set(cann_licenses())
    n_cann = sum(1 for r in rows if set(parts(r["provenance"]["license"])) & cann)
    all_static = bool(rows) and all(_is_static(r["teacher"]) for r in rows)
    lines = [
        "---",
        yaml.safe_dump(meta, sort_keys=False, allow_unicode=True).strip(),
        "---",
        "",
        "# AscendC kernels with verified chain-of-thought",
        "",
    ]
    # The licence warning comes first: real Ascend sources (asc-devkit, cann-ops) are under the CANN licence.
    if n_cann:
        lines += [
            f"> **Licence warning: {n_cann} of {len(rows)} rows are code under the CANN Open Software License** "
            "(real Ascend sources, included on request with `--allow-cann-license`). It limits use of the code to "
            "Ascend hardware: check its terms before you train on or redistribute these rows.",
            "",
        ]
    elif dropped.get("cann_license"):
        lines += [
            f"> **Licence note:** {dropped['cann_license']} units from real Ascend sources are under the CANN Open "
            "Software License (which limits use to Ascend hardware) and were left out; `--allow-cann-license` "
            "includes them.",
            "",
        ]
    writer = (
        "written by cotbuilder's static teacher — a deterministic program that builds each sentence from facts parsed "
        "from the code, **not a language model**"
        if all_static
        else "written by a teacher (see Teachers: `static` is a program, any other is a language model)"
    )
    lines += [
        f"Each row is a real AscendC kernel (Huawei Ascend NPU C++ DSL) with a task statement and a step-by-step "
        f"rationale {writer}. Every kernel was compiled and run against a reference, near-duplicates were removed, "
        "and kernels overlapping public NPU kernel benchmarks were dropped.",
        "",
        f"Export format: `{fmt}`. Splits: "
        + ", ".join(f"`{s}` {n} rows" for s, n in split_rows.items())
        + " (a unit's rows and its near-duplicates' are always in the same split). Built with cotbuilder.",
        "",
        "## Contents",
        "",
    ]
    lines += _count_table("kind", Counter(r["kind"] for r in rows))
    lines += _count_table("category", Counter(r["category"] for r in rows))
    lines += _count_table("level (1–5)", Counter(r["level"] for r in rows))
    lines += _count_table("language", Counter(r["lang"] for r in rows))
    lines += _count_table(
        "verification backend",
        Counter(
            f"{r['verification']['backend']} {r['verification'].get('backend_version') or ''}".strip()
            or "not run (doc rows)"
            for r in rows
        ),
    )
    kinds = Counter(r["kind"] for r in rows)
    if kinds.get("repair"):
        lines += [
            "Rows of kind `repair` show a broken kernel with the verifier's feedback and the fix. When the teacher is "
            "`cotbuilder`/`mutation`, the broken code is a bug mutation of a verified kernel that the verifier really "
            "failed (`repair.mutation` names the kind) and the fix is the verified kernel itself. When it is "
            "`cotbuilder`/`synthesize-repair`, the broken code is a teacher's answer the verifier really failed "
            "(`repair.mutation` is the bug the static teacher planted, or `teacher_answer`) and the fix is the "
            "teacher's repair, which passed and is the row's verified kernel.",
            "",
        ]
    if kinds.get("doc"):
        lines += [
            "Rows of kind `doc` answer an API-usage question from the AscendC API docs (`source_url`); every "
            "statement in their reasoning was found in the page's text, and their example code was not run.",
            "",
        ]
    lines += [
        f"{len({r['id'] for r in rows})} distinct units; a unit has one row per published annotation "
        "(language, sample).",
        "",
        "## How it was built",
        "",
        "| stage | count |",
        "|---|---|",
    ]
    lines += [f"| {k} | {v} |" for k, v in stage_counts]
    lines += ["", "Units left out at publish time:", ""]
    lines += [f"- {REASONS[k][0]}: {v}" + (f" ({REASONS[k][1]})" if v else "") for k, v in dropped.items()]
    samples_out = {k: v for k, v in (dropped_samples or {}).items() if v}
    if samples_out:
        lines += ["", "Annotations of published units left out:", ""]
        lines += [f"- {REASONS[k][0]}: {v} ({REASONS[k][1]})" for k, v in samples_out.items()]
    lines += ["", f"**{len(rows)} rows published.**", "", "## Verification", ""]
    lines.append(
        "A row is published only when its status is `passed`: cotbuilder compared every output of the kernel "
        "with a golden computed before the kernel ran (the sample's own checker was evidence, never the verdict). "
        "Status words: see cotbuilder's docs/statuses.md."
    )
    weak = Counter(
        r["verification"].get("isolation") for r in rows if r["verification"].get("isolation", "full") != "full"
    )
    for isolation, n in sorted(weak.items()):
        lines.append(f"\n**{n} rows were verified without full sandbox isolation** ({isolation}).")
    if any(r["verification"]["backend"] == "cpu-emulator" for r in rows):
        lines += ["", "Known limits of CPU verification:", "", _cpu_limits().strip()]
    lines += ["", "## Licences", ""]
    for lic, n in sorted(Counter(r["provenance"]["license"] for r in rows).items()):
        lines.append(f"- {lic}: {n} rows")
    if n_cann:
        lines += [
            "",
            "**Some rows are under the CANN Open Software License**, which limits use of the code to Ascend "
            "hardware; they were included on request (`--allow-cann-license`). Check its terms before use.",
        ]
    lines += ["", "## Sources", "", "| source | commit | units crawled | rows |", "|---|---|---|---|"]
    published = Counter((r["provenance"]["repo"], r["provenance"]["commit"]) for r in rows)
    for src in provenance["sources"]:
        n = published.get((src["location"], src["commit"]), 0)
        lines.append(f"| {src['location']} | {src['commit'] or '(not a git checkout)'} | {src['units']} | {n} |")
    lines += ["", "## Teachers", ""]
    for (prov, model, pv), n in sorted(
        Counter((r["teacher"]["provider"], r["teacher"]["model"], r["teacher"]["prompt_version"]) for r in rows).items()
    ):
        what = " — a program written in cotbuilder, not a model" if prov == "static" else ""
        lines.append(f"- {prov} / {model} (prompt {pv}): {n} rows{what}")
    lines += ["", "## Decontamination", ""]
    benches = sorted({b for r in rows for b in r["contamination"]["benchmarks"]} | set(provenance["benchmarks"]))
    for name in benches:
        commit = provenance["benchmarks"].get(name) or ""
        lines.append(f"- {name}: " + (f"commit {commit}" if commit else "a local folder (no commit)"))
    lines += [
        "",
        f"Checked against: {', '.join(benches) or 'none'} (exact normalised code, 13-gram overlap of code "
        "tokens / English words / Chinese characters, MinHash similarity of identifier-abstracted code). "
        f"{dropped.get('contaminated', 0)} otherwise publishable units were removed as contaminated (a copy of a "
        f"benchmark answer or task), {dropped.get('near_benchmark', 0)} as near a benchmark answer (a shared kernel "
        "body).",
    ]
    n_near = sum(1 for r in rows if r["contamination"]["verdict"] == "near")
    if n_near:
        lines.append(
            f"**{n_near} rows share a kernel body with a benchmark answer** (verdict `near`, published on request with "
            "`--allow-near`): do not evaluate a model trained on them on those benchmarks without removing them."
        )
    lines += ["", "## Examples", ""]
    for r in rows[:2]:
        lines += [
            f"### {r['name']} ({r['category']})",
            "",
            f"> {_task_of(r).strip()[:400]}",
            "",
            f"Source: {r['provenance']['repo']} `{r['provenance']['path']}` ({r['provenance']['license']})",
            "",
        ]
    if recipe_name:
        lines += ["## Recipe", "", f"The pipeline recipe used is included as `{recipe_name}`.", ""]
    return "\n".join(lines) + "\n"


@cache
def _cpu_limits() -> str:  # noqa: N802  -- a constant read once from its data file
    return package_data("publish/data/cpu_verification_limits.md").read_text(encoding="utf-8")


def features_of(schema: Any) -> Any:
    """Hub `dataset_info.features` from an Arrow schema."""
    import pyarrow as pa

    if isinstance(schema, pa.Schema):
        return [{"name": f.name, **_feature(f.type)} for f in schema]
    return _feature(schema)


def _feature(t: Any) -> dict[str, Any]:
    import pyarrow as pa

    if pa.types.is_struct(t):
        return {"struct": [{"name": f.name, **_feature(f.type)} for f in t]}
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        inner = _feature(t.value_type)
        return {"list": inner["struct"]} if "struct" in inner else {"sequence": inner.get("dtype", "string")}
    name = {
        "string": "string",
        "large_string": "large_string",
        "int64": "int64",
        "double": "float64",
        "bool": "bool",
        "null": "null",
    }.get(str(t), str(t))
    return {"dtype": name}
