"""The messages a teacher is sent for a task (and for a repair): texts in data/prompts.toml, filled from the task.

For NPUKernelBench tasks the prompt carries what the benchmark shows its models: the api_desc statement, one
test_cases.csv row and the hardware text; `kernel_only` tasks show the given op_host/. The task's reference, its
answer and its validation files are never shown."""

from __future__ import annotations

import functools
import tomllib
from typing import Any

from ..paths import package_data
from ..tasks.task import Task

_MAX_GIVEN_CHARS = 24_000  # a prompt stays within a small model's context


@functools.lru_cache(maxsize=1)
def texts() -> dict[str, Any]:
    return tomllib.loads(package_data("eval/data/prompts.toml").read_text(encoding="utf-8"))


def prompt_version() -> str:
    return str(texts()["version"])


def task_messages(task: Task, lang: str = "en") -> list[dict[str, str]]:
    t = texts()
    statement = (task.statement_zh if lang == "zh" and task.statement_zh else task.statement_en).strip()
    parts = [statement, _layout_text(task)]
    given = [f for f in task.given_files if f["path"].startswith(("op_host/",)) and task.layout == "kernel_only"]
    if given:
        shown = "\n\n".join(f"// {f['path']}\n```cpp\n{f['text']}\n```" for f in given)
        parts.append(t["parts"]["given"] + "\n\n" + shown[:_MAX_GIVEN_CHARS])
    rows = [c["row"] for c in task.cases if c.get("row")]
    if rows:
        parts.append(t["parts"]["case"] + "\n" + "; ".join(f"{k}={v}" for k, v in rows[0].items()))
    parts.append(t["parts"]["hardware"].format(soc=task.soc))
    return [{"role": "system", "content": t["system"]}, {"role": "user", "content": "\n\n".join(parts)}]


def repair_messages(
    task: Task, code: dict[str, str], status: str, diagnostic: str, lang: str = "en"
) -> list[dict[str, str]]:
    shown = "\n\n".join(f"// {p}\n```cpp\n{text}\n```" for p, text in sorted(code.items()))
    text = texts()["repair"]["text"].format(status=status, diagnostic=diagnostic.strip() or "(none)", code=shown)
    messages = task_messages(task, lang)
    return [*messages, {"role": "user", "content": text}]


def _layout_text(task: Task) -> str:
    template = texts()["layout"][task.layout]
    args = task.launch_args or [*[t["name"] for t in task.cases[0].get("inputs", [])],
                                *[t["name"] for t in task.cases[0].get("outputs", [])]]  # fmt: skip
    return template.format(
        entry=task.entry or "",
        args=", ".join(args) or "(as the statement says)",
        block_dim=task.block_dim or 1,
        kernel_path=task.kernel_path or "op_kernel/<op>.cpp",
        op=task.op or task.name,
    )
