"""A stage's CLI verb, declared from its registry entry: the options are the config dataclass's option fields (same
names, defaults, types and help), the help text is the config class's docstring, and every verb also takes
`--config FILE` (a TOML file with the verb's table, as in a recipe; options given on the command line win).

Only the declaration lives here (it is built for `cotbuilder --help`, so it imports typer and the light config module,
nothing else); running the verb is `stages/verb.py`, imported when the verb runs.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import typer

from .options import OptionField, option_fields
from .registry import StageEntry

CONFIG_FILE = "config_file"


def _parameter(field: OptionField) -> inspect.Parameter:
    cli = field.cli
    default = field.shown_default()
    if field.is_list and not default:
        default = None
    extra: dict[str, Any] = {}
    if cli.min is not None:
        extra["min"] = cli.min
    if cli.max is not None:
        extra["max"] = cli.max
    if cli.metavar:
        extra["metavar"] = cli.metavar
    annotation = bool if field.is_switch else field.cli_type
    if default is None or field.is_list:
        annotation = annotation | None
    return inspect.Parameter(
        field.name,
        inspect.Parameter.KEYWORD_ONLY,
        default=typer.Option(default, *cli.flags, help=cli.help, show_default=default is not None, **extra),
        annotation=annotation,
    )


def stage_command(entry: StageEntry) -> Any:
    """The typer command function of a registered stage."""
    fields = option_fields(entry.config_type())
    if any(f.name == CONFIG_FILE for f in fields):
        raise TypeError(f"{entry.verb}: a config field may not be named {CONFIG_FILE!r} (it is the --config option)")

    def command(ctx: typer.Context, **values: Any) -> None:
        from .verb import run_verb

        run_verb(ctx, entry, fields, values)

    params = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)]
    params += [_parameter(f) for f in fields]
    params.append(
        inspect.Parameter(
            CONFIG_FILE,
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(
                None,
                "--config",
                help=f"TOML file with a [{entry.verb}] table (or just its keys), as in a pipeline recipe; "
                "options given here win.",
                show_default=False,
            ),
            annotation=Path | None,
        )
    )
    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__name__ = entry.verb
    command.__doc__ = entry.help()
    return command
