"""Rebuild `data/ascendc_apis.txt` from the API documentation tree of an asc-devkit checkout.

Only facts are taken: the API names (documentation file names) and a category derived from the folder they sit in.
No documentation text is copied. Usage: `python -m cotbuilder.parse.refresh_api_list <asc-devkit git dir or checkout>`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "data" / "ascendc_apis.txt"
DOCS = "docs/zh/api"

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


def _list_paths(repo: Path) -> list[str]:
    git_dir = repo if (repo / "HEAD").is_file() and not (repo / ".git").exists() else repo / ".git"
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "-c", "core.quotepath=false", "ls-tree", "-r", "--name-only", "HEAD", DOCS],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return out.splitlines()


def api_names(filename: str) -> list[str]:
    stem = filename.rsplit(".", 1)[0]
    stem = re.split(r"[（(]", stem, maxsplit=1)[0]  # Adds（灵活标量位置）, Neg(ISASI)
    stem = re.sub(r"-\d+$", "", stem)  # Wait-75: the docs number duplicate titles
    parts = re.split(r"[-&、]", stem)  # SetFlag-WaitFlag: one page for a pair
    return [p for p in parts if _NAME_RE.match(p) and p not in ("README", "workspace1", "Kernel", "Tiling", "API")]


# A class documented as a folder of its methods: "Matmul-Kernel侧接口/Iterate.md" names the class Matmul.
_CLASS_FOLDER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)-Kernel侧接口$")


def category_of(path: str) -> str:
    parts = path.split("/")[3:-1]
    for key, cat in FOLDER_CATEGORY:
        if any(key in p for p in reversed(parts)):
            return cat
    return "other"


def build(paths: list[str]) -> dict[str, str]:
    names: dict[str, str] = {}
    for path in paths:
        rel = path[len(DOCS) + 1 :]
        if not path.endswith(".md") or rel.split("/", 1)[0] in SKIP_TOP or "/figures/" in path:
            continue
        found = api_names(path.rsplit("/", 1)[-1])
        found += [m.group(1) for part in rel.split("/")[:-1] if (m := _CLASS_FOLDER_RE.match(part))]
        for name in found:
            names.setdefault(name, category_of(path))
    return names


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    names = build(_list_paths(Path(argv[0])))
    lines = [
        "# AscendC API names (from the asc-devkit API documentation file names) and a category.",
        "# Rebuilt by: python -m cotbuilder.parse.refresh_api_list <asc-devkit checkout>. name<TAB>category",
    ]
    lines += [f"{n}\t{c}" for n, c in sorted(names.items(), key=lambda kv: kv[0].lower())]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(names)} names to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
