"""The tasks an eval or synthesize run is about: from benchmark trees, task.toml folders, or the `tasks` table,
filtered by name glob and level."""

from __future__ import annotations

import fnmatch
from pathlib import Path

from ..stages.base import StageRefused
from ..tasks.task import Task

BENCHMARK_LOADERS = ("npukernelbench", "multikernelbench")


def select_tasks(
    store,
    benchmarks: list[str],
    task_dirs: list[str],
    *,
    mode: str = "full",
    glob: str | None = None,
    level: str | None = None,
) -> tuple[list[Task], list[str]]:
    """(tasks, load problems). Refuses (StageRefused) what cannot be a source at all: an unknown benchmark, a
    missing folder, no task left."""
    tasks: list[Task] = []
    problems: list[str] = []
    for spec in benchmarks:
        name, sep, path = spec.partition("=")
        if not sep or not path:
            raise StageRefused(f"--benchmark takes NAME=PATH (got {spec!r})")
        if name not in BENCHMARK_LOADERS:
            raise StageRefused(f"no task loader for benchmark {name!r} (known: {', '.join(BENCHMARK_LOADERS)})")
        root = Path(path)
        if not root.is_dir():
            raise StageRefused(f"--benchmark {name}: {path} is not a folder")
        if name == "multikernelbench":
            from ..tasks.multikernelbench import load_multikernelbench

            loaded, errors = load_multikernelbench(root)
        else:
            from ..tasks.npukernelbench import load_npukernelbench

            loaded, errors = load_npukernelbench(root, mode)
        tasks += loaded
        problems += [e.message for e in errors]
    for folder in task_dirs:
        from ..tasks.toml_loader import TaskError, load_folder

        try:
            loaded, errors = load_folder(Path(folder))
        except TaskError as exc:
            raise StageRefused(str(exc)) from exc
        tasks += loaded
        problems += [e.message for e in errors]
    if not benchmarks and not task_dirs:
        from ..tasks.stored import load_all

        tasks = load_all(store)
        if not tasks:
            raise StageRefused("no tasks: give --benchmark NAME=PATH or --tasks DIR, or import some (cotbuilder tasks)")
    unique = {t.task_id: t for t in tasks}
    tasks = [t for t in unique.values() if _wanted(t, glob, level)]
    if not tasks:
        raise StageRefused("no task matches --task / --level")
    return sorted(tasks, key=lambda t: t.name), problems


def _wanted(task: Task, glob: str | None, level: str | None) -> bool:
    if glob and not fnmatch.fnmatch(task.name, glob):
        return False
    return not level or level in task.tags


def level_of(task: Task) -> str | None:
    return next((t for t in task.tags if t.startswith("level")), None)
