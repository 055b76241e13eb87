"""The `tasks` table: store tasks (one transaction, INSERT OR REPLACE by content id) and read them back."""

from __future__ import annotations

from ..store import Store, utcnow
from .task import Task


def save(store: Store, tasks: list[Task]) -> int:
    """Store `tasks` in one transaction (validated against schemas/task.schema.json); returns rows written."""
    now = utcnow()
    with store.transaction():
        return store.insert("tasks", [t.record(now) for t in tasks])


def load_all(store: Store) -> list[Task]:
    if not store.has_table("tasks"):
        return []
    return [Task.from_record(r) for r in store.rows("SELECT * FROM tasks ORDER BY name, created_at")]


def find(store: Store, key: str) -> Task | None:
    """A task by id (or unique id prefix) or by name (the newest row of that name)."""
    rows = store.rows(
        "SELECT * FROM tasks WHERE task_id LIKE ? OR name = ? ORDER BY (name = ?) DESC, created_at DESC",
        [key + "%", key, key],
    )
    return Task.from_record(rows[0]) if rows else None
