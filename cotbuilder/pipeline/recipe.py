"""Pipeline recipes (TOML): which stages run, in which order, with which config.

A recipe has one table per registered stage, named like its CLI verb (`[crawl]`, `[verify]`, `[annotate]`, `[dedup]`,
`[decontaminate]`, `[push]`, and any stage added to the registry); its keys are the fields of that stage's config
dataclass. A stage without a table does not run; stages run in registry order. Strings starting with `./` or `../`
are paths relative to the recipe file; `{workspace}` expands to the workspace directory. `[pipeline]` holds the
recipe's name and description. A config field named `recipe` receives the recipe file's path (push ships it).

The same checks apply to a verb's `--config FILE` (see `config_from_table`).
"""

from __future__ import annotations

import dataclasses
import tomllib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..stages.registry import STAGES, Registry, StageEntry


class RecipeError(ValueError):
    """The recipe cannot be run as written; the message names the table and key."""


@dataclass
class StageStep:
    verb: str
    entry: StageEntry
    config: Any


@dataclass
class Recipe:
    path: Path
    name: str
    description: str
    steps: list[StageStep]
    text: str
    executors: dict[str, str] = dataclasses.field(default_factory=dict)  # verb -> "local" | "ray" (absent: local)
    ray_address: str | None = None

    def executor_kind(self, verb: str) -> str:
        return self.executors.get(verb, "local")


PIPELINE_KEYS = ("name", "description", "executor", "ray_address")


def _executors(meta: dict[str, Any], path: Path, verbs: list[str]) -> tuple[dict[str, str], str | None]:
    from ..stages.executors import EXECUTORS

    unknown = sorted(set(meta) - set(PIPELINE_KEYS))
    if unknown:
        raise RecipeError(
            f"{path}: [pipeline] has unknown key(s) {', '.join(unknown)}; known: {', '.join(PIPELINE_KEYS)}"
        )
    value = meta.get("executor", "local")
    if isinstance(value, str):
        if value not in EXECUTORS:
            raise RecipeError(f"{path}: [pipeline] executor must be one of {', '.join(EXECUTORS)}, not {value!r}")
        kinds = dict.fromkeys(verbs, value)
    elif isinstance(value, dict):
        strange = sorted(set(value) - set(verbs))
        if strange:
            raise RecipeError(
                f"{path}: [pipeline] executor names no stage {', '.join(strange)}; stages are {', '.join(verbs)}"
            )
        kinds = dict(value)
    else:
        raise RecipeError(f'{path}: [pipeline] executor must be "local", "ray" or a table {{verb = "ray"}}')
    for verb, kind in kinds.items():
        if kind not in EXECUTORS:
            raise RecipeError(
                f"{path}: [pipeline] executor for {verb} must be one of {', '.join(EXECUTORS)}, not {kind!r}"
            )
    address = meta.get("ray_address")
    if address is not None and not isinstance(address, str):
        raise RecipeError(f"{path}: [pipeline] ray_address must be a string")
    return kinds, address


def expand(value: Any, base: Path, workspace: Path | None) -> Any:
    """`./x` and `../x` relative to `base`; `{workspace}` is the workspace."""
    if isinstance(value, str):
        if workspace is not None:
            value = value.replace("{workspace}", str(workspace))
        if value.startswith(("./", "../")):
            return str((base / value).resolve())
        return value
    if isinstance(value, list):
        return [expand(v, base, workspace) for v in value]
    if isinstance(value, dict):
        return {k: expand(v, base, workspace) for k, v in value.items()}
    return value


def _fits(value: Any, hint: Any) -> bool:
    """Does a TOML value fit a config field's type hint (str, int, float, bool, list[...], dict[...], X | None)?"""
    origin = typing.get_origin(hint)
    if hint is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if origin is list:
        (item,) = typing.get_args(hint) or (Any,)
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if origin is dict:
        return isinstance(value, dict)
    if hint is float:  # TOML writes 2 for 2.0
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint) if isinstance(hint, type) else True


def _type_name(hint: Any) -> str:
    if typing.get_origin(hint) is None and hasattr(hint, "__name__"):
        return hint.__name__
    return str(hint).replace("typing.", "")


def config_from_table(entry: StageEntry, table: dict[str, Any]) -> Any:
    """The stage's config from a table of field values: unknown keys and values of the wrong type are refused."""
    cls = entry.config_type()
    verb = entry.verb
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(table) - known)
    if unknown:
        raise RecipeError(f"[{verb}] has unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    hints = typing.get_type_hints(cls)
    for key, value in table.items():
        if not _fits(value, hints.get(key, Any)):
            raise RecipeError(f"[{verb}] {key} must be {_type_name(hints[key])}, not {value!r}")
    try:
        return cls(**table)
    except (TypeError, ValueError) as exc:
        raise RecipeError(f"[{verb}]: {exc}") from exc


def build_config(verb: str, table: dict[str, Any], registry: Registry = STAGES) -> Any:
    return config_from_table(registry.get(verb), table)


def read_toml(path: Path, what: str = "recipe") -> dict[str, Any]:
    path = Path(path)
    if not path.is_file():
        raise RecipeError(f"no {what} at {path}")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"{path} is not valid TOML: {exc}") from exc


def load_recipe(path: Path, workspace: Path, registry: Registry = STAGES) -> Recipe:
    path = Path(path)
    data = read_toml(path)
    text = path.read_text(encoding="utf-8")
    meta = data.pop("pipeline", {})
    verbs = registry.verbs()
    unknown = sorted(set(data) - set(verbs))
    if unknown:
        raise RecipeError(f"{path}: unknown table(s) {', '.join(unknown)}; stages are {', '.join(verbs)}")
    steps = []
    for entry in registry:
        if entry.verb in data:
            table = expand(data[entry.verb], path.parent.resolve(), workspace)
            if "recipe" in {f.name for f in dataclasses.fields(entry.config_type())}:
                table.setdefault("recipe", str(path.resolve()))
            steps.append(StageStep(entry.verb, entry, config_from_table(entry, table)))
    if not steps:
        raise RecipeError(f"{path} names no stage")
    executors, ray_address = _executors(meta, path, verbs)
    return Recipe(path, meta.get("name", path.stem), meta.get("description", ""), steps, text, executors, ray_address)
