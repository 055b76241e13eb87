"""The one list of stages. The CLI verbs, the recipe tables, `cotbuilder status` and the pipeline runner are all derived
from it: adding a stage is a new folder (config.py, stage.py, optionally status.py) and one line in `STAGES` below.

The order of `STAGES` is the order `cotbuilder run` runs them in. verify runs before annotate (DESIGN draws them side
by side): a teacher's tokens are not spent on kernels that do not build, the teacher's prompt can cite what the
verifier measured, and `annotate --repair` needs verification results.

Entries name their parts by import path, so reading the registry (as `cotbuilder --help` does) imports only the light
config modules, never a stage's implementation.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


def _resolve(ref: Any) -> Any:
    """'package.module:Name' -> the object; anything else is already the object."""
    if not isinstance(ref, str):
        return ref
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class StageEntry:
    verb: str  # the CLI verb, the recipe table, `runs.stage`
    config: Any  # "module:ConfigClass" (a light module: the CLI imports it for --help) or the class
    stage: Any  # "module:StageClass" (imported only when the stage runs) or the class
    status: Any = None  # "module:function(store, console)" adding a section to `cotbuilder status`, or None

    def config_type(self) -> type:
        return _resolve(self.config)

    def stage_type(self) -> type:
        return _resolve(self.stage)

    def status_section(self) -> Callable[..., None] | None:
        return _resolve(self.status) if self.status is not None else None

    def help(self) -> str:
        """The verb's --help text: the config class's docstring (what the stage does and how it resumes)."""
        return (self.config_type().__doc__ or "").strip()


class Registry:
    def __init__(self, entries: list[StageEntry]):
        self._entries = list(entries)

    def __iter__(self) -> Iterator[StageEntry]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def verbs(self) -> list[str]:
        return [e.verb for e in self._entries]

    def get(self, verb: str) -> StageEntry:
        for entry in self._entries:
            if entry.verb == verb:
                return entry
        raise KeyError(verb)

    def add(self, entry: StageEntry, *, after: str | None = None) -> None:
        if entry.verb in self.verbs():
            raise ValueError(f"a stage named {entry.verb!r} is already registered")
        index = self.verbs().index(after) + 1 if after else len(self._entries)
        self._entries.insert(index, entry)

    def remove(self, verb: str) -> None:
        self._entries = [e for e in self._entries if e.verb != verb]

    @contextlib.contextmanager
    def registered(self, entry: StageEntry, *, after: str | None = None) -> Iterator[StageEntry]:
        """The registry with `entry` added, for as long as the block runs (tests, plugins)."""
        self.add(entry, after=after)
        try:
            yield entry
        finally:
            self.remove(entry.verb)


# fmt: off
STAGES = Registry([
    StageEntry("crawl", "cotbuilder.crawl.config:CrawlConfig", "cotbuilder.crawl.stage:CrawlStage"),
    StageEntry("apidocs", "cotbuilder.apidocs.config:ApiDocsConfig", "cotbuilder.apidocs.stage:ApiDocsStage"),
    StageEntry("verify", "cotbuilder.verify.config:VerifyConfig", "cotbuilder.verify.stage:VerifyStage", "cotbuilder.verify.status:status_section"),  # noqa: E501
    StageEntry("mutate", "cotbuilder.mutate.config:MutateConfig", "cotbuilder.mutate.stage:MutateStage"),
    StageEntry("synthesize", "cotbuilder.synthesize.config:SynthesizeConfig", "cotbuilder.synthesize.stage:SynthesizeStage"),  # noqa: E501
    StageEntry("annotate", "cotbuilder.annotate.config:AnnotateConfig", "cotbuilder.annotate.stage:AnnotateStage", "cotbuilder.annotate.status:status_section"),  # noqa: E501
    StageEntry("dedup", "cotbuilder.dedup.config:DedupConfig", "cotbuilder.dedup.stage:DedupStage"),
    StageEntry("decontaminate", "cotbuilder.decontam.config:DecontamConfig", "cotbuilder.decontam.stage:DecontamStage"),
    StageEntry("push", "cotbuilder.publish.config:PushConfig", "cotbuilder.publish.stage:PushStage"),
    StageEntry("eval", "cotbuilder.eval.config:EvalConfig", "cotbuilder.eval.stage:EvalStage"),
])
# fmt: on
