"""An API doc page as sections of blocks (paragraphs, list items, tables, code), read with markdown-it-py.

The asc-devkit pages are Markdown converted from the vendor's DITA sources: `## ` sections with anchors
(`## 参数说明<a name="..."></a>`), tables whose cells use `<br>` for line breaks, and `<!-- npu="910b" id3 -->` …
`<!-- end id3 -->` comments around content that applies to some products only. Each block keeps the product markers
it sits inside, so a caller can attribute "支持的数据类型为：…" to a SoC even when the sentence does not name one.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import cache

from markdown_it import MarkdownIt

_ANCHOR = re.compile(r"<a\s+(?:name|id)=[^>]*>\s*</a>", re.I)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_BR = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*|__|`")
_NPU_OPEN = re.compile(r'<!--\s*npu="([^"]*)"\s*(\w+)?\s*-->')
_NPU_END = re.compile(r"<!--\s*end\s+(\w+)\s*-->")
_HTML_TABLE = re.compile(r"<table\b.*?</table>", re.S | re.I)


@dataclass
class Block:
    kind: str  # paragraph, item, table, code, heading
    text: str = ""  # plain text (items, paragraphs, headings); code for code blocks
    depth: int = 0  # list nesting depth of an item (0 = top level)
    rows: list[list[str]] = field(default_factory=list)  # table: header row first, cells as plain text
    npu: tuple[str, ...] = ()  # product markers (`910b`, `310p`, `A3` …) the block sits inside
    lang: str = ""  # code block info string


@dataclass
class Page:
    title: str
    sections: dict[str, list[Block]]  # section title (anchors stripped) -> blocks, in page order
    preamble: list[Block] = field(default_factory=list)  # blocks before the first `## `


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def plain(text: str) -> str:
    """Inline Markdown/HTML as plain text: links to their text, `<br>` to newlines, tags and emphasis dropped."""
    text = _COMMENT.sub("", _ANCHOR.sub("", text))
    text = _BR.sub("\n", text)
    text = _LINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    text = _EMPHASIS.sub("", text)
    text = html.unescape(text)
    return "\n".join(line.strip() for line in text.splitlines()).strip()


def section_title(text: str) -> str:
    return plain(text).strip().rstrip("：:")


def html_tables_as_markdown(text: str) -> str:
    """Pages converted from DITA keep some tables as raw HTML; rewrite each as a pipe table so one parser reads all."""
    if "<table" not in text:
        return text
    return _HTML_TABLE.sub(lambda m: "\n\n" + _pipe_table(m.group(0)) + "\n\n", text)


def _pipe_table(fragment: str) -> str:
    # selectolax (lexbor) reads the HTML: the docs' cells hold <p>, <ul>, <br> and nested anchors
    from selectolax.lexbor import LexborHTMLParser

    rows = []
    for tr in LexborHTMLParser(fragment).css("tr"):
        cells = []
        for cell in tr.css("th, td"):
            for br in cell.css("br"):
                br.replace_with("\n")
            parts = [node.text(separator=" ").strip() for node in cell.css("p, li")] or [
                cell.text(separator=" ").strip()
            ]
            cells.append("<br>".join(p.replace("|", "\\|").replace("\n", "<br>") for p in parts if p))
        rows.append(cells)
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)


def parse(text: str) -> Page:
    tokens = _parser().parse(html_tables_as_markdown(text))
    title = ""
    sections: dict[str, list[Block]] = {}
    preamble: list[Block] = []
    current = preamble
    markers: dict[str, str] = {}  # open marker id -> products
    list_depth = -1
    in_table = False
    row: list[str] = []
    rows: list[list[str]] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        npu = tuple(sorted({p for v in markers.values() for p in v.split(",") if p}))
        if tok.type == "heading_open":
            heading = section_title(tokens[i + 1].content)
            if tok.tag == "h1" and not title:
                title = heading
            elif tok.tag == "h2":
                current = sections.setdefault(_unique(heading, sections), [])
            else:
                current.append(Block("heading", heading, npu=npu))
            i += 3
            continue
        if tok.type in ("html_block", "html_inline"):
            _track_markers(tok.content, markers)
        elif tok.type == "bullet_list_open" or tok.type == "ordered_list_open":
            list_depth += 1
        elif tok.type == "bullet_list_close" or tok.type == "ordered_list_close":
            list_depth -= 1
        elif tok.type == "table_open":
            in_table, rows = True, []
        elif tok.type == "tr_open":
            row = []
        elif tok.type == "inline" and in_table:
            _track_markers(tok.content, markers)
            row.append(plain(tok.content))
        elif tok.type == "tr_close":
            rows.append(row)
        elif tok.type == "table_close":
            in_table = False
            current.append(Block("table", rows=rows, npu=npu))
        elif tok.type == "inline":
            _track_markers(tok.content, markers)
            kind = "item" if list_depth >= 0 else "paragraph"
            current.append(Block(kind, plain(tok.content), depth=max(list_depth, 0), npu=npu))
        elif tok.type in ("fence", "code_block"):
            current.append(Block("code", tok.content.rstrip("\n"), depth=max(list_depth, 0), npu=npu, lang=tok.info))
        i += 1
    return Page(title, sections, preamble)


def _unique(heading: str, sections: dict[str, list[Block]]) -> str:
    """A page may repeat a section title (two 调用示例): later ones get a numeric suffix."""
    if heading not in sections:
        return heading
    n = 2
    while f"{heading} ({n})" in sections:
        n += 1
    return f"{heading} ({n})"


def _track_markers(content: str, markers: dict[str, str]) -> None:
    for m in _NPU_OPEN.finditer(content):
        markers[m.group(2) or f"_{len(markers)}"] = m.group(1)
    for m in _NPU_END.finditer(content):
        markers.pop(m.group(1), None)
