"""Benchmark sources and loaders: NPUKernelBench, MultiKernelBench, or any plain folder of files.

A benchmark is given as NAME=PATH_OR_GIT_URL. Git URLs are cloned once into the workspace cache
(`cache/benchmarks/git/<hash of url>`) and reused offline afterwards; a local path is read in place (and, when it is a git
work tree, its history is read too). A bare git repository (a fetched mirror, no work tree) is read from its HEAD: the
text files the loaders read are written once per commit into `cache/benchmarks/tree/<commit>` (a blob the mirror lacks
is left out), and its history is read from the bare repository itself.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..hashing import sha256_text

CODE_SUFFIXES = {".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".py", ".cu", ".csv", ".json", ".txt"}
PROSE_SUFFIXES = {".md", ".rst", ".txt"}
_GIT_URL = re.compile(r"^(https?://|git@|ssh://|file://)|\.git$")


class BenchmarkError(RuntimeError):
    """A benchmark cannot be read (bad spec, clone failed, unknown layout): the message says which and why."""


@dataclass
class BenchTask:
    task_id: str  # e.g. level1/Comparison/Less
    answers: list[tuple[str, str]] = field(default_factory=list)  # (path, code): reference solutions
    prompt_code: list[tuple[str, str]] = field(default_factory=list)  # templates, validation, reference models
    prose: list[tuple[str, str]] = field(default_factory=list)  # task descriptions (all versions)

    def kernel_answers(self) -> list[tuple[str, str]]:
        """Answer files holding device code (compared by MinHash; host files are mostly shared op-definition text)."""
        return [
            (p, t)
            for p, t in self.answers
            if "op_kernel" in p
            or "kernel" in Path(p).name.lower()
            or (Path(p).suffix in {".cpp", ".cc", ".cu"} and "op_host" not in p and "__global__" in t)
        ]


@dataclass
class Benchmark:
    name: str
    location: str
    layout: str  # npukernelbench | multikernelbench | folder
    tasks: list[BenchTask]
    shared: list[tuple[str, str]] = field(default_factory=list)  # text shown with every task (one-shot examples)
    commit: str | None = None

    def content_hash(self) -> str:
        parts = [self.layout]
        for t in self.tasks:
            parts.append(t.task_id)
            parts += [
                f"{k}:{p}:{sha256_text(x)}"
                for k, items in (("a", t.answers), ("c", t.prompt_code), ("p", t.prose))
                for p, x in items
            ]
        parts += [f"s:{p}:{sha256_text(x)}" for p, x in self.shared]
        return sha256_text("\n".join(parts))


def parse_spec(spec: str) -> tuple[str, str]:
    name, sep, where = spec.partition("=")
    if not sep or not name.strip() or not where.strip():
        raise BenchmarkError(f"benchmark {spec!r} must be NAME=PATH_OR_GIT_URL")
    return name.strip(), where.strip()


def _git(root: Path, *args: str, input_: bytes | None = None) -> bytes:
    """git in `root`: a work tree, or a bare repository (then `--git-dir`)."""
    where = ["--git-dir", str(root)] if is_bare_repo(root) else ["-C", str(root)]
    return subprocess.run(["git", *where, *args], input=input_, capture_output=True, check=True, timeout=600).stdout


def is_bare_repo(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir() and (path / "refs").is_dir()


def checkout_head(bare: Path, cache_dir: Path) -> Path:
    """The text files of a bare repository's HEAD, written once into the cache (folder named after the commit)."""
    try:
        commit = _git(bare, "rev-parse", "HEAD").decode().strip()
    except subprocess.CalledProcessError as exc:
        raise BenchmarkError(f"bare repository {bare} has no readable HEAD: {exc.stderr.decode()[:300]}") from None
    target = cache_dir / "benchmarks" / "tree" / commit
    if (target / ".complete").is_file():
        return target
    wanted = CODE_SUFFIXES | PROSE_SUFFIXES | {".md"}
    listing = _git(bare, "ls-tree", "-r", "-z", "--full-tree", "HEAD").decode("utf-8", "surrogateescape")
    entries = []
    for item in filter(None, listing.split("\0")):
        meta, _, path = item.partition("\t")
        mode, kind, sha = meta.split()
        if kind == "blob" and mode != "120000" and Path(path).suffix.lower() in wanted:
            entries.append((path, sha))
    tmp = target.with_name(target.name + ".partial")
    subprocess.run(["rm", "-rf", str(tmp)], check=False)
    tmp.mkdir(parents=True)
    out = _git(bare, "cat-file", "--batch", input_="".join(f"{sha}\n" for _, sha in entries).encode())
    pos = 0
    for path, _sha in entries:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        if len(header) < 3 or header[1] == b"missing":  # a mirror may lack large blobs
            pos = end + 1
            continue
        size = int(header[2])
        data = out[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
        dest = (tmp / path).resolve()
        if not dest.is_relative_to(tmp.resolve()):
            continue  # a path that climbs out of the tree is not written
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    (tmp / ".complete").write_text(commit + "\n")
    subprocess.run(["rm", "-rf", str(target)], check=False)
    tmp.rename(target)
    return target


def resolve(where: str, cache_dir: Path) -> tuple[Path, Path | None]:
    """(a local folder holding the benchmark's files, the git repository to read its commit and history from): the
    path itself, the HEAD of a bare repository written into the cache, or a cached clone of the git URL."""
    local = Path(where).expanduser()
    if local.is_dir() and not where.startswith("file://"):
        if is_bare_repo(local):
            return checkout_head(local.resolve(), cache_dir), local.resolve()
        return local.resolve(), (local.resolve() if _is_git(local) else None)
    if not _GIT_URL.search(where):
        raise BenchmarkError(f"benchmark location {where!r} is neither a folder nor a git URL")
    target = cache_dir / "benchmarks" / "git" / sha256_text(where)[:16]
    if (target / ".git").is_dir():
        return target, target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".partial")
    subprocess.run(["rm", "-rf", str(tmp)], check=False)
    proc = subprocess.run(["git", "clone", "--quiet", where, str(tmp)], capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        raise BenchmarkError(f"cannot clone {where}: {proc.stderr.strip()[:500]}")
    tmp.rename(target)  # a clone is either complete or absent
    return target, target


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _is_git(root: Path) -> bool:
    return (root / ".git").exists()


def history_versions(root: Path, pattern: str, git_dir: Path | None = None) -> dict[str, list[str]]:
    """Older texts of files matching `pattern` from git history: {path: [text, ...]} (current text excluded).

    One `git log --raw` lists every blob each commit wrote; `git cat-file --batch` reads them all in one process.
    Renamed files are not followed (NPUKernelBench kept its paths). `git_dir`: the repository, when `root` holds only
    its files (a bare repository's HEAD written out).
    """
    repo = git_dir or (root if _is_git(root) else None)
    if repo is None:
        return {}
    try:
        log = _git(repo, "log", "--format=", "--raw", "--no-abbrev", "--no-renames", "--", pattern).decode()
    except subprocess.CalledProcessError:
        return {}
    blobs: dict[str, set[str]] = {}
    for line in log.splitlines():
        meta, _, path = line.partition("\t")
        fields = meta.split()
        if len(fields) >= 4 and not set(fields[3]) <= {"0"}:
            blobs.setdefault(path, set()).add(fields[3])
    wanted = sorted({b for bs in blobs.values() for b in bs})
    if not wanted:
        return {}
    out = _git(repo, "cat-file", "--batch", input_="\n".join(wanted).encode() + b"\n")
    texts: dict[str, str] = {}
    pos = 0
    for sha in wanted:
        header_end = out.index(b"\n", pos)
        header = out[pos:header_end].split()
        if len(header) < 3 or header[1] == b"missing":
            pos = header_end + 1
            continue
        size = int(header[2])
        texts[sha] = out[header_end + 1 : header_end + 1 + size].decode("utf-8", "replace")
        pos = header_end + 1 + size + 1
    result: dict[str, list[str]] = {}
    for path, shas in blobs.items():
        current = root / path
        now = _read(current) if current.is_file() else None
        result[path] = sorted({texts[s] for s in shas if s in texts and texts[s] != now})
    return result


def _files(folder: Path, suffixes: set[str]) -> list[Path]:
    return sorted(
        p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in suffixes and ".git" not in p.parts
    )


def load_npukernelbench(root: Path, git_dir: Path | None = None) -> tuple[list[BenchTask], list[tuple[str, str]]]:
    old = history_versions(root, "*api_desc.md", git_dir)
    tasks = []
    for desc in sorted(root.glob("tasks/level*/*/*/api_desc.md")):
        folder = desc.parent
        task = BenchTask(str(folder.relative_to(root / "tasks")))
        rel = lambda p: str(p.relative_to(root))  # noqa: E731
        task.prose.append((rel(desc), _read(desc)))
        task.prose += [(rel(desc) + f"@history{i}", text) for i, text in enumerate(old.get(rel(desc), []))]
        for sub in ("answer",):
            task.answers += [(rel(p), _read(p)) for p in _files(folder / sub, {".cpp", ".h", ".hpp", ".cc"})]
        task.prompt_code += [(rel(p), _read(p)) for p in _files(folder / "question", {".cpp", ".h", ".hpp", ".cc"})]
        for name in ("module.py", "test_cases.csv"):
            if (folder / "validation" / name).is_file():
                task.prompt_code.append((rel(folder / "validation" / name), _read(folder / "validation" / name)))
        tasks.append(task)
    # The one-shot examples every generation prompt embeds (NPUKernelBench keeps them in kernel_generator/*sample*.py)
    shared = [(str(p.relative_to(root)), _read(p)) for p in sorted(root.glob("kernel_generator/*sample*.py"))]
    shared += [(str(p.relative_to(root)), _read(p)) for p in _files(root / "prompts", CODE_SUFFIXES)]
    return tasks, shared


def multikernelbench_references(root: Path) -> list[tuple[str, str, str]]:
    """MultiKernelBench's tasks as its own dataset.py finds them: every `reference/<category>/<op>.py` (names starting
    with `_` are not tasks), as (task id `<category>/<op>`, path relative to root, text). The one reader of the
    layout: decontamination and the task loader (tasks/multikernelbench.py) both take it from here."""
    out = []
    for ref in sorted(Path(root).glob("reference/*/*.py")):
        if not ref.name.startswith("_"):
            out.append((f"{ref.parent.name}/{ref.stem}", str(ref.relative_to(root)), _read(ref)))
    return out


def load_multikernelbench(root: Path, git_dir: Path | None = None) -> tuple[list[BenchTask], list[tuple[str, str]]]:
    """MultiKernelBench: `reference/<category>/<op>.py` is each task's PyTorch reference (the architecture the prompt
    shows and the implementation outputs are checked against); `prompts/*` are the one-shot examples every prompt
    embeds, so they are shared text, not task text."""
    tasks = [
        BenchTask(task_id, answers=[(rel, text)], prompt_code=[(rel, text)])
        for task_id, rel, text in multikernelbench_references(root)
    ]
    shared = [(str(p.relative_to(root)), _read(p)) for p in _files(root / "prompts", CODE_SUFFIXES)]
    return tasks, shared


def load_folder(root: Path, git_dir: Path | None = None) -> tuple[list[BenchTask], list[tuple[str, str]]]:
    """Any folder: each top-level sub-folder is a task (top-level files are one task each); code files are answers,
    markdown/text files are task prose."""
    tasks = []
    entries = sorted(p for p in root.iterdir() if p.name != ".git" and not p.name.startswith("."))
    for entry in entries:
        files = _files(entry, CODE_SUFFIXES | PROSE_SUFFIXES) if entry.is_dir() else [entry]
        task = BenchTask(entry.name)
        for f in files:
            rel = str(f.relative_to(root))
            if f.suffix.lower() in {".md", ".rst", ".txt"}:
                task.prose.append((rel, _read(f)))
            elif f.suffix.lower() in CODE_SUFFIXES:
                task.answers.append((rel, _read(f)))
        if task.answers or task.prose:
            tasks.append(task)
    return tasks, []


def detect_layout(root: Path) -> str:
    if any(root.glob("tasks/level*/*/*/api_desc.md")):
        return "npukernelbench"
    if any(root.glob("reference/*/*.py")) and (root / "prompts").is_dir():
        return "multikernelbench"
    return "folder"


LOADERS = {"npukernelbench": load_npukernelbench, "multikernelbench": load_multikernelbench, "folder": load_folder}


def load(spec: str, cache_dir: Path) -> Benchmark:
    name, where = parse_spec(spec)
    root, git_dir = resolve(where, cache_dir)
    layout = detect_layout(root)
    tasks, shared = LOADERS[layout](root, git_dir)
    if not tasks:
        raise BenchmarkError(f"benchmark {name}: no tasks found in {root} (layout {layout})")
    commit = None
    if git_dir is not None:
        try:
            commit = _git(git_dir, "rev-parse", "HEAD").decode().strip()
        except subprocess.CalledProcessError:
            commit = None
    return Benchmark(name, where, layout, tasks, shared, commit)
