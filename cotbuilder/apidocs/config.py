"""`cotbuilder apidocs`'s settings (light: the CLI reads them for --help)."""

from __future__ import annotations

from dataclasses import dataclass

from ..stages.options import option


@dataclass
class ApiDocsConfig:
    """Read the AscendC API reference (asc-devkit `docs/zh/api` Markdown) into `api_docs`: one row per API page with
    its prototypes, parameters, supported types per SoC, constraints and examples (cotbuilder.apidocs.extract, the
    parser the emulator's legality table is built with), and a doc-grounded sample: an API-usage question answered
    from the page, kept only when every statement it makes is in the page's text (the grounding gate). `push`
    publishes the grounded samples as kind="doc" rows with the page's source URL (under --license).

    --docs is a folder (a checkout's docs/zh/api, or `git archive` of a snapshot); --url the public prefix the page
    paths are appended to for each row's source URL (without it: local:<folder>/<path>). Re-running skips pages whose
    text, source and extractor are unchanged. Exit status: 2 when --docs is not a folder of Markdown pages.
    """

    docs: str | None = option(None, "--docs", help="The API docs folder (asc-devkit docs/zh/api).")
    url: str | None = option(
        None,
        "--url",
        help="Public URL prefix of that folder, e.g. https://gitcode.com/cann/asc-devkit/blob/COMMIT/docs/zh/api/",
    )
    commit: str | None = option(None, "--commit", help="The docs' commit, recorded with each row.")
    license: str = option(
        "LicenseRef-CANN-Open-Software-License-2.0",
        "--license",
        help="SPDX id of the docs' licence (asc-devkit: the CANN Open Software License); push publishes doc rows "
        "under the same licence rules as code.",
    )
    limit: int | None = option(None, "--limit", help="Read at most N pages not yet stored.")
    progress: bool = option(True, "--no-progress", help="No progress bar.")
