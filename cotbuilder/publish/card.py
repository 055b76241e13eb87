"""The dataset card (README.md): Hub metadata YAML + how the data was built, from the store's own counts."""

from __future__ import annotations

from collections import Counter
from typing import Any

import yaml

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


def metadata(
    rows: list[dict[str, Any]], config_name: str, shard_glob: str, features: dict[str, Any], num_bytes: int
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
            {"config_name": config_name, "default": True, "data_files": [{"split": "train", "path": shard_glob}]}
        ],
        "dataset_info": {
            "config_name": config_name,
            "features": features,
            "splits": [{"name": "train", "num_bytes": num_bytes, "num_examples": len(rows)}],
        },
    }
    if "other" in hub_ids:
        meta["license_name"] = "cann-open-software-license" if set(licenses) & set(cann_licenses()) else "other"
    return meta


def render(
    stage_counts: list[tuple[str, str]],
    rows: list[dict[str, Any]],
    meta: dict[str, Any],
    dropped: dict[str, int],
    fmt: str,
    recipe_name: str | None,
) -> str:
    lines = [
        "---",
        yaml.safe_dump(meta, sort_keys=False, allow_unicode=True).strip(),
        "---",
        "",
        "# AscendC kernels with verified chain-of-thought",
        "",
        "Each row is a real AscendC kernel (Huawei Ascend NPU C++ DSL) with a task statement and a step-by-step "
        "rationale written by a teacher model. Every kernel was compiled and run against a reference, "
        "near-duplicates were removed, and kernels overlapping public NPU kernel benchmarks were dropped.",
        "",
        f"Export format: `{fmt}`. Built with cotbuilder.",
        "",
        "## How it was built",
        "",
        "| stage | count |",
        "|---|---|",
    ]
    lines += [f"| {k} | {v} |" for k, v in stage_counts]
    lines += ["", "Units left out at publish time:", ""]
    lines += [f"- {k.replace('_', ' ')}: {v}" for k, v in dropped.items()]
    lines += ["", f"**{len(rows)} rows published.**", "", "## Verification", ""]
    for (backend, version), n in sorted(
        Counter((r["verification"]["backend"], r["verification"]["backend_version"]) for r in rows).items(), key=str
    ):
        lines.append(f"- `{backend}` {version or ''}: {n} rows")
    lines.append(
        "\nA row is published only when its status is `passed`: cotbuilder compared every output of the kernel "
        "with a golden computed before the kernel ran (the sample's own checker was evidence, never the verdict). "
        "Status words: see cotbuilder's docs/statuses.md."
    )
    weak = Counter(
        r["verification"].get("isolation") for r in rows if r["verification"].get("isolation", "full") != "full"
    )
    for isolation, n in sorted(weak.items()):
        lines.append(f"\n**{n} rows were verified without full sandbox isolation** ({isolation}).")
    lines += ["", "## Licences", ""]
    for lic, n in sorted(Counter(r["provenance"]["license"] for r in rows).items()):
        lines.append(f"- {lic}: {n} rows")
    if any(r["provenance"]["license"] in cann_licenses() for r in rows):
        lines += [
            "",
            "**Some rows are under the CANN Open Software License**, which limits use of the code to Ascend "
            "hardware; they were included on request (`--allow-cann-license`). Check its terms before use.",
        ]
    lines += ["", "## Teachers", ""]
    for (prov, model, pv), n in sorted(
        Counter((r["teacher"]["provider"], r["teacher"]["model"], r["teacher"]["prompt_version"]) for r in rows).items()
    ):
        lines.append(f"- {prov} / {model} (prompt {pv}): {n} rows")
    lines += ["", "## Decontamination", ""]
    benches = sorted({b for r in rows for b in r["contamination"]["benchmarks"]})
    lines.append(
        f"Checked against: {', '.join(benches) or 'none'} (exact normalised code, 13-gram overlap of code "
        "tokens / English words / Chinese characters, MinHash similarity of identifier-abstracted code). "
        f"{dropped.get('contaminated', 0)} otherwise publishable units were removed as contaminated (a copy of a "
        f"benchmark answer or task), {dropped.get('near_benchmark', 0)} as near a benchmark answer (a shared kernel "
        "body)."
    )
    n_near = sum(1 for r in rows if r["contamination"]["verdict"] == "near")
    if n_near:
        lines.append(
            f"**{n_near} rows share a kernel body with a benchmark answer** (verdict `near`, published on request with "
            "`--allow-near`): do not evaluate a model trained on them on those benchmarks without removing them."
        )
    lines += ["", "## Examples", ""]
    for r in rows[:2]:
        task = (
            r.get("instruction")
            or (r.get("messages") or r.get("conversations") or [{}])[0].get("content")
            or r["conversations"][0]["value"]
        )
        lines += [
            f"### {r['name']} ({r['category']})",
            "",
            f"> {task.strip()[:400]}",
            "",
            f"Source: {r['provenance']['repo']} `{r['provenance']['path']}` ({r['provenance']['license']})",
            "",
        ]
    if recipe_name:
        lines += ["## Recipe", "", f"The pipeline recipe used is included as `{recipe_name}`.", ""]
    return "\n".join(lines) + "\n"


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
