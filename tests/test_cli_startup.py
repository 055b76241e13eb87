"""`cotbuilder --help` reads only the stage registry and the stages' light config modules: no stage implementation,
no store, none of the heavy libraries (pinned by what the interpreter loads, not by a timing: see benchmarks/ for
that)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEAVY = ("duckdb", "numpy", "rich", "openai", "httpx", "tree_sitter", "jsonschema", "pyarrow", "polars", "datasets")


# Runs the CLI's own entry point as `python -m cotbuilder.cli ARGS` does, then lists every module it loaded
# (`-X importtime` misses modules loaded through importlib, as the registry loads them).
PROBE = """
import json, runpy, sys
sys.argv = ["cotbuilder", *sys.argv[1:]]
try:
    runpy.run_module("cotbuilder.cli", run_name="__main__")
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def imported_by(*args: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "COLUMNS": "120"},
        timeout=120,
    )
    assert "Usage: cotbuilder" in proc.stdout, proc.stderr[-2000:]
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def _light(module: str) -> bool:
    """The CLI's own modules, the stage core's declarations, stage package markers and their config modules."""
    parts = module.split(".")
    return (
        module in ("cotbuilder.cli_common", "cotbuilder.stages.options", "cotbuilder.stages.registry")
        or module == "cotbuilder.stages.command"
        or len(parts) == 2  # a package's __init__ (docstring only)
        or (len(parts) == 3 and parts[2] == "config")
    )


def test_help_imports_no_stage_implementation_and_no_heavy_library():
    for args in (["--help"], ["verify", "--help"], ["annotate", "--help"]):
        modules = imported_by(*args)
        ours = sorted(m for m in modules if m.startswith("cotbuilder."))
        assert "cotbuilder.verify.config" in ours and "cotbuilder.stages.registry" in ours
        assert [m for m in ours if not _light(m)] == [], args
        assert [m for m in modules if m.split(".")[0] in HEAVY] == [], args
