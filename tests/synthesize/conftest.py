"""synthesize's tests use eval's fixtures and helpers (tasks folder, scripted OpenAI-protocol server, the session's
build cache). Test folders are not packages here (pytest's importlib mode), so they are loaded by path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_EVAL = Path(__file__).resolve().parents[1] / "eval"


def _load(name: str):
    key = f"_eval_tests_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, _EVAL / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


eval_fixtures = _load("conftest")
scripted_server = _load("scripted_server")
shared_build_cache = eval_fixtures.shared_build_cache
workspace = eval_fixtures.workspace
task_folder = eval_fixtures.task_folder
