"""Doc-grounded samples: an API-usage question about one documented API, answered with reasoning that cites the
page (prototype, parameters, supported types, constraints) and the page's own example, plus the grounding gate.

The sample is written in the docs' language (Chinese) from an extracted record (extract.ApiRecord). Its claims are
the docs' statements, not paraphrases: the gate (`grounding`) checks that every constraint, parameter description and
element type the reasoning states appears in the page's own text (compared as plain text, whitespace-insensitive),
so a sample whose extraction mangled a statement is held back instead of teaching a rule the docs do not state.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

from .extract import ApiRecord
from .markdown import html_tables_as_markdown, plain

SAMPLES_VERSION = "doc-samples-v3"  # the shape of the samples below: part of each api_docs row's key
_SPACE = re.compile(r"\s+")
_TABLE_PIPE = re.compile(r"\s*\|\s*")


@dataclass
class Claim:
    """One statement the reasoning makes that must come from the page."""

    kind: str  # prototype | parameter | dtype | constraint
    text: str


@dataclass
class DocSample:
    api: str
    question: str
    rationale: list[dict[str, str]]  # [{step, title, text}], the annotation rationale shape
    answer: str  # the page's example code, else its prototype
    claims: list[Claim] = field(default_factory=list)

    def as_dict(self, gate: dict[str, Any]) -> dict[str, Any]:
        return {
            "api": self.api,
            "question": self.question,
            "rationale": self.rationale,
            "answer": self.answer,
            "grounded": gate["passed"],
            "ungrounded": gate["ungrounded"],
            "claims": len(self.claims),
        }


def _norm(text: str) -> str:
    """Without whitespace and table pipes: a statement matches the page however it was wrapped. (A statement is
    already plain text: it is not run through `plain` again, which would drop a `<half>` it quotes as a tag.)"""
    return _SPACE.sub("", _TABLE_PIPE.sub("", text))


def page_texts(markdown: str) -> tuple[str, str]:
    """The page as the gate compares against: as written (entities decoded; code blocks are verbatim there), and
    as plain text (HTML tables as pipe tables, inline markup dropped; prose reads as the extraction read it)."""
    # plain() line by line: on the whole page an emphasis marker could pair with one lines away
    prose = "\n".join(plain(line) for line in html_tables_as_markdown(markdown).splitlines())
    return _norm(html.unescape(markdown)), _norm(prose)


def grounding(sample: DocSample, markdown: str) -> dict[str, Any]:
    """The gate: every claim appears in the page's text. `{passed, ungrounded: [claims not found], detail}`."""
    texts = page_texts(markdown)
    # a statement with nested items is checked line by line: the page has list markers between them
    missing = [
        f"{c.kind}: {c.text[:120]}"
        for c in sample.claims
        if not all(any(_norm(line) in t for t in texts) for line in c.text.splitlines() if _norm(line))
    ]
    passed = not missing and bool(sample.claims)
    detail = (
        f"{len(sample.claims)} statement(s) found in the page"
        if passed
        else "no statement to check"
        if not sample.claims
        else f"{len(missing)} of {len(sample.claims)} statement(s) not in the page"
    )
    return {"passed": passed, "ungrounded": missing, "detail": detail}


def _soc_list(products: dict[str, bool]) -> str:
    return "、".join(s for s, ok in products.items() if ok)


def make_sample(record: ApiRecord) -> DocSample | None:
    """The sample of one API page; None when the page has no prototype (nothing to ask how to call)."""
    if not record.signatures:
        return None
    api = record.names[0] if record.names else record.title
    claims: list[Claim] = []
    steps: list[dict[str, str]] = []
    sig = record.signatures[0].strip()
    intro = f"文档《{record.title}》给出的函数原型是：\n```cpp\n{sig}\n```"
    if len(record.signatures) > 1:
        intro += f"\n（共 {len(record.signatures)} 个原型，按参数选择其一。）"
    if record.header:
        intro += f"\n需要包含的头文件：`{record.header}`。"
    steps.append({"step": "prototype", "title": "接口原型", "text": intro})
    claims.append(Claim("prototype", sig))
    params = [*record.template_params, *record.params]
    if params:
        lines = []
        for p in params:
            direction = {"in": "输入", "out": "输出", "inout": "输入/输出"}.get(p.direction, "")
            desc = p.description.strip()
            lines.append(f"- `{p.name}`" + (f"（{direction}）" if direction else "") + (f"：{desc}" if desc else ""))
            if desc:
                claims.append(Claim("parameter", desc))
        steps.append({"step": "parameters", "title": "参数", "text": "\n".join(lines)})
    elif record.params_none:
        steps.append({"step": "parameters", "title": "参数", "text": "文档说明该接口没有参数。"})
    types = []
    for operand, per_soc in record.dtypes.items():
        for soc, names in per_soc.items():
            where = "所有支持的产品" if soc == "*" else soc
            types.append(f"- `{operand}`（{where}）：{'、'.join(names)}")
            claims.extend(Claim("dtype", n) for n in names)
    supported = _soc_list(record.products)
    if types or supported:
        text = "\n".join(types)
        if supported:
            text = (text + "\n" if text else "") + f"文档列出的支持产品（按 SoC）：{supported}。"
        steps.append({"step": "dtypes", "title": "支持的数据类型与产品", "text": text})
    if record.constraints:
        steps.append(
            {
                "step": "constraints",
                "title": "约束",
                "text": "调用前要满足文档的约束说明：\n" + "\n".join(f"- {c.strip()}" for c in record.constraints),
            }
        )
        claims.extend(Claim("constraint", c) for c in record.constraints)
    elif record.has_constraints:
        steps.append({"step": "constraints", "title": "约束", "text": "文档的约束说明为“无”。"})
    answer = record.examples[0].strip() if record.examples else sig
    steps.append(
        {
            "step": "example",
            "title": "调用示例",
            "text": "文档自带的调用示例如下（答案中的代码）。"
            if record.examples
            else "文档没有调用示例，答案给出原型。",
        }
    )
    question = f"在 AscendC 中如何调用 `{api}`？请说明它的原型、参数、支持的数据类型和约束，并给出调用示例。"
    return DocSample(api, question, steps, answer, claims)
