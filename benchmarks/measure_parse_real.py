"""Run unit extraction over a real repository snapshot and print what the parser made of it.

    python benchmarks/measure_parse_real.py <repo-dir or bare git dir> [--json]

Files are read from HEAD with `git ls-tree` + `git cat-file --batch` (nothing is written to disk), filtered like the
crawler does (.cpp .cc .h .hpp .asc .py .sh .json, CMakeLists.txt; build/ and third_party/ skipped; <= 2 MiB; UTF-8).
Prints: files, units per layout, share of kernel files with an ERROR/MISSING node after masking, entry functions
found vs a grep count of `__global__` definitions, seconds.

A "kernel file" is a C/C++ file of the snapshot that defines a `__global__` entry (the grep below) or includes
`kernel_operator.h` -- wherever it lies, in a unit or not (gtest files with kernels count too). The share over the
files with role `kernel` in the units is printed as well (`unit_kernel_*`).
"""

from __future__ import annotations

import collections
import json
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cotbuilder.parse import extract_units  # noqa: E402
from cotbuilder.parse.facts import file_facts  # noqa: E402
from cotbuilder.parse.grouping import is_cpp  # noqa: E402

EXTS = (".cpp", ".cc", ".h", ".hpp", ".asc", ".py", ".sh", ".json")
SKIP_DIRS = {"build", "third_party", ".git"}
MAX_BYTES = 2 * 1024 * 1024
_GLOBAL_RE = re.compile(r"__global__")
_KERNEL_INCLUDE_RE = re.compile(r'(?m)^[ \t]*#[ \t]*include[ \t]*[<"](?:[\w./]*/)?kernel_operator\.h[>"]')


def git_dir_of(path: Path) -> Path:
    return path / ".git" if (path / ".git").exists() else path


def read_files(repo: Path) -> list[dict]:
    gd = str(git_dir_of(repo))
    listing = subprocess.run(
        ["git", "--git-dir", gd, "ls-tree", "-r", "-z", "-l", "HEAD"], check=True, capture_output=True
    ).stdout.split(b"\0")
    wanted: list[tuple[str, str]] = []
    for row in listing:
        if not row:
            continue
        meta, _, path_b = row.partition(b"\t")
        mode, kind, sha, size = meta.split()
        path = path_b.decode("utf-8", "replace")
        parts = path.split("/")
        if kind != b"blob" or mode == b"120000" or SKIP_DIRS & set(parts[:-1]):
            continue
        if not (path.endswith(EXTS) or parts[-1] == "CMakeLists.txt") or int(size) > MAX_BYTES:
            continue
        wanted.append((sha.decode(), path))
    proc = subprocess.run(
        ["git", "--git-dir", gd, "cat-file", "--batch"],
        check=True,
        capture_output=True,
        input=b"".join(s.encode() + b"\n" for s, _ in wanted),
    ).stdout
    files, pos = [], 0
    for sha, path in wanted:
        header_end = proc.index(b"\n", pos)
        size = int(proc[pos:header_end].split()[2])
        blob = proc[header_end + 1 : header_end + 1 + size]
        pos = header_end + 1 + size + 1
        try:
            text = blob.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if "\0" in text:
            continue
        files.append({"path": path, "text": text, "file_id": sha, "license": "NOASSERTION", "language": "cpp"})
    return files


def _in_directive(text: str, line_start: int) -> bool:
    """The line starting at `line_start` is a directive or a backslash-continued line of one (a #define body)."""
    while True:
        if text[line_start : line_start + 200].lstrip().startswith("#"):
            return True
        if line_start == 0:
            return False
        prev_end = line_start - 1  # the '\n' ending the previous line
        if not text[max(0, prev_end - 2) : prev_end].rstrip("\r").endswith("\\"):
            return False
        line_start = text.rfind("\n", 0, prev_end) + 1


def grep_entry_definitions(text: str) -> int:
    """`__global__` occurrences whose declaration reaches '{' before ';', outside comments and macro definitions
    (a `#define` body, with its backslash-continued lines, defines no function until it is invoked)."""
    count = 0
    for m in _GLOBAL_RE.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        line = text[line_start : m.start()]
        if "//" in line or line.lstrip().startswith(("#", "*", "/*")) or _in_directive(text, line_start):
            continue
        semi, brace = text.find(";", m.end()), text.find("{", m.end())
        if brace != -1 and (semi == -1 or brace < semi):
            count += 1
    return count


def measure(repo: Path) -> dict:
    t0 = time.perf_counter()
    files = read_files(repo)
    t_read = time.perf_counter() - t0
    t1 = time.perf_counter()
    units, notes = extract_units("0" * 64, files)
    seconds = time.perf_counter() - t1

    layouts = collections.Counter(u["layout"] for u in units)
    # every kernel file of the snapshot, in a unit or not (facts are cached by content: unit files are not re-parsed)
    t2 = time.perf_counter()
    snapshot_kernel_files = [
        f
        for f in files
        if is_cpp(f["path"])
        and (
            ("__global__" in f["text"] and grep_entry_definitions(f["text"]))
            or ("kernel_operator.h" in f["text"] and _KERNEL_INCLUDE_RE.search(f["text"]))
        )
    ]
    broken_snapshot = [
        f["path"]
        for f in snapshot_kernel_files
        if any(d["kind"] in ("error", "missing") for d in file_facts(f["text"]).diagnostics)
    ]
    t_kernel_files = time.perf_counter() - t2
    kernel_files: dict[str, bool] = {}
    entries: set[tuple[str, int]] = set()
    for u in units:
        broken = {d["file"] for d in u["diagnostics"] if d["kind"] in ("error", "missing")}
        for f in u["files"]:
            if f["role"] == "kernel" and is_cpp(f["path"]):
                full = f"{u['root']}/{f['path']}" if u["root"] else f["path"]
                kernel_files[full] = kernel_files.get(full, False) or f["path"] in broken
        for e in u["entry"]:
            entries.add((f"{u['root']}/{e['file']}" if u["root"] else e["file"], e["line"]))
    grep_defs = sum(grep_entry_definitions(f["text"]) for f in files if is_cpp(f["path"]) and "__global__" in f["text"])
    n_kernel = len(kernel_files)
    n_broken = sum(kernel_files.values())
    return {
        "repo": str(repo),
        "files": len(files),
        "bytes": sum(len(f["text"].encode()) for f in files),
        "units": len(units),
        "units_per_layout": dict(layouts),
        "categories": dict(collections.Counter(u["category"] for u in units).most_common()),
        "kernel_files": len(snapshot_kernel_files),
        "kernel_files_with_error": len(broken_snapshot),
        "kernel_error_share": round(len(broken_snapshot) / len(snapshot_kernel_files), 4)
        if snapshot_kernel_files
        else None,
        "unit_kernel_files": n_kernel,
        "unit_kernel_files_with_error": n_broken,
        "unit_kernel_error_share": round(n_broken / n_kernel, 4) if n_kernel else None,
        "entries_found": len(entries),
        "grep_global_definitions": grep_defs,
        "entry_recall": round(len(entries) / grep_defs, 4) if grep_defs else None,
        "files_in_no_unit": len(notes),
        "seconds_extract": round(seconds, 2),
        "seconds_read": round(t_read, 2),
        "seconds_kernel_files_outside_units": round(t_kernel_files, 2),
        "kernel_files_with_error_list": sorted(broken_snapshot)[:20],
    }


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    result = measure(Path(args[0]))
    if "--json" in argv:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:28} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
