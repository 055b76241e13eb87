"""Code blocks of a documentation page (HTML or Markdown), each with its nearest section heading, and the test that
tells AscendC blocks from the rest."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from typing import Any
from urllib.parse import urldefrag, urljoin

from ..paths import package_data

_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_LANG_CLASS = re.compile(r"(?:^|\s)(?:language|lang|highlight|brush:?)-?\s*([\w+#-]+)", re.I)


@lru_cache(maxsize=1)
def _markers() -> tuple[re.Pattern[str], ...]:
    data = tomllib.loads(package_data("crawl/data/ascendc_markers.toml").read_text(encoding="utf-8"))
    return tuple(re.compile(p) for p in data["patterns"])


def is_ascendc(code: str) -> bool:
    return any(p.search(code) for p in _markers())


def html_blocks(html: str) -> tuple[list[dict[str, Any]], str]:
    """(blocks [{code, heading, language}] in page order, page title)."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    title_node = tree.css_first("title")
    title = title_node.text(strip=True) if title_node else ""
    blocks: list[dict[str, Any]] = []
    heading = title
    # One pass in document order over headings and code containers, so each block gets the heading above it.
    for node in tree.css(", ".join((*_HEADINGS, "pre", "code"))):
        tag = node.tag
        if tag in _HEADINGS:
            heading = node.text(strip=True) or heading
            continue
        if tag == "code" and _inside(node, "pre"):
            continue  # the enclosing <pre> holds it
        code = node.text(deep=True, strip=False)
        if tag == "code" and "\n" not in code.strip():
            continue  # inline code in prose, not a block
        if not code.strip():
            continue
        blocks.append({"code": code.strip("\n"), "heading": heading, "language": _html_language(node)})
    return blocks, title


def _inside(node: Any, tag: str) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.tag == tag:
            return True
        parent = parent.parent
    return False


def _html_language(node: Any) -> str | None:
    for candidate in (node, node.css_first("code") if node.tag == "pre" else None):
        if candidate is None:
            continue
        cls = candidate.attributes.get("class") or ""
        m = _LANG_CLASS.search(cls)
        if m:
            return m.group(1).lower()
    return None


def html_links(html: str, page_url: str) -> list[str]:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    links = []
    for a in tree.css("a[href]"):
        href = (a.attributes.get("href") or "").strip()
        if not href or href.startswith(("mailto:", "javascript:", "#")):
            continue
        links.append(urldefrag(urljoin(page_url, href))[0])
    return links


def markdown_blocks(text: str) -> tuple[list[dict[str, Any]], str]:
    """(blocks [{code, heading, language}], first heading) of a Markdown page: fenced and indented code blocks."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(text)
    blocks: list[dict[str, Any]] = []
    heading = ""
    title = ""
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and i + 1 < len(tokens):
            heading = tokens[i + 1].content.strip() or heading
            title = title or heading
        elif tok.type in ("fence", "code_block") and tok.content.strip():
            lang = (tok.info or "").strip().split()[0].lower() if tok.info and tok.info.strip() else None
            blocks.append({"code": tok.content.strip("\n"), "heading": heading, "language": lang})
    return blocks, title


def markdown_links(text: str, page_url: str) -> list[str]:
    from markdown_it import MarkdownIt

    links = []
    for tok in MarkdownIt("commonmark").parse(text):
        for child in tok.children or []:
            if child.type == "link_open":
                href = str(child.attrs.get("href") or "")
                if href and not href.startswith(("mailto:", "#")):
                    links.append(urldefrag(urljoin(page_url, href))[0])
    return links


def ascendc_blocks(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The AscendC blocks, numbered in page order (index = position among all blocks of the page)."""
    return [{**b, "index": i} for i, b in enumerate(blocks) if is_ascendc(b["code"])]
