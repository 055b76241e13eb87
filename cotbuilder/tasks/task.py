"""The task record type: one dataclass, its content-hash id and its row in the `tasks` table (schemas/task.schema.json)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..hashing import sha256_text, stable_json

LAYOUTS = ("kernel_launch", "kernel_only", "op_project")
REFERENCE_KINDS = ("numpy", "torch", "python")

# Fields that do not change what a verdict means: two loads of the same task differ only in these.
_NOT_HASHED = ("task_id", "origin", "created_at", "answer_files", "tags")


@dataclass
class Task:
    name: str
    statement_en: str
    layout: str
    cases: list[dict[str, Any]]
    reference: dict[str, str]  # {kind: numpy | torch | python, code}
    soc: str = "ascend910b"
    source: str = "task.toml"
    origin: str = ""
    statement_zh: str | None = None
    category: str | None = None
    entry: str | None = None
    op: str | None = None
    kernel_path: str | None = None
    block_dim: int | None = None
    launch_args: list[str] | None = None
    workspace_bytes: int | None = None
    tolerance: dict[str, float] | None = None
    given_files: list[dict[str, str]] = field(default_factory=list)
    answer_files: list[dict[str, str]] | None = None
    tags: list[str] = field(default_factory=list)
    task_id: str = ""

    def __post_init__(self) -> None:
        if not self.task_id:
            self.task_id = compute_id(self)

    def record(self, created_at: Any) -> dict[str, Any]:
        """The `tasks` row (validated by the store against schemas/task.schema.json)."""
        return {**dataclasses.asdict(self), "created_at": created_at}

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> Task:
        names = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in row.items() if k in names}
        for key in ("given_files", "tags"):
            values[key] = values.get(key) or []
        return cls(**values)

    def answer(self) -> dict[str, str] | None:
        """The known right answer as {path: text} (None when the task has none)."""
        return {f["path"]: f["text"] for f in self.answer_files} if self.answer_files else None


def compute_id(task: Task) -> str:
    content = {k: v for k, v in dataclasses.asdict(task).items() if k not in _NOT_HASHED}
    return sha256_text(stable_json(content))
