"""`cotbuilder apidocs`: the doc tree written here (tests/apidocs/doc_tree.py) into `api_docs`, doc samples and the
grounding gate that holds back a sample stating what its page does not."""

from __future__ import annotations

import json
from pathlib import Path

from cotbuilder.apidocs.config import ApiDocsConfig
from cotbuilder.apidocs.extract import extract_page
from cotbuilder.apidocs.samples import Claim, grounding, make_sample
from cotbuilder.apidocs.stage import run
from cotbuilder.store import Store

from .doc_tree import PAGES, write_tree

SCALE = "SIMD-API/基础API/Memory矢量计算/基础算术/Scale.md"

URL = "https://docs.example.org/asc-devkit/blob/abc123/docs/zh/api/"


def _query(cli, ws: Path, sql: str) -> list[dict]:
    out = cli("query", sql, "--json", workspace=ws)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def test_every_api_page_becomes_a_row_with_a_grounded_sample_and_its_source_url(cli, workspace, tmp_path):
    docs = write_tree(tmp_path / "docs")
    out = cli("apidocs", "--docs", str(docs), "--url", URL, "--commit", "abc123", "--no-progress", workspace=workspace)
    assert out.returncode == 0, out.stdout + out.stderr
    rows = _query(cli, workspace, "SELECT path, url, commit, complete, grounded, sample FROM api_docs ORDER BY path")
    assert len(rows) == 6  # the concept page (no prototype) and the appendix are not API pages
    assert all(r["complete"] and r["grounded"] for r in rows)
    assert all(r["url"] == URL + r["path"] and r["commit"] == "abc123" for r in rows)
    assert "not an API reference page" in out.stdout + out.stderr


def test_a_sample_cites_the_prototype_parameters_and_every_constraint_of_its_page():
    text = PAGES[SCALE]
    record = extract_page(text, SCALE)
    sample = make_sample(record)
    body = "\n".join(s["text"] for s in sample.rationale)
    assert record.signatures[0].strip() in body
    assert all(c.strip() in body for c in record.constraints) and record.constraints
    assert all(p.name in body for p in record.params)
    assert sample.answer == record.examples[0].strip()
    assert grounding(sample, text) == {
        "passed": True,
        "ungrounded": [],
        "detail": f"{len(sample.claims)} statement(s) found in the page",
    }


def test_the_gate_holds_back_a_sample_stating_a_constraint_its_page_does_not_have():
    text = PAGES[SCALE]
    sample = make_sample(extract_page(text, SCALE))
    sample.claims.append(Claim("constraint", "源操作数的地址需要 512 字节对齐。"))
    gate = grounding(sample, text)
    assert not gate["passed"] and gate["ungrounded"] == ["constraint: 源操作数的地址需要 512 字节对齐。"]


def test_the_gate_fails_when_the_page_no_longer_says_what_the_sample_states():
    text = PAGES[SCALE]
    record = extract_page(text, SCALE)
    sample = make_sample(record)
    changed = text.replace(record.constraints[0].splitlines()[0].strip(), "（此条已删除）")
    assert not grounding(sample, changed)["passed"]


def test_a_rerun_reads_nothing_and_an_edited_page_is_read_again(workspace, tmp_path):
    docs = write_tree(tmp_path / "docs")
    config = ApiDocsConfig(docs=str(docs), progress=False)
    with Store(workspace) as store:
        assert run(store, config).counts["kept"] == 6
        again = run(store, config)
        assert again.counts.get("kept", 0) == 0 and again.reasons["skipped: already read"] == 6
        page = docs / SCALE
        page.write_text(page.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        assert run(store, config).counts["kept"] == 1
        rows = store.rows("SELECT url FROM api_docs WHERE path = ?", [SCALE])
    assert len(rows) == 2 and all(r["url"] == f"local:{docs.name}/{SCALE}" for r in rows)  # the edit is a new row


def test_a_folder_without_doc_pages_is_refused_and_nothing_stored(cli, workspace, tmp_path):
    docs = write_tree(tmp_path / "docs")
    assert cli("apidocs", "--docs", str(docs), "--no-progress", workspace=workspace).returncode == 0
    missing = cli("apidocs", "--docs", str(tmp_path / "nowhere"), workspace=workspace)
    assert missing.returncode == 2 and "--docs must be a folder" in missing.stdout + missing.stderr
    (tmp_path / "empty").mkdir()
    empty = cli("apidocs", "--docs", str(tmp_path / "empty"), workspace=workspace)
    assert empty.returncode == 2 and "holds no Markdown API pages" in empty.stdout + empty.stderr
    assert len(_query(cli, workspace, "SELECT doc_id FROM api_docs")) == 6  # what was stored is still there
