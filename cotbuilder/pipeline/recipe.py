"""Pipeline recipes (TOML): which stages run, in which order, with which config.

A recipe has one table per stage, named like the CLI verb (`[crawl]`, `[annotate]`, `[verify]`, `[dedup]`,
`[decontaminate]`, `[push]`); its keys are the fields of that stage's config dataclass. A stage without a table does
not run. Strings starting with `./` or `../` are paths relative to the recipe file; `{workspace}` expands to the
workspace directory. `[pipeline]` holds the recipe's name and description.
"""

from __future__ import annotations

import dataclasses
import importlib
import tomllib
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# verb -> (stage module, config class). Order is the order stages run in. verify runs before annotate (DESIGN draws
# them side by side): a teacher's tokens are not spent guessing about kernels that do not build, and the teacher's
# prompt can cite what the verifier measured; `annotate --repair` needs verification results too.
STAGES: dict[str, tuple[str, str]] = {
    "crawl": ("cotbuilder.crawl.stage", "CrawlConfig"),
    "verify": ("cotbuilder.verify.stage", "VerifyConfig"),
    "annotate": ("cotbuilder.annotate.stage", "AnnotateConfig"),
    "dedup": ("cotbuilder.dedup.stage", "DedupConfig"),
    "decontaminate": ("cotbuilder.decontam.stage", "DecontamConfig"),
    "push": ("cotbuilder.publish.stage", "PushConfig"),
}


class RecipeError(ValueError):
    """The recipe cannot be run as written; the message names the table and key."""


@dataclass
class StageStep:
    verb: str
    module: Any
    config: Any


@dataclass
class Recipe:
    path: Path
    name: str
    description: str
    steps: list[StageStep]
    text: str


def _expand(value: Any, base: Path, workspace: Path) -> Any:
    if isinstance(value, str):
        value = value.replace("{workspace}", str(workspace))
        if value.startswith(("./", "../")):
            return str((base / value).resolve())
        return value
    if isinstance(value, list):
        return [_expand(v, base, workspace) for v in value]
    if isinstance(value, dict):
        return {k: _expand(v, base, workspace) for k, v in value.items()}
    return value


def _config_class(verb: str) -> tuple[Any, Any]:
    module_name, class_name = STAGES[verb]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise RecipeError(f"[{verb}]: this stage is not built yet ({module_name} is missing)") from exc
    return module, getattr(module, class_name)


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


def build_config(verb: str, table: dict[str, Any]) -> tuple[Any, Any]:
    module, cls = _config_class(verb)
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(table) - known)
    if unknown:
        raise RecipeError(f"[{verb}] has unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    hints = typing.get_type_hints(cls)
    for key, value in table.items():
        if not _fits(value, hints.get(key, Any)):
            raise RecipeError(f"[{verb}] {key} must be {_type_name(hints[key])}, not {value!r}")
    try:
        return module, cls(**table)
    except (TypeError, ValueError) as exc:
        raise RecipeError(f"[{verb}]: {exc}") from exc


def load_recipe(path: Path, workspace: Path) -> Recipe:
    path = Path(path)
    if not path.is_file():
        raise RecipeError(f"no recipe at {path}")
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RecipeError(f"{path} is not valid TOML: {exc}") from exc
    meta = data.pop("pipeline", {})
    unknown = sorted(set(data) - set(STAGES))
    if unknown:
        raise RecipeError(f"{path}: unknown table(s) {', '.join(unknown)}; stages are {', '.join(STAGES)}")
    steps = []
    for verb in STAGES:
        if verb in data:
            table = _expand(data[verb], path.parent.resolve(), workspace)
            if verb == "push":
                table.setdefault("recipe", str(path.resolve()))
            module, config = build_config(verb, table)
            steps.append(StageStep(verb, module, config))
    if not steps:
        raise RecipeError(f"{path} names no stage")
    return Recipe(path, meta.get("name", path.stem), meta.get("description", ""), steps, text)
