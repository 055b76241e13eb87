"""Products, SoCs and element types as the API docs write them, and the "supported data types" statements.

The docs state supported types in several shapes: a `## 数据类型` section with one bullet per product
("针对Atlas A2 训练系列产品/Atlas A2 推理系列产品，T支持的数据类型为：int16_t、half、int32_t、float。"), a
template-parameter table row ("T | 操作数的数据类型。支持的数据类型为：half、float。"), per-product lines inside a
parameter's cell, or a combination table (src / dst / round mode per product, as Cast has). A statement that names
no product holds for every product the page supports.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache

from ..paths import package_data

ALL = "*"  # a statement that names no product: every product the page supports

_SPACE = re.compile(r"\s+")
# who: "T", "U", "dst", or a list of them ("T和U", "src0、src1")
_WHO = (
    r"(?:(?<![A-Za-z0-9_])(?P<who>[A-Za-z_][A-Za-z0-9_]*(?:\s*(?:和|与|、|/|,|，)\s*[A-Za-z_][A-Za-z0-9_]*)*)(?:的)?)?"
)
_STATEMENT = re.compile(
    _WHO + r"支持的?数据类型(?:为|包括|有|如下)?\s*[：:]?"
    r"(?P<rest>[^。；;\n]*)"
)
# Inside a `## 数据类型` section the sentence may drop the noun: "Atlas A2 …，支持half、float。", "支持的数据为…"
_LOOSE = re.compile(
    _WHO + r"支持(?:的数据(?:类型)?)?(?:为|包括|有|如下)?\s*[：:]?"
    r"(?P<rest>[^。；;\n]*)"
)


@dataclass(frozen=True)
class Product:
    soc: str
    marker: str
    pattern: str


@cache
def _config() -> dict:
    return tomllib.loads(package_data("apidocs/data/products.toml").read_text(encoding="utf-8"))


@cache
def products() -> tuple[Product, ...]:
    return tuple(Product(p["soc"], p.get("marker", ""), p["pattern"]) for p in _config()["product"])


@cache
def _product_re() -> re.Pattern[str]:
    return re.compile("|".join(f"(?P<p{i}>{p.pattern})" for i, p in enumerate(products())))


@cache
def _dtype_re() -> re.Pattern[str]:
    names = sorted(_config()["dtypes"]["names"], key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(re.escape(n) for n in names) + r")(?![A-Za-z0-9_])")


def socs_named(text: str) -> list[str]:
    """The SoCs of every product `text` names, in order of mention (whitespace is ignored when matching)."""
    found: list[str] = []
    for m in _product_re().finditer(_SPACE.sub("", text)):
        soc = products()[int(m.lastgroup[1:])].soc
        if soc not in found:
            found.append(soc)
    return found


def socs_of_markers(markers: tuple[str, ...]) -> list[str]:
    """The SoCs a `<!-- npu="910b,A3" -->` comment stands for (310p: the AI Core)."""
    by_marker = {p.marker: p.soc for p in products() if p.marker}
    return [by_marker[m] for m in markers if m in by_marker]


def dtypes_in(text: str) -> list[str]:
    """Element types named in `text`, in order, once each."""
    out: list[str] = []
    for m in _dtype_re().finditer(text):
        if m.group(1) not in out:
            out.append(m.group(1))
    return out


@dataclass(frozen=True)
class Statement:
    params: tuple[str, ...]  # the type parameters or operands it is about ("T", "U", "dst" ...); () when not said
    socs: tuple[str, ...]  # products it names, or (ALL,)
    dtypes: tuple[str, ...]


def statements(text: str, context_socs: list[str] | None = None, *, loose: bool = False) -> list[Statement]:
    """Every "…支持的数据类型为：a、b" in `text` (one line or cell, `\\n`-separated). The products are those named
    earlier on the same line, else `context_socs`, else ALL. `loose` also reads "…，支持half、float" (the wording of
    the `## 数据类型` sections, where every sentence is about types)."""
    out: list[Statement] = []
    for line in text.splitlines():
        for m in (_LOOSE if loose else _STATEMENT).finditer(line):
            types = dtypes_in(m.group("rest"))
            if not types:
                continue  # "支持的数据类型请参考…": a pointer, not a list
            named = socs_named(line[: m.start()])
            socs = named or context_socs or [ALL]
            out.append(Statement(_who(m.group("who")), tuple(socs), tuple(types)))
    return out


def heading_params(text: str) -> tuple[str, ...]:
    """ "T支持的数据类型为：" with the list in the bullets below: the parameters those bullets are about."""
    for m in _STATEMENT.finditer(text):
        if not dtypes_in(m.group("rest")):
            return _who(m.group("who"))
    return ()


def _who(who: str | None) -> tuple[str, ...]:
    return tuple(w for w in re.split(r"\s*(?:和|与|、|/|,|，)\s*", who or "") if w)
