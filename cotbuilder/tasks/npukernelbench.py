"""Tasks from an NPUKernelBench tree: `tasks/<level>/<Category>/<Op>/{api_desc.md, validation/, answer/<n>/}`.

Each task keeps the benchmark's own validation (module.py reference, test_cases.csv rows, pybind.cpp binding) as
given files: an answer is verified by verify's benchmark harness exactly as a crawled benchmark answer is (its
reference on CPU in the sandbox, goldens sealed first, the binding's calls replayed, cotbuilder's comparison).
`mode`: `full` (the answer is the op project: op_host/ + op_kernel/) or `kernel_only` (op_host/ of the benchmark's
reference answer is given, the answer is op_kernel/). The benchmark's prompt building belongs to eval.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from .task import Task
from .toml_loader import LoadError

MODES = ("full", "kernel_only")
_OPDEF = re.compile(r"class\s+(\w+)\s*:\s*public\s+OpDef\b")


def load_npukernelbench(root: Path, mode: str = "full", soc: str = "ascend910b") -> tuple[list[Task], list[LoadError]]:
    """Every task under `root` with a validation/module.py; one LoadError per task that cannot be one."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    root = Path(root)
    tasks, errors = [], []
    for module in sorted(root.rglob("validation/module.py")):
        task_dir = module.parent.parent
        rel = task_dir.relative_to(root).as_posix()
        try:
            tasks.append(_task(task_dir, rel, mode, soc))
        except (ValueError, OSError, UnicodeDecodeError) as exc:
            errors.append(LoadError(rel, f"{rel}: {exc}"))
    return tasks, errors


def _task(task_dir: Path, rel: str, mode: str, soc: str) -> Task:
    from ..records import RecordError, validate

    validation = _texts(task_dir / "validation", "validation/")
    csv_text = validation.get("validation/test_cases.csv")
    if csv_text is None:
        raise ValueError("validation/ has no test_cases.csv")
    rows = [
        {k.strip(): (v or "").strip() for k, v in r.items() if k}
        for r in csv.DictReader(io.StringIO(csv_text), delimiter=";")
    ]
    if not rows:
        raise ValueError("test_cases.csv has no rows")
    answers = sorted((p for p in (task_dir / "answer").glob("*") if p.is_dir()), key=lambda p: (len(p.name), p.name))
    answer = _texts(answers[0], "") if answers else {}
    host = {p: t for p, t in answer.items() if p.startswith("op_host/")}
    kernel = {p: t for p, t in answer.items() if p.startswith("op_kernel/")}
    question = _texts(task_dir / "question", "")  # the skeleton the benchmark gives: names the op and its files
    op = next((m.group(1) for t in [*host.values(), *question.values()] if (m := _OPDEF.search(t))), task_dir.name)
    kernel_path = next(iter(sorted(kernel)), None) or next(
        (p for p in sorted(question) if p.startswith("op_kernel/") and p.endswith(".cpp")), f"op_kernel/{op}.cpp"
    )
    parts = rel.split("/")
    level = next((p for p in parts if re.fullmatch(r"level\d+", p)), None)
    category = parts[-2] if len(parts) >= 2 else None
    desc = task_dir / "api_desc.md"
    given = dict(validation)
    if mode == "kernel_only":
        if not host:
            raise ValueError("kernel_only needs the reference answer's op_host/ (answer/<n>/op_host)")
        given |= host
    task = Task(
        name=f"{level}.{task_dir.name}" if level else task_dir.name,
        statement_en=desc.read_text(encoding="utf-8").strip() if desc.is_file() else f"Implement the AscendC op {op}.",
        layout="op_project" if mode == "full" else "kernel_only",
        cases=[
            {"name": f"row{r.get('case_id', i)}", "inputs": [], "outputs": [], "attrs": {}, "seeds": [i], "row": r}
            for i, r in enumerate(rows)
        ],
        reference={"kind": "benchmark", "code": "validation/module.py"},
        soc=soc,
        source="npukernelbench",
        origin=f"{rel}/validation/module.py",
        category=category,
        op=op,
        kernel_path=kernel_path,
        given_files=[{"path": p, "text": t} for p, t in sorted(given.items())],
        answer_files=[{"path": p, "text": t} for p, t in sorted((answer if mode == "full" else kernel).items())]
        or None,
        tags=[t for t in (level, category, f"mode:{mode}") if t],
    )
    try:
        validate("task", task.record("2000-01-01T00:00:00"))
    except RecordError as exc:
        raise ValueError(str(exc)) from exc
    return task


def _texts(folder: Path, prefix: str) -> dict[str, str]:
    """The files crawl would keep, as crawl reads them (bytes as they are: CRLF kept, a BOM dropped), so an answer
    evaluated here is the same code `verify` judges when the tree is crawled (`.cc` sources included)."""
    from ..crawl.config import CrawlConfig
    from ..crawl.filefilter import language_of, read_checked

    if not folder.is_dir():
        return {}
    limit = CrawlConfig().max_file_bytes  # crawl's default --max-file-bytes
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if p.is_file() and language_of(rel) is not None:
            text, _, _ = read_checked(p, limit)
            if text is not None:
                out[prefix + rel] = text
    return out
