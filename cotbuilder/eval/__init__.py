"""`cotbuilder eval`: a teacher's answers to tasks (a benchmark, a task.toml folder), each verified on the emulator,
stored in `samples`, reported as parse / compile / correct pass@k per task, level and category (docs/verbs.md)."""
