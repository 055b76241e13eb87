"""Turn a folder on disk into a `units` record (the schema's fields), for tests that cannot wait for crawl + parse."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cotbuilder.hashing import sha256_text, stable_json
from cotbuilder.store import Store, utcnow

_TEXT_SUFFIXES = {".cpp", ".h", ".hpp", ".asc", ".cce", ".py", ".sh", ".txt", ".toml", ".json", ".md", ".cc"}


def _role(rel: str) -> str:
    name = rel.rsplit("/", 1)[-1]
    if name == "CMakeLists.txt" or name.endswith(".sh"):
        return "build"
    if name.startswith("gen_data") and name.endswith(".py"):
        return "generator"
    if name.startswith("verify_result") and name.endswith(".py"):
        return "checker"
    if name == "data_utils.h":
        return "data_utils"
    if name.endswith(".json"):
        return "op_json"
    if rel.startswith("op_host/"):
        return "tiling" if name.endswith("_tiling.h") else "tiling_func"
    if name == "main.cpp":
        return "host_main"
    if name.endswith((".cpp", ".asc")):
        return "kernel"
    return "other"


def unit_from_dir(folder: Path, layout: str | None = None, name: str | None = None) -> dict[str, Any]:
    folder = Path(folder)
    files = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if path.suffix not in _TEXT_SUFFIXES and path.name != "CMakeLists.txt":
            continue
        files.append({"path": rel, "role": _role(rel), "file_id": None, "text": path.read_text(encoding="utf-8")})
    if layout is None:
        layout = "op_project" if (folder / "op_kernel").is_dir() else "kernel_launch"
    kernel = "\n".join(f["text"] for f in files if f["role"] == "kernel")
    host = "\n".join(f["text"] for f in files if f["role"] in ("host_main", "tiling", "tiling_func"))
    uid = sha256_text(stable_json([layout, str(name or folder.name), [(f["path"], f["text"]) for f in files]]))
    return {
        "unit_id": uid,
        "source_id": sha256_text("tests"),
        "layout": layout,
        "name": name or folder.name,
        "root": str(folder),
        "files": files,
        "kernel_code": kernel,
        "host_code": host,
        "entry": [],
        "features": {"apis": {}, "dtypes": [], "uses_cube": False, "multi_core": True},
        "category": "other",
        "complexity": 1,
        "diagnostics": [],
        "license": "Apache-2.0",
        "created_at": utcnow(),
    }


def add_units(workspace: Path, *units: dict[str, Any]) -> None:
    with Store(workspace) as store:
        store.insert("units", list(units))
