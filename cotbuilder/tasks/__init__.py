"""Tasks: "a kernel to write" - statement, cases, a reference run in the sandbox, tolerance, SoC and layout.

`task.py` is the record type, `toml_loader.py` reads a folder of `task.toml` files (format: docs/tasks.md),
`specs.py` turns a task + an answer into units the existing spec harnesses verify (no second harness), `stored.py`
reads and writes the `tasks` table.
"""
