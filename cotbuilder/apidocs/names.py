"""The documented AscendC API names (from the doc tree's page names) with a category (from the folder they sit in).

Only facts are taken: names and folders, no documentation text. A page is named for its API (`Add.md`); a class
documented as a folder of its methods (`Matmul-Kernel侧接口/Iterate.md`) names the class; one page may name a pair
(`SetFlag-WaitFlag.md`).
"""

from __future__ import annotations

import re
from pathlib import Path

# Folder names in the documentation (first match along the path wins, most specific first) -> category tag.
FOLDER_CATEGORY = [
    ("Kernel-Tiling", "tiling"),
    ("Tiling", "tiling"),
    ("原型注册与管理", "op_def"),
    ("平台信息获取", "platform"),
    ("HCCL", "hccl"),
    ("卷积计算", "conv"),
    ("矩阵计算", "cube"),
    ("Cube分组管理", "cube"),
    ("cube_", "cube"),
    ("归一化操作", "normalization"),
    ("SoftMax", "softmax"),
    ("激活函数", "activation"),
    ("归约操作", "reduction"),
    ("排序操作", "sort"),
    ("索引计算", "index"),
    ("数据过滤", "select"),
    ("量化操作", "quantization"),
    ("张量变换", "transform"),
    ("随机函数", "random"),
    ("数学计算", "math"),
    ("数据搬运", "data_movement"),
    ("datamove", "data_movement"),
    ("reg_load", "data_movement"),
    ("reg_store", "data_movement"),
    ("资源管理", "resource"),
    ("数据结构", "data_structure"),
    ("data_structure", "data_structure"),
    ("同步控制", "sync"),
    ("sync", "sync"),
    ("原子操作", "atomic"),
    ("atomic", "atomic"),
    ("调试接口", "debug"),
    ("调测接口", "debug"),
    ("工具接口", "utility"),
    ("sys_var", "utility"),
    ("标量计算", "scalar"),
    ("scalar_compute", "scalar"),
    ("缓存控制", "cache"),
    ("cache_ctrl", "cache"),
    ("Reg矢量计算", "vector_reg"),
    ("Memory矢量计算", "vector"),
    ("vector_compute", "vector"),
    ("reg", "vector_reg"),
    ("CPP标准库", "std"),
    ("SIMT-API", "simt"),
    ("SIMD-API", "other"),
    ("Utils-API", "utility"),
]
SKIP_TOP = ("AI-CPU-API", "附录", "figures")
_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# A class documented as a folder of its methods: "Matmul-Kernel侧接口/Iterate.md" names the class Matmul.
_CLASS_FOLDER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)-Kernel侧接口$")


def doc_pages(docs_root: Path) -> list[str]:
    """Every Markdown page under `docs_root` (the `docs/zh/api` folder), relative, in byte order as git lists them."""
    pages = [p.relative_to(docs_root).as_posix() for p in docs_root.rglob("*.md")]
    return sorted(pages, key=lambda s: s.encode())


def api_names(filename: str) -> list[str]:
    stem = filename.rsplit(".", 1)[0]
    stem = re.split(r"[（(]", stem, maxsplit=1)[0]  # Adds（灵活标量位置）, Neg(ISASI)
    stem = re.sub(r"-\d+$", "", stem)  # Wait-75: the docs number duplicate titles
    parts = re.split(r"[-&、]", stem)  # SetFlag-WaitFlag: one page for a pair
    return [p for p in parts if _NAME_RE.match(p) and p not in ("README", "workspace1", "Kernel", "Tiling", "API")]


def category_of(rel: str) -> str:
    """The category of a page at `rel` (relative to docs/zh/api) from its folders."""
    parts = rel.split("/")[:-1]
    for key, cat in FOLDER_CATEGORY:
        if any(key in p for p in reversed(parts)):
            return cat
    return "other"


def is_api_page(rel: str) -> bool:
    """A page of the API reference (not the AI-CPU API, the appendix or figures)."""
    return rel.endswith(".md") and rel.split("/", 1)[0] not in SKIP_TOP and "/figures/" not in f"/{rel}"


def build(pages: list[str]) -> dict[str, tuple[str, str]]:
    """{name: (category, page)} — the first page (in `pages` order) that names an API decides its category."""
    names: dict[str, tuple[str, str]] = {}
    for rel in pages:
        if not is_api_page(rel):
            continue
        found = api_names(rel.rsplit("/", 1)[-1])
        found += [m.group(1) for part in rel.split("/")[:-1] if (m := _CLASS_FOLDER_RE.match(part))]
        for name in found:
            names.setdefault(name, (category_of(rel), rel))
    return names
