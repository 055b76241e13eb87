"""One AscendC API doc page -> one record: names, prototypes, parameters, supported types per SoC, constraints,
examples, the header to include, the products that support it.

Facts are read from the page's sections by their titles (函数原型, 参数说明, 数据类型, 约束说明, 调用示例 …); the
records are what later stages build on (the legality table here, doc-grounded samples in the data-value issue), so
each keeps its page path. Text fields are the docs' own words: they stay in memory or in derived files a user makes
locally, and are not committed to this repository.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import dtypes as dt
from .markdown import Block, Page, parse
from .names import api_names, category_of, doc_pages, is_api_page

# Section titles as the docs spell them (after anchors are stripped), matched by prefix.
PRODUCTS = ("产品支持情况",)
PROTOTYPES = ("函数原型", "原型定义", "接口原型", "函数说明")
PARAMETERS = ("参数说明", "模板参数", "参数")
DTYPES = ("数据类型", "支持的数据类型")
RETURNS = ("返回值说明", "返回值")
CONSTRAINTS = ("约束说明", "特性约束", "约束")
EXAMPLES = ("调用示例", "使用示例", "示例")
HEADERS = ("需要包含的头文件",)

_HEADER_PATH = re.compile(r"头文件(?:路径)?为?[：:\s]*[\"“]?([A-Za-z_][\w./-]*\.h)")
_INCLUDE = re.compile(r"#include\s*[<\"]([^>\"]+)[>\"]")
_CALLED = re.compile(r"(?<![\w:.>-])(?:[A-Za-z_]\w*::)*([A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\(")
_NOT_NAMES = {
    "template", "typename", "decltype", "sizeof", "static_cast", "reinterpret_cast", "const_cast", "return", "if",
    "for", "while", "switch", "alignas", "alignof", "noexcept", "operator", "__attribute__", "__aicore__", "defined",
    "static_assert", "using", "enable_if_t", "__global__", "__VEC_SCOPE__",
}  # fmt: skip
_EMPTY_CALL = re.compile(r"\w\s*\(\s*(?:void)?\s*\)\s*(?:const\s*)?(?:noexcept\s*)?[;{]?\s*$", re.M)
_DIRECTIONS = {"输入": "in", "输出": "out", "输入/输出": "inout", "输入输出": "inout", "输出/输入": "inout"}
_OPERAND_WORDS = {"源操作数": "src", "目的操作数": "dst"}
_NONE = {"无", "无。", "none", "None", "N/A", "-"}


@dataclass
class Param:
    name: str  # as the docs write it: "src0、src1", "mask[]/mask"
    direction: str  # in, out, inout, or "" (template parameters, tables without a direction column)
    description: str


@dataclass
class Combination:
    """One row of a supported-type combination table (Cast: src, dst and the round modes allowed)."""

    socs: list[str]
    types: dict[str, str]  # operand -> element type, e.g. {"src": "half", "dst": "int32_t"}
    round_modes: list[str] = field(default_factory=list)
    note: str = ""  # a cell that is not a type or round-mode list (e.g. "roundMode不生效…")


@dataclass
class ApiRecord:
    path: str  # relative to docs/zh/api
    title: str
    names: list[str]  # the API names the page documents (its prototypes'), else its file name's
    category: str
    header: str  # the include path the page gives, "" when it gives none
    products: dict[str, bool]  # soc -> supported
    signatures: list[str]
    template_params: list[Param]
    params: list[Param]
    params_none: bool  # the page states there are no parameters
    dtypes: dict[str, dict[str, list[str]]]  # type parameter or operand -> soc (or "*") -> element types
    combinations: list[Combination]
    constraints: list[str]
    has_constraints: bool  # the page has a constraints section (it may say 无)
    examples: list[str]
    returns: str
    description: str  # the 功能说明 section, plain text
    has_prototypes: bool  # the page has a prototype section (函数原型)

    def to_json(self) -> dict:
        return asdict(self)

    @property
    def is_api(self) -> bool:
        """A reference page of an API (it has prototypes), not an overview or a concept page."""
        return bool(self.signatures) or self.has_prototypes

    @property
    def complete(self) -> bool:
        """Signature, parameters (or a stated none) and a constraints section were all extracted."""
        return (
            bool(self.signatures)
            and (bool(self.params or self.template_params) or self.params_none)
            and (self.has_constraints)
        )


def extract_page(text: str, path: str) -> ApiRecord:
    page = parse(text)
    proto_blocks = _blocks(page, PROTOTYPES)
    signatures = [b.text for b in proto_blocks if b.kind == "code" and b.text.strip()]
    products = _products(_blocks(page, PRODUCTS))
    template_params, params, params_none = _parameters(page, signatures)
    dtypes, combinations = _dtypes(page, template_params, params)
    constraint_blocks = _blocks(page, CONSTRAINTS)
    record = ApiRecord(
        path=path,
        title=page.title,
        names=_names(signatures, path, page.title),
        category=category_of(path),
        header=_header(page),
        products=products,
        signatures=signatures,
        template_params=template_params,
        params=params,
        params_none=params_none,
        dtypes=dtypes,
        combinations=combinations,
        constraints=_items(constraint_blocks),
        has_constraints=_has_section(page, CONSTRAINTS),
        examples=[b.text for b in _blocks(page, EXAMPLES) if b.kind == "code" and b.text.strip()],
        returns=_joined(_blocks(page, RETURNS)),
        description=_joined(_blocks(page, ("功能说明",))),
        has_prototypes=_has_section(page, PROTOTYPES),
    )
    return record


def extract_tree(docs_root: Path) -> Iterator[ApiRecord]:
    """Every API reference page under `docs_root` (docs/zh/api, or a folder of pages in its style)."""
    for rel in doc_pages(docs_root):
        if not is_api_page(rel):
            continue
        record = extract_page((docs_root / rel).read_text(encoding="utf-8"), rel)
        if record.is_api:
            yield record


# -- sections ----------------------------------------------------------------------------------------------------------


def _matching(page: Page, prefixes: tuple[str, ...]) -> list[str]:
    return [title for title in page.sections if title.startswith(prefixes)]


def _has_section(page: Page, prefixes: tuple[str, ...]) -> bool:
    return bool(_matching(page, prefixes))


def _blocks(page: Page, prefixes: tuple[str, ...]) -> list[Block]:
    return [b for title in _matching(page, prefixes) for b in page.sections[title]]


def _joined(blocks: list[Block]) -> str:
    parts = []
    for b in blocks:
        if b.kind == "table":
            parts += [" | ".join(row) for row in b.rows]
        elif b.text:
            parts.append(b.text)
    return "\n".join(parts).strip()


def _items(blocks: list[Block]) -> list[str]:
    """Top-level statements of a section; nested list items and code stay with the item above them."""
    out: list[str] = []
    for b in blocks:
        if b.kind == "table":
            text = "\n".join(" | ".join(row) for row in b.rows)
        else:
            text = b.text
        if not text.strip() or text.strip() in _NONE:
            continue
        nested = (b.kind == "item" and b.depth > 0) or b.kind == "code" or (b.kind == "table" and out)
        if nested and out:
            out[-1] += "\n" + text
        else:
            out.append(text)
    return out


# -- facts -------------------------------------------------------------------------------------------------------------


def _names(signatures: list[str], path: str, title: str) -> list[str]:
    found: list[str] = []
    for sig in signatures:
        for line in sig.splitlines():
            line = line.strip()
            if not line or line.startswith(("template", "//", "#")):
                continue
            m = _CALLED.search(line)
            if m and m.group(1) not in _NOT_NAMES and m.group(1) not in found:
                found.append(m.group(1))
    if found:
        return found
    return api_names(path.rsplit("/", 1)[-1]) or ([title] if title else [])


def _header(page: Page) -> str:
    for b in _blocks(page, ("功能说明",)) + page.preamble:
        if m := _HEADER_PATH.search(b.text):
            return m.group(1)
    for b in _blocks(page, HEADERS):
        if m := _INCLUDE.search(b.text) or re.search(r"([A-Za-z_][\w./-]*\.h)", b.text):
            return m.group(1)
    return ""


def _products(blocks: list[Block]) -> dict[str, bool]:
    out: dict[str, bool] = {}
    for b in blocks:
        for line in b.text.splitlines():
            name, sep, verdict = re.split(r"([：:])", line, maxsplit=1) if re.search(r"[：:]", line) else (line, "", "")
            if not sep:
                continue
            supported = verdict.strip().startswith("支持")
            for soc in dt.socs_named(name) or dt.socs_of_markers(b.npu):
                out[soc] = out.get(soc, False) or supported  # per-variant lists: any variant counts
    return out


def _all_template_names(rows: list[list[str]], signatures: list[str]) -> bool:
    """Every name in the table's first column is a template parameter of the prototypes (`template <typename T>`)."""
    template_text = " ".join(line for sig in signatures for line in sig.splitlines() if "template" in line)
    names = [row[0].strip() for row in rows if row and row[0].strip()]
    return bool(names) and bool(template_text) and all(re.search(rf"\b{re.escape(n)}\b", template_text) for n in names)


def _parameters(page: Page, signatures: list[str]) -> tuple[list[Param], list[Param], bool]:
    template_params: list[Param] = []
    params: list[Param] = []
    blocks = _blocks(page, PARAMETERS)
    caption = ""
    for b in blocks:
        if b.kind != "table":
            if b.kind in ("paragraph", "heading") and b.text.strip():
                caption = b.text  # "表1 模板参数说明" (an empty anchor line between it and the table is skipped)
            continue
        if len(b.rows) < 2:
            continue
        head = b.rows[0]
        direction_col = next((i for i, h in enumerate(head) if "输入" in h or "输出" in h), None)
        if direction_col is None:
            direction_col = next(
                (i for i in range(len(head)) if any(r[i:i + 1] and r[i] in _DIRECTIONS for r in b.rows[1:])), None
            )  # fmt: skip
        desc_col = len(head) - 1
        is_template = direction_col is None and (
            "模板" in caption or any("模板" in h for h in head) or _all_template_names(b.rows[1:], signatures)
        )
        for row in b.rows[1:]:
            if not row or not row[0].strip():
                continue
            direction = _DIRECTIONS.get(row[direction_col].strip(), "") if direction_col is not None else ""
            param = Param(row[0].strip(), direction, row[desc_col].strip() if desc_col < len(row) else "")
            (template_params if is_template else params).append(param)
        caption = ""
    stated_none = (
        bool(blocks) and all(b.kind != "table" for b in blocks) and any(b.text.strip() in _NONE for b in blocks)
    )
    # no parameter section and prototypes that take nothing (`GetTPipePtr()`): none, as the prototype says
    no_arguments = not blocks and bool(signatures) and all(_EMPTY_CALL.search(s) for s in signatures)
    return template_params, params, stated_none or no_arguments


def _dtypes(
    page: Page, template_params: list[Param], params: list[Param]
) -> tuple[dict[str, dict[str, list[str]]], list[Combination]]:
    out: dict[str, dict[str, list[str]]] = {}

    def add(statements: list[dt.Statement], default_param: str) -> None:
        for s in statements:
            for param in s.params or (default_param,):
                for soc in s.socs:
                    have = out.setdefault(param, {}).setdefault(soc, [])
                    have += [t for t in s.dtypes if t not in have]

    combinations: list[Combination] = []
    context: dict[int, list[str]] = {}  # list depth -> products named by a heading line at that depth
    context_params: dict[int, tuple[str, ...]] = {}  # list depth -> "T支持的数据类型为：" heading the bullets below
    caption_socs: list[str] = []
    for b in _blocks(page, DTYPES):
        if b.kind == "table":
            socs = caption_socs or dt.socs_of_markers(b.npu) or [dt.ALL]
            combinations += _combinations(b.rows, socs)
            caption_socs = []
            continue
        if b.kind not in ("item", "paragraph"):
            continue
        for ctx in (context, context_params):
            for depth in [d for d in ctx if d >= b.depth]:
                del ctx[depth]
        named = dt.socs_named(b.text)
        inherited = next((context[d] for d in sorted(context, reverse=True) if d < b.depth), None)
        params = next((context_params[d] for d in sorted(context_params, reverse=True) if d < b.depth), ())
        found = dt.statements(b.text, inherited or dt.socs_of_markers(b.npu) or None, loose=True)
        for param in params or ("T",):
            add(found, param)
        if not found and (heading := dt.heading_params(b.text)):
            context_params[b.depth] = heading
        if named and not found:
            context[b.depth] = named  # "针对Atlas A2 …：" heading the bullets below it
            caption_socs = named  # or captioning the table below it
    if not out and not combinations:  # some pages list the types under 约束说明 ("- 支持的数据类型" + product lines)
        for b in _blocks(page, CONSTRAINTS):
            if b.kind in ("item", "paragraph"):
                add(dt.statements(b.text, dt.socs_of_markers(b.npu) or None), "T")
    for p in template_params:
        add(dt.statements(p.description), p.name)
    for p in params:
        add(dt.statements(p.description), p.name)
    return out, combinations


def _combinations(rows: list[list[str]], socs: list[str]) -> list[Combination]:
    """A table whose columns are operand types (and maybe the allowed round modes): one Combination per row."""
    head = rows[0]
    type_cols = {i: _operand(h) for i, h in enumerate(head) if "数据类型" in h or "dtype" in h.lower()}
    mode_col = next((i for i, h in enumerate(head) if "roundMode" in h or "舍入" in h), None)
    if not type_cols:
        return []
    out = []
    for row in rows[1:]:
        types = {}
        for i, operand in type_cols.items():
            found = dt.dtypes_in(row[i]) if i < len(row) else []
            if found:
                types[operand] = found[0]
        if not types:
            continue
        combo = Combination(list(socs), types)
        if mode_col is not None and mode_col < len(row):
            modes = re.findall(r"CAST_[A-Z]+", row[mode_col])
            combo.round_modes = modes
            if not modes:
                combo.note = row[mode_col].strip()
        out.append(combo)
    return out


def _operand(header: str) -> str:
    """ "src数据类型" -> "src", "src0、src1数据类型" -> "src0、src1", "T数据类型" -> "T"."""
    name = re.sub(r"的?数据类型|dtype", "", header, flags=re.I).strip().rstrip(".。:：").strip()
    return _OPERAND_WORDS.get(name, name) or header.strip()
