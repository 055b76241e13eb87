"""Pipelines: recipes (TOML tables named like the registered stages) and the runner that runs them in order."""
