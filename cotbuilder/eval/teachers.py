"""Where answers come from: `reference` (each task's known right answer), `static` (offline: the right answer, and
bug mutants of it from the mutation module), or a model on an OpenAI-compatible server
(annotate's client and response cache: a re-run, or a run resumed after a kill, sends no request it already has an
answer for).

A teacher is built on the worker side (`make_teacher` in `setup()`): it holds a client and a cache folder, and its
`answer(task, index, messages)` returns a Reply. Its `identity()` is the non-secret part of the sample key."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..tasks.task import Task

BUILTIN = ("reference", "static")


@dataclass
class Reply:
    text: str
    files: dict[str, str] | None = None  # given directly (reference / static), no parsing needed
    usage: dict[str, int] = field(default_factory=dict)
    failure: str | None = None  # the teacher gave no answer (refused, gave up): stored as unparseable with this reason
    mutant: str | None = None  # the static teacher's planted bug (its kind): such an answer is never kept


@dataclass(frozen=True)
class TeacherSpec:
    """What a worker needs to build the teacher (picklable; the API key is read on the worker from the env)."""

    model: str
    base_url: str | None = None
    api_key_env: str | None = None
    temperature: float = 0.8
    max_tokens: int = 8192
    timeout: float = 300.0
    cache_dir: str = ""

    def identity(self, prompt_version: str) -> dict[str, Any]:
        if self.model in BUILTIN:
            return {"provider": self.model, "model": self.model, "endpoint": None, "prompt_version": prompt_version,
                    "params": {}}  # fmt: skip
        from ..annotate.client import endpoint_of

        return {
            "provider": "openai-compatible",
            "model": self.model,
            "endpoint": endpoint_of(self.base_url),
            "prompt_version": prompt_version,
            "params": {"temperature": self.temperature, "max_tokens": self.max_tokens},
        }


def render_files(files: dict[str, str]) -> str:
    """A multi-file answer as text, in the per-file header form the prompts ask for (what a model would write)."""
    return "\n\n".join(f"================== {p} ==================\n```cpp\n{t}\n```" for p, t in sorted(files.items()))


class ReferenceTeacher:
    def answer(self, task: Task, index: int, messages: list[dict[str, str]]) -> Reply:
        files = task.answer()
        if not files:
            return Reply("", failure="the task has no reference answer")
        return Reply(render_files(files), files=files)


class StaticTeacher:
    """Offline and deterministic: sample 0 is the task's right answer; sample i >= 1 is the (i-1)-th mutant the
    mutation module makes of it (synthesize/mutants.py), or the right answer again when there is none. It cannot
    solve a task without a known answer: real evaluation and synthesis need an LLM teacher."""

    def answer(self, task: Task, index: int, messages: list[dict[str, str]]) -> Reply:
        files = task.answer()
        if not files:
            return Reply("", failure="the static teacher knows no answer to this task (it needs an LLM teacher)")
        if index > 0:
            from ..synthesize.mutants import mutants_of

            variants = mutants_of(files, task)
            if variants:
                kind, mutant = variants[(index - 1) % len(variants)]
                return Reply(f"(static teacher: mutant {kind})\n" + render_files(mutant), files=mutant, mutant=kind)
        return Reply(render_files(files), files=files)

    def repair(self, task: Task, broken: dict[str, str], messages: list[dict[str, str]]) -> Reply:
        """The fix of a mutant is the verified original."""
        return self.answer(task, 0, messages)


class LLMTeacher:
    RETRIES = 4

    def __init__(self, spec: TeacherSpec, prompt_version: str):
        from ..annotate.cache import ResponseCache

        self.spec = spec
        self.prompt_version = prompt_version
        self.cache = ResponseCache(Path(spec.cache_dir))

    def answer(self, task: Task, index: int, messages: list[dict[str, str]]) -> Reply:
        return self._ask(messages, index)

    def repair(self, task: Task, broken: dict[str, str], messages: list[dict[str, str]]) -> Reply:
        return self._ask(messages, 0)

    def _ask(self, messages: list[dict[str, str]], index: int) -> Reply:
        from ..annotate.cache import cache_key
        from ..annotate.client import AnswerRejected, OpenAIChatClient, RequestRejected, TransientError, endpoint_of

        spec = self.spec
        # the sample index is the request's seed: n samples of one prompt are n requests (reproducible where the
        # server honours seeds), each cached on its own
        params = {"temperature": spec.temperature, "max_tokens": spec.max_tokens, "seed": index}
        key = cache_key(provider="openai-compatible", model=spec.model, params=params,
                        messages=messages, prompt_version=self.prompt_version, endpoint=endpoint_of(spec.base_url))  # fmt: skip
        if (hit := self.cache.get(key)) is not None:
            return Reply(hit.text, usage={**hit.usage, "cache_hits": 1})

        async def once() -> Any:
            client = OpenAIChatClient(spec.model, base_url=spec.base_url, api_key_env=spec.api_key_env,
                                      timeout=spec.timeout)  # fmt: skip
            try:
                return await client.generate(messages, params)
            finally:
                await client.aclose()

        delay = 1.0
        for attempt in range(self.RETRIES):
            try:
                response = asyncio.run(once())
                break
            except TransientError as exc:
                if attempt == self.RETRIES - 1:
                    raise RuntimeError(f"teacher: gave up after {self.RETRIES} tries: {exc}") from exc
                time.sleep(min(30.0, exc.retry_after if exc.retry_after is not None else delay))
                delay *= 2
            except AnswerRejected as exc:
                return Reply("", usage=exc.usage, failure=exc.reason)
            except RequestRejected as exc:
                raise RuntimeError(f"teacher refused the request: {exc}") from exc
        from ..annotate.scrub import redact_answer

        response, _ = redact_answer(response)  # secrets in an answer never reach the cache or the store
        if response.refusal and not response.text:
            return Reply("", usage=response.usage, failure=f"refused: {response.refusal[:200]}")
        self.cache.put(key, response, {"model": spec.model, "purpose": "eval/synthesize"})
        return Reply(response.text, usage=response.usage)


def make_teacher(spec: TeacherSpec, prompt_version: str) -> Any:
    if spec.model == "reference":
        return ReferenceTeacher()
    if spec.model == "static":
        return StaticTeacher()
    return LLMTeacher(spec, prompt_version)
