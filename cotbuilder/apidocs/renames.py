"""The toolkit's older API names: what a kernel written for an earlier CANN calls and the toolkit has since renamed.

Two sources, both facts about the toolkit rather than guesses from a kernel's spelling:
- the change-log page of the asc-devkit docs (`docs/zh/api/附录/接口变更说明.md`, its "原接口名 | 新接口名" tables),
  parsed by `python -m cotbuilder.apidocs lists` into `renamed` rows of the documented list;
- `data/older_names.tsv`: names the change-log leaves out but an earlier release documented (CANN 8.x's own API
  pages: `ArithProgression`, `InitGlobalMemory`, ...) or the toolkit's headers still define, each with its source.

verify uses them to tell "the emulator lacks a name the toolkit really had" (`unsupported`, named) from "the kernel
calls something that never existed" (`failed_compile`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..paths import package_data

CHANGELOG_PAGE = "附录/接口变更说明.md"  # relative to docs/zh/api
OLDER_NAMES = "apidocs/data/older_names.tsv"
_ROW = re.compile(r"^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|")
_NAME = re.compile(r"^[A-Za-z_]\w*$")
_LINK_TEXT = re.compile(r"\[([^\]]+)\]")


@dataclass(frozen=True)
class Rename:
    old: str
    new: str  # the current name ("" when the name simply is the toolkit's, with no newer spelling)
    source: str  # the doc page (relative to docs/zh/api) or the URL / toolkit path that shows the old name


def parse_changelog(text: str, page: str = CHANGELOG_PAGE) -> list[Rename]:
    """The rows of the change-log tables: `| Old / Older | [New](link)/[Other](link) | note |` -> one Rename per old
    name (the first new name when a row gives several); header and separator rows are skipped."""
    out: list[Rename] = []
    for line in text.splitlines():
        m = _ROW.match(line.strip())
        if not m:
            continue
        olds = [o.strip() for o in m.group(1).split("/")]
        news = _LINK_TEXT.findall(m.group(2)) or [m.group(2)]
        new = re.split(r"[（(]", news[0], maxsplit=1)[0].strip()  # Cast（float转half、int32_t） -> Cast
        if not all(_NAME.match(o) for o in olds) or not _NAME.match(new):
            continue  # the header row (原接口名) and the |---| separator
        out += [Rename(o, new, page) for o in olds if o != new]  # SetHF32Mode kept its name (parameter change)
    return out


def parse_older_names(text: str) -> list[Rename]:
    rows = [line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return [Rename(r[0], r[1] if len(r) > 1 else "", r[2] if len(r) > 2 else "") for r in rows]


@cache
def older_names_listed() -> tuple[Rename, ...]:
    return tuple(parse_older_names(package_data(OLDER_NAMES).read_text(encoding="utf-8")))
