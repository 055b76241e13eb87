"""The apidocs stage: API doc pages -> `api_docs` rows (extracted record + doc-grounded sample + gate verdict).

plan: the API pages of --docs (names.is_api_page) whose key (source, path, text, versions) is not stored, in batches;
work: extract each page (extract.extract_page, the legality table's parser), write its sample and gate it
(samples.py); commit: the rows. Pages that turn out not to be API reference pages (no prototype) are counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..hashing import sha256_text
from ..stages.base import PROCESS, Stage, StageRefused
from ..stages.driver import run_stage
from ..stats import StageStats
from ..store import Store, utcnow
from .config import ApiDocsConfig
from .extract import extract_page
from .names import doc_pages, is_api_page
from .samples import SAMPLES_VERSION, grounding, make_sample

EXTRACT_VERSION = "apidocs-extract-v1"  # bump when extract.py reads pages differently: every page is read again
_BATCH = 64


@dataclass
class DocPage:
    path: str
    text: str
    doc_id: str


@dataclass
class ApiDocsItem:
    pages: list[DocPage]


@dataclass
class ApiDocsResult:
    rows: list[dict[str, Any]]
    not_api: int


def source_of(config: ApiDocsConfig) -> str:
    return config.url.rstrip("/") + "/" if config.url else f"local:{Path(config.docs or '.').resolve().name}/"


class ApiDocsStage(Stage[ApiDocsConfig, ApiDocsItem, ApiDocsResult]):
    name = "apidocs"
    config_type = ApiDocsConfig
    mode = PROCESS

    def check(self) -> None:
        docs = self.config.docs
        if not docs or not Path(docs).is_dir():
            raise StageRefused(f"--docs must be a folder of API doc pages (asc-devkit docs/zh/api), not {docs!r}")
        if self.config.url and "://" not in self.config.url:
            raise StageRefused(f"--url must be a URL prefix (https://...), not {self.config.url!r}")

    def plan(self, store: Store, stats: StageStats) -> list[ApiDocsItem]:
        root = Path(self.config.docs or ".")
        pages = [p for p in doc_pages(root) if is_api_page(p)]
        if not pages:
            raise StageRefused(f"{root} holds no Markdown API pages")
        source = source_of(self.config)
        stored = (
            {r["doc_id"] for r in store.rows("SELECT doc_id FROM api_docs")} if store.has_table("api_docs") else set()
        )
        todo: list[DocPage] = []
        for rel in pages:
            text = (root / rel).read_text(encoding="utf-8", errors="replace")
            doc_id = sha256_text("\0".join((source, rel, text, EXTRACT_VERSION, SAMPLES_VERSION)))
            if doc_id in stored:
                stats.skip("already read")
                continue
            todo.append(DocPage(rel, text, doc_id))
        if self.config.limit is not None:
            for _ in todo[self.config.limit :]:
                stats.skip("over --limit")
            todo = todo[: self.config.limit]
        return [ApiDocsItem(todo[i : i + _BATCH]) for i in range(0, len(todo), _BATCH)]

    def work(self, item: ApiDocsItem) -> ApiDocsResult:
        rows, not_api = [], 0
        for page in item.pages:
            row = page_row(page, self.config)
            if row is None:
                not_api += 1
            else:
                rows.append(row)
        return ApiDocsResult(rows, not_api)

    def commit(self, store: Store, results: list[ApiDocsResult], stats: StageStats) -> None:
        rows = [r for res in results for r in res.rows]
        store.insert("api_docs", rows)
        for res in results:
            if res.not_api:
                stats.skip("not an API reference page (no prototype)", res.not_api)
        for r in rows:
            stats.kept()
            stats.add("complete" if r["complete"] else "incomplete")
            stats.add("grounded" if r["grounded"] else "not_grounded")

    def label(self, item: ApiDocsItem) -> str:
        return item.pages[0].path if item.pages else ""


def page_row(page: DocPage, config: ApiDocsConfig) -> dict[str, Any] | None:
    """The `api_docs` row of one page; None for a page that documents no API (an overview, a concept page)."""
    record = extract_page(page.text, page.path)
    if not record.is_api:
        return None
    sample = make_sample(record)
    gate = grounding(sample, page.text) if sample is not None else None
    source = source_of(config)
    data = record.to_json()
    return {
        "doc_id": page.doc_id,
        "source": source,
        "url": source + page.path,
        "commit": config.commit,
        "path": page.path,
        "title": record.title,
        "names": record.names,
        "category": record.category,
        "header": record.header or None,
        "license": config.license,
        "products": record.products,
        "signatures": record.signatures,
        "params": data["params"],
        "template_params": data["template_params"],
        "params_none": record.params_none,
        "dtypes": record.dtypes,
        "combinations": data["combinations"],
        "constraints": record.constraints,
        "has_constraints": record.has_constraints,
        "examples": record.examples,
        "description": record.description or None,
        "complete": record.complete,
        "sample": sample.as_dict(gate) if sample is not None and gate is not None else None,
        "grounded": bool(gate and gate["passed"]),
        "created_at": utcnow(),
    }


def run(store: Store, config: ApiDocsConfig) -> StageStats:
    """Read a docs folder in this process (library and test use); the CLI goes through the same stage."""
    return run_stage(ApiDocsStage(config), store)
