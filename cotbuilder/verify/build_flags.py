"""Build flags of a unit that change how the emulator must run it (not how it compiles: g++ never sees them).

`--cce-auto-sync=off` in a unit's CMake (ascendc_compile_options / add_ops_compile_options / target_compile_options)
turns off the syncs the bisheng compiler inserts by itself (asc-devkit 关键特性说明.md: "如果开发者手动设置
--cce-auto-sync=off，毕昇编译器无法自动插入同步"): the emulator's hazard model must then not insert them either."""

from __future__ import annotations

import re
from pathlib import Path

_AUTO_SYNC_OFF = re.compile(r"--cce-auto-sync\s*=\s*off\b")
_BUILD_FILES = ("CMakeLists.txt", ".cmake", "build.sh", "run.sh")


def cce_auto_sync_off(texts: list[str]) -> bool:
    """True when any build file of the unit passes --cce-auto-sync=off (a commented-out line does not count)."""
    for text in texts:
        for line in text.splitlines():
            code = line.split("#", 1)[0]
            if _AUTO_SYNC_OFF.search(code):
                return True
    return False


def build_texts(workdir: Path) -> list[str]:
    """The unit's build files as materialised in its work dir."""
    out = []
    for path in sorted(workdir.rglob("*")):
        if path.is_file() and path.name.endswith(_BUILD_FILES) and path.stat().st_size < 1_000_000:
            out.append(path.read_text(encoding="utf-8", errors="replace"))
    return out
