"""Config fields that are also command-line options, declared once on the stage's config dataclass.

    jobs: int = option(1, "--jobs", "-j", help="Units built and run in parallel.", min=1)

The field's default is the option's default, its type the option's type, and a recipe uses the same field name: the
CLI verb and the recipe table are both derived from the dataclass (see `stages/command.py`, `pipeline/recipe.py`).
A field declared with plain `field(...)` is a recipe-only setting. Rules for the few shapes that need one:
- a `bool` option with one flag is a switch that flips the default (`--no-cache` on `build_cache = True`);
  give `"--x/--no-x"` for both spellings;
- `parse` takes the option's text and returns the field's value (`--max-file-bytes 2MiB`); `show` formats the
  default for `--help` and must round-trip through `parse`;
- a `list[...]` field is a repeatable option.

This module is imported by `cotbuilder --help`: it must stay light (no typer at import, no stage code).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass
from typing import Any


@dataclass(frozen=True)
class CliOption:
    flags: tuple[str, ...]
    help: str
    parse: Callable[[str], Any] | None = None
    show: Callable[[Any], str] | None = None
    metavar: str | None = None
    min: float | None = None
    max: float | None = None
    type: Any = None  # the option's type when the field's is wider (e.g. list[str] for `list[str] | dict`)


def option(
    default: Any,
    *flags: str,
    help: str,
    factory: Callable[[], Any] | None = None,
    parse: Callable[[str], Any] | None = None,
    show: Callable[[Any], str] | None = None,
    metavar: str | None = None,
    min: float | None = None,
    max: float | None = None,
    type: Any = None,
) -> Any:
    """A dataclass field that is also the option `flags` of the stage's verb."""
    if not flags or not all(f.startswith("-") for f in flags):
        raise ValueError(f"option flags must start with '-': {flags!r}")
    meta = {"cli": CliOption(tuple(flags), help, parse, show, metavar, min, max, type)}
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def list_option(*flags: str, help: str, default: tuple[Any, ...] = (), **kwargs: Any) -> Any:
    """A repeatable option on a `list[...]` field (default: empty, or a copy of `default`)."""
    return option(None, *flags, help=help, factory=lambda: list(default), **kwargs)


@dataclass(frozen=True)
class OptionField:
    """One config field exposed as an option, with what the CLI needs to know about it."""

    name: str
    hint: Any  # the field's type
    default: Any
    cli: CliOption

    @property
    def is_switch(self) -> bool:
        return self.hint is bool and len(self.cli.flags) == 1 and "/" not in self.cli.flags[0]

    @property
    def is_list(self) -> bool:
        return typing.get_origin(self.cli_type) is list

    @property
    def cli_type(self) -> Any:
        """The type the option parses (before `parse`): str for parsed options, the field's type without None."""
        if self.cli.parse is not None:
            return str
        hint = self.cli.type or self.hint
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1:
            return args[0]
        return hint

    def shown_default(self) -> Any:
        """The default as `--help` shows it (and as the option receives it when not given)."""
        if self.is_switch:
            return False
        if self.cli.show is not None and self.default is not None:
            return self.cli.show(self.default)
        return self.default

    def to_field(self, value: Any) -> Any:
        """The option's value -> the field's value."""
        if self.is_switch:
            return (not self.default) if value else self.default
        if self.is_list and value is not None:
            value = list(value)
        if self.cli.parse is not None and isinstance(value, str):
            return self.cli.parse(value)
        return value


def default_of(f: dataclasses.Field) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    raise TypeError(f"config field {f.name} has no default: every setting of a stage needs one")


def option_fields(config_type: type) -> list[OptionField]:
    """The fields of a config dataclass that are CLI options, in declaration order."""
    hints = typing.get_type_hints(config_type)
    return [
        OptionField(f.name, hints[f.name], default_of(f), f.metadata["cli"])
        for f in dataclasses.fields(config_type)
        if "cli" in f.metadata
    ]
