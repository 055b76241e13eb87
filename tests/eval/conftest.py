"""Eval fixtures: two demo tasks (add_fp16, relu_fp16) with one seed each in a tmp task folder, the scripted replies
a model gives to them, and a build cache shared by the session (each distinct answer is compiled once per run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ADD = (REPO / "examples/kernel_launch/add_fp16/add_fp16.cpp").read_text(encoding="utf-8")
RELU = (REPO / "examples/kernel_launch/relu_fp16/relu_fp16.cpp").read_text(encoding="utf-8")


def fenced(code: str, prose: str = "Here is the kernel.") -> str:
    return f"{prose}\n\n```cpp\n{code}\n```\n"


ADD_RIGHT = fenced(ADD)
ADD_COMPILE_ERROR = fenced(
    ADD.replace("Add(zLocal, xLocal, yLocal, TILE_LENGTH);", "Addd(zLocal, xLocal, yLocal, TILE_LENGTH);")
)
ADD_WRONG = fenced(
    ADD.replace("Add(zLocal, xLocal, yLocal, TILE_LENGTH);", "Sub(zLocal, xLocal, yLocal, TILE_LENGTH);")
)
UNPARSEABLE = "To add two tensors on an Ascend NPU you would split the data over the cores and use Add."
RELU_RIGHT = fenced(RELU, "Relu with a double-buffered pipeline:")
RELU_WRONG = fenced(RELU.replace("Relu(yLocal, xLocal, TILE_LENGTH);", "Abs(yLocal, xLocal, TILE_LENGTH);"))

# seed (= sample index) -> reply. add_fp16: right, compile error, wrong, unparseable. relu_fp16: right, right, wrong,
# unparseable (a second right answer in other words: a distinct reply, the same code).
SCRIPT = {
    "add_fp16": [ADD_RIGHT, ADD_COMPILE_ERROR, ADD_WRONG, UNPARSEABLE],
    "relu_fp16": [RELU_RIGHT, fenced(RELU, "The same kernel again:"), RELU_WRONG, UNPARSEABLE],
}
assert ADD_COMPILE_ERROR != ADD_RIGHT and ADD_WRONG != ADD_RIGHT and RELU_WRONG != RELU_RIGHT


def write_task_folder(dest: Path, names: tuple[str, ...] = ("add_fp16", "relu_fp16")) -> Path:
    """Copies of the demo tasks with one seed (the cheapest real check) and their answer path made absolute."""
    for name in names:
        src = REPO / "examples/tasks" / name / "task.toml"
        text = src.read_text(encoding="utf-8")
        text = re.sub(r"^seeds = .*$", "seeds = [0]", text, flags=re.M)
        answer = re.search(r'^answer = "(.*)"$', text, flags=re.M)
        text = text.replace(answer.group(0), f'answer = "{(src.parent / answer.group(1)).resolve()}"')
        (dest / name).mkdir(parents=True)
        (dest / name / "task.toml").write_text(text, encoding="utf-8")
    return dest


@pytest.fixture(scope="session")
def shared_build_cache(shared_verify_cache: Path) -> Path:
    """cache/verify (PCH + builds): the test run's, shared by every worker (tests/conftest.py)."""
    return shared_verify_cache


@pytest.fixture
def workspace(tmp_path, shared_build_cache) -> Path:
    """A fresh workspace whose verify build cache (PCH + builds) is the session's."""
    ws = tmp_path / "ws"
    (ws / "cache").mkdir(parents=True)
    (ws / "cache" / "verify").symlink_to(shared_build_cache)
    return ws


@pytest.fixture
def task_folder(tmp_path) -> Path:
    return write_task_folder(tmp_path / "tasks")
