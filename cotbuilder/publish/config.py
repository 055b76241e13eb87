"""`cotbuilder push`'s settings (light: the CLI reads them for --help without importing pyarrow or the Hub client)."""

from __future__ import annotations

from dataclasses import dataclass

from ..stages.options import list_option, option


@dataclass
class PushConfig:
    """Publish the units that passed verification (latest result per backend), are clean (or `near` a benchmark with
    --allow-near) and under an allowed licence, one unit per dedup cluster (the best such member), with every annotation
    of it that passed the gates: each language and sample is a row (--lang, --samples best). Writes parquet shards
    data/<format>/{train,test}-*.parquet (a unit's rows, and its near-duplicates', are all in one split), a dataset card
    README.md, and the recipe; prints one line per reason rows were left out. Refuses (exit 2) when there is nothing
    to publish, dedup or decontaminate have not run on the current data, a row fails its schema, or --local-dir holds
    files push did not write. A Hub failure (network, auth, HTTP error) is one line and exit 1."""

    repo_id: str | None = option(
        None, "--repo-id", help="Hub dataset repo ORG/NAME (token: HF_TOKEN or `huggingface-cli login`)."
    )
    local_dir: str | None = option(None, "--local-dir", help="Write the dataset folder here instead.")
    private: bool = option(False, "--private", help="Create the Hub repo as private.")
    revision: str | None = option(None, "--revision", help="Hub branch to commit to (created if missing).")
    format: str = option(
        "messages",
        "--format",
        help="messages | alpaca | sharegpt | reasoning (`<think>` + the code in NPUKernelBench's answer layout).",
    )
    lang: list[str] = list_option("--lang", help="Publish only annotations in this language (repeatable; default all).")
    samples: str = option(
        "all", "--samples", help="all: every accepted annotation of a unit; best: the longest one per language."
    )
    repairs: bool = option(
        True,
        "--no-repairs",
        help="Leave out the repair rows made from mutants (`cotbuilder mutate`: broken code + verifier feedback -> "
        "the fix, which is the verified unit); only mutants the verifier really failed are ever published.",
    )
    docs: bool = option(
        False,
        "--docs",
        help="Also publish the grounded doc samples of `api_docs` (`cotbuilder apidocs`) as kind=doc rows with their "
        "source URL, under the docs' licence (asc-devkit's: CANN, so with --allow-cann-license).",
    )
    test_fraction: float = option(
        0.0,
        "--test-fraction",
        min=0.0,
        max=0.5,
        help="Share of dedup clusters put in a `test` split (by a hash of the cluster: stable across pushes).",
    )
    licenses: list[str] | None = option(
        None,
        "--licenses",
        help="SPDX ids to publish (repeatable). Default: Apache-2.0, MIT, BSD-2-Clause, BSD-3-Clause.",
    )
    allow_cann_license: bool = option(
        False, "--allow-cann-license", help="Also publish CANN Open Software License code (stated in the card)."
    )
    allow_near: bool = option(
        False,
        "--allow-near",
        help="Also publish units that share a kernel body with a benchmark answer (verdict `near`, stated in the "
        "card); copies of a benchmark answer or task (`contaminated`) are never published.",
    )
    rows_per_shard: int = option(5000, "--rows-per-shard", min=1, help="Rows per parquet shard.")
    # the pipeline recipe to ship with the data (`cotbuilder run` passes its own)
    recipe: str | None = option(None, "--recipe", help="Pipeline recipe to ship with the data.")
